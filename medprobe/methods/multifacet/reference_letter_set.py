"""Sets of option letters (MultifacetEval Discrimination / MAQ, several options may be correct).

English follows REFERENCE_METHODS.md §3.2 (answer-only) and §3.3 (chain of thought), quirks included:

* " and " becomes "," *before* option texts are replaced, so an option text containing " and " is never
  recognised in the reply.
* A hit is split on the first separator found, in the order "，", "、", ",", newline; pieces are
  stripped and only exact single letters survive. Without any of those separators the hit is read
  character by character. Hence ``"A,B C"`` -> {A} (the piece "B C" is dropped) but ``"A B"`` -> {A, B}.
* The reference's fifth answer-only regex is two patterns fused by a missing comma
  (``^Options? ... are the correct answers`` + ``The answer is that options? X``). It begins with the
  second pattern of the list, so whenever it could match, that earlier pattern already has; it is left
  out with no change in behaviour, and "The answer is that options B, C" stays unparsed as in the
  reference.
* Chains also drop "*", collapse "B: beta" to "B", replace lowercase option texts, try an 11-pattern
  list and, failing that, read "all of the options are ..." as every option. The reference returns
  A-E there; this module returns the letters of ``option_texts`` (the same for 5-option MedQA).

An empty result is ``Unparsed``: the reference scores it wrong, with no random fill (§4.3).

Chinese (medprobe addition): a set of letters separated by 、，, whitespace, 和 or 及, after
正确答案 / 答案 (optionally followed by 是/为 and a colon), after 选项, or at the start of the reply;
every letter in the set is kept. Chains use the same rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from medprobe.parsing.base import EMPTY_REPLY, Parsed, ParseResult, Unparsed
from medprobe.parsing.reference_option_letter import (
    compile_all,
    first_match,
    for_language,
    replace_option_texts,
)

_LETTERS = frozenset("ABCDE")
_SEPARATORS = ("，", "、", ",", "\n")
# The reference's letter-set fragment: a letter, then any run of letters and separators.
_SET = r"[A-E](?:、|,|，|\s|[A-E])*"
_ZH_SET = r"[A-E](?:[、，,\s和及]*[A-E])*"
_ZH_LETTER = re.compile(r"[A-E]")

_EN_AO = compile_all(
    (
        rf"^({_SET})",
        rf"^Options?:? ({_SET})",
        rf"Answers?:?\s*({_SET})",
        rf'(?:Therefore, )?(?:The|the) (?:correct |best )?answers? (?:for .*? )?(?:are|is):?\s*\**"?(?:option)?\s*({_SET})',
    )
)
_EN_COT = compile_all(
    (
        rf'Therefore, the answer (?:are|is|would be|should be)\s*(?: a)?:?\s*\**"?(?:option)?\s*({_SET})',
        rf'(?:Therefore, )?(?:The|the) .*?(?:are|is|would be|should be)\s*(?: a)?:?\s*\**"?(?:option)?\s*({_SET})',
        rf"(?:The|the)[^\.]*(?:most|best) [^\.]* (?:is|would be|are|should be):?\s*({_SET})",
        rf"answer is therefore: ({_SET})",
        rf"^Options?:? ({_SET}) (?:are|is) the correct answers?",
        rf"The answer is that options? ({_SET})",
        rf"(?:Option )?({_SET})[^\.]*(?:most|best)[^\.]*\.",
        rf"^({_SET})",
        rf"^Options?:?\s*({_SET})",
        rf"Answers?:?\s*({_SET})",
        rf"^[^\.]*({_SET})[^\.]*\.",
    )
)
_EN_ALL_OPTIONS = re.compile(
    r"(?:Therefore, )?(?:all|All) of the (?:listed )?options? .*?(?:are|is|would be|can)", re.DOTALL
)
_ZH = compile_all(
    (
        rf"正确答案[是为]?[:：]?\s*({_ZH_SET})",
        rf"答案[是为]?[:：]?\s*({_ZH_SET})",
        rf"选项\s*({_ZH_SET})",
        rf"^\s*({_ZH_SET})",
    )
)


def _reference_letters(chunk: str) -> frozenset[str]:
    """Split a hit the way the reference does (see the module docstring)."""
    for separator in _SEPARATORS:
        if separator in chunk:
            pieces = [piece.strip() for piece in chunk.split(separator)]
            break
    else:
        pieces = list(chunk)
    return frozenset(piece for piece in pieces if piece in _LETTERS)


def _every_letter(chunk: str) -> frozenset[str]:
    return frozenset(_ZH_LETTER.findall(chunk))


def _english_ao(reply: str) -> str:
    return reply.replace(" and ", ",")


def _english_cot(reply: str) -> str:
    return reply.replace(" and ", ",").replace("*", "")


def _unchanged(reply: str) -> str:
    return reply


@dataclass(frozen=True)
class _Rules:
    prepare: Callable[[str], str]
    patterns: tuple[re.Pattern[str], ...]
    letters: Callable[[str], frozenset[str]]
    all_options: re.Pattern[str] | None = None


_AO_RULES = {
    "en": _Rules(_english_ao, _EN_AO, _reference_letters),
    "zh": _Rules(_unchanged, _ZH, _every_letter),
}
_COT_RULES = {
    "en": _Rules(_english_cot, _EN_COT, _reference_letters, _EN_ALL_OPTIONS),
    "zh": _Rules(_unchanged, _ZH, _every_letter),
}


def _parse(
    reply: str, option_texts: Mapping[str, str], rules: _Rules, *, cot: bool
) -> ParseResult[frozenset[str]]:
    if not reply:
        return Unparsed(EMPTY_REPLY)
    prepared = rules.prepare(reply)
    text = replace_option_texts(prepared, option_texts, case_variants=cot, labelled=cot).strip()
    if not text:
        return Unparsed(EMPTY_REPLY)
    match = first_match(rules.patterns, text)
    if match:
        letters = rules.letters(match.group(1))
    elif rules.all_options is not None and rules.all_options.search(text):
        letters = frozenset(option_texts)
    else:
        letters = frozenset()
    return Parsed(letters) if letters else Unparsed("no option letters found")


def parse_letter_set(
    reply: str, option_texts: Mapping[str, str], language: str = "en"
) -> ParseResult[frozenset[str]]:
    """Answer-only MAQ reply -> set of letters (§3.2), e.g. ``"A, D and E"`` -> {A, D, E}."""
    return _parse(reply, option_texts, for_language(_AO_RULES, language), cot=False)


def parse_letter_set_cot(
    reply: str, option_texts: Mapping[str, str], language: str = "en"
) -> ParseResult[frozenset[str]]:
    """One chain-of-thought MAQ chain -> set of letters (§3.3, ``MAQ_answer_analysis_medqa_cotsc.py``)."""
    return _parse(reply, option_texts, for_language(_COT_RULES, language), cot=True)
