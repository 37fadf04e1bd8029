"""End-point scoring of a MultiCogEval full-path episode: is the final diagnosis the case's disease?

Reproduces ``get_diagnosis_results`` of the public reference (THUMLP/MultiCogEval,
``scripts/tools/high_level_tools.py``) as recorded in REFERENCE_METHODS §5.4; the alias table is
a fact copied from it. What the reference rules reject is then tried with medprobe's own rules
for wording, abbreviations and ontology synonyms (:mod:`medprobe.methods.multicog.dialogue.disease_names`):
the reference's labels are its own 42 MIMIC diseases, while other case sets label diseases as
clinicians write them ("Huntington disease", "Papillary carcinoma of the thyroid", "Valley fever").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

from medprobe.methods.multicog.dialogue.disease_names import abbreviated, synonyms, worded_alike

_DIAGNOSIS = re.compile(r"diagnosis:(.*?)(?:treatment:|treatment plan:|\Z)", re.IGNORECASE | re.DOTALL)

Alias = str | tuple[str, ...]

ALTERNATIVE_DIAGNOSIS: Mapping[str, tuple[Alias, ...]] = {
    "hepatitis B": ("hep B", "hep-B", "HBV", "Hep B", "Hep-B", "hepatitis B", "Hepatitis B"),
    "prostatitis": ("prostatitis", "Prostatitis"),
    "type 1 diabetes mellitus": ("T1DM", "insulin-dependent diabetes", "IDDM", "Type 1 diabetes"),
    "Herpes zoster": ("presumed  zoster", "zoster", "Zoster", "shingles", "Varicella-Zoster Virus", "VZV"),
    "Pancreatitis": (),
    "infectious mononucleosis": ("mononucleosis",),
    "lupus erythematosus": ("SLE", "lupus", "Lupus"),
    "atrial fibrillation": (
        "A-fib",
        "Atrial fibrillation",
        "afib",
        "a-fib",
        "A. fib",
        "A. Fib",
        "atrial  fibrillation",
        "AF",
    ),
    "Hepatitis C": ("hep C", "hep-C", "HCV", "Hep C", "Hep-C", "hepatitis C", "Hepatitis C", "hepatitic C"),
    "Subarachnoid hemorrhage": ("SAH", "Subarachnoid", "sub-arachnoid hemorrhage"),
    "Hepatitis A": ("hep A", "hep-A", "HAV", "Hep A", "Hep-A", "hepatitis A", "Hepatitis A", "hepatitic A"),
    "Pelvic inflammatory disease": ("PID", "pelvic inflammatory"),
    "Hypothyroidism": (),
    "heart failure": ("heart  failure", "HFrEF", "HFpEF", "CHF", "HF", "dCHF"),
    "eosinophilia": (),
    "Adhesive capsulitis": ("adhesive  capsulitis",),
    "Normal pressure hydrocephalus": ("NPH",),
    "Esophageal varices": (
        "esophageal  variceal",
        "esophageal/gastric varices",
        "esophageal varix",
        "Esophageal variceal",
        "esophageal variceal",
    ),
    "hypertension": ("HTN", "cHTN", "elevated blood pressure", "high blood pressure"),
    "Pericarditis": ("pericardial inflammation",),
    "hematuria": ("blood in urine",),
    "Ventricular tachycardia": ("VT",),
    "colitis": (("inflammation", "colon"),),
    "deficiency anemia": (("deficiency", "anemia"),),
    "bronchitis": (),
    "type 2 diabetes mellitus": (
        "T2DM",
        "non-insulin-dependent diabetes",
        "NIDDM",
        "Type 2 diabetes",
        "NIDDM2",
    ),
    "Sick sinus": (),
    "sleep apnea": ("OSA",),
    "sinusitis": ("sphenoiditis", "Sinus infection"),
    "Sepsis": (),
    "cholecystitis": (("gallbladder", "inflammation"),),
    "Myasthenia": (),
    "Irritable bowel syndrome": ("IBS", "ibs"),
    "obstructive pulmonary disease": ("COPD", "copd"),
    "unstable angina": ("UA",),
    "Orthostatic Hypotension": (),
    "tubular necrosis": (),
    "claudication": (),
    "carpal tunnel": (),
    "bacteremia": (("blood", "infection"),),
    "asthma": (),
    "Hemolytic anemia": (("hemolysis", "anemia"),),
    "multiple sclerosis": ("secondary progressive MS", "RRMS", "MS"),
    "osteoarthritis": ("OA",),
    "Necrotizing fasciitis": (),
    "Lyme disease": ("Lyme",),
    "rheumatoid arthritis": ("RA",),
    "Hypocalcemia": ("hypocalcemic",),
    "Cardiac tamponade": (("pericardial", "tamponade"), ("cardiac", "tamponade")),
    "Polymyalgia rheumatica": ("polymyalgia  rheumatica",),
    "Dilated cardiomyopathy": (),
    "appendicitis": (),
}
"""The reference's ``alternative_diagnosis`` (52 keys, spelled as the disease labels of
``hadm_ids_dict.json``; double spaces included). A string must occur as a whole word, ignoring
case; a tuple needs every one of its words."""


def extract_diagnosis(final_text: str) -> str:
    """The diagnosis in an episode's last message, or '' when it has no "diagnosis:" (§5.4).

    The text from the first "diagnosis:" (any case) up to "treatment:", "treatment plan:" or the
    end, stripped. A failed or early-stopped episode has no such text and so scores 0.
    """
    found = _DIAGNOSIS.search(final_text)
    return found.group(1).strip() if found else ""


@lru_cache(maxsize=1024)
def _word(term: str) -> re.Pattern[str]:
    return re.compile(rf"\b{re.escape(term)}\b", re.IGNORECASE)


def _alias_hits(alias: Alias, diagnosis: str) -> bool:
    words = (alias,) if isinstance(alias, str) else alias
    return all(_word(word).search(diagnosis) for word in words)


def _alias_name(alias: Alias) -> str:
    return alias if isinstance(alias, str) else "+".join(alias)


def match_diagnosis(label: str, diagnosis: str, case_synonyms: Iterable[str] = ()) -> str | None:
    """Which rule accepts ``diagnosis`` for the disease ``label``, or None when it is wrong (§5.4).

    In order: ``"name"`` when the label (lowercase) is a substring of the diagnosis (lowercase);
    ``"alias:<entry>"`` for the first entry of ``ALTERNATIVE_DIAGNOSIS[label]`` that matches (a
    tuple entry is written with "+" between its words); ``"synonym:<s>"`` for the first
    case-supplied synonym found as a whole word, ignoring case (our addition for diseases outside
    the table; the reference has none). Then our rules, for the label and each case-supplied name:
    ``"wording"`` (all its words in one of the diagnoses named, whatever the order, possessives and
    parentheses), ``"abbreviation:<A>"`` (an upper-case word spelling its initials or its own
    parenthesised abbreviation) and ``"ontology:<name>"`` (another name of the disease, worded
    alike); see :mod:`~medprobe.methods.multicog.dialogue.disease_names`.

    The reference's leniency is kept on purpose, so scores stay comparable: the substring test
    accepts "pulmonary hypertension" for hypertension and whole-word aliases accept "HF" inside
    "HF with preserved EF" but also "AF" in any text that uses it for something else.
    """
    if label.lower() in diagnosis.lower():
        return "name"
    for alias in ALTERNATIVE_DIAGNOSIS.get(label, ()):
        if _alias_hits(alias, diagnosis):
            return f"alias:{_alias_name(alias)}"
    names = [label, *(name for name in case_synonyms if name.strip())]
    for synonym in names[1:]:
        if _word(synonym).search(diagnosis):
            return f"synonym:{synonym}"
    if any(worded_alike(name, diagnosis) for name in names):
        return "wording"
    for name in names:
        if token := abbreviated(name, diagnosis):
            return f"abbreviation:{token}"
    for name in names:
        for other in synonyms(name):
            if worded_alike(other, diagnosis):
                return f"ontology:{other}"
    return None
