"""Which of a CMeKG disease's symptom values a question may key, beyond their kind.

The graph's symptom lists were made by linking terms in a web page's text, so a list holds, besides
the disease's symptoms, the bare words the linker found inside longer phrases (坏死 of 坏死性…, 结节
of 结节性红斑 or 舟骨结节, 痉挛 of 痉挛性疼痛), two findings run together (疲劳晨僵) and, for pages
about a symptom rather than a disease (恶心与呕吐), the causes of that symptom (溃疡病, 肠梗阻). A
clinician reads these as wrong keys. This module names them, so that the builder can drop or split them:

- ``unplaced_lesion``: a bare lesion word (溃疡, 结节, 坏死, 水肿, …) says nothing without a site, and
  is kept only for skin diseases, whose lesions are exactly these;
- ``child_only``: a finding only a baby shows (易烦躁哭闹, 吃奶差) is kept only for a disease of children;
- ``split_glued``: a one-off value made of two common symptoms is both (疲劳晨僵 -> 乏力, 晨僵);
- ``symptom_page``: a subject named as a symptom, coded in chapter R or joining symptoms (水肿,
  恶心与呕吐), is no disease.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from medprobe.sources.cmekg_codes import age_groups, icd10
from medprobe.sources.cmekg_values import CONJUNCTIONS, LESIONS, canonical, parts
from medprobe.sources.cmekg_vocab import SYMPTOM_PREDICATES, SYMPTOM_USES, Graph, Vocabulary

#: the lesions a skin disease shows (its site is the skin)
SKIN_LESIONS = LESIONS - {"痉挛", "充血"}
#: findings only a baby or an infant shows (哭闹, 吃奶差, 前囟隆起)
_CHILD_FINDING = re.compile(r"哭|吃奶|拒奶|吐奶|喂养|喂食|囟|尿布")
#: a disease of children by its name
_CHILD_DISEASE = re.compile(r"小儿|儿童|婴|新生儿|幼儿|胎|早产|患儿|儿科")
#: the age groups of ``cmekg_codes.AGE_GROUPS`` that are children
_CHILD_AGES = frozenset({"围生期", "新生儿", "婴儿", "幼儿", "儿童"})
#: the shortest half of a glued value
_MIN_HALF = 2


def confirmations(graph: Graph, vocabulary: Vocabulary) -> Counter[str]:
    """How many disease subjects name each symptom, in the KB's spelling (伴高热 and 高热 are one
    naming of 高热): a symptom one disease names is a phrase of one page, unconfirmed."""
    named: Counter[str] = Counter()
    for subject, po in graph.items():
        if vocabulary.subjects.get(subject) == "disease":
            named.update({canonical(p) for predicate in SYMPTOM_PREDICATES for v in po.get(predicate, ()) for p in parts(v, conjunctions=True)})
    return named


@dataclass(frozen=True)
class Sufferer:
    """What a disease's symptoms are judged against: whether it is a skin disease (its lesions need no
    site) and whether it is one of children (a baby's findings are its own)."""

    skin: bool
    child: bool


def is_skin_disease(po: dict[str, list[str]]) -> bool:
    """Seen in dermatology (皮肤科, 皮肤性病科) or coded in ICD-10 chapter L."""
    return any("皮肤" in d for d in po.get("就诊科室", ())) or any(c.startswith("L") for c in icd10(po).get("ICD10", []))


def is_child_disease(name: str, po: dict[str, list[str]]) -> bool:
    """Named for children (小儿…, 新生儿…), seen in paediatrics, or most common in a child age group."""
    return bool(_CHILD_DISEASE.search(name) or any(_CHILD_DISEASE.search(d) for d in po.get("就诊科室", ()))
                or _CHILD_AGES.intersection(age_groups(po.get("多发群体", []))))


def child_only(value: str, child: bool) -> bool:
    """A baby's finding (哭闹, 吃奶差) among the symptoms of a disease that is not one of children."""
    return not child and bool(_CHILD_FINDING.search(value))


def unplaced_lesion(value: str, skin: bool) -> bool:
    """A bare lesion word among the symptoms of a disease whose site is not the skin (坏死 and 痉挛 of
    an eye disease, 结节 of a fracture's 舟骨结节)."""
    return value in LESIONS and not (skin and value in SKIN_LESIONS)


def split_glued(value: str, vocabulary: Vocabulary) -> list[str]:
    """A value no other disease names, made of two symptoms that several do, is those two, spelled (疲劳晨僵 ->
    乏力, 晨僵; 头晕乏力 -> 头晕, 乏力); anything else is returned whole."""
    if vocabulary.symptom_uses[value] >= 2:
        return [value]
    for cut in range(_MIN_HALF, len(value) - _MIN_HALF + 1):
        halves = [canonical(value[:cut]), canonical(value[cut:])]
        if all(vocabulary.symptom_uses[h] >= SYMPTOM_USES and vocabulary.kind(h) == "symptom" for h in halves):
            return halves
    return [value]


def symptom_page(name: str, po: dict[str, list[str]], vocabulary: Vocabulary) -> bool:
    """A page about a symptom, not a disease: named as a symptom and coded only in ICD-10 chapter R
    (水肿 R60.9), or joining two symptoms (恶心与呕吐); its symptom list holds the symptom's causes."""
    if vocabulary.kind(name) != "symptom":
        return False
    codes = icd10(po).get("ICD10", [])
    pieces = CONJUNCTIONS.split(name)
    joined = len(pieces) > 1 and all(vocabulary.kind(p) == "symptom" for p in pieces)
    return joined or (bool(codes) and all(c.startswith("R") for c in codes))
