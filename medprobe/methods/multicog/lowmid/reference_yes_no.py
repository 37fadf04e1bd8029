"""Yes/no judgements (MultiCogEval answer existence, AE: "is the right answer among the options?").

English follows REFERENCE_METHODS.md §3.1 (``AE_tool.extract_ans``): the stripped, lower-cased reply
starting with "yes" is yes and starting with "no" is no — so "none of them" is no, as in the reference —
otherwise the first ``answer: (yes|no)`` decides. Anything else, the empty reply included, is
``Unparsed``; the reference then draws yes/no at random, which is the scoring mode's decision.

Chinese (medprobe addition): a reply starting with 是 / 有 / 存在 is yes, one starting with 否 / 不 / 没 /
无 is no, otherwise the first "答案：是/否" (or 为, with or without a colon) decides.
"""

from __future__ import annotations

import re

from medprobe.parsing.base import EMPTY_REPLY, Parsed, ParseResult, Unparsed
from medprobe.parsing.reference_option_letter import for_language

# language -> (leading yes-words, leading no-words, a labelled answer whose group 1 is a yes- or no-word)
_RULES: dict[str, tuple[tuple[str, ...], tuple[str, ...], re.Pattern[str]]] = {
    "en": (("yes",), ("no",), re.compile(r"answer: (yes|no)")),
    "zh": (("是", "有", "存在"), ("否", "不", "没", "无"), re.compile(r"答案[是为]?[:：]?\s*(是|否)")),
}


def parse_answer_existence(reply: str, language: str = "en") -> ParseResult[bool]:
    """AE reply -> ``True`` (the right answer is among the options) / ``False``; e.g. ``" Yes, the
    answer is B"`` -> True, ``"none of them"`` -> False, ``"Answer: yes"`` -> True, ``"maybe"`` unparsed."""
    yes_words, no_words, labelled = for_language(_RULES, language)
    clean = reply.strip().lower()
    if not clean:
        return Unparsed(EMPTY_REPLY)
    if clean.startswith(yes_words):
        return Parsed(True)
    if clean.startswith(no_words):
        return Parsed(False)
    match = labelled.search(clean)
    if match is None:
        return Unparsed("no yes/no answer found")
    return Parsed(match.group(1) in yes_words)
