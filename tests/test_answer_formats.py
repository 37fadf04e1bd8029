"""The answer formats come from one table: the records accept its kinds and no other, strict reading
and the extraction judge cover exactly the formats that have a strict rule, and what the judge is told
to write is what that rule reads."""

from __future__ import annotations

from typing import get_args

import pytest
from pydantic import ValidationError

from medprobe.engine.extraction import extraction_prompt, readable
from medprobe.parsing.answers import read_strict
from medprobe.parsing.base import Revision
from medprobe.parsing.formats import FORMATS, KINDS, STRICT_KINDS, FormatSpec
from medprobe.parsing.reading import BARE, Reading
from medprobe.records import AnswerFormat, AnswerKind, Probe

OPTIONS = {"A": "asthma", "B": "bronchitis", "C": "croup"}
#: per strict format: a reply written as its judge instruction asks, and what the strict rule reads in it
JUDGE_STYLE = {
    "option_letter": ("C", "C"),
    "letter_set": ("A, C", frozenset({"A", "C"})),
    "true_false": ("false", False),
    "verdict_letter": ("incorrect, the correct answer is C", Revision(False, "C")),
    "yes_no": ("yes", True),
}


def answer_format(kind: str) -> AnswerFormat:
    return AnswerFormat(kind=kind, options=list(OPTIONS), option_texts=OPTIONS, given="B")  # type: ignore[arg-type]


def probe(kind: str) -> Probe:
    return Probe(id="p", method="m", knowledge_point="k", facet="f", prompt="Which one?", answer_format=answer_format(kind))


def test_the_records_take_the_table_s_kinds_in_its_order_and_no_other() -> None:
    assert get_args(AnswerKind) == KINDS == tuple(FORMATS)
    with pytest.raises(ValidationError):
        AnswerFormat(kind="essay")  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", STRICT_KINDS)
def test_the_strict_rule_reads_what_the_judge_is_told_to_write(kind: str) -> None:
    reply, value = JUDGE_STYLE[kind]
    reading = read_strict(reply, answer_format(kind))
    assert reading.read and reading.value == value
    assert FORMATS[kind].judge_ask is not None
    assert FORMATS[kind].judge_ask.format(given="B") in extraction_prompt(probe(kind), reply)


def test_the_strict_formats_are_those_with_a_rule() -> None:
    assert set(STRICT_KINDS) == set(JUDGE_STYLE)
    assert [p.answer_format.kind for p in readable([probe(kind) for kind in KINDS])] == list(STRICT_KINDS)


@pytest.mark.parametrize("kind", [kind for kind in KINDS if kind not in STRICT_KINDS])
def test_a_format_its_method_reads_is_refused_by_strict_reading_and_the_judge(kind: str) -> None:
    with pytest.raises(ValueError, match="no rules"):
        read_strict("correct", answer_format(kind))
    with pytest.raises(ValueError, match="does not read"):
        extraction_prompt(probe(kind), "correct")


def test_a_strict_rule_comes_with_a_judge_instruction() -> None:
    def rule(text: str, fmt: AnswerFormat) -> Reading:
        return Reading(text, BARE)

    with pytest.raises(ValueError, match="go together"):
        FormatSpec("essay", "a paragraph", rule)
    with pytest.raises(ValueError, match="go together"):
        FormatSpec("essay", "a paragraph", judge_ask="Write the essay's first word.")
