"""The rules behind ``medprobe kb audit``: what makes one value, or a pair of values, a bad basis for a question.

Each rule is a pure function of the text (and, where it needs them, the disease's names or its other
values) that returns why the value is flagged, or None. They know nothing of any builder: the audit
measures the builders, so it must not share their filters. Word lists are short and only back up
structural tests (what a value is made of, where it starts and ends, what it shares with its neighbours).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from functools import lru_cache
from typing import TYPE_CHECKING

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

if TYPE_CHECKING:
    from medprobe.sources.kb import Disease

#: aspect families: values of one family are things of one kind (findings, body parts, people, treatments,
#: tests, departments); a value found in two families of one disease is in at least one of them by mistake.
#: ``extra.examinations`` holds test names where a builder keeps them apart from the abnormal results
FAMILIES: dict[str, str] = {
    "primary_symptoms": "findings", "associated_symptoms": "findings", "differential_symptoms": "findings",
    "physical_examination": "findings", "secondary_diseases": "findings", "uncommon_symptoms": "findings",
    "anatomical_sites": "body", "affected_sites": "body", "affected_body_systems": "body",
    "patient_population": "people", "prevalence_ages": "people", "onset_ages": "people",
    "treatment_principles": "treatment", "medications": "treatment", "surgical_procedures": "treatment",
    "laboratory_examinations": "tests", "auxiliary_examinations": "tests", "extra.examinations": "tests",
    "departments": "departments",
}
SYMPTOM_KEYS = frozenset({"primary_symptoms", "associated_symptoms", "differential_symptoms", "physical_examination"})
#: single characters name organs in Chinese (眼, 肺, 肾), so sites may be one character long
SITE_KEYS = frozenset({"anatomical_sites", "affected_sites"})



def _keys(*families: str) -> frozenset[str]:
    return frozenset(key for key, family in FAMILIES.items() if family in families)


def family_values(disease: Disease, key: str) -> list[str]:
    """The disease's values under ``key`` and under the other aspects of its family (all findings for a
    symptom aspect, all treatments for medications): whatever the disease has under a sibling aspect is
    true of it, so a question can never offer it as wrong, and the audit compares wrong options with it."""
    family = FAMILIES.get(key)
    keys = [k for k, f in FAMILIES.items() if f == family] if family else [key]
    return [v for k in dict.fromkeys([key, *keys]) for v in disease.values(k)]


_TREATMENT_PRINCIPLES = frozenset({"treatment_principles"})
#: the aspects a value of each kind (as ``entity_kind`` functions name kinds) may be a value of. Findings
#: are often named as diseases (白内障, 贫血), laboratory tests by the substance they measure (尿素, 肌酐) and
#: examinations by the procedure (心导管术); no aspect asks for an organism (a cause, kept under ``extra``),
#: a place, a unit or a measurement; a kind not listed here is not judged
KIND_ASPECTS: dict[str, frozenset[str]] = {
    "symptom": _keys("findings", "tests"),
    "disease": _keys("findings"),
    "body part": _keys("body"),
    "population": _keys("people"),
    "drug": frozenset({"medications", "laboratory_examinations"}) | _TREATMENT_PRINCIPLES,
    "herb": frozenset({"medications"}) | _TREATMENT_PRINCIPLES,
    "procedure": frozenset({"surgical_procedures"}) | _TREATMENT_PRINCIPLES | _keys("tests"),
    "treatment": _TREATMENT_PRINCIPLES,
    "test": _keys("tests"),
    "department": _keys("departments"),
    "organism": frozenset(),
    "place": frozenset(),
    "unit": frozenset(),
    "measurement": frozenset(),
}

UNITS = frozenset({
    "mg", "g", "kg", "μg", "µg", "ug", "mcg", "ng", "pg", "ml", "l", "dl", "mmol", "μmol", "µmol", "umol", "nmol",
    "pmol", "mol", "meq", "mmhg", "kpa", "cm", "mm", "iu", "u", "miu", "bpm", "min", "h", "°", "℃", "°c",
    "次", "分", "分钟", "秒", "小时", "天", "日", "周", "月", "克", "毫克", "微克", "毫升", "升", "千克", "公斤", "厘米", "毫米",
    "单位", "毫摩尔",
})
_UNIT_TOKENS = re.compile(r"[A-Za-zμµ°℃]+|[\u4e00-\u9fff]+")
_CODE = re.compile(r"[A-Za-z]\d")

PLACES = frozenset({
    "中国", "美国", "日本", "英国", "法国", "德国", "韩国", "朝鲜", "俄罗斯", "印度", "意大利", "西班牙", "加拿大", "澳大利亚",
    "巴西", "墨西哥", "埃及", "非洲", "亚洲", "欧洲", "美洲", "北美", "南美", "东南亚", "中东", "纽约", "伦敦", "巴黎", "东京",
    "北京", "上海", "广州", "深圳", "香港", "台湾", "广东", "广西", "云南", "四川", "新疆", "西藏", "华南", "华北", "江南",
    "africa", "asia", "europe", "america", "north america", "south america", "japan", "china", "india", "usa",
    "united states", "new york", "london", "paris", "canada", "australia", "mexico", "brazil", "egypt",
    "mediterranean region", "middle east", "southeast asia",
})
_PLACE_NAME = re.compile(r"^[\u4e00-\u9fff]{1,5}(国|洲|省|市|县)$")
#: everyday words with no medical sense that scraped graphs pick up from sentences
NON_MEDICAL = frozenset({
    "球赛", "比赛", "游戏", "电视", "电影", "旅游", "旅行", "购物", "唱歌", "跳舞", "音乐", "足球", "篮球", "新闻", "报纸", "天气",
    "football", "television", "movie", "holiday", "shopping", "music", "weather", "newspaper",
})
_PARTS = re.compile(r"\s*(?:[、，,;；/]|和|及|与|或|\band\b|\bor\b)\s*", re.IGNORECASE)

_BRACKETS = (("(", ")"), ("（", "）"), ("[", "]"), ("【", "】"), ("《", "》"), ("“", "”"), ("{", "}"))
_EDGE_PUNCTUATION = set(",，、;；:：。.!！?？-—–~～/\\|·…")
_CONNECTIVES_START = {
    "zh": ("伴有", "伴", "以及", "及", "或者", "或", "与", "如", "例如", "特别是", "尤其是", "尤其", "等", "的", "但", "而且", "并且"),
    "en": ("and", "or", "with", "of", "the", "to", "in", "for", "by", "as", "such as", "e.g.", "including", "especially", "but"),
}
_CONNECTIVES_END = {
    "zh": ("等", "及", "以及", "和", "或", "与", "之前", "之后", "以前", "以后", "时", "的", "而", "并", "伴", "包括", "例如"),
    "en": ("and", "or", "with", "of", "the", "to", "in", "for", "by", "as", "such", "including", "e.g."),
}
#: what joins two entities into one value ("咳嗽及咯血", "nausea and vomiting")
_JOINERS = {"zh": re.compile(r"以及|及其|伴有|[和或及与、，,伴并]"), "en": re.compile(r" and | or ")}

#: characters that add no sense to a Chinese term (关节痛 / 关节疼痛, 情绪不稳 / 情绪不稳定)
_FILLER_ZH = frozenset("的性有之样状感度定疼")
_GENERIC_SUFFIXES = ("检查", "检测", "测定", "试验", "治疗", "疗法", "摄影", "摄片", "成像", "扫描", "片")
_FILLER_EN = frozenset({"of", "the", "a", "an", "and", "or", "in", "on", "with", "to", "type", "form", "due", "syndrome", "disease"})
_ROMAN = re.compile(r"^[ivxl]+$")
_WORD = re.compile(r"[a-z0-9_]+")
_NOT_PLURAL = ("ss", "is", "us", "ys")
NAME_RATIO = 90.0


@lru_cache(maxsize=1 << 18)
def norm(text: str) -> str:
    """Case and spacing folded: the form under which two values count as the same value."""
    return " ".join(text.casefold().split())


def one_character(text: str) -> str | None:
    return "one character" if len(text.strip()) == 1 else None


@lru_cache(maxsize=1 << 18)
def number_or_unit(text: str) -> str | None:
    """A value made only of numbers, units and signs ("dL", "10%", "93 mmHg"): a measurement's leftover.
    Letters run into a number are a code, not a unit (CM4620)."""
    tokens = _UNIT_TOKENS.findall(text)
    if not tokens:
        return "a number" if re.search(r"\d", text) else None
    if _CODE.search(text):
        return None
    return "a unit or measurement" if all(t.casefold() in UNITS for t in tokens) else None


@lru_cache(maxsize=1 << 18)
def non_medical(text: str) -> str | None:
    """A value made only of place names ("纽约和日本") or of everyday words ("球赛")."""
    parts = [p for p in _PARTS.split(norm(text)) if p]
    if not parts:
        return None
    if all(p in PLACES or _PLACE_NAME.match(p) for p in parts):
        return "a place name"
    if all(p in NON_MEDICAL for p in parts):
        return "not a medical term"
    return None


@lru_cache(maxsize=1 << 18)
def unbalanced(text: str) -> str | None:
    for opening, closing in _BRACKETS:
        if text.count(opening) != text.count(closing):
            return f"unbalanced {opening}{closing}"
    return "unbalanced quote" if text.count('"') % 2 else None


@lru_cache(maxsize=1 << 18)
def ragged_edge(text: str, language: str) -> str | None:
    """Starts or ends with punctuation or a connective: what splitting a sentence at commas leaves."""
    text = text.strip()
    if text[0] in _EDGE_PUNCTUATION:
        return f"starts with '{text[0]}'"
    if text[-1] in _EDGE_PUNCTUATION:
        return f"ends with '{text[-1]}'"
    folded = text.casefold()
    spaced = language != "zh"
    for word in _CONNECTIVES_START[_lang(language)]:
        if folded.startswith(word + " " if spaced else word) and len(folded) > len(word):
            return f"starts with '{word}'"
    for word in _CONNECTIVES_END[_lang(language)]:
        if folded.endswith(" " + word if spaced else word) and len(folded) > len(word):
            return f"ends with '{word}'"
    return None


def joins(text: str, others: set[str], language: str) -> str | None:
    """The value joins another value of the disease to more text ("咳嗽及咯血" beside "咳嗽"): a value
    the source split in one place and not in another, so the KB holds both the whole and a part.
    ``others`` are the disease's values, folded (``norm``)."""
    folded = norm(text)
    for joiner in _JOINERS[_lang(language)].finditer(folded):
        for part in (folded[: joiner.start()], folded[joiner.end() :]):
            if len(part) >= 2 and part in others:
                return f"joins '{part}'"
    return None


