"""Laboratory and microbiology requests of the MultiCogEval high level: turn a model's exam
list into item ids (imaging requests are in :mod:`medprobe.methods.multicog.dialogue.imaging`).

Everything here reproduces the public reference (THUMLP/MultiCogEval,
``scripts/evaluate_high_level.py`` and ``scripts/utils.py``) as recorded in
REFERENCE_METHODS §5.3 (parsing) and §5.4 (image recall). The tables below are facts copied from
the reference; the code around them is our own. Nothing here needs MIMIC: the lab catalogue and
the radiology dictionaries are loaded from paths the user supplies.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from pathlib import Path

from rapidfuzz.distance import Indel

# --------------------------------------------------------------------------------------------
# Segment: the text the model wrote after a list header (§5.3 "Segment")


@lru_cache(maxsize=16)
def _segment_pattern(header: str) -> re.Pattern[str]:
    return re.compile(re.escape(header) + r"(.*?)\.", re.IGNORECASE)


def request_segment(reply: str, header: str) -> str:
    """The list the model wrote after ``header`` (e.g. ``"Lab Tests:"``).

    §5.3: text after the header up to the first "." on the same line (header matched ignoring
    case); when that is missing or blank, everything after the *last* exact-case occurrence of the
    header (the whole reply when the header is absent). Asterisks (Markdown bold) are removed.
    """
    found = _segment_pattern(header).search(reply)
    segment = found.group(1) if found else ""
    if not segment.strip():
        segment = reply.split(header)[-1]
    return segment.replace("*", "")


# --------------------------------------------------------------------------------------------
# Lab and microbiology items (§5.3 "LAB and MICRO", steps 1-4)

_CONJUNCTIONS = (re.compile(r"\band\b"), re.compile(r"\bor\b"))
"""Case-sensitive, as in the reference: "And" stays part of a name."""

_FILLER_WORDS = (
    "order",
    "run",
    "level[s]?",
    "repeat",
    "check",
    "including",
    "the",
    "e.g.",
    "etc.",
    "for",
    "to",
    "with",
)
"""Regex fragments deleted one after another (ignoring case). The dots in "e.g." and "etc." are
regex wildcards in the reference too, so with the closing word boundary they only go when a word
character follows ("e.g. CBC" keeps its "e.g."; the segment usually ends at its first "." anyway)."""

_FILLERS = tuple(re.compile(rf"\b{word}\b", re.IGNORECASE) for word in _FILLER_WORDS)

_MAX_ITEM_WORDS = 10


def _usable(item: str) -> bool:
    """The reference skips one-character items and "long sentences" of more than ten words."""
    return len(item) > 1 and len(item.split()) <= _MAX_ITEM_WORDS


def _split_names(text: str) -> tuple[list[str], dict[str, list[str]]]:
    """Split on commas outside parentheses; a parenthesised group abbreviates the name before it.

    Mirrors the reference's character scan, quirks included: a ")" with no "(" still closes a
    group, which drops the pending name; stray commas outside a group are ignored.
    """
    names: list[str] = []
    abbreviations: dict[str, list[str]] = {}
    pending, inner, in_group = "", "", False
    for char in text:
        if char == "(":
            in_group = True
            names.append(pending)
        elif char == ")":
            in_group = False
            abbreviations[pending.strip()] = [part.strip() for part in inner.split(",") if part.strip()]
            pending, inner = "", ""
        elif char == "," and not in_group and pending.strip():
            names.append(pending)
            pending = ""
        elif char == "," or in_group:
            inner += char
        else:
            pending += char
    names.append(pending)
    return [name.strip() for name in names if name.strip()], abbreviations


def request_form(name: str) -> str:
    """A test name as ``lab_items`` leaves it in a request: fillers ("level", "for", "the", …) and
    parentheses gone ("Blood Alcohol Level" -> "Blood Alcohol", "ELISA for HIV" -> "ELISA HIV"). A
    catalogue built from a case's own names adds this form, so that naming a test finds it."""
    for pattern in _FILLERS:
        name = pattern.sub("", name)
    return " ".join(re.sub(r"\([^)]*\)", " ", name).split())


