"""One reply, read in the run's scoring mode.

*Strict* mode reads what chat models write (``strict_letters``, ``strict_verdicts``) after removing
reasoning blocks and markdown (``reply_text``), and never guesses. *Reference-compatible* mode runs the
published scripts' extractor, unchanged, so that numbers compare with the papers. Either way the
result is a :class:`~medprobe.parsing.reading.Reading` that says which rule family read the reply.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from medprobe.parsing.base import EMPTY_REPLY, Parsed, ParseResult, Revision
from medprobe.parsing.formats import FORMATS
from medprobe.parsing.opposite_claims import says_the_opposite
from medprobe.parsing.question_rules import (
    completes_stem,
    denies_statement,
    explained_as_another,
    named_by_question,
    names_as_asked,
)
from medprobe.parsing.reading import (
    CONFLICT,
    DIFFERENT,
    JSON,
    JUDGE,
    NO_REPLY,
    OTHER_QUESTION,
    REFERENCE,
    UNPARSED,
    Reading,
)
from medprobe.parsing.reply_text import (
    cut_at_new_question,
    normalise,
    quote_our_statement,
    restated_question,
    restatements,
    strip_reasoning,
    undecorated,
)
from medprobe.parsing.strict_exact import exact_answer
from medprobe.parsing.strict_letters import CJK, NO_OPTION_FOUND, STANDALONE_LETTER
from medprobe.parsing.structured import answer_fields, reasoning_fields
from medprobe.records import AnswerFormat, Response

#: responses of the extraction judge (``medprobe.engine.extraction``) carry the probe id plus this
JUDGED_SUFFIX = "/extract"


_CONCLUSION = re.compile(r"(?i:\b(?:therefore|thus|hence|so|in\s+conclusion|in\s+summary|overall)\b)|因此|所以|综上|总之")


def conclusion(chain: str) -> str:
    """A reasoning chain's conclusion: the text from its last "Therefore" / "因此" on (the whole chain
    when it has none). The reasoning before it weighs every option; only the conclusion answers. A
    chain written as JSON is kept whole: its answer field is its conclusion, wherever "therefore" stands."""
    if answer_fields(chain) is not None:
        return chain
    found = list(_CONCLUSION.finditer(chain))
    return chain[found[-1].start() :] if found else chain


def question_of(prompt: str) -> str:
    """A probe's own question: its prompt after the last solved example (examples end with a blank line)."""
    return prompt.rsplit("\n\n", 1)[-1].strip()


def read_strict(reply: str | None, fmt: AnswerFormat, question: str | None = None) -> Reading:
    """A chat reply -> its answer under the strict rules for ``fmt.kind``. With the ``question`` asked,
    a reply that answers a question of its own instead is unparsed, and an MCQ reply in which no rule found an
    answer may still complete our stem with an option's text or name one option alone, and a "true" that the reply's
    explanation denies (``question_rules``) or turns into its opposite (``opposite_claims``) is unread."""
    if reply is None:
        return Reading(None, NO_REPLY, "the request failed")
    exact = exact_answer(reply, fmt)
    if exact is not None:
        return exact
    cleaned = strip_reasoning(reply)
    if cleaned.unfinished:
        return Reading(None, UNPARSED, "the reasoning block never ends")
    undone = undecorated(cleaned.text)
    text = cut_at_new_question(undone).strip()
    if question is not None:
        echoed = restatements(undone.strip(), question)
        if echoed is not None:
            return _agreed(echoed, fmt)
        text, ours = restated_question(text, question)
        if not ours:
            return Reading(None, UNPARSED, f"{OTHER_QUESTION}: answers a question of its own")
        if fmt.kind == "true_false":
            text = quote_our_statement(text, question)
    if not text:
        return Reading(None, UNPARSED, EMPTY_REPLY)
    fields = answer_fields(text)
    if fields is not None:
        return _read_fields(fields, fmt, reasoning_fields(text))
    reading = _read_rules(text, fmt, question)
    if question is not None and fmt.kind == "option_letter" and reading.reason == NO_OPTION_FOUND:
        return named_by_question(text, fmt.option_texts, question) or reading
    if question is not None and fmt.kind == "option_letter" and reading.read:
        completed = completes_stem(text.lower(), fmt.option_texts, question, with_subject=True)  # "答案是A。吗啡禁用于支气管哮喘"
        if completed is not None and completed.value != reading.value:
            return Reading(None, UNPARSED, f"{CONFLICT}: {reading.value}, yet the reply completes our stem with {completed.value}")
        named = names_as_asked(text, fmt.option_texts, question)  # "选B。<text of C>可以鉴别…，是最有意义的检查"
        if named is not None and named != reading.value:
            return Reading(None, UNPARSED, f"{CONFLICT}: {reading.value}, yet the reply calls {named} what our question asks for")
        explained = explained_as_another(text, fmt.option_texts, question)  # "答案：A。<text of B>是原发性肝癌最常用的标志物"
        if explained is not None and explained != reading.value:
            return Reading(None, UNPARSED, f"{CONFLICT}: {reading.value}, yet its explanation answers our question with {explained}")
    if question is not None and fmt.kind == "true_false" and reading.value is True:
        return denies_statement(text, question) or says_the_opposite(text, question) or reading
    return reading


