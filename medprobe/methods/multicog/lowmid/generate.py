"""Mid-level material for raw MCQs, written by a generator model the user names (paper Appendix A.2).

Statement validation (SV) needs two statements per MCQ, one built from the right option and one from a
wrong option (drawn with the run seed); answer existence (AE) needs a distractor that replaces the right
option. The paper had GPT-4o write both; here any model id medprobe knows can, through the same runner
and response cache as an evaluation, so building twice asks the generator once.

The prompts follow Appendix A.2's structure in our own words: SV gives the question, options, correct
answer and given option, two solved examples, and asks for "Statement: …" and "Label: True/False"; AE
gives the question, options and correct option and asks for the distractor alone. Replies are checked:
a statement whose label disagrees with the answer key, or a distractor that is empty or repeats an option,
is a failure, and an item without both statements (SV) or a distractor (AE) is left out of that task.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from medprobe.engine.services import ask_all
from medprobe.errors import MedprobeError
from medprobe.methods.multicog.lowmid.raw_mcq import RawMCQ
from medprobe.models import make_backend
from medprobe.parsing.base import Parsed, ParseResult, Unparsed
from medprobe.records import AnswerFormat, GenerationParams, Message, Request, Response
from medprobe.seeding import item_rng

SV_PARAMS = GenerationParams(temperature=0.0, max_tokens=512)
AE_PARAMS = GenerationParams(temperature=0.0, max_tokens=64)

SV_PROMPT = """You are a medical expert. Below is a multiple-choice question with its correct answer and one given option. Rewrite the question as one declarative statement which says that the given option is the answer, keeping the details of the question that the statement needs. Then label the statement True if the given option is the correct answer and False otherwise.

Example 1
Input
Question: Which vitamin deficiency causes scurvy?
Options: A: Vitamin A\tB: Vitamin C\tC: Vitamin D\tD: Vitamin K
Correct answer: B
Given option: D
Output
Statement: Scurvy is caused by a deficiency of vitamin K.
Label: False

Example 2
Input
Question: A 3-year-old girl has had a barking cough and inspiratory stridor for two days. Which pathogen most likely causes her illness?
Options: A: Respiratory syncytial virus\tB: Parainfluenza virus\tC: Streptococcus pneumoniae\tD: Adenovirus
Correct answer: B
Given option: B
Output
Statement: A 3-year-old girl has had a barking cough and inspiratory stridor for two days; her illness is most likely caused by parainfluenza virus.
Label: True

Test
Input
{mcq}
Correct answer: {gold}
Given option: {given}
Output
"""

AE_PROMPT = """Below is a medical multiple-choice question and its correct option. To make the question harder, write one misleading distractor for the correct option: a plausible answer of the same kind which is nevertheless wrong for this question. Reply with the distractor only, with no option letter and no explanation.

