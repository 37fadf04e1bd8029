"""Common diseases for the built-in English KB, from faker-healthcare-provider, merged with hpo3.

hpo3 knows rare diseases only. faker-healthcare-provider (MIT) ships a hand-curated English
catalogue of 158 common diseases (type 2 diabetes, asthma, pneumonia, migraine, …), each with an
ICD-10(-CM) code, symptoms, medications and a specialty, plus tables keyed by ICD-10 code of the
laboratory values and vital signs each condition pushes out of range and of who can have it.
The package generates synthetic test records from these tables; its rule for the laboratory and
vital-sign tables is "textbook and unambiguous for the unqualified condition". Taken as is:

  symptoms           -> primary_symptoms, minus any that restate the name ("Depression" for
                        depression, ``en_names.restates_name``); a symptom that names no site
                        ("Discharge", "Urgency") gets its disease's (``SYMPTOM_SITES``: "Ear
                        discharge" for otitis externa), or as a wrong option elsewhere it means nothing
  medications        -> medications; the package's own NON_DRUG_INTERVENTIONS among them go to
                        surgical_procedures (``OPERATIONS``) or treatment_principles, and the
                        placeholders "No Medications" and a bare "Surgery" are dropped
  medical_specialty  -> departments
  ICD-10 code        -> codes {"ICD10": [...]}; affected_body_systems and affected_sites from the
                        code's chapter or block (``ICD10_SYSTEMS``, ``ICD10_SITES``: only where the
                        classification itself names the system, e.g. I = circulatory; not for
                        infections, mental disorders, pregnancy or injuries)
  laboratory effects -> laboratory_examinations ("High fasting glucose; high hemoglobin A1c")
  vital-sign effects -> physical_examination ("High body temperature; low oxygen saturation")
  rating scales      -> auxiliary_examinations ("High PHQ-9 score; high MADRS score" for depression):
                        the package's CONDITION_ASSESSMENTS, the scales it scores for four conditions
  MeSH (``kb_mesh``)  -> anatomical_sites, and more affected_body_systems and patient_population
  demographics       -> patient_population (female or male: locked to one sex, or at least 70% of
                        patients; pregnant for chapter O) and prevalence_ages (the age groups at
                        least half inside a minimum or maximum age; bounds that only mark
                        reproductive age for a one-sex condition are no prevalence)

Names are written in sentence case like HPO's ("Type 2 diabetes"), keeping acronyms and
possessive eponyms ("Raynaud's phenomenon", "GnRH agonists"). Two entries sharing an ICD-10 code
(epilepsy and seizure disorder, G40.909) are one disease, the second name a synonym.

Merging with hpo3: a common disease whose name equals an hpo3 disease's name or synonym, compared
as ``en_names.name_key`` without possessives ("Crohn's disease" = "Crohn disease"), becomes
part of that disease: its id and name stay, the common name becomes a synonym, the common
symptoms are the primary ones and HPO's phenotypes the associated ones, systems and sites are
united, and every other aspect is added. The others are diseases of their own, ``ICD10:<code>``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from faker_healthcare.assessments import ASSESSMENT_INSTRUMENTS, CONDITION_ASSESSMENTS
from faker_healthcare.clinical_labels import CLINICAL_LABELS
from faker_healthcare.clinical_values import (
    CONDITION_LAB_EFFECTS,
    CONDITION_VITAL_EFFECTS,
    DEMOGRAPHIC_CONSTRAINTS,
)
from faker_healthcare.constants import NON_DRUG_INTERVENTIONS
from faker_healthcare.disease_correlations import DISEASE_CORRELATIONS

from medprobe.sources.en_names import name_key, restates_name
from medprobe.sources.kb import AspectValue, Disease
from medprobe.sources.kb_mesh import mesh_aspects

#: non-drug interventions of the catalogue that are operations; the rest are treatment principles
OPERATIONS = frozenset({"Chest Tube", "Cochlear Implants", "Pleurodesis", "Splenectomy", "Thoracentesis", "Vitrectomy"})
PLACEHOLDERS = frozenset({"No Medications", "Surgery"})
#: drug names that also name an organ ("Thyroid", the desiccated gland of hypothyroidism's list), written as
#: the drug, so that a medication is never read as a site
DRUG_NAMES = {"Thyroid": "Desiccated thyroid"}

#: catalogue values (by lower-cased disease name) that blind readers (BLIND_READING.md) rejected as the disease's, each at least twice or with
#: high confidence: levothyroxine only replaces the hormone after hyperthyroidism is ablated, erythropoietin treats
#: no pernicious anaemia, SGLT2 inhibitors, metformin and GLP-1 agonists are no type 1 diabetes drugs, antibiotics treat neither allergic
#: rhinitis nor (viral) acute bronchitis, "pain relievers" treat no aortic aneurysm
REJECTED: dict[str, frozenset[str]] = {
    "hyperthyroidism": frozenset({"Levothyroxine"}),
    "pernicious anemia": frozenset({"Erythropoietin"}),
    "type 1 diabetes": frozenset({"Empagliflozin", "Metformin", "Liraglutide"}),
    "allergic rhinitis": frozenset({"Azithromycin"}),
    "acute bronchitis": frozenset({"Azithromycin"}),
    "aortic aneurysm": frozenset({"Pain Relievers"}),
}
#: catalogue conditions without symptoms of their own: the catalogue lists those of their complications
#: (chest pain, numbness for hyperlipidemia), which readers reject as the condition's
SILENT = frozenset({"hyperlipidemia"})
#: catalogue symptoms that say where only through their disease ("Discharge" of otitis externa): offered
#: as a wrong option for another disease they mean nothing, so each gets its disease's site
SITELESS_SYMPTOMS = frozenset({"Discharge", "Leakage", "Frequency", "Urgency", "Gas", "Congestion", "Scaling", "Cysts",
                               "Warmth", "Discomfort", "Pain", "Spasms", "Bleeding"})
SYMPTOM_SITES: dict[str, str] = {
    "Otitis Externa": "ear", "Fecal Incontinence": "fecal", "Ulcerative Colitis": "fecal",
    "Interstitial Cystitis": "urinary", "Overactive Bladder": "urinary", "Urge Incontinence": "urinary",
    "Benign Prostatic Hyperplasia": "urinary", "Irritable Bowel Syndrome": "intestinal", "Allergic Rhinitis": "nasal",
    "Psoriasis": "skin", "Acne Vulgaris": "skin", "Cellulitis": "skin", "Basal Cell Carcinoma": "skin",
    "Deep Vein Thrombosis": "leg", "Hemorrhoids": "anal", "Anal Fissure": "anal", "Peripheral Neuropathy": "neuropathic",
    "Shingles": "dermatomal", "Carpal Tunnel Syndrome": "hand",
}

#: ICD-10 code ranges (first three characters, inclusive) -> body system, in the system names the
#: hpo3 builder uses; the first range holding a code wins
ICD10_SYSTEMS: tuple[tuple[str, str, str], ...] = (
    ("A00", "A09", "digestive system"),  # intestinal infectious diseases
    ("A15", "A16", "respiratory system"),  # respiratory tuberculosis
    ("B15", "B19", "digestive system"),  # viral hepatitis
    ("B20", "B24", "immune system"),  # HIV disease
    ("C00", "C26", "digestive system"),
    ("C30", "C39", "respiratory system"),
    ("C40", "C41", "musculoskeletal system"),
    ("C43", "C44", "integumentary system"),
    ("C51", "C68", "genitourinary system"),
    ("C70", "C72", "nervous system"),
    ("C73", "C75", "endocrine system"),
    ("C81", "C96", "blood and blood-forming tissues"),
    ("D50", "D77", "blood and blood-forming tissues"),
    ("D80", "D89", "immune system"),
    ("E00", "E35", "endocrine system"),
    ("G00", "G99", "nervous system"),
    ("I00", "I99", "cardiovascular system"),
    ("J00", "J99", "respiratory system"),
    ("K00", "K95", "digestive system"),
    ("L00", "L99", "integumentary system"),
    ("M00", "M99", "musculoskeletal system"),
    ("N00", "N99", "genitourinary system"),
    ("Q00", "Q07", "nervous system"),
    ("Q20", "Q28", "cardiovascular system"),
    ("Q60", "Q64", "genitourinary system"),
    ("R10", "R19", "digestive system"),
)
ICD10_SITES: tuple[tuple[str, str, str], ...] = (
    ("C50", "C50", "breast"),
    ("C69", "C69", "eye"),
    ("H00", "H59", "eye"),
    ("H60", "H95", "ear"),
)

#: age groups (medprobe's names, as in kb_hpo.AGE_GROUPS) and their spans in years
AGE_SPANS: tuple[tuple[str, int, int], ...] = (
    ("infant", 0, 1), ("toddler", 1, 3), ("child", 3, 12), ("adolescent", 12, 18),
    ("young adult", 18, 40), ("middle-aged", 40, 60), ("elderly", 60, 100),
)
ONE_SEX_SHARE = 0.7


@dataclass
class _Common:
    """One common disease as the catalogue gives it, its names in sentence case."""

    code: str
    names: list[str]
    aspects: dict[str, AspectValue]


#: the hpo3 diseases a catalogue disease is merged into (``merge_common``), written out so that a disease id
#: says whether it is a common disease without building the KB (``precision.common_disease``); a test checks the
#: list against the built KB
MERGED_IDS = frozenset({
    "OMIM:104300", "OMIM:115430", "OMIM:145500", "OMIM:156000", "OMIM:167000", "OMIM:170900", "OMIM:180300", "OMIM:181500",
    "OMIM:601665", "OMIM:614266", "ORPHA:586", "ORPHA:797", "ORPHA:37202", "ORPHA:91546", "ORPHA:98878", "ORPHA:99828",
    "ORPHA:275555",
})


def common_diseases() -> list[Disease]:
    """The catalogue's diseases as KB records of their own, ids ``ICD10:<code>``, sorted by id."""
    return sorted((_record(c) for c in _catalogue()), key=lambda d: d.id)


