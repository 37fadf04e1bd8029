"""The shortcut for replies written exactly as the solved examples write answers must read them as
the strict rules do, whatever the options' texts and the question; other replies go to the rules."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medprobe.parsing import answers
from medprobe.parsing.strict_exact import ANSWER_WORDS, exact_answer
from medprobe.parsing.strict_letters import clean_text
from medprobe.records import AnswerFormat

LETTERS = ["A", "B", "C", "D"]


def by_rules(reply: str, fmt: AnswerFormat, question: str | None) -> answers.Reading:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(answers, "exact_answer", lambda _reply, _fmt: None)
        return answers.read_strict(reply, fmt, question)


def exact_replies(kind: str, language: str, given_letter: str | None) -> list[str]:
    words = ANSWER_WORDS[language]
    if kind == "option_letter":
        return list(LETTERS)
    if kind == "letter_set":
        return [",".join(c) for n in range(1, 5) for c in itertools.combinations(LETTERS, n)]
    if kind == "true_false":
        return [words["true"], words["false"]]
    return [words["correct"], *(words["incorrect"].format(x) for x in LETTERS if x != given_letter)]


#: option texts that could come close to an exact answer, beside arbitrary ones
NEAR = st.sampled_from(["true", "false", "correct", "incorrect", "正确", "错误", "A", "B", "C,D", "yes", "Seizure", "A: Seizure"])
OPTION_TEXT = st.one_of(NEAR, st.text(min_size=0, max_size=30))
QUESTION = st.one_of(st.none(), st.text(max_size=80), st.sampled_from(["Question: Which of the following belongs to the phenotype of X?", "问题：以下哪一项属于X的症状？"]))


@settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from(["option_letter", "letter_set", "true_false", "verdict_letter"]),
    language=st.sampled_from(["en", "zh"]),
    texts=st.lists(OPTION_TEXT, min_size=4, max_size=4),
    given_letter=st.sampled_from(LETTERS),
    question=QUESTION,
    pad=st.sampled_from(["", " ", "\n", "  \n"]),
)
def test_an_exact_answer_reads_as_the_rules_read_it(kind, language, texts, given_letter, question, pad):
    options = [] if kind == "true_false" else LETTERS
    fmt = AnswerFormat(
        kind=kind, options=options, option_texts=dict(zip(options, texts, strict=False)),
        given=given_letter if kind == "verdict_letter" else None, language=language,
    )
    for reply in exact_replies(kind, language, given_letter):
        shortcut = exact_answer(pad + reply + pad, fmt)
        plain = all(clean_text(t) != reply.lower() for t in fmt.option_texts.values())  # no option's text is the reply itself
        assert (shortcut is not None) == plain, reply
        if shortcut is not None:
            assert shortcut == by_rules(pad + reply + pad, fmt, question), (reply, fmt)


@pytest.mark.parametrize(
    ("kind", "reply"),
    [
        ("option_letter", "c"), ("option_letter", "C."), ("option_letter", "E"), ("option_letter", "The answer is C"),
        ("letter_set", "C,A"), ("letter_set", "A,A"), ("letter_set", "A, C"), ("letter_set", ""),
        ("true_false", "True"), ("true_false", "true."), ("verdict_letter", "incorrect, the correct answer is B"),
        ("verdict_letter", "Correct"), ("verdict_letter", "incorrect, the correct answer is E"),
    ],
)
def test_anything_else_goes_to_the_rules(kind, reply):
    options = [] if kind == "true_false" else LETTERS
    fmt = AnswerFormat(kind=kind, options=options, given="B" if kind == "verdict_letter" else None)
    assert exact_answer(reply, fmt) is None