{mcq}
Correct option: {gold}: {gold_text}
Distractor:"""

_STATEMENT = re.compile(r"Statement:\s*(.+?)\s*Label:\s*(true|false)\b", re.IGNORECASE | re.DOTALL)
_DISTRACTOR_LABEL = re.compile(r"^(?:distractor:\s*)?[\"'“‘*`]*(?:\(?[A-E][:.)]\s+)?", re.IGNORECASE)
_QUOTES = "\"'“”‘’*` "
MAX_DISTRACTOR_CHARS = 200
NO_REPLY = "no reply"


@dataclass
class Generated:
    """What the generator wrote: item id -> (true statement, false statement), item id -> distractor."""

    statements: dict[int, tuple[str, str]] = field(default_factory=dict)
    distractors: dict[int, str] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)


def false_option(mcq: RawMCQ, seed: int, dataset: str) -> str:
    """The wrong option the false statement is built from (seeded per item)."""
    return item_rng(seed, "sv-wrong", dataset, str(mcq.id)).choice(mcq.others())


def _request(request_id: str, prompt: str, params: GenerationParams) -> Request:
    """A chat request for the generator model."""
    return Request(
        id=f"{request_id}#0", probe_id=request_id, messages=[Message(role="user", content=prompt)], params=params,
        answer_format=AnswerFormat(kind="free_text"),
    )


def requests_for(mcq: RawMCQ, dataset: str, seed: int) -> dict[str, Request]:
    """The three generator requests of one MCQ, keyed "sv-true", "sv-false", "ae"."""
    base = f"generate/{dataset}/{mcq.id}"
    wrong = false_option(mcq, seed, dataset)
    return {
        "sv-true": _request(f"{base}/sv-true", SV_PROMPT.format(mcq=mcq.text, gold=mcq.gold, given=mcq.gold), SV_PARAMS),
        "sv-false": _request(f"{base}/sv-false", SV_PROMPT.format(mcq=mcq.text, gold=mcq.gold, given=wrong), SV_PARAMS),
        "ae": _request(f"{base}/ae", AE_PROMPT.format(mcq=mcq.text, gold=mcq.gold, gold_text=mcq.options[mcq.gold]), AE_PARAMS),
    }


def parse_statement(reply: str | None, expected: bool) -> ParseResult[str]:
    """The statement of a "Statement: … Label: …" reply whose label agrees with the answer key.
    Whitespace is collapsed so that a statement never contains the blank line that separates demos."""
    if reply is None:
        return Unparsed(NO_REPLY)
    match = _STATEMENT.search(reply)
    if match is None:
        return Unparsed("no 'Statement: … Label: …'")
    if (match.group(2).lower() == "true") != expected:
        return Unparsed("label disagrees with the answer key")
    statement = " ".join(match.group(1).strip(_QUOTES).split())
    return Parsed(statement) if statement else Unparsed("empty statement")


def parse_distractor(reply: str | None, options: dict[str, str]) -> ParseResult[str]:
    """The distractor on the first non-empty line, without a "Distractor:" or letter label, quotes or
    markdown; unusable when empty, too long or the text of one of the options."""
    if reply is None:
        return Unparsed(NO_REPLY)
    line = next((ln for ln in reply.splitlines() if ln.strip()), "")
    text = _DISTRACTOR_LABEL.sub("", line.strip()).strip(_QUOTES)
    if not text:
        return Unparsed("empty distractor")
    if len(text) > MAX_DISTRACTOR_CHARS:
        return Unparsed("distractor too long")
    if text.casefold() in {o.strip().casefold() for o in options.values()}:
        return Unparsed("distractor repeats an option")
    return Parsed(text)


def generate_mid(mcqs: list[RawMCQ], *, dataset: str, generator: str, seed: int) -> Generated:
    """Ask ``generator`` for the SV statements and AE distractors of ``mcqs`` (cached like any run)."""
    asks = {mcq.id: requests_for(mcq, dataset, seed) for mcq in mcqs}
    replies, provenance = _ask(generator, [r for per_item in asks.values() for r in per_item.values()])
    generated = Generated()
    failures: Counter[str] = Counter()
    for mcq in mcqs:
        text = {key: _reply_text(replies.get(request.probe_id)) for key, request in asks[mcq.id].items()}
        true, false = parse_statement(text["sv-true"], True), parse_statement(text["sv-false"], False)
        if isinstance(true, Parsed) and isinstance(false, Parsed):
            generated.statements[mcq.id] = (true.value, false.value)
        failures.update(f"SV: {result.reason}" for result in (true, false) if isinstance(result, Unparsed))
        distractor = parse_distractor(text["ae"], mcq.options)
        if isinstance(distractor, Parsed):
            generated.distractors[mcq.id] = distractor.value
        else:
            failures[f"AE: {distractor.reason}"] += 1
    generated.info = {
        **provenance,
        "generated": {"SV": len(generated.statements), "AE": len(generated.distractors)},
        "failed": {"SV": len(mcqs) - len(generated.statements), "AE": len(mcqs) - len(generated.distractors)},
        "failures": dict(sorted(failures.items())),
    }
    return generated


def _reply_text(response: Response | None) -> str | None:
    return None if response is None or response.error is not None else response.text


def _ask(generator: str, requests: list[Request]) -> tuple[dict[str, Response], dict[str, Any]]:
    """Responses by request (probe) id, and the generator's identity with the request counts."""
    if generator.partition(":")[0] == "random":
        raise MedprobeError(
            f"the generator model '{generator}' failed: the random model cannot write statements or distractors",
            field="generator", hint="name a real model, e.g. -X generator=openai:MODEL@URL",
        )
    backend = make_backend(generator)
    responses: dict[str, Response] = {}
    try:
        stats = ask_all(backend, requests, lambda r: responses.__setitem__(r.probe_id, r), progress=sys.stderr.isatty())
    except MedprobeError as exc:
        raise MedprobeError(f"the generator model '{generator}' failed: {exc.message}", field="generator", hint=exc.hint) from None
    provenance = {
        "generator": {"model": generator, "identity": backend.identity()},
        "requests": {"total": stats.total, "from_cache": stats.from_cache, "sent": stats.sent, "errors": stats.errors},
    }
    return responses, provenance
