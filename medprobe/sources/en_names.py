"""English disease and finding names compared word by word.

Two uses. ``name_key`` tells whether two catalogue names are one disease ("Muscular dystrophy,
Becker" == "Becker muscular dystrophy"). ``restates_name`` tells whether a value would give its
own answer away: many rare diseases are named after their main findings, so "Sarcoma" among the
findings of liposarcoma, or "Mandibular prognathia" for autosomal dominant prognathism, is a key
that the question's wording already states. A value restates a name when one of its content
words is one of the name's, or the same word in another form: one contains the other (sarcoma,
liposarcoma; or the same code of letters and digits, C1q), or they share a start of at least six
letters that is most (70 %) of the shorter word (prognathia, prognathism; pigmentary, pigmentosa;
but not hypertelorism, hypertrophic). Words that name no finding of their own (abnormal,
congenital, syndrome, type, …) are not compared.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

_NAME_FILLER = frozenset({"type", "form", "the", "of", "and", "with", "a", "an", "to", "due", "in"})

#: words that qualify a finding or a disease rather than name one
GENERIC_WORDS = _NAME_FILLER | frozenset({
    "or", "by", "for", "on", "at", "from", "without", "abnormal", "abnormality", "abnormalities", "abnormally",
    "anomaly", "anomalies", "morphology", "disease", "disorder", "syndrome", "complex", "group", "variant",
    "susceptibility", "isolated", "nonsyndromic", "syndromic", "like", "associated", "related", "short", "long",
    "large", "small", "left", "right", "congenital", "progressive", "severe", "mild", "acute", "chronic",
    "hereditary", "familial", "autosomal", "dominant", "recessive", "linked", "x", "early", "late", "onset",
    "juvenile", "infantile", "adult", "childhood", "neonatal", "congenita", "primary", "secondary", "multiple",
    "partial", "total", "generalized", "bilateral", "unilateral", "increased", "decreased", "elevated", "reduced",
    "low", "high", "deficiency", "absent", "absence", "defect", "defects",
})

#: shortest word that counts as contained in another; the shared start that makes two words one,
#: in letters and as a share of the shorter word
_MIN_CONTAINED = 4
_MIN_SHARED_START = 6
_MIN_SHARED_SHARE = 0.7


def name_key(name: str) -> frozenset[str]:
    """A disease name as a set of lowercase words without filler words: equal keys, same disease."""
    return frozenset(w for w in re.findall(r"[a-z0-9]+", name.lower()) if w not in _NAME_FILLER)


def content_words(text: str) -> list[str]:
    """The lowercase words of a name that name something: no generic word, no number."""
    return [w for w in re.findall(r"[a-z0-9]+", text.casefold()) if w not in GENERIC_WORDS and not w.isdigit()]


def _same_word(a: str, b: str) -> bool:
    if a == b and not a.isalpha():  # a short code of letters and digits too: "C1q" of C1q deficiency, "CD8"
        return True
    shorter, longer = sorted((a, b), key=len)
    if len(shorter) >= _MIN_CONTAINED and shorter in longer:
        return True
    shared = len(os.path.commonprefix([a, b]))
    return shared >= _MIN_SHARED_START and shared >= _MIN_SHARED_SHARE * len(shorter)


def restates_name(value: str, names: Iterable[str]) -> bool:
    """Whether ``value`` holds one of the names whole, or shares a content word with one."""
    words = content_words(value)
    for name in names:
        if name.casefold() in value.casefold():
            return True
        if any(_same_word(w, n) for w in words for n in content_words(name)):
            return True
    return False