def merge_common(hpo: list[Disease]) -> list[Disease]:
    """The hpo3 diseases with the common ones merged in by name, then the unmatched common
    diseases; hpo3's order is kept."""
    by_key = {_key(name): i for i, d in enumerate(hpo) for name in (d.name, *d.synonyms)}
    merged = list(hpo)
    alone: list[Disease] = []
    for common in _catalogue():
        i = next((by_key[_key(n)] for n in common.names if _key(n) in by_key), None)
        if i is None:
            alone.append(_record(common))
        else:
            merged[i] = _merge(merged[i], common)
    return merged + sorted(alone, key=lambda d: d.id)


def _key(name: str) -> frozenset[str]:
    return name_key(re.sub(r"'s\b", "", name))


def _catalogue() -> list[_Common]:
    """One entry per ICD-10 code, in the catalogue's order."""
    by_code: dict[str, _Common] = {}
    for name, data in DISEASE_CORRELATIONS.items():
        code = data["icd10"]
        if code in by_code:
            by_code[code].names.append(sentence_case(name))
            continue
        by_code[code] = _Common(code, [sentence_case(name)], {})
    for common in by_code.values():
        entries = [n for n in DISEASE_CORRELATIONS if DISEASE_CORRELATIONS[n]["icd10"] == common.code]
        sources = [DISEASE_CORRELATIONS[n] for n in entries]
        catalogue = _aspects(common.code, common.names, [_sited(s, n) for n in entries for s in DISEASE_CORRELATIONS[n]["symptoms"]],
                             [m for d in sources for m in d["medications"]], [d["medical_specialty"] for d in sources])
        common.aspects = _united(catalogue, mesh_aspects(common.names))
    return list(by_code.values())


