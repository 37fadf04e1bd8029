"""The extraction judge (``-X extractor=judge:MODEL``): a second model reads the replies no rule reads.

Only replies that strict reading leaves unparsed are sent, each with the question (without its solved
examples), the reply, and a fixed instruction asking for the answer the reply gave — in the canonical
form the strict rules read ("C", "A, C", "true", "yes", "incorrect, the correct answer is C") — or NONE.
The judge is told not to answer the question itself, and to apply the strict reader's refusals: no
answer from options weighed while reasoning, both verdicts, several options, none-of-the-above, or a
letter given with another option's text. Its requests go through the engine like any
other (cache, resume, the run's responses.jsonl, under the probe id ``<probe>/extract``), so a re-run
asks nothing twice and a re-score reads the same judgements. Readings it supplies are counted apart
(family ``judge``) in every report.
"""

from __future__ import annotations

from typing import Any

from medprobe.errors import MedprobeError
from medprobe.models import make_backend
from medprobe.parsing.answers import JUDGED_SUFFIX, judged_id, question_of, read_strict
from medprobe.parsing.formats import FORMATS, STRICT_KINDS
from medprobe.records import AnswerFormat, GenerationParams, Message, Probe, Request, Response, request_id

PREFIX = "judge:"
PARAMS = GenerationParams(temperature=0.0, max_tokens=24)

_TEMPLATE = (
    "You read another model's reply to a test question and report which answer the reply gave. Do not "
    "answer the question yourself, and do not judge whether the reply is right.\n\n"
    "Question:\n{question}\n\nReply:\n<<<\n{reply}\n>>>\n\n{ask} The answer is what the reply finally commits "
    "to; options or verdicts it weighs while reasoning, and answers to other questions, are not its answer. Write NONE "
    "if the reply gives no answer, gives several different answers or both verdicts, says that none of the options is "
    "right, names a letter together with the text of another option, or is unsure."
)


def judge_model(options: dict[str, str]) -> str | None:
    """The judge's model id from ``-X extractor=judge:MODEL`` (None when not asked for)."""
    value = options.get("extractor", "")
    if not value.startswith(PREFIX):
        return None
    model = value.removeprefix(PREFIX)
    if not model:
        raise MedprobeError("the extraction judge needs a model", field="-X extractor", hint="e.g. -X extractor=judge:openai:gpt-4o-mini@https://api.openai.com/v1")
    return model


def extraction_prompt(probe: Probe, reply: str) -> str:
    """The judge's request about one reply (formats strict rules read only: see ``readable``)."""
    return judge_prompt(question_of(probe.prompt), reply, probe.answer_format)


def judge_prompt(question: str, reply: str, fmt: AnswerFormat) -> str:
    """The judge's request about one reply to ``question`` (the probe's own question, no solved examples)."""
    ask = FORMATS[fmt.kind].judge_ask
    if ask is None:
        raise ValueError(f"the extraction judge does not read answer format {fmt.kind!r}")
    return _TEMPLATE.format(question=question, reply=reply.strip(), ask=ask.format(given=fmt.given))


def check(method: str, probes: list[Probe], *, reference_compatible: bool) -> None:
    """The judge completes strict reading of option and verdict answers; refuse it where it cannot."""
    if reference_compatible:
        raise MedprobeError(
            "the extraction judge completes strict reading; reference-compatible mode keeps the published extractors",
            field="-X extractor", hint="drop --reference-compatible or the judge",
        )
    if not readable(probes):
        raise MedprobeError(
            f"{method} has no option or verdict answers for the extraction judge to read",
            field="-X extractor",
            hint="the judge reads MultifacetEval and MultiCogEval low/mid answers; SDAK measures whether the verdict comes first",
        )


async def ask_judge(session: Any, model: str, responses: dict[str, Response]) -> None:
    """Ask the judge about every reply no strict rule reads (``session`` is the run's engine session)."""
    requests = pending(session.probe_set.probes, responses)
    if not requests:
        return
    backend = make_backend(model, seed=session.plan.build.seed)
    try:
        await session.ask(requests, backend=backend)
    finally:
        await backend.aclose()


def readable(probes: list[Probe]) -> list[Probe]:
    """The probes whose answers the strict rules (and so the judge) read."""
    return [p for p in probes if p.answer_format.kind in STRICT_KINDS]


def pending(probes: list[Probe], responses: dict[str, Response]) -> list[Request]:
    """Judge requests for every reply that strict reading leaves unparsed (failed requests excluded:
    there is no reply to read)."""
    requests = []
    by_probe: dict[str, list[Response]] = {}
    for response in responses.values():
        by_probe.setdefault(response.probe_id, []).append(response)
    for probe in readable(probes):
        for response in by_probe.get(probe.id, []):
            if response.error is not None or read_strict(response.text, probe.answer_format, question_of(probe.prompt)).read:
                continue
            requests.append(
                Request(
                    id=request_id(judged_id(probe.id), response.sample), probe_id=judged_id(probe.id), sample=response.sample,
                    messages=[Message(role="user", content=extraction_prompt(probe, response.text))], params=PARAMS,
                )
            )
    return requests


def judgement_records(responses: list[Response]) -> list[dict[str, Any]]:
    """judge.jsonl: each judged reply beside the judge's answer, for a reader to check."""
    replies = {(r.probe_id, r.sample): r for r in responses}
    records = []
    for judgement in responses:
        key = (judgement.probe_id.removesuffix(JUDGED_SUFFIX), judgement.sample)
        if judgement.probe_id.endswith(JUDGED_SUFFIX) and key in replies:
            records.append({"probe_id": key[0], "sample": key[1], "reply": replies[key].text,
                            "judge": judgement.text, "error": judgement.error})
    return records
