"""Why replies stay unread is tallied, not only how many: the report's "How answers were read" gets one
column per reason (both verdicts, several options, letter and text disagree, none of the options, other
questions) beside the rule families that read replies (json and final statement among them)."""

from __future__ import annotations

import pytest

from medprobe.methods.multicog.lowmid.score import judge
from medprobe.parsing.answers import read_strict
from medprobe.parsing.reading import JSON, UNPARSED, Reading, not_read, unread_family
from medprobe.records import AnswerFormat, Probe
from medprobe.report.markdown import reading_section

TEXTS = {"A": "Fever", "B": "Riboflavin", "C": "Cholesterol embolization", "D": "Dabigatran"}
MCQ = AnswerFormat(kind="option_letter", options=list(TEXTS), option_texts=TEXTS)
TF = AnswerFormat(kind="true_false", options=[], option_texts={})


@pytest.mark.parametrize(
    ("reply", "fmt", "family"),
    [
        ("True / False", TF, "unparsed: both verdicts"),
        ("true\nfalse\ntrue", TF, "unparsed: both verdicts"),
        ("- Fever\n- Riboflavin\n- Dabigatran", MCQ, "unparsed: several options"),
        ("The correct answer is D: Riboflavin", MCQ, "unparsed: letter and text disagree"),
        ("The answer is none of the above.", MCQ, "unparsed: none of the options"),
        ("Sorry about my previous response.\n1. B\n2. C\n3. A", MCQ, "unparsed: other questions"),
        ("The weather is nice.", MCQ, UNPARSED),
    ],
)
def test_unread_replies_are_tallied_by_why(reply: str, fmt: AnswerFormat, family: str) -> None:
    reading = read_strict(reply, fmt)
    assert not reading.read and unread_family(reading) == family and not_read(family)


def test_a_reply_to_a_question_of_its_own_is_tallied_as_other_questions() -> None:
    """A reply that opens with a question it made up (or a copied solved example) answers that one, not ours."""
    question = "Question: Which is a symptom of gout?\nOptions: A: Fever\tB: Riboflavin\tC: Cholesterol embolization\tD: Dabigatran\nAnswer:"
    reading = read_strict("Question: Which drug treats flu?\nOptions: A: Fever\tB: Riboflavin\nAnswer: B", MCQ, question)
    assert unread_family(reading) == "unparsed: other questions"


def test_a_read_reply_or_no_reply_keeps_its_family() -> None:
    assert read_strict('{"answer": "C"}', MCQ) == Reading("C", JSON)
    assert unread_family(Reading(None, "no reply", "the request failed")) == "no reply"


def test_multicog_scoring_tallies_the_reason_and_the_report_shows_it() -> None:
    probe = Probe(id="p", method="multicog", knowledge_point="k", facet="SV", prompt="Statement: x. True or false?",
                  gold=True, answer_format=TF, meta={"dataset": "d", "repeat": 0})
    judged = judge(probe, "True / False", seed=1, reference_compatible=False)
    assert not judged.parsed and judged.rule == "unparsed: both verdicts"
    table = reading_section({"d/SV": {"bare": 3, judged.rule: 1}})
    assert "unparsed: both verdicts" in table and "25.0" in table.replace(",", ".")


def test_a_json_chain_keeps_its_answer_field_as_its_conclusion() -> None:
    """Chain-of-thought chains are read from their last "Therefore"; in a JSON chain that word stands inside
    the reasoning field, and cutting there would lose the answer field."""
    from medprobe.parsing.answers import conclusion

    chain = '{"step_by_step_thinking": "Riboflavin is a vitamin, therefore not B.", "answer_choice": "C"}'
    assert conclusion(chain) == chain and read_strict(conclusion(chain), MCQ) == Reading("C", JSON)
    assert conclusion("A is wrong. Therefore, the answer is C.") == "Therefore, the answer is C."


def test_none_of_the_above_is_an_answer_when_an_option_says_it() -> None:
    texts = {**TEXTS, "E": "None of the above"}
    fmt = AnswerFormat(kind="option_letter", options=list(texts), option_texts=texts)
    assert read_strict("E. None of the above", fmt).value == "E"
    assert read_strict("The answer is none of the above.", fmt).value == "E"
    assert read_strict("The answer is none of the above.", MCQ).reason.startswith("none of the options")