def _sited(symptom: str, disease: str) -> str:
    """A site-less catalogue symptom with its disease's site ("Discharge" of otitis externa -> "Ear
    discharge", "Urgency" of overactive bladder -> "Urinary urgency"); any other symptom as it is."""
    site = SYMPTOM_SITES.get(disease)
    return f"{site.capitalize()} {symptom.lower()}" if site and symptom in SITELESS_SYMPTOMS else symptom


def _aspects(code: str, names: list[str], symptoms: list[str], treatments: list[str], specialties: list[str]) -> dict[str, AspectValue]:
    wrong = {value.casefold() for name in names for value in REJECTED.get(name.casefold(), ())}
    symptoms = [] if any(name.casefold() in SILENT for name in names) else [s for s in symptoms if s.casefold() not in wrong]
    treatments = [t for t in treatments if t.casefold() not in wrong]
    drugs = [t for t in treatments if t not in NON_DRUG_INTERVENTIONS]
    others = [t for t in treatments if t in NON_DRUG_INTERVENTIONS and t not in PLACEHOLDERS]
    aspects: dict[str, AspectValue] = {
        "primary_symptoms": _unique(s for s in map(sentence_case, symptoms) if not restates_name(s, names)),
        "medications": _unique(sentence_case(DRUG_NAMES.get(d, d)) for d in drugs),
        "surgical_procedures": _unique(sentence_case(t) for t in others if t in OPERATIONS),
        "treatment_principles": _unique(sentence_case(t) for t in others if t not in OPERATIONS),
        "departments": _unique(specialties),
        "affected_body_systems": _in_ranges(code, ICD10_SYSTEMS),
        "affected_sites": _in_ranges(code, ICD10_SITES),
        "laboratory_examinations": _effects(CONDITION_LAB_EFFECTS.get(code, {})),
        "physical_examination": _effects(CONDITION_VITAL_EFFECTS.get(code, {})),
        "auxiliary_examinations": _scales(code),
        "patient_population": _population(code),
        "prevalence_ages": _ages(code),
    }
    return {k: v for k, v in aspects.items() if v}


def _united(first: dict[str, AspectValue], second: dict[str, AspectValue]) -> dict[str, AspectValue]:
    """Two sets of aspects in one: lists united in order ("female" from the catalogue, "pregnant"
    from MeSH), any other value of the first kept."""
    united = dict(first)
    for key, value in second.items():
        old = united.get(key)
        united[key] = _unique([*old, *value]) if isinstance(old, list) and isinstance(value, list) else old or value
    return united


