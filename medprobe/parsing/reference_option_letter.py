"""Single option letter (MultifacetEval Comparison / MCQ), plus helpers shared by the other MFE parsers.

English ("en") follows the public MultifacetEval scripts exactly (REFERENCE_METHODS.md §3.2 answer-only,
§3.3 chain of thought): option *texts* in the reply are first replaced by their letters, then an ordered
pattern list is tried; the first pattern with any hit wins and its first (leftmost) hit is used.
Unlike MultiCogEval (§3.1) nothing is cut at the first blank line, so ``" E\\n\\nQuestion: x"`` is ``E``.

Chinese ("zh") is medprobe's own addition for questions built from Chinese knowledge bases; see
``ZH_LETTER``. Nothing here fills at random: a reply without a letter is ``Unparsed`` and the scoring
mode decides what happens next (§4.3).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TypeVar

from medprobe.parsing.base import EMPTY_REPLY, Parsed, ParseResult, Unparsed

T = TypeVar("T")

LANGUAGES: tuple[str, ...] = ("en", "zh")

# Option blocks as the reference reads them from the question text (§3.1, §3.2). MCQ and RQ questions
# separate options by TAB, MAQ by newline; the RQ variant also stops at "." because "Alice's answer: X."
# follows the options; the CoT scripts additionally stop MCQ and RQ options at a newline.
MCQ_OPTION_RE = re.compile(r"([A-E]): (.*?)(?:\t|\Z)")
MCQ_COT_OPTION_RE = re.compile(r"([A-E]): (.*?)(?:\t|\n|\Z)")
RQ_OPTION_RE = re.compile(r"([A-E]): (.*?)(?:\t|\Z|\.)")
RQ_COT_OPTION_RE = re.compile(r"([A-E]): (.*?)(?:\t|\n|\Z|\.)")
MAQ_OPTION_RE = re.compile(r"([A-E]): (.*?)(?:\n|\Z)")


def compile_all(patterns: Sequence[str], flags: int = re.DOTALL) -> tuple[re.Pattern[str], ...]:
    """Compile an ordered pattern list; the reference matches every list with ``re.DOTALL``."""
    return tuple(re.compile(p, flags) for p in patterns)


# MCQ answer-only list (§3.1 step 4, reused unchanged by MFE §3.2). Case-sensitive, DOTALL. The first six
# patterns are shared with the RQ option list.
_MCQ_HEAD = (
    r"^\s*Option\s*([A-E])",
    r"^\s*([A-E])\s*\Z",
    r"^\s*([A-E])\s+",
    r"^\s*([A-E])(?:,|:|\n|\)|\.)",
    r'^\s*"([A-E])"',
    r"Answers?:\s*([A-E])",
)
_MCQ_AO = compile_all(
    (
        *_MCQ_HEAD,
        r"The correct answer (?:for .*? )?is:?\s*([A-E])",
        r"^Option ([A-E]) is the correct answer",
    )
)

# RQ option list (§3.2): the MCQ list with a looser "the answer is" pattern, a "(?:correct )" group that
# the reference wrote without "?", and an extra "Correct Answer:" pattern. Shared with reference_verdict_letter.
RQ_OPTION_AO_PATTERNS: tuple[str, ...] = (
    *_MCQ_HEAD,
    r"(?:The|the) (?:correct )?answer (?:for .*? )?is:?\s*(?:option )?([A-E])",
    r"^Option ([A-E]) is the (?:correct )answer",
    r"Correct Answer:\s*([A-E])",
)

# Reasoning-chain conclusions (§3.3), common to the MCQ and RQ chain parsers.
COT_CONCLUSION_PATTERNS: tuple[str, ...] = (
    r'Therefore, the answer (?:are|is|would be|should be)\s*(?: a)?:?\s*\**"?(?:option)?\s*([A-E])',
    r'(?:Therefore, )?(?:The|the)[^\.]*(?:are|is|would be|should be)\s*(?: a)?:?\s*\**"?(?:option)?\s*([A-E])',
    r"(?:The|the)[^\.]*(?:most|best) [^\.]* (?:is|would be|are|should be)\s*:?(?:an|the)?\s*([A-E])",
    r"The answer is that options? ([A-E])",
    r"(?:Option )?([A-E])[^\.]*(?:most|best)[^\.]*\.",
    r"(?:are|is) consistent with ([A-E])",
)
_MCQ_COT = compile_all((*COT_CONCLUSION_PATTERNS, r"^([A-E])", r"^[^\.]*([A-E])\."))

# Chinese (medprobe addition). "正确答案" comes before the bare "答案" so that a reply quoting a wrong
# answer first ("爱丽丝的答案A不正确，正确答案是C") yields the corrected letter. "[是为]?[:：]?" accepts
# 答案是B, 答案为B, 答案：B and 答案是：B.
ZH_LETTER = compile_all(
    (
        r"正确答案[是为]?[:：]?\s*([A-E])",
        r"答案[是为]?[:：]?\s*([A-E])",
        r"选项\s*([A-E])",
        r"^\s*([A-E])",
    )
)

_AO_BY_LANGUAGE = {"en": _MCQ_AO, "zh": ZH_LETTER}
_COT_BY_LANGUAGE = {"en": _MCQ_COT, "zh": ZH_LETTER}
_NO_LETTER = "no option letter found"


def for_language(table: Mapping[str, T], language: str) -> T:
    """Look up a per-language entry, failing loudly: silently parsing Chinese with English rules would
    turn every reply into a parse failure."""
    try:
        return table[language]
    except KeyError:
        raise ValueError(f"unsupported language {language!r}; expected one of {LANGUAGES}") from None


def options_from_question(question: str, option_re: re.Pattern[str]) -> dict[str, str]:
    """Map letter -> option text using one of the ``*_OPTION_RE`` patterns (first group letter, second text)."""
    return {letter: text for letter, text in option_re.findall(question)}


def mcq_options(question: str, *, cot: bool = False) -> dict[str, str]:
    """Options of a TAB-separated MCQ question (the CoT script also stops at a newline)."""
    return options_from_question(question, MCQ_COT_OPTION_RE if cot else MCQ_OPTION_RE)


def rq_options(question: str, *, cot: bool = False) -> dict[str, str]:
    """Options of an RQ question: TAB-separated, each text also ends at the first "." (reference quirk)."""
    return options_from_question(question, RQ_COT_OPTION_RE if cot else RQ_OPTION_RE)


def maq_options(question: str) -> dict[str, str]:
    """Options of a MAQ question, which are newline-separated (§1.2)."""
    return options_from_question(question, MAQ_OPTION_RE)


def replace_option_texts(
    reply: str,
    option_texts: Mapping[str, str],
    *,
    case_variants: bool = False,
    labelled: bool = False,
) -> str:
    """Replace every occurrence of an option text by its letter, option by option in question order.

    This mirrors the reference: plain substring replacement (also inside longer words), and when two
    letters share a text the later letter wins. The CoT scripts also replace the all-lowercase and
    first-letter-lowercase forms (``case_variants``), and the MAQ CoT script first collapses
    ``"B: beta"`` to ``"B"`` (``labelled``). Empty texts are skipped: the reference would insert the
    letter between every character (or crash on ``key[0]``).
    """
    by_text = {text: letter for letter, text in option_texts.items() if text}
    for text, letter in by_text.items():
        forms = [f"{letter}: {text}"] if labelled else []
        forms.append(text)
        if case_variants:
            forms += [text.lower(), text[0].lower() + text[1:]]
        for form in forms:
            reply = reply.replace(form, letter)
    return reply


def first_match(patterns: Sequence[re.Pattern[str]], text: str) -> re.Match[str] | None:
    """Leftmost hit of the first pattern that hits at all (the reference's ``findall(...)[0]`` loop)."""
    for pattern in patterns:
        match = pattern.search(text)
        if match:
            return match
    return None


def _letter(reply: str, patterns: Sequence[re.Pattern[str]]) -> ParseResult[str]:
    text = reply.strip()
    if not text:
        return Unparsed(EMPTY_REPLY)
    match = first_match(patterns, text)
    return Parsed(match.group(1)) if match else Unparsed(_NO_LETTER)


def parse_option_letter(
    reply: str, option_texts: Mapping[str, str], language: str = "en"
) -> ParseResult[str]:
    """Answer-only MCQ reply -> option letter (§3.2).

    ``"gamma"`` parses as ``C`` through text replacement; ``"(C)"`` and ``"I think D"`` are unparsed (the
    reference then draws a random letter — a scoring decision, see ``medprobe.parsing.fill``).
    """
    patterns = for_language(_AO_BY_LANGUAGE, language)
    if not reply:
        return Unparsed(EMPTY_REPLY)
    return _letter(replace_option_texts(reply, option_texts), patterns)


def parse_option_letter_cot(
    reply: str, option_texts: Mapping[str, str], language: str = "en"
) -> ParseResult[str]:
    """One chain-of-thought MCQ chain -> option letter (§3.3, ``MCQ_answer_analysis_medqa_cotsc.py``).

    Option texts are also replaced in lowercase forms, then the eight conclusion patterns are tried, the
    last two being the permissive "starts with a letter" and "a letter before the first full stop".
    Chinese chains use the same patterns as Chinese answer-only replies.
    """
    patterns = for_language(_COT_BY_LANGUAGE, language)
    return _letter(replace_option_texts(reply, option_texts, case_variants=True), patterns)


_MCE_BY_LANGUAGE = {"en": _MCQ_AO, "zh": ZH_LETTER}
#: a MultiCogEval MCQ reply of whitespace only: unlike the exactly empty reply, the reference fills it at random
BLANK_REPLY = "blank reply"


def parse_option_letter_mce(
    reply: str, option_texts: Mapping[str, str], language: str = "en"
) -> ParseResult[str]:
    """MultiCogEval MCQ reply -> option letter (REFERENCE_METHODS.md §3.1, ``MCQ_tool.extract_ans``).

    Unlike MultifacetEval, only the text before the first blank line (after stripping) counts, so
    ``"Answer: B\\n\\nAnswer: C"`` is ``B`` and ``"I think\\n\\nAnswer: D"`` has no letter. The steps are the
    reference's: an exactly empty reply is ``Unparsed(EMPTY_REPLY)``; option texts are replaced by their
    letters; the reply is stripped (whitespace only: ``Unparsed(BLANK_REPLY)``) and cut at the first
    ``"\\n\\n"``; the MCQ pattern list is tried.

    The reference scores the exactly empty reply wrong but draws a random letter A-E for a blank reply and
    for one without a letter; that is the scoring mode's business, which is why the reasons differ.
    """
    patterns = for_language(_MCE_BY_LANGUAGE, language)
    if not reply:
        return Unparsed(EMPTY_REPLY)
    text = replace_option_texts(reply, option_texts).strip().split("\n\n", 1)[0]
    if not text:
        return Unparsed(BLANK_REPLY)
    match = first_match(patterns, text)
    return Parsed(match.group(1)) if match else Unparsed(_NO_LETTER)