@lru_cache(maxsize=1 << 18)
def duplicate_key(text: str) -> str:
    """A value without case, spacing, punctuation and generic suffixes (检查, 治疗): two values with one key
    are one value spelled twice (胸部X线检查, 胸部 X线)."""
    key = re.sub(r"[\W_]+", "", text.casefold())
    for suffix in _GENERIC_SUFFIXES:
        if key.endswith(suffix) and len(key) > len(suffix) + 1:
            return key[: -len(suffix)]
    return key


def duplicates(values: list[str], language: str) -> dict[int, int]:
    """Values of one disease and aspect that repeat an earlier one: index -> index of the earlier value.

    The same key (``duplicate_key``) is a repeat in any language. Languages written with spaces: also the
    same words in another order or number ("Muscular dystrophy, Becker" / "Becker muscular dystrophies").
    Chinese: also the same value with one or two filler characters more (的, 性, 有, 样, 疼, …: 关节痛 /
    关节疼痛, 遗传皮肤病 / 遗传性皮肤病). Similar spelling alone is no repeat: 脾肿大 and 肝脾肿大,
    hyporeflexia and hyperreflexia differ in a character or two and are different findings.
    """
    found: dict[int, int] = {}
    first: dict[tuple[str, object], int] = {}
    for index, value in enumerate(values):
        key = duplicate_key(value)
        signatures: list[tuple[str, object]] = [("key", key)] if key else []
        if language != "zh":
            signatures.append(("words", _word_set(value)))
        for signature in signatures:
            earlier = first.setdefault(signature, index)
            if earlier != index and index not in found:
                found[index] = earlier
        if language == "zh" and index not in found:
            match = next((j for j in range(index) if _filler_apart(duplicate_key(values[j]), key)), None)
            if match is not None:
                found[index] = match
    return found