def _record(common: _Common) -> Disease:
    name, *synonyms = common.names
    return Disease(id=f"ICD10:{common.code}", name=name, language="en", codes={"ICD10": [common.code]}, synonyms=synonyms, aspects=common.aspects)


def _merge(disease: Disease, common: _Common) -> Disease:
    """The hpo3 disease with the common one's knowledge added (see the module docstring)."""
    aspects = dict(disease.aspects)
    phenotypes = disease.values("primary_symptoms") + disease.values("associated_symptoms")
    for key, value in common.aspects.items():
        if key == "primary_symptoms":
            aspects["primary_symptoms"] = value
            associated = [p for p in phenotypes if p.casefold() not in {v.casefold() for v in value}]
            aspects.pop("associated_symptoms", None)
            aspects.update({"associated_symptoms": sorted(associated)} if associated else {})
        elif isinstance(value, list) and key in aspects:
            aspects[key] = sorted(set(disease.values(key)) | set(value))
        elif key in aspects and isinstance(value, str):
            aspects[key] = f"{aspects[key]}; {value}"
        else:
            aspects[key] = value
    synonyms = disease.synonyms + [n for n in common.names if n.casefold() != disease.name.casefold()]
    for key in ("primary_symptoms", "associated_symptoms"):  # the new names may be restated too
        kept = [v for v in aspects.get(key, []) if not restates_name(v, [disease.name, *synonyms])]
        aspects.pop(key, None)
        aspects.update({key: kept} if kept else {})
    codes = {**disease.codes, "ICD10": [common.code]}
    return disease.model_copy(update={"aspects": aspects, "synonyms": synonyms, "codes": codes})


def sentence_case(text: str, *, inline: bool = False) -> str:
    """ "Frequent Urination" -> "Frequent urination": every word part that is a capital followed
    by small letters is lowered, the first too when ``inline`` (for use inside a sentence);
    acronyms, mixed case and possessives stay ("IV Fluids" -> "IV fluids", "GnRH Agonists" ->
    "GnRH agonists", "Raynaud's Phenomenon" -> "Raynaud's phenomenon", "C-Reactive" ->
    "C-reactive")."""
    def lower(match: re.Match[str]) -> str:
        word = match.group(0)
        keep = (match.start() == 0 and not inline) or not re.fullmatch(r"[A-Z][a-z]+", word)
        return word if keep else word.lower()

    return re.sub(r"[A-Za-z]+(?:'s)?", lower, text)


def _effects(effects: dict[str, str]) -> str:
    """{"fasting_glucose": "high", "hba1c": "high"} -> "High fasting glucose; high hemoglobin A1c (HbA1c)"."""
    return _findings(f"{direction} {sentence_case(CLINICAL_LABELS[item], inline=True)}" for item, direction in effects.items())


def _scales(code: str) -> str:
    """The rating scales the condition scores abnormally on: "Low MMSE score" for Alzheimer's disease
    (a low MMSE is the abnormal one), "High PHQ-9 score; high MADRS score" for depression."""
    return _findings(f"{'high' if ASSESSMENT_INSTRUMENTS[s]['higher_is_worse'] else 'low'} {ASSESSMENT_INSTRUMENTS[s]['name']} score"
                     for s in CONDITION_ASSESSMENTS.get(code, ()))


def _findings(parts: Iterable[str]) -> str:
    """Findings as one text value, "; " between them and a capital first ("" for none)."""
    text = "; ".join(parts)
    return text[:1].upper() + text[1:]


def _in_ranges(code: str, ranges: tuple[tuple[str, str, str], ...]) -> list[str]:
    """The value of the first range holding the code's three-character category, if any."""
    return [value for first, last, value in ranges if first <= code[:3] <= last][:1]


def _population(code: str) -> list[str]:
    rule = DEMOGRAPHIC_CONSTRAINTS.get(code, {})
    share = {"female": 1.0, "male": 0.0}.get(rule.get("sex", ""), rule.get("female_probability"))
    groups = ["pregnant"] if code.startswith("O") else []
    if share is not None and share >= ONE_SEX_SHARE:
        groups.append("female")
    elif share is not None and share <= 1 - ONE_SEX_SHARE:
        groups.append("male")
    return groups


def _ages(code: str) -> list[str]:
    rule = DEMOGRAPHIC_CONSTRAINTS.get(code, {})
    if "sex" in rule and "max_age" in rule:
        return []  # a reproductive-age bound, not where the disease is common
    low, high = rule.get("min_age", 0), rule.get("max_age", 100)
    if (low, high) == (0, 100):
        return []
    return [group for group, start, end in AGE_SPANS if min(end, high) - max(start, low) >= (end - start) / 2]


def _unique(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(values))