def _agreed(answers: list[str], fmt: AnswerFormat) -> Reading:
    """A reply that writes out our question, maybe several times: its answer is the one every answered restatement
    gives (a copy left blank, as a model looping on the prompt leaves most, gives none and says nothing against it).
    One answered in words that cannot be read, two that differ, or none answered commit to nothing."""
    answered = [answer for answer in answers if answer.strip()]
    if not answered:
        return Reading(None, UNPARSED, f"{EMPTY_REPLY} (our question, restated)")
    readings = [read_strict(answer, fmt) for answer in answered]
    unread = next((r for r in readings if not r.read), None)
    if unread is not None:
        return Reading(None, UNPARSED, f"{unread.reason} (our question, restated)")
    if len({json_key(r.value) for r in readings}) > 1:
        return Reading(None, UNPARSED, f"{DIFFERENT} to our question, restated")
    return readings[0]


#: words (or, in Chinese, characters / 3) beyond which an answer field beside other answer fields may be an explanation
_LONGEST_ANSWER_FIELD = 8


def _explains(field: str, reading: Reading, fmt: AnswerFormat) -> bool:
    """Whether a long answer field beside others explains rather than answers: the rules read an answer in it
    (``reading``), or find none at all (a field that hedges, names several options or says it depends stays an answer
    field: no answer)."""
    if max(len(field.split()), len(field) // 3 if CJK.search(field) else 0) <= _LONGEST_ANSWER_FIELD:
        return False
    names_letters = bool(fmt.options) and STANDALONE_LETTER.search(field) is not None  # "Both B and D fit …"
    return reading.read or (reading.reason.startswith("no ") and not names_letters)


def _read_fields(fields: list[str], fmt: AnswerFormat, reasoning: Sequence[str] = ()) -> Reading:
    """A JSON reply: every answer field read by the rules; they must give one answer (family ``json``). A
    revision's verdict and letter often stand in two fields ({"verdict": "incorrect", "answer": "C"}):
    they are read together. A reasoning field is no answer, but one that the rules read as another answer
    ("… so the statement is false." beside "answer": "True") contradicts the answer field."""
    if FORMATS[fmt.kind].fields_together:
        fields = [". ".join(fields)]
    read = {field: _read_rules(normalise(field), fmt) if field.strip() else Reading(None, UNPARSED, EMPTY_REPLY) for field in {*fields, *reasoning}}
    if len(fields) > 1:  # {"statement_evaluation": "<an explanation>", "answer": "false"}: the explanation is reasoning
        explained = [field for field in fields if _explains(field, read[field], fmt)]
        fields, reasoning = [field for field in fields if field not in explained] or fields, [*reasoning, *explained]
    readings = [read[field] for field in fields]
    unread = next((r for r in readings if not r.read), None)
    if not readings or unread is not None:
        return Reading(None, UNPARSED, (unread.reason if unread else "not text") + " (JSON answer field)")
    values = {json_key(r.value) for r in readings}
    if len(values) > 1:
        return Reading(None, UNPARSED, f"{DIFFERENT} in the JSON answer fields")
    for field in reasoning:
        said = read[field]
        if said.read and json_key(said.value) not in values:
            return Reading(None, UNPARSED, f"{DIFFERENT}: the JSON answer field and its reasoning field")
    return Reading(readings[0].value, JSON)


def json_key(value: Any) -> str:
    """A read answer as comparable text (revisions and letter sets included)."""
    return repr(jsonable(value))


def _read_rules(text: str, fmt: AnswerFormat, question: str | None = None) -> Reading:
    """A cleaned reply read by the strict rule of its answer format (with our question, where known)."""
    rule = FORMATS[fmt.kind].rule
    if rule is None:
        raise ValueError(f"strict reading has no rules for answer format {fmt.kind!r}")
    return rule(text, fmt, question)


def read_reference(reply: str | None, extract: Callable[[str], ParseResult[Any]]) -> Reading:
    """A reply -> what the published script's extractor returns (``reference`` or ``unparsed``)."""
    if reply is None:
        return Reading(None, NO_REPLY, "the request failed")
    result = extract(reply)
    return Reading(result.value, REFERENCE) if isinstance(result, Parsed) else Reading(None, UNPARSED, result.reason)


def jsonable(value: Any) -> Any:
    """A read answer in its JSON form: a revision as ``[verdict, letter]``, a letter set as a sorted list."""
    if isinstance(value, Revision):
        return [value.judge, value.option]
    if isinstance(value, frozenset | set):
        return sorted(value)
    return value


def judged_id(probe_id: str) -> str:
    """The probe id under which the extraction judge's reading of a reply to ``probe_id`` is stored."""
    return probe_id + JUDGED_SUFFIX


def with_judge(reading: Reading, fmt: AnswerFormat, judgement: Response | None) -> Reading:
    """An unparsed strict reading completed by the judge's answer, when there is one."""
    if reading.read or judgement is None or judgement.error is not None:
        return reading
    judged = read_strict(judgement.text, fmt)
    if judged.read and judgement.text.strip().strip(".").upper() != "NONE":
        return Reading(judged.value, JUDGE)
    return Reading(None, UNPARSED, f"{reading.reason}; the judge found no answer either")