def _filler_apart(a: str, b: str) -> bool:
    """One key is the other with one or two filler characters more."""
    short, long = sorted((a, b), key=len)
    extra = len(long) - len(short)
    if not 1 <= extra <= 2 or len(short) < 2 or Indel.distance(short, long) != extra:
        return False
    return set(Counter(long) - Counter(short)) <= _FILLER_ZH


def restates(text: str, names: list[str], language: str) -> str | None:
    """The value says the disease's name again: the name or a part of it (Liposarcoma's "Sarcoma",
    阑尾炎's "急性阑尾炎", "Mandibular prognathia" for "Prognathism, mandibular"), so the question answers itself."""
    for name in names:
        if language == "zh":
            value, own = duplicate_key(text), duplicate_key(name)
            if len(value) >= 2 and len(own) >= 2 and (value in own or own in value or fuzz.ratio(value, own) >= NAME_RATIO):
                return f"restates '{name}'"
            continue
        words = [w for w in _words(text) if w not in _FILLER_EN and not _numeric(w)]
        own_words = _words(name)
        if words and all(any(_same_word(w, o) for o in own_words) for w in words):
            return f"restates '{name}'"
    return None


def _same_word(word: str, name_word: str) -> bool:
    """Equal, the same stem with another ending (prognathia/prognathism: at least five letters in common,
    endings of at most three letters, one of them at most two), or the tail of a compound name word
    (sarcoma/liposarcoma). Words that differ inside or in a longer ending (arthritis/arteritis,
    spondylolysis/spondylosis, hepatomegaly/hepatic) are other words."""
    if word == name_word:
        return True
    if len(word) < 5:
        return False
    common = len(os.path.commonprefix([word, name_word]))
    endings = sorted((len(word) - common, len(name_word) - common))
    return name_word.endswith(word) or (common >= 5 and endings[1] <= 3 and endings[0] <= 2)


@lru_cache(maxsize=1 << 18)
def _words(text: str) -> tuple[str, ...]:
    """Lower-case words with a plural -s dropped, so that 'fingernails' and 'fingernail' are one word
    (not the -s of -ss, -is, -us, -ys: spondylosis, stenosis)."""
    return tuple(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith(_NOT_PLURAL) else w for w in _WORD.findall(text.casefold()))


@lru_cache(maxsize=1 << 18)
def _word_set(text: str) -> tuple[str, ...]:
    """The words of a value in sorted order; a hyphenated or slashed compound is one word, since its
    order carries sense (right-to-left / left-to-right shunt)."""
    return tuple(sorted(_words(re.sub(r"(?<=\w)[-/](?=\w)", "_", text))))


def _numeric(word: str) -> bool:
    return word.isdigit() or bool(_ROMAN.match(word)) or any(c.isdigit() for c in word)


def _lang(language: str) -> str:
    return "zh" if language == "zh" else "en"
