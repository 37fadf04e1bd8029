"""Turning a recall reply into something comparable with the knowledge base (paper 000,
Appendix D and E), and saying how each reply was read.

1. Clean-up: a reasoning block (``<think>…</think>``) is removed; the reply is cut at the
   setting's stop strings, exactly where generation stops, so a replayed reply (recorded
   without stops) and a live one score the same.
2. The answer span: the text after the answer pattern the examples showed ("The <aspect> of
   <disease> include:" / "<disease>的<aspect>包括："; in English also the singular aspect name,
   "for" or "in" for "of", and "Common symptoms" for the primary symptoms). A reply that uses the
   pattern with another disease's name (small models copy an example) loses that prefix too, so
   its words are not scored; only the right disease counts as "pattern found". Without the
   pattern, a first sentence that names the aspect or the disease in other words and ends in
   "include(s):" / "包括：" ("Hello, based on your description, abnormal laboratory test results
   for X include: …", "Departments involved in X include: None") is a lead-in and is dropped too
   (the paper's Table 16 scores only what follows it); otherwise the reply is kept whole, as in
   the paper. Acknowledgements that open the reply ("Ok, I see.", "好的，我明白了") are no answer.
   The answer ends where a new answer sentence begins.
3. What follows the answer is cut: chatter ("I hope this helps", "Note: …", 希望对您有帮助,
   建议及时就医) from its first sentence on, and, after a blank line, any paragraph that is
   neither a list nor announced by a line ending in a colon. Chat models put their lists after
   a blank line, so a blank line alone never ends the answer.
4. By aspect type: enumerated -> a list of entities (``medprobe.methods.meddisk.entities``;
   pluggable with ``-X extractor=module:function``), numeric -> the severity level the reply
   gives, declarative -> the span. "None" / 无 (the instructed answer for unknown) -> empty.

Every reply is read by one rule family, tallied per aspect in the report: "answer pattern",
"pattern, other name", "lead-in", "whole reply" (the span's source), "number" / "unparsed: no number" / "unparsed: several
numbers" (severity level), "none", "unparsed" (nothing left to score) and "no reply".
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
from medprobe.methods.meddisk.build import STOPS
from medprobe.methods.meddisk.entities import BULLET, is_none, rule_entities
from medprobe.parsing.reading import UNPARSED
from medprobe.parsing.reply_text import strip_reasoning

EntityExtractor = Callable[[str, str], list[str]]

ANSWER_PATTERN = "answer pattern"
OTHER_NAME = "pattern, other name"
LEAD_IN = "lead-in"
WHOLE_REPLY = "whole reply"
SAID_NONE = "none"
NUMBER = "number"
NO_NUMBER = "unparsed: no number"
SEVERAL_NUMBERS = "unparsed: several numbers"

_BLANK_LINE = re.compile(r"\n[ \t]*\n")
#: a line that announces what follows: it ends in a colon, or is a 【heading】 of its own
_LEAD_IN = re.compile(r"[:：][*_\s]*$|^[*_\s]*【[^】\n]*】[*_\s]*$")
_CHATTER_EN = (
    r"I hope|Hope (?:this|that|it)|Let me know|Feel free|Please (?:consult|note|seek|see|remember|keep|let)|"
    r"Notes?\s*:|Note that|Disclaimer|Keep in mind|Remember\b|It(?: is|'s) (?:important|essential|always|best|advisable|recommended)|"
    r"Consult (?:a|an|your|with)|Always consult|If you (?:have|are|suspect|experience|think|need|notice)|"
    r"As an AI|I(?: am|'m) not a (?:doctor|medical|physician)"
)
_CHATTER_ZH = (
    r"希望(?:以上|这些|对您|能|本)|以上(?:信息|内容|回答|仅供|建议)|仅供参考|如有(?:疑问|不适|需要|其他|任何)|"
    r"请(?:咨询|及时就|尽早就|尽快就|在医生|遵医嘱|到医院|注意)|建议(?:您|咨询|及时就|尽早就|尽快就|就医|到医院|前往医院)|"
    r"(?:温馨)?提示[:：]|注意[:：]|注[:：]|备注[:：]|需要注意的是|免责声明"
)
# Chatter counts from the start of a line, a sentence or a list item.
_CHATTER = re.compile(
    rf"(?:^|(?<=[.!?。！？;；,，、]))[ \t]*(?:[-*•>]\s*)?[*_]*(?:{_CHATTER_EN}|{_CHATTER_ZH})", re.IGNORECASE | re.MULTILINE
)
_SENTENCE_END = re.compile(r"[。！？!?；;\n]|\.(?=\s|$)")
# A Chinese numeral counts only before 级 (三级, 第二级): 等级一般为三级 gives 3, not the 一 of 一般.
_LEVEL_PHRASE = re.compile(
    r"(?:level|grade)\s*(?:is\s*)?[:：]?\s*(\d+)|(\d+|[一二三四])\s*级|等级\s*(?:为|是|属于)?\s*[:：]?\s*第?\s*(\d+)",
    re.IGNORECASE,
)
_BARE_NUMBER = re.compile(r"(?<![\d.])\d+(?!\.?\d)")
_HAN_DIGITS = {"一": 1, "二": 2, "三": 3, "四": 4}
#: other English names the answer sentence uses for an aspect (the Chinese name of the primary symptoms is 常见症状)
_EN_ALIASES = {"primary_symptoms": ("common symptoms", "main symptoms")}
#: a first sentence ending in "include:" and the like: the lead-in to an answer, when it names the aspect or the disease
_LEAD_IN_EN = re.compile(r"^[^.!?\n]{0,200}?\b(?:include|includes|comprise|comprises|consists? of|are\s*:|is\s*:)(?:\s*:)?\s*", re.IGNORECASE)
_LEAD_IN_ZH = re.compile(r"^[^。！？\n]{0,80}?(?:包括|包含|主要有|有以下|如下)\s*[:：]?\s*")
_WORD = re.compile(r"[a-z]{4,}")
#: acknowledgements with no answer in them, at the start of a reply
_FILLER = re.compile(
    r"^(?:(?:ok(?:ay)?|sure|alright|all right|i see|got it|understood|好的|好|嗯|明白了|我明白了|我知道了|收到|了解)"
    r"(?=[\s,，.。!！、]|$)[\s,，.。!！、]*)+",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Extracted:
    """A post-processed answer: ``text`` is what gets scored (entities joined by spaces for
    enumerated aspects), ``rule`` the family that read it, ``entities`` the list, ``number``
    the severity level (NaN when none was read)."""

    text: str
    rule: str
    entities: tuple[str, ...] = ()
    number: float = math.nan
    pattern_found: bool = False

    @property
    def said_none(self) -> bool:
        return self.rule == SAID_NONE


@dataclass(frozen=True)
class Span:
    """The answer part of a reply and where it came from (answer pattern, other name, whole reply)."""

    text: str
    source: str


def _en_names(aspect: str) -> str:
    """The aspect's English name as the answer sentence may write it: also singular, also an alias."""
    names = (get_aspect(aspect).en, *_EN_ALIASES.get(aspect, ()))
    return "|".join(re.escape(n[:-1]) + "s?" if n.endswith("s") else re.escape(n) for n in names)