def lab_items(segment: str) -> list[tuple[str, list[str]]]:
    """The requested lab or microbiology items, each with its parenthesised abbreviations.

    §5.3 steps 1-4: "and"/"or" become commas, filler words go, the text is split on commas
    outside parentheses, and items of one character or more than ten words are dropped (their
    abbreviations too, since the reference skips such items before falling back).
    """
    for pattern in _CONJUNCTIONS:
        segment = pattern.sub(",", segment)
    for pattern in _FILLERS:
        segment = pattern.sub("", segment)
    names, abbreviations = _split_names(segment)
    return [
        (name, [abbr for abbr in abbreviations.get(name, []) if _usable(abbr)])
        for name in names
        if _usable(name)
    ]


# --------------------------------------------------------------------------------------------
# The lab catalogue and fuzzy matching (§1.4, §5.3 step 5)

_CARDIAC_ENZYMES = (
    "Troponin I",
    "Troponin T",
    "Creatine Kinase",
    "Creatine Kinase, MB Isoenzyme",
    "Myoglobin, Urine",
    "Lactate Dehydrogenase",
    "AST",
)
SUPPLEMENTARY_PANELS: Mapping[str, tuple[str, ...]] = {
    "Rapid Strep Test": ("Strep A, Rapid Antigen",),
    "Blood Chemistry Panel": ("Electrolyte Panel", "Renal Function Panel (RFP)", "Glucose", "Calcium"),
    "Blood Chemistry": ("Electrolyte Panel", "Renal Function Panel (RFP)", "Glucose", "Calcium"),
    "Blood Chemistry Test": ("Electrolyte Panel", "Renal Function Panel (RFP)", "Glucose", "Calcium"),
    "Arterial Blood Gases": (
        "pH",
        "pCO2",
        "pO2",
        "Bicarbonate",
        "Oxygen Saturation",
        "Base Excess",
        "Lactate",
    ),
    "Arterial Blood Gas": ("pH", "pCO2", "pO2", "Bicarbonate", "Oxygen Saturation", "Base Excess", "Lactate"),
    "BGA": ("pH", "pCO2", "pO2", "Bicarbonate", "Oxygen Saturation", "Base Excess", "Lactate"),
    "Blood gas analysis": ("pH", "pCO2", "pO2", "Bicarbonate", "Oxygen Saturation", "Base Excess", "Lactate"),
    "ABG": ("pH", "pCO2", "pO2", "Bicarbonate", "Oxygen Saturation", "Base Excess", "Lactate"),
    "HIV antibodies": ("HIV 1 Ab Confirmation", "HIV 2 Ab Confirmation"),
    "Neutrophil-Lymphocyte Ratio": ("Absolute Neutrophil Count", "Absolute Lymphocyte Count"),
    "NLR": ("Absolute Neutrophil Count", "Absolute Lymphocyte Count"),
    "HBV": (
        "Hepatitis B Core Antibody, IgM",
        "Hepatitis B Surface Antibody",
        "Hepatitis B Surface Antigen",
        "Hepatitis B Virus Core Antibody",
        "Hepatitis B Viral Load",
    ),
    "HCV": (
        "Hepatitis C Viral Load",
        "Reflex Confirmatory Hepatitis C Viral Load",
        "Hepatitis C Virus Antibody",
    ),
    "Cardiac Enzyme Panel": _CARDIAC_ENZYMES,
    "Cardiac Enzymes": _CARDIAC_ENZYMES,
    "ANA": ("Double Stranded DNA",),
    "reticulocyte count": (
        "Reticulocyte Count, Absolute",
        "Reticulocyte Count, Automated",
        "Reticulocyte Count, Manual",
    ),
    "Hepatitis panel": (
        "Hepatitis A Virus Antibody",
        "Hepatitis A Virus IgM Antibody",
        "Hepatitis B Core Antibody, IgM",
        "Hepatitis B Surface Antibody",
        "Hepatitis B Surface Antigen",
        "Hepatitis B Virus Core Antibody",
        "Hepatitis C Virus Antibody",
        "Hepatitis B Viral Load",
        "Hepatitis C Viral Load",
        "Reflex Confirmatory Hepatitis C Viral Load",
    ),
    "Cholesterol": (
        "Total Cholesterol",
        "Cholesterol, HDL",
        "Cholesterol, LDL, Calculated",
        "Cholesterol, LDL, Measured",
        "Cholesterol Ratio",
    ),
    "urine drug screen": (
        "Amphetamine Screen, Urine",
        "Barbiturate Screen, Urine",
        "Benzodiazepine Screen, Urine",
        "Opiate Screen, Urine",
    ),
    "PCR for influenza": ("Influenza A by PCR", "Influenza B by PCR"),
    "CSF": (
        "Bilirubin, Total, CSF",
        "Chloride, CSF",
        "Glucose, CSF",
        "Lactate Dehydrogenase, CSF",
        "Miscellaneous, CSF",
        "PEP, CSF",
        "Total Protein, CSF",
        "Hematocrit, CSF",
        "RBC, CSF",
        "Total Nucleated Cells, CSF",
        "Total Bilirubin, CSF",
    ),
    "Swab Culture": ("Swab - R/O Yeast - IC", "SWAB- R/O YEAST"),
    "VZV": ("VZV IgG Ab", "VZV IgG Ab Value"),
    "Rapid Influenza Diagnostic Test": ("Influenza A, Rapid Antigen", "Influenza B, Rapid Antigen"),
    "Urine PCR": ("URINE CULTURE", "Urine Analysis (UA)"),
    "Urine Antigen Test": ("Legionella Urinary Antigen",),
}
"""Panels the reference adds at load time (28 keys): each maps to the union of its components' ids."""

