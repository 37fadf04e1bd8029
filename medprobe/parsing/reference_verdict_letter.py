"""Verdict plus corrected letter (MultifacetEval Rectification / RQ).

An RQ question shows Alice's answer; the model says whether it is correct and, if not, which option is.
A reply therefore parses into a :class:`Revision` (judge, option), each part possibly missing. A partial
result is kept as ``Parsed``: the reference pads the missing part later (§3.2 ``missing_value_padding``,
here ``medprobe.parsing.fill.pad_revision``), so only a reply with neither part is ``Unparsed``.

English follows REFERENCE_METHODS.md §3.2 (answer-only) and §3.3 (chain of thought):

* answer-only judge, case-insensitive: any F-word (incorrect / not correct / false / wrong) gives F,
  otherwise correct / consistent / true / yes not followed by " answer" gives T. The reference meant a
  third pattern to catch "no", but a missing comma fused it with ``^\\s*([A-E])\\s+`` into a regex that
  needs text before ``^`` and so can never match; a bare "no" therefore has no verdict. That is
  reproduced by leaving the pattern out (same behaviour, no dead regex). "Correct." parses as T.
* answer-only option: option texts replaced by letters, then the RQ variant of the MCQ list.
* chain judge: "Therefore, the (correct )answer is <word>" first, then the F-words, then
  "not the best / most appropriate". A chain never becomes T from a bare "correct".
* chain option: the answer-only list followed by the chain-conclusion patterns; when the judge is T the
  option is forced to Alice's letter.

Chinese (medprobe addition): F-words 错误 / 不正确 / 不对, then T-words 正确 / 对 not followed by 答案 (the
counterpart of the English ``(?! answer)``, so "正确答案是C" is not a T verdict); the option uses the
Chinese letter patterns of ``reference_option_letter``. Chains use the same rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from medprobe.parsing.base import EMPTY_REPLY, Parsed, ParseResult, Revision, Unparsed
from medprobe.parsing.reference_option_letter import (
    COT_CONCLUSION_PATTERNS,
    RQ_OPTION_AO_PATTERNS,
    ZH_LETTER,
    compile_all,
    first_match,
    for_language,
    replace_option_texts,
)

# A judge rule is (pattern, verdict); verdict None means "read the verdict from the captured word".
_JudgeRule = tuple[re.Pattern[str], bool | None]

_CI = re.IGNORECASE | re.DOTALL
_EN_FALSE = re.compile(r"incorrect|not correct|false|wrong", _CI)
_EN_TRUE = re.compile(r"(?:correct|consistent|true|yes)(?! answer)", _CI)
_EN_CONCLUSION = re.compile(
    r"Therefore, the (?:correct )?answer is:?\s*"
    r"(incorrect|not correct|false|wrong|correct|consistent|true|yes|no)",
    _CI,
)
_EN_NOT_BEST = re.compile(r"not the (?:best|most appropriate)", _CI)
_EN_TRUE_WORDS = frozenset({"correct", "consistent", "true", "yes"})
_ZH_FALSE = re.compile(r"错误|不正确|不对")
_ZH_TRUE = re.compile(r"(?:正确|对)(?!答案)")

_ZH_JUDGE: tuple[_JudgeRule, ...] = ((_ZH_FALSE, False), (_ZH_TRUE, True))
_AO_RULES: dict[str, tuple[tuple[_JudgeRule, ...], tuple[re.Pattern[str], ...]]] = {
    "en": (((_EN_FALSE, False), (_EN_TRUE, True)), compile_all(RQ_OPTION_AO_PATTERNS)),
    "zh": (_ZH_JUDGE, ZH_LETTER),
}
_COT_RULES: dict[str, tuple[tuple[_JudgeRule, ...], tuple[re.Pattern[str], ...]]] = {
    "en": (
        ((_EN_CONCLUSION, None), (_EN_FALSE, False), (_EN_NOT_BEST, False)),
        compile_all((*RQ_OPTION_AO_PATTERNS, *COT_CONCLUSION_PATTERNS)),
    ),
    "zh": (_ZH_JUDGE, ZH_LETTER),
}


def _judge(reply: str, rules: Sequence[_JudgeRule]) -> bool | None:
    for pattern, verdict in rules:
        match = pattern.search(reply)
        if match:
            return verdict if verdict is not None else match.group(1).lower() in _EN_TRUE_WORDS
    return None


def _option(text: str, patterns: Sequence[re.Pattern[str]]) -> str | None:
    match = first_match(patterns, text.strip())
    return match.group(1) if match else None


def _result(judge: bool | None, option: str | None) -> ParseResult[Revision]:
    if judge is None and option is None:
        return Unparsed("no verdict or option found")
    return Parsed(Revision(judge, option))


def parse_revision(
    reply: str, option_texts: Mapping[str, str], language: str = "en"
) -> ParseResult[Revision]:
    """Answer-only RQ reply -> ``Revision`` (§3.2); the judge reads the raw reply, the option the
    reply with option texts replaced. ``"correct"`` gives ``Revision(True, None)``; ``"no"`` is unparsed."""
    judge_rules, option_patterns = for_language(_AO_RULES, language)
    if not reply:
        return Unparsed(EMPTY_REPLY)
    judge = _judge(reply, judge_rules)
    option = _option(replace_option_texts(reply, option_texts), option_patterns)
    return _result(judge, option)


def parse_revision_cot(
    reply: str, option_texts: Mapping[str, str], given: str, language: str = "en"
) -> ParseResult[Revision]:
    """One chain-of-thought RQ chain -> ``Revision`` (§3.3). ``given`` is Alice's letter, which becomes
    the option whenever the chain judges her answer correct (the reference does the same)."""
    judge_rules, option_patterns = for_language(_COT_RULES, language)
    if not reply:
        return Unparsed(EMPTY_REPLY)
    judge = _judge(reply, judge_rules)
    if judge:
        return Parsed(Revision(True, given))
    option = _option(replace_option_texts(reply, option_texts, case_variants=True), option_patterns)
    return _result(judge, option)


@dataclass(frozen=True)
class _MceRules:
    """MultiCogEval MR: a labelled answer to pull out of a longer reply, the leading T-word, the F form."""

    labelled: re.Pattern[str]
    correct: str
    incorrect: re.Pattern[str]


_MCE_RULES = {
    "en": _MceRules(
        re.compile(r"answer: (correct|incorrect, the correct answer is [A-E])", re.IGNORECASE),
        "correct",
        re.compile(r"^incorrect, the correct answer is ([A-E])"),
    ),
    "zh": _MceRules(
        re.compile(r"答案[:：]\s*(正确|错误[，,]\s*正确答案是\s*[A-E])"),
        "正确",
        re.compile(r"^错误[，,]\s*正确答案是\s*([A-E])"),
    ),
}


def parse_rectification_mce(reply: str, language: str = "en") -> ParseResult[Revision]:
    """MultiCogEval multi-step rectification (MR) reply -> ``Revision`` (REFERENCE_METHODS.md §3.1,
    ``MR_tool.extract_ans``; the options are not consulted).

    The stripped reply, or the first "answer: correct" / "answer: incorrect, the correct answer is X"
    found in it (ignoring case), must *start* with "correct" -> ``Revision(True, None)`` (no letter is
    needed: the question where Alice is right is scored on the verdict alone, §4.1) or with
    "incorrect, the correct answer is X" -> ``Revision(False, X)``. Both tests are case-sensitive, so
    ``"Correct."`` and ``"Answer: Correct"`` are ``Unparsed``, as is ``"incorrect"`` without a letter.
    The reference pads every unparsed reply at random (verdict T/F; for F a letter other than Alice's);
    that is the scoring mode's decision (``medprobe.parsing.fill.pad_revision``).
    """
    rules = for_language(_MCE_RULES, language)
    text = reply.strip()
    if not text:
        return Unparsed(EMPTY_REPLY)
    labelled = rules.labelled.search(text)
    if labelled:
        text = labelled.group(1)
    if text.startswith(rules.correct):
        return Parsed(Revision(True, None))
    wrong = rules.incorrect.search(text)
    return Parsed(Revision(False, wrong.group(1))) if wrong else Unparsed("no verdict in the expected form")