def _pattern(aspect: str, disease: str | None, language: str) -> re.Pattern[str]:
    """The answer sentence's opening for ``disease`` (None: for any disease on one line)."""
    d = re.escape(disease) if disease is not None else (r"[^\n：:]{1,80}?" if language == "zh" else r"[^\n:]{1,120}?")
    if language == "zh":
        a = re.escape(get_aspect(aspect).zh)
        verb = r"(?:主要|一般|通常|常见)?(?:为|包括|是|有|如下)(?!什么|哪)"  # not the restated question (是什么？)
        return re.compile(rf"{d}\s*的\s*{a}\s*(?:{verb}\s*[:：]?|[:：])\s*", re.DOTALL)
    verb = r"(?:\s+(?:may|can|commonly|typically|usually|often|mainly))?\s+(?:include|includes|are|is|consists? of)\b"
    return re.compile(rf"(?:the\s+)?(?:{_en_names(aspect)})\s+(?:of|for|in)\s+{d}(?:{verb}\s*:?|\s*:)\s*", re.IGNORECASE | re.DOTALL)


def _names_it(prefix: str, aspect: str, disease: str, language: str) -> bool:
    """Whether a lead-in names the aspect or the disease, in other words too: an English word of four
    letters or more (plural or not) from either name, or two Chinese characters in a row from either."""
    names = (get_aspect(aspect).name(language), disease)
    if language == "zh":
        return any(name[i : i + 2] in prefix for name in names for i in range(len(name) - 1))
    stem = {w.rstrip("s") for name in names for w in _WORD.findall(name.casefold())}
    return any(w.rstrip("s") in stem for w in _WORD.findall(prefix.casefold()))