STANDARDIZED_ALIASES: Mapping[str, str] = {
    "Neutrophil Count": "Absolute Neutrophil Count",
    "HBsAg": "Hepatitis B Surface Antigen",
    "HBsAb": "Hepatitis B Surface Antibody",
    "HCV genotyping": "HCV GENOTYPE",
    "HCV RNA": "Hepatitis C Viral Load",
    "TBili": "Total Bilirubin",
    "DBili": "Direct Bilirubin",
    "TB": "Total Bilirubin",
    "DB": "Direct Bilirubin",
    "estimated glomerular filtration rate": "Estimated GFR",
    "eGFR": "Estimated GFR",
    "LDH": "Lactate Dehydrogenase (LD)",
    "BC": "Blood Culture",
    "FBG": "Glucose",
    "URINE": "Urine Analysis (UA)",
    "Urine Microscopy": "Urine Analysis (UA)",
    "RPR": "RAPID PLASMA REAGIN TEST",
    "Legionella antigen": "Legionella Urinary Antigen",
    "Bone marrow biopsy": "Tissue Culture-Bone Marrow",
    "Tuberculosis": "GEN-PROBE AMPLIFIED M. TUBERCULOSIS DIRECT TEST (MTD)",
    "Hepatitis C antibodies": "Hepatitis C Virus Antibody",
    "Hepatitis C antibody": "Hepatitis C Virus Antibody",
    "Lipid Panel": "Lipid Profile",
    "Renal profile": "Renal Function Panel (RFP)",
    "ALB": "Albumin",
    "Urinal Culture": "URINE CULTURE",
    "Urinary culture": "URINE CULTURE",
    "UC": "URINE CULTURE",
    "free T3": "T3",
    "CK-MB": "Creatine Kinase, MB Isoenzyme",
    "Blood Sugar": "Glucose",
    "international normalized ratio": "INR",
    "HCV antibody": "Hepatitis C Virus Antibody",
    "HCV antibodies": "Hepatitis C Virus Antibody",
    "HAV antibody": "Hepatitis A Virus Antibody",
    "HAV antibodies": "Hepatitis A Virus Antibody",
    "Rapid Plasma Reagin": "RAPID PLASMA REAGIN TEST",
    "respiratory virus panel": "Respiratory Viral Culture",
    "Coagulation panel": "Coagulation Profile",
    "kidney function": "Kidney Function Tests (KFT)",
    "Respiratory Panel": "Respiratory Viral Culture",
    "respiratory viruses": "Respiratory Viral Culture",
    "liver function": "Liver Function Test (LFT)",
    "HbA1c": "% Hemoglobin A1c",
    "serum iron": "Iron",
    "carcinoembryonic antigen": "Carcinoembyronic Antigen (CEA)",
    "respiratory viral panel": "Respiratory Viral Culture",
    "Alanine Transaminase": "ALT",
    "Aspartate Transaminase": "AST",
    "CBCT": "CBC",
    "blood cell count": "CBC",
    "UCS": "URINE CULTURE",
    "Direct Smear Examination of Blood": "SMEAR FOR BACTERIAL VAGINOSIS",
    "Blood Agar Culture": "Blood Culture",
    "Blood Mycology": "FUNGAL CULTURE",
    "herpes simplex virus": "VIRAL CULTURE: R/O HERPES SIMPLEX VIRUS",
}
"""Aliases the reference adds at load time (56 keys; its literal lists "BC" twice, which keeps the
first position). "Carcinoembyronic" is the catalogue's own spelling."""


