"""Turning a recall reply into something comparable with the knowledge base (paper 000,
Appendix D and E).

1. The answer span: the text after the answer pattern the examples showed ("The <aspect> of
   <disease> include:" / "<disease>的<aspect>包括："); a reply without the pattern is kept whole,
   as in the paper. A reply that uses the pattern with another disease's name (small models
   copy an example) loses that prefix too, so its words are not scored; only the right
   disease counts as "pattern found". The span ends at a blank line or at another question.
2. By aspect type: enumerated -> a list of entities (the extractor below; pluggable with
   ``-X extractor=module:function``), numeric -> the first number (NaN when there is none),
   declarative -> the span unchanged. "None" / 无 (the instructed answer for unknown) -> empty.

The paper extracts entities with an in-house medical NER model; medprobe's default is a
transparent rule-based splitter, and any callable ``(text, language) -> list[str]`` can replace it.
"""

from __future__ import annotations

import importlib
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from medprobe.aspects import AspectType, get_aspect
from medprobe.errors import MedprobeError

EntityExtractor = Callable[[str, str], list[str]]

_SPLIT = re.compile(r"[;；,，、/\n]|\s+(?:and|or)\s+|(?<=[\u4e00-\u9fff])(?:和|及|或)(?=[\u4e00-\u9fff])")
_BULLET = re.compile(r"^\s*(?:[-*•·]|\(?\d+[.、)）]|[a-z][.)])\s*", re.IGNORECASE)
_LEAD = re.compile(r"^(?:such as|including|e\.g\.|for example|mainly|例如|包括|主要有|如)\s*", re.IGNORECASE)
_TRAIL = re.compile(r"(?:\s*(?:etc\.?|and so on|and others)|等等|等)\s*$", re.IGNORECASE)
_NONE = {"none", "no", "unknown", "not known", "n/a", "无", "不详", "不明", "暂无", "没有"}
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_CN_DIGITS = str.maketrans({"一": "1", "二": "2", "三": "3", "四": "4"})
_STOP = re.compile(r"\n\s*\n|\n\s*(?:Question:|问题：)")


@dataclass(frozen=True)
class Extracted:
    """A post-processed answer: ``text`` is what gets scored (entities joined by spaces for
    enumerated aspects), ``entities`` the list, ``number`` the numeric value."""

    text: str
    entities: tuple[str, ...] = ()
    number: float = math.nan
    pattern_found: bool = False
    said_none: bool = False


def _pattern(aspect_name: str, disease: str | None, language: str) -> re.Pattern[str]:
    """The answer sentence's opening for ``disease`` (None: for any disease on one line)."""
    d = re.escape(disease) if disease is not None else (r"[^\n：:]{1,80}?" if language == "zh" else r"[^\n:]{1,120}?")
    a = re.escape(aspect_name)
    if language == "zh":
        return re.compile(rf"{d}\s*的\s*{a}\s*(?:为|包括|是|有)\s*[:：]?\s*", re.DOTALL)
    return re.compile(rf"(?:the\s+)?{a}\s+of\s+{d}\s+(?:include|includes|are|is|consist of)\s*:?\s*", re.IGNORECASE | re.DOTALL)


def answer_span(reply: str, aspect: str, disease: str, language: str) -> tuple[str, bool]:
    """The answer part of a reply, and whether the answer pattern was found."""
    name = get_aspect(aspect).name(language)
    match = _pattern(name, disease, language).search(reply)
    other = None if match else _pattern(name, None, language).search(reply)
    span = reply[(match or other).end():] if (match or other) else reply
    stop = _STOP.search(span)
    return (span[: stop.start()] if stop else span).strip(), match is not None


def rule_entities(text: str, language: str) -> list[str]:
    """Split on separators, strip bullets, lead-ins and "etc."; drop "None"; keep first spellings."""
    seen: set[str] = set()
    out: list[str] = []
    for part in _SPLIT.split(text):
        item = _TRAIL.sub("", _LEAD.sub("", _BULLET.sub("", part))).strip(" \t.。:：'\"“”()（）")
        key = item.casefold()
        if not item or key in _NONE or key in seen:
            continue
        seen.add(key)
        out.append(item)
    return out


@cache
def load_extractor(spec: str = "rules") -> EntityExtractor:
    """``rules`` or ``module:function`` (a callable ``(text, language) -> list[str]``)."""
    if spec == "rules":
        return rule_entities
    module, _, name = spec.partition(":")
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError, ValueError) as exc:
        raise MedprobeError(f"cannot load the entity extractor '{spec}': {exc}", field="-X extractor", hint="use module:function") from None


def first_number(text: str, language: str) -> float:
    found = _NUMBER.search(text.translate(_CN_DIGITS) if language == "zh" else text)
    return float(found.group()) if found else math.nan


def postprocess(reply: str, aspect: str, disease: str, language: str, extractor: EntityExtractor = rule_entities) -> Extracted:
    span, found = answer_span(reply, aspect, disease, language)
    if span.strip(" .。").casefold() in _NONE:
        return Extracted("", pattern_found=found, said_none=True)
    kind = get_aspect(aspect).type
    if kind is AspectType.ENUMERATED:
        entities = tuple(extractor(span, language))
        return Extracted(" ".join(entities), entities, pattern_found=found, said_none=not entities)
    if kind is AspectType.NUMERIC:
        number = first_number(span, language)
        return Extracted("" if math.isnan(number) else f"{number:g}", number=number, pattern_found=found)
    return Extracted(span, pattern_found=found)