def _lead_in(text: str, aspect: str, disease: str, language: str) -> int:
    """Where the answer starts after a lead-in sentence (0: there is none)."""
    found = (_LEAD_IN_ZH if language == "zh" else _LEAD_IN_EN).match(text)
    return found.end() if found and _names_it(found.group(), aspect, disease, language) else 0


def cut_at_stops(reply: str, stops: list[str]) -> str:
    """The reply up to the first stop string, as generation with these stops would have ended it."""
    ends = [i for i in (reply.find(stop) for stop in stops) if i >= 0]
    return reply[: min(ends)] if ends else reply


def _answer_part(text: str) -> str:
    """The answer without what follows it: chatter from its first sentence on (unless the text opens
    with it), then the first paragraph and the list paragraphs that continue it."""
    text = text.strip()
    chatter = next((m for m in _CHATTER.finditer(text) if m.start() > 0), None)
    if chatter:
        text = text[: chatter.start()]
    kept: list[str] = []
    for block in (b.strip() for b in _BLANK_LINE.split(text)):
        if not block:
            continue
        continues = BULLET.match(block) or _LEAD_IN.search(block.split("\n", 1)[0])
        if kept and not (continues or _LEAD_IN.search(kept[-1])):
            break
        kept.append(block)
    return "\n".join(kept).strip()


def answer_span(reply: str, aspect: str, disease: str, language: str, setting: str = "instruct") -> Span:
    """The answer part of a (reasoning-free) reply, and where it came from."""
    text = _FILLER.sub("", cut_at_stops(reply, STOPS[setting]).strip())
    match = _pattern(aspect, disease, language).search(text)
    other = None if match else _pattern(aspect, None, language).search(text)
    found = match or other
    lead_in = 0 if found else _lead_in(text, aspect, disease, language)
    source = ANSWER_PATTERN if match else OTHER_NAME if other else LEAD_IN if lead_in else WHOLE_REPLY
    text = text[found.end() if found else lead_in :]
    again = _pattern(aspect, None, language).search(text)  # a new answer sentence (a copied example) ends this one
    return Span(_answer_part(text[: again.start()] if again else text), source)


def _level_value(numeral: str) -> int:
    return _HAN_DIGITS[numeral] if numeral in _HAN_DIGITS else int(numeral)


def level_number(text: str) -> tuple[float, str]:
    """The severity level a reply gives, and the rule family: "number", "no number" or "several numbers".

    The first sentence that names a number decides. A level phrase ("4级", "三级", "level 2",
    "等级为3") wins over other numbers in its sentence, so 一 in 一般 or "24 hours" are not levels;
    a sentence naming two different levels is not read (no guessing). A bare Chinese numeral is read
    only as the whole answer ("三").
    """
    if text.strip(" .。") in _HAN_DIGITS:
        return float(_HAN_DIGITS[text.strip(" .。")]), NUMBER
    for sentence in _SENTENCE_END.split(text):
        levels = {_level_value(next(g for g in m.groups() if g)) for m in _LEVEL_PHRASE.finditer(sentence)}
        values = levels or {int(m.group()) for m in _BARE_NUMBER.finditer(sentence)}
        if len(values) == 1:
            return float(values.pop()), NUMBER
        if values:
            return math.nan, SEVERAL_NUMBERS
    return math.nan, NO_NUMBER


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


def postprocess(
    reply: str, aspect: str, disease: str, language: str, extractor: EntityExtractor = rule_entities, setting: str = "instruct"
) -> Extracted:
    """Read one reply (see the module docstring); an empty or all-reasoning reply is "unparsed"."""
    cleaned = strip_reasoning(reply)
    if cleaned.unfinished or not cleaned.text:
        return Extracted("", UNPARSED)
    span = answer_span(cleaned.text, aspect, disease, language, setting)
    found = span.source == ANSWER_PATTERN
    if is_none(span.text):
        return Extracted("", SAID_NONE, pattern_found=found)
    kind = get_aspect(aspect).type
    if kind is AspectType.NUMERIC:
        number, rule = level_number(span.text)
        return Extracted("" if math.isnan(number) else f"{number:g}", rule, number=number, pattern_found=found)
    if kind is AspectType.ENUMERATED:  # headings ("Less common:") name no entity
        entities = tuple(extractor("\n".join(line for line in span.text.splitlines() if not _LEAD_IN.search(line)), language))
        return Extracted(" ".join(entities), span.source if entities else UNPARSED, entities, pattern_found=found)
    return Extracted(span.text, span.source if span.text else UNPARSED, pattern_found=found)
