"""Which findings of the built-in Chinese KB a question may key as a disease's, so that blind readers accept the key.

The graph's symptom lists were made by linking terms in a page's text, and blind readers reject about
one keyed finding in ten (躁狂 for pulmonary tuberculosis, 发绀 for achalasia, 大小便失禁 for amnesia).
Three checks, none of which needs the page text, keep a finding as a key only where the graph is
consistent with itself:

* it names a body region, one the disease's name, sites or departments name where they name any
  (``cmekg_values.fits``): a general finding (乏力) can only be picked by elimination;
* it is confirmed by the disease's ICD-10 chapter: at least ``CHAPTER_CONFIRMATIONS`` other diseases of
  the chapter list it, so a finding of an eye disease is one eye diseases have;
* the disease is no systemic disease (``systemic``: lupus, scleroderma, sarcoidosis), which may show any finding;
* the disease's keyable findings lie in at most ``MAX_REGIONS`` body regions: a disease that shows
  findings everywhere (Cushing syndrome, brucellosis, "癌症") makes every wrong option doubtful, so it is
  asked no finding question at all.

Where the English catalogue of common diseases knows the disease, a stronger rule replaces the three: only the
primary symptoms the catalogue also names are keys (``cmekg_confirm``: two independent sources agree).

A finding that fails stays in the KB, so it is never offered as a wrong option either.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from medprobe.sources.cmekg_confirm import confirmed_symptoms
from medprobe.sources.cmekg_values import fits, regions_of
from medprobe.sources.cmekg_vocab import default_vocabulary, disease_named
from medprobe.sources.kb import Disease

CHAPTER_CONFIRMATIONS = 2
MAX_REGIONS = 3
#: a tongue or pulse sign of Chinese medicine (舌红, 舌淡苔白, 苔黄腻, 脉弦数)
_TONGUE_OR_PULSE = re.compile(r"^舌[红淡质胖暗紫绛尖边]|苔[白黄腻薄厚]|脉[弦数细沉浮滑涩弱缓迟]")
#: ICD-10 categories of diseases of every organ (``systemic``)
SYSTEMIC_BLOCKS = frozenset({"M30", "M31", "M32", "M33", "M34", "M35", "M36", "D86", *(f"C{n}" for n in range(81, 97))})
_SYSTEMIC_NAME = re.compile(r"(白血病|淋巴瘤|骨髓瘤)$")
#: a diagnosis (…突出, a refractive error, …肥大), a urine test result (氨基酸尿, 蛋白尿) or a category (…异常, …紊乱)
_NO_SYMPTOM = re.compile(r"(突出|近视|远视|散光|肥大|(氨基酸|蛋白|糖|酮|胆红素|卟啉|血红蛋白|肌红蛋白)尿|异常|紊乱|失调|障碍|改变|病变)$")


def systemic(disease: Disease) -> bool:
    """Whether the disease is one of every organ: ICD-10 classes it as a systemic connective tissue disorder (M30–M36:
    lupus, scleroderma), sarcoidosis (D86) or a cancer of the blood or lymph (C81–C96), or its name says it is one
    (…白血病, …淋巴瘤, …骨髓瘤: the graph codes 白血病 M98, a morphology code). Any finding may belong to such a
    disease (a leukaemia bleeds and infiltrates anywhere), so none is a safe wrong option and it is asked no finding
    question."""
    codes = disease.codes.get("ICD10") or []
    return any(c[:3] in SYSTEMIC_BLOCKS for c in codes) or bool(_SYSTEMIC_NAME.search(disease.name))


def not_a_finding(term: str) -> bool:
    """Whether a term of a symptom list is no finding a wrong option may be: a disease (a page of the graph about
    one, or named like one: 湿疹, 咽后壁脓肿; the graph also files some findings such as 皮疹 as disease pages,
    and they are left out too, at no cost to precision), a body part (阴茎体), a tongue or pulse sign of Chinese
    medicine (舌红苔黄, 脉弦数), which belongs to a pattern that many diseases may show, or a diagnosis, a
    laboratory result or a category named like a finding (腰椎间盘突出, 近视, 氨基酸尿, 心血管异常, 月经紊乱:
    ``_NO_SYMPTOM``)."""
    vocabulary = default_vocabulary()
    body_part = vocabulary.kind(term) == "body part" or (term[-1:] in "体部" and vocabulary.kind(term[:-1]) == "body part")
    return (body_part or disease_named(term) or vocabulary.subjects.get(term) == "disease"
            or bool(_TONGUE_OR_PULSE.search(term) or _NO_SYMPTOM.search(term)))


def _chapter(disease: Disease) -> str | None:
    codes = disease.codes.get("ICD10") or []
    return codes[0][:1].upper() if codes else None


class ChineseKeys:
    """The keyable findings of one KB's diseases, with the chapter counts worked out once."""

    def __init__(self, diseases: Iterable[Disease], aspect: str) -> None:
        self.aspect = aspect
        self.by_chapter: dict[str, Counter[str]] = {}
        for disease in diseases:
            chapter = _chapter(disease)
            if chapter is not None:
                self.by_chapter.setdefault(chapter, Counter()).update(set(disease.values(aspect)))

    def keyable(self, disease: Disease, values: list[str]) -> list[str]:
        """Where the English catalogue knows the disease, only the symptoms it confirms, one spelling each
        (``cmekg_confirm``); elsewhere the three checks of the graph against itself."""
        if systemic(disease):
            return []
        confirmed = confirmed_symptoms(disease, values) if self.aspect == "primary_symptoms" else None
        if confirmed is not None:
            return confirmed
        chapter = _chapter(disease)
        counts = self.by_chapter.get(chapter or "", Counter())
        texts = [disease.name, *disease.values("anatomical_sites"), *disease.values("departments")]
        own = set(disease.values(self.aspect))
        kept = [v for v in values if fits(v, texts) and counts[v] - (v in own) >= CHAPTER_CONFIRMATIONS]
        if len(regions_of(kept)) > MAX_REGIONS:
            return []
        return kept