class Catalog(Mapping[str, tuple[str, ...]]):
    """Test names (and synonyms) → item ids, in insertion order.

    Order matters: ``fuzzy_match`` scans keys in this order and the earlier key wins a tie.
    Item ids are kept as strings whatever the source wrote (MIMIC's JSON has ints), so requests
    and records compare without type surprises.
    """

    def __init__(self, entries: Mapping[str, Iterable[str | int]]) -> None:
        self._ids = {name: tuple(str(item) for item in ids) for name, ids in entries.items()}
        self._lowered = [(name, name.lower()) for name in self._ids]
        self._matches: dict[str, str | None] = {}

    @classmethod
    def from_mimic(cls, meta_path: Path) -> Catalog:
        """``meta_lab_tests_UMLS_ext.json`` plus the reference's load-time additions (§1.4).

        Missing supplementary panels get the union of whichever components exist (possibly none);
        missing standardized aliases copy their target's ids, and are left out when the file lacks
        the target too (a trimmed or custom catalogue). On the public file this gives
        5652 + 27 + 48 = 5727 keys.
        """
        entries: dict[str, list[str | int]] = json.loads(Path(meta_path).read_text(encoding="utf-8"))
        for panel, components in SUPPLEMENTARY_PANELS.items():
            if panel not in entries:
                entries[panel] = [item for part in components if part in entries for item in entries[part]]
        for alias, target in STANDARDIZED_ALIASES.items():
            if alias not in entries and target in entries:
                entries[alias] = entries[target]
        return cls(entries)

    def __getitem__(self, name: str) -> tuple[str, ...]:
        return self._ids[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def match(self, item: str) -> str | None:
        """The key the reference's ``fuzzy_lab_match`` picks for ``item``, or None (§5.3 step 5).

        Keys are scanned in order with ``ratio(item.lower(), key.lower())``. A perfect score — or
        the item minus a final lowercase "s" equal to the key — returns at once. Otherwise a key is
        a candidate when it scores above 90 or when it (longer than one character) occurs as a
        whole word in the item; the highest-scoring candidate wins, the earlier key on ties, and a
        candidate scoring 0 never wins. Results are memoised per catalogue, as in the reference.
        """
        if item not in self._matches:
            self._matches[item] = self._scan(item)
        return self._matches[item]

    def _scan(self, item: str) -> str | None:
        lowered = item.lower()
        singular = item[:-1].lower() if item.endswith("s") else None
        best, best_score = None, 0
        for key, key_lower in self._lowered:
            score = _ratio(lowered, key_lower)
            if score == 100 or key_lower == singular:
                return key
            contained = len(key) > 1 and key_lower in lowered and _whole_word(key_lower).search(lowered)
            if (score > 90 or contained) and score > best_score:
                best, best_score = key, score
        return best


def _ratio(a: str, b: str) -> int:
    """fuzzywuzzy's ``fuzz.ratio`` with python-Levenshtein: indel similarity, rounded to an int.

    The rounding matters: the reference keeps a candidate only when the score is > 90, and ties
    (frequent among integer scores) go to the earlier key. rapidfuzz's own ``fuzz.ratio`` returns
    an unrounded float, so we rebuild the integer score from the exact indel distance (the same
    float expression, then Python's round-half-even, as fuzzywuzzy's ``intr``).
    """
    if not a or not b:
        return 0
    total = len(a) + len(b)
    return int(round(100 * ((total - Indel.distance(a, b)) / total)))


@lru_cache(maxsize=4096)
def _whole_word(key: str) -> re.Pattern[str]:
    return re.compile(rf"\b{re.escape(key)}\b")


def fuzzy_match(item: str, catalog: Catalog) -> str | None:
    """The catalogue key matching one requested item, or None: see ``Catalog.match`` (§5.3 step 5)."""
    return catalog.match(item)


def parse_lab_request(reply: str, header: str, catalog: Catalog) -> set[str]:
    """Item ids requested by a lab or microbiology list reply (§5.3, all steps).

    Each item adds every id of its best catalogue key; an item that matches nothing falls back to
    its parenthesised abbreviations, e.g. ``"Basic Metabolic Panel (BMP)"`` → ``BMP``.
    """
    requested: set[str] = set()
    for name, abbreviations in lab_items(request_segment(reply, header)):
        key = fuzzy_match(name, catalog)
        if key is not None:
            requested.update(catalog[key])
            continue
        for abbreviation in abbreviations:
            fallback = fuzzy_match(abbreviation, catalog)
            if fallback is not None:
                requested.update(catalog[fallback])
    return requested
