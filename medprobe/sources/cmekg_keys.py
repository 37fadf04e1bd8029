"""Which findings of the built-in Chinese KB a question may key as a disease's, so that blind readers accept the key.

The graph's symptom lists were made by linking terms in a page's text, and blind readers reject about
one keyed finding in ten (躁狂 for pulmonary tuberculosis, 发绀 for achalasia, 大小便失禁 for amnesia).
Three checks, none of which needs the page text, keep a finding as a key only where the graph is
consistent with itself:

* it names a body region, one the disease's name, sites or departments name where they name any
  (``cmekg_values.fits``): a general finding (乏力) can only be picked by elimination;
* it is confirmed by the disease's ICD-10 chapter: at least ``CHAPTER_CONFIRMATIONS`` other diseases of
  the chapter list it, so a finding of an eye disease is one eye diseases have;
* the disease's keyable findings lie in at most ``MAX_REGIONS`` body regions: a disease that shows
  findings everywhere (Cushing syndrome, brucellosis, "癌症") makes every wrong option doubtful, so it is
  asked no finding question at all.

A finding that fails stays in the KB, so it is never offered as a wrong option either.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from medprobe.sources.cmekg_values import fits, regions
from medprobe.sources.kb import Disease

CHAPTER_CONFIRMATIONS = 2
MAX_REGIONS = 3


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
        chapter = _chapter(disease)
        counts = self.by_chapter.get(chapter or "", Counter())
        texts = [disease.name, *disease.values("anatomical_sites"), *disease.values("departments")]
        own = set(disease.values(self.aspect))
        kept = [v for v in values if fits(v, texts) and counts[v] - (v in own) >= CHAPTER_CONFIRMATIONS]
        if len(frozenset().union(*map(regions, kept))) > MAX_REGIONS:
            return []
        return kept
