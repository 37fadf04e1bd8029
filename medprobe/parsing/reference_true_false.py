"""True/false verdicts (MultifacetEval Verification / TFQ).

English follows REFERENCE_METHODS.md §3.2: a case-sensitive *substring* test, first against the F-words,
then against the T-words, with no "starts with" step (unlike MultiCogEval SV, §3.1). Checking F first is
why ``"This is not correct"`` is F although it contains "correct", and why ``"Not sure"`` and
``"Nothing"`` are F (they contain "No"). Because the reference models had no stop string, a reply such
as ``"true\\n\\nQuestion: ... true or false?"`` also parses as F; that is reproduced, not fixed.
``"TRUE"`` and ``"maybe"`` are unparsed.

Chinese (medprobe addition) uses the same F-first substring test. "不是" is an F-word in addition to
错误/不正确/不对/否/错, because otherwise its "是" would make it T.
"""

from __future__ import annotations

from medprobe.parsing.base import EMPTY_REPLY, Parsed, ParseResult, Unparsed
from medprobe.parsing.reference_option_letter import for_language

# language -> (F-words, T-words); F-words are checked first.
_KEYWORDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "en": (
        ("incorrect", "not correct", "false", "False", "No", "wrong"),
        ("true", "correct", "consistent", "True", "Yes"),
    ),
    "zh": (
        ("错误", "不正确", "不对", "不是", "否", "错"),
        ("正确", "对", "是"),
    ),
}


def parse_true_false(reply: str, language: str = "en") -> ParseResult[bool]:
    """Answer-only TFQ reply -> ``True`` (T) / ``False`` (F); no keyword -> ``Unparsed``.

    The reference then fills an unparsed verdict with a random T/F (§3.2); that is left to scoring.
    """
    false_words, true_words = for_language(_KEYWORDS, language)
    if not reply:
        return Unparsed(EMPTY_REPLY)
    if any(word in reply for word in false_words):
        return Parsed(False)
    if any(word in reply for word in true_words):
        return Parsed(True)
    return Unparsed("no true/false keyword found")


def parse_true_false_cot(reply: str, language: str = "en") -> ParseResult[bool]:
    """One chain-of-thought TFQ chain -> verdict.

    ``TFQ_answer_analysis_medqa_cotsc.py`` extracts a chain exactly like the answer-only script; the CoT
    quirk lives in the vote, where an unparsed chain counts as an F vote (see
    ``medprobe.parsing.votes.vote_true_false``).
    """
    return parse_true_false(reply, language)


#: language -> (words a reply may start with to say T, to say F), checked case-insensitively first
_LEADING: dict[str, tuple[str, str]] = {"en": ("true", "false"), "zh": ("正确", "错误")}


def parse_statement_mce(reply: str, language: str = "en") -> ParseResult[bool]:
    """MultiCogEval statement validation (SV) reply -> verdict (REFERENCE_METHODS.md §3.1, ``SV_tool``).

    A reply that starts (after stripping, ignoring case) with "true" / "false" is decided by that word;
    otherwise the MultifacetEval F-first substring test applies. Hence ``"False."`` is F, ``" true\\n"`` T,
    ``"The statement is incorrect"`` F and ``"No"`` F. The reference scores an unparsed reply wrong and
    never fills it at random, so neither does any scoring mode.
    """
    true_word, false_word = for_language(_LEADING, language)
    if not reply:
        return Unparsed(EMPTY_REPLY)
    clean = reply.strip().lower()
    if clean.startswith(true_word):
        return Parsed(True)
    if clean.startswith(false_word):
        return Parsed(False)
    return parse_true_false(reply, language)
