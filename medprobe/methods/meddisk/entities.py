"""The default entity extractor for enumerated aspects: a transparent rule-based splitter.

The paper extracts entities with an in-house medical NER model (Appendix E); any callable
``(text, language) -> list[str]`` can replace this one (``-X extractor=module:function``).

Items are split at list separators (semicolons, commas, 、, slashes, line breaks, Chinese sentence ends) and at the words
that join two items: " and " / " or " in English; 和, 及, 或, 以及, 或者 in Chinese, but only where
jieba segments them as words of their own between words of two or more characters, so that 及时,
中和 or 或许 inside a word stay whole ("建议及时就医" and "中和抗体" are one item, "关节痛和发热" two). Bullets, numbering, markdown emphasis, lead-ins
("such as", 包括), English articles ("the bone marrow"), quotes and brackets around an item (“”, 「」, 【】) and the open ends of
a list ("etc.", "and so on", 等, 等等) are removed; "None" and repeats are dropped. Chinese list layouts are made plain first:
circled numbers, numbering inside a line ("1、发热；2、咳嗽", "（1）", "一、"), full-width digits and a 【label】 before its text.
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache

import jieba

_SEPARATORS = re.compile(r"[;；,，、/\n。！？]|\s+(?:and|or)\s+(?!(?:so on|so forth|others|more)\b)", re.IGNORECASE)
_HAN_CONJUNCTIONS = frozenset({"和", "及", "或", "以及", "或者"})
_HAN_CONJUNCTION = re.compile(r"和|及|或")
BULLET = re.compile(r"^\s*(?:[-•·+]\s*|\*(?!\*)\s*|\(?\d+[.、)）](?!\d)\s*|\(?[a-z][.)]\s+)", re.IGNORECASE)
_EMPHASIS = re.compile(r"\*\*|__|`|^#+\s*")
_LEAD = re.compile(r"^(?:such as|including|e\.g\.|for example|mainly|例如|包括|主要有|如)\s*", re.IGNORECASE)
#: an English article before an item ("the bone marrow"): not part of the entity
_ARTICLE = re.compile(r"^(?:the|an?)\s+(?=\w)", re.IGNORECASE)
_OPEN_END = re.compile(r"(?:\s*(?:\betc\b\.?|\band so on\b|\band so forth\b|\band others\b|\band more\b)|等等|等)$", re.IGNORECASE)
_STRIP = " \t\u3000.。:：'\"“”‘’「」『』【】()（）!！*"
_NONE = frozenset({"none", "no", "unknown", "not known", "n/a", "无", "不详", "不明", "暂无", "没有"})

#: Chinese list layouts, made plain before splitting: circled numbers (①②) and full-width digits, numbering
#: inside a line ("1、发热；2、咳嗽", "（1）", "一、", "第一，") and a 【heading】 that labels the text after it
_CIRCLED = re.compile("[\u2460-\u2473\u2776-\u2793]")
_FULL_WIDTH_DIGITS = str.maketrans("０１２３４５６７８９．", "0123456789.")
_HAN_NUMERAL = "[一二三四五六七八九十]{1,3}"
_NUMBERING = re.compile(
    rf"(?:^|(?<=[\s;；,，、。:：]))(?:[(（]\s*(?:\d{{1,2}}|{_HAN_NUMERAL})\s*[)）]|\d{{1,2}}\s*[.、)）](?!\d)|{_HAN_NUMERAL}\s*[、.](?!\d)"
    rf"|第(?:\d{{1,2}}|{_HAN_NUMERAL})[,，、:：])",
    re.MULTILINE,
)
#: a 【label】 opening a line, followed by its text (not by a separator: "【发热】、【咳嗽】" lists items in brackets)
_LABEL = re.compile(r"^[ \t]*【[^】\n]{1,20}】[ \t]*[:：]?[ \t]*(?=[^\s、，,；;])", re.MULTILINE)

# jieba announces its dictionary build on stderr at DEBUG level; scoring output should stay clean.
jieba.setLogLevel(logging.WARNING)


def is_none(text: str) -> bool:
    """Whether a whole answer says "None" (the instructed answer for unknown) in either language."""
    return text.strip(_STRIP).casefold() in _NONE


@lru_cache(maxsize=1 << 14)
def _split_han_conjunctions(part: str) -> tuple[str, ...]:
    """Split a Chinese item at 和/及/或/以及/或者 where jieba makes them a word of their own and both
    sides hold a word of two or more characters (jieba cuts 中和抗体 as 中 / 和 / 抗体)."""
    if not _HAN_CONJUNCTION.search(part):
        return (part,)
    pieces, joiners = [""], []
    for word in jieba.lcut(part):
        if word in _HAN_CONJUNCTIONS:
            joiners.append(word)
            pieces.append("")
        else:
            pieces[-1] += word
    out = [pieces[0]]
    for joiner, piece in zip(joiners, pieces[1:], strict=True):
        if len(out[-1].strip()) < 2 or len(piece.strip()) < 2:
            out[-1] += joiner + piece
        else:
            out.append(piece)
    return tuple(out)


def _clean(item: str) -> str:
    """An item without bullets, emphasis, lead-ins and open ends (punctuation first, so "等。" goes too)."""
    item = _EMPHASIS.sub("", item)
    item = _ARTICLE.sub("", _LEAD.sub("", BULLET.sub("", item).strip(_STRIP)).strip(_STRIP))
    return _OPEN_END.sub("", item).strip(_STRIP)


def _plain_layout(text: str) -> str:
    """A Chinese answer's list layout as plain separators: "①发热②咳嗽", "1、发热；2、咳嗽", "（1）发热", "一、发热"
    and "【症状】发热、咳嗽" would otherwise give numbers, labels or one run-together item as entities."""
    text = _CIRCLED.sub("\n", text.translate(_FULL_WIDTH_DIGITS))
    return _NUMBERING.sub("\n", _LABEL.sub("", text))


def rule_entities(text: str, language: str) -> list[str]:
    """The entities of an answer, first spellings kept: ``"发热、咳嗽和皮疹等"`` -> ["发热", "咳嗽", "皮疹"]."""
    seen: set[str] = set()
    out: list[str] = []
    for part in _SEPARATORS.split(_plain_layout(text) if language == "zh" else text):
        for piece in _split_han_conjunctions(part) if language == "zh" else (part,):
            item = _clean(piece)
            key = item.casefold()
            if item and key not in _NONE and key not in seen:
                seen.add(key)
                out.append(item)
    return out
