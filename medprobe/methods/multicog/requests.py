"""Exam requests of the MultiCogEval high level: turn a model's exam list into item ids or
radiology (modality, region) pairs, and score them against a record.

Everything here reproduces the public reference (THUMLP/MultiCogEval,
``scripts/evaluate_high_level.py`` and ``scripts/utils.py``) as recorded in
REFERENCE_METHODS §5.3 (parsing) and §5.4 (image recall). The tables below are facts copied from
the reference; the code around them is our own. Nothing here needs MIMIC: the lab catalogue and
the radiology dictionaries are loaded from paths the user supplies.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

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


# --------------------------------------------------------------------------------------------
# Radiology: modality and region of a free-text exam (reference scripts/utils.py)

_SPECIAL_MODALITIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("cardiac catheterization", ("cardiac.*catheterization",)),
    ("CAD", ("coronary.*angiogram", "coronary.*artery.*disease", "cad", "coronary.*angiography")),
    ("DSM", ("dsm", "digital.*subtraction.*myelogram")),
    ("ECG", ("ELECTROCARDIOGRAM", "ecg")),
    ("DTI", ("DIFFUSION TENSOR IMAGING", "dti")),
    ("ECHO", ("ECHOCARDIOGRAM", "echo")),
    ("CTU", ("ctu", "ct urogram", "ct urography", "ct ivu", "ct ivp", "ct intravenous pyelography")),
    ("CTPA", ("ctpa", "computed.*tomography.*pulmonary.*angiogram")),
    ("Drainage", ("drain",)),
    ("Carotid ultrasound", ("carotid.*ultrasound", "carotid.*us", "carotid.*series")),
    ("EUS", ("eus", "endoscopic.*(ultrasound|us)", "echo.*endoscopy")),
    ("MRCP", ("mrcp", "magnetic.*resonance.*cholangiopancreatography")),
    ("HIDA", ("hida", "hepatobiliary.*iminodiacetic.*acid")),
    ("ERCP", ("ercp", "endoscopic.*retrograde.*cholangiopancreatography", "bil endoscopy")),
    ("PTC", ("ptc", "percutaneous.*transhepatic.*cholangiography", "perc transhepatic cholangiography")),
    (
        "Upper GI Series",
        (
            "upper.*gi",
            "upper.*gastrointestinal",
            "barium.*swallow",
            "barium.*meal",
            "barium.*study",
            "ugis",
            "bas/ugi",
        ),
    ),
    (
        "Lower GI Series",
        (
            "lower.*gi",
            "lower.*gastrointestinal",
            "barium.*swallow",
            "barium.*meal",
            "barium.*study",
            "lgis",
            "bas/lgi",
        ),
    ),
    ("Paracentesis", ("paracentesis",)),
    ("Mammogram", ("mammo",)),
    ("MRA", ("mra", "magnetic.*resonance.*angiography")),
    ("MRE", ("mre", "magnetic.*resonance.*enterography", "mr enterography")),
    ("VCUG", ("vcug", "voiding.*cystourethrogram")),
)
"""Checked first, in order, as unanchored regexes; the first hit is the only modality (22 rows)."""

_MODALITY_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("CT", ("ct", "cat", "cta", "mdct", "ctu", "dlp", "mgy", "computed tomography")),
    ("Ultrasound", ("us", "dup", "usg")),
    ("Radiograph", ("ap", "pa", "cxr")),
    ("MRI", ("mri", "mr", "mrcp", r"t\d")),
)
"""Whole-word modality cues (4 rows)."""

_MODALITY_FRAGMENTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("CT", ("multidetector", "reformat", "optiray")),
    (
        "Ultrasound",
        (
            r"u\.s\.",
            "ultrasound",
            "echotexture",
            "sonogra",
            "doppler",
            "duplex",
            "echogenic",
            "transabdominal",
            "transvaginal",
            "non-obstetric",
        ),
    ),
    (
        "Radiograph",
        (
            r"port\.",
            "radiograph",
            "portable",
            "x-ray",
            "supine and",
            "supine &",
            "supine only",
            "and lateral",
            "frontal view",
            "supine view",
            "single view",
            "two views",
            "angiography",
        ),
    ),
    ("MRI", ("gadavist", "magnet", "tesla")),
    ("Fluoroscopy", ("fluoro",)),
)
"""Substring (regex) modality cues (5 rows)."""

_REGION_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Abdomen", ("gi", "eus", "mrcp", "hida", "ercp")),
    ("Chest", ("cxt",)),
)
"""Whole-word region cues (2 rows)."""

_REGION_FRAGMENTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Chest",
        (
            "chest",
            "lung",
            "upper lobe",
            "lower lobe",
            "pleura",
            "atelectasis",
            "ground.glass",
            "heart",
            "cardiac",
            "pericard",
            "mediastin",
            "pneumothorax",
            "breast",
            "pulmonary",
            "coronary arteries",
            "coronary angiogram",
            "coronary artery",
            "thorax",
            "myocardial",
        ),
    ),
    (
        "Abdomen",
        (
            "abd",
            "abdom",
            "pelvi",
            "liver",
            "gallbladder",
            "pancrea",
            "duct",
            "spleen",
            "stomach",
            "bowel",
            "rectum",
            "ileum",
            "iliac",
            "duodenum",
            "colon",
            "urinary",
            "bladder",
            "ureter",
            "kidney",
            "renal",
            "adrenal glands",
            "intraperitoneal",
            "ascites",
            "prostate",
            "uterus",
            "appendi",
            "retroperit",
            "mesenter",
            "paracolic",
            "lower quadrant",
            "perirectal",
            "cul-de-sac",
            "iliopsoas",
            "psoas",
            "hepatic",
            "hepato",
            "quadrant",
            "gastro",
            "biliary",
        ),
    ),
    (
        "Venous",
        (
            "venous",
            "jugular",
            "cephalic",
            "axillary",
            "basilic",
            "brachial",
            "popliteal",
            "femoral",
            "peroneal",
            "tibial",
            "fibular",
            "veins",
        ),
    ),
    ("Head", ("head", "brain", "skull", "orbit", "mastoid", "face", "cerebral", "cerebellum")),
    ("Neck", ("neck", "thyroid")),
    ("Scrotum", ("scrot", "testic")),
    ("Spine", ("spine", "cervical", "thoracic", "spinal")),
    ("Ankle", ("ankle", "lower extremities")),
    ("Foot", ("foot", "lower extremities")),
    ("Bone", ("bone",)),
    ("Knee", ("knee", "lower extremities")),
    ("Hand", ("hand",)),
    ("Wrist", ("wrist",)),
    ("Finger", ("finger",)),
    ("Heel", ("heel", "lower extremities")),
    ("Hip", ("hip", "lower extremities")),
    ("Shoulder", ("shoulder",)),
    ("Thigh", ("thigh", "lower extremities")),
    ("Femur", ("femur",)),
)
"""Substring (regex) region cues (19 rows)."""

UNIQUE_TO_BROAD: Mapping[str, str] = {
    "DSM": "Radiograph",
    "CTU": "CT",
    "Carotid ultrasound": "Ultrasound",
    "EUS": "Ultrasound",
    "MRCP": "MRI",
    "ERCP": "Radiograph",
    "Upper GI Series": "Radiograph",
    "Lower GI Series": "Radiograph",
    "MRA": "MRI",
    "MRE": "MRI",
    "ECG": "Radiograph",
    "ECHO": "Ultrasound",
    "DTI": "MRI",
    "CAD": "Radiograph",
    "CTPA": "CT",
    "VCUG": "Radiograph",
    "cardiac catheterization": "Radiograph",
}
"""Unique modality → the broad modality the radiology dictionaries use (17 entries)."""

IMPLIED_REGION: Mapping[str, str] = {
    "CTU": "Abdomen",
    "EUS": "Abdomen",
    "MRCP": "Abdomen",
    "HIDA": "Abdomen",
    "ERCP": "Abdomen",
    "MRE": "Abdomen",
    "Upper GI Series": "Abdomen",
    "Lower GI Series": "Abdomen",
    "Carotid ultrasound": "Neck",
    "Mammogram": "Chest",
    "ECG": "Chest",
    "ECHO": "Chest",
    "DTI": "Head",
    "DSM": "Spine",
    "CAD": "Chest",
    "CTPA": "Chest",
    "VCUG": "Abdomen",
    "cardiac catheterization": "Chest",
}
"""Unique modality → the organ it implies when the text names none (18 entries)."""


def _compile(
    table: tuple[tuple[str, tuple[str, ...]], ...], whole_words: bool
) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """One case-insensitive alternation per category (a category hits when any cue hits)."""
    wrap = (lambda body: rf"\b(?:{body})\b") if whole_words else (lambda body: f"(?:{body})")
    return tuple((category, re.compile(wrap("|".join(cues)), re.IGNORECASE)) for category, cues in table)


_SPECIAL = _compile(_SPECIAL_MODALITIES, whole_words=False)
_MODALITY_CUES = _compile(_MODALITY_WORDS, whole_words=True) + _compile(
    _MODALITY_FRAGMENTS, whole_words=False
)
_REGION_CUES = _compile(_REGION_WORDS, whole_words=True) + _compile(_REGION_FRAGMENTS, whole_words=False)


def _categories(text: str, cues: tuple[tuple[str, re.Pattern[str]], ...]) -> set[str]:
    return {category for category, pattern in cues if pattern.search(text)}


def _modalities(text: str) -> set[str]:
    for category, pattern in _SPECIAL:
        if pattern.search(text):
            return {category}
    return _categories(text, _MODALITY_CUES)


def parse_radiology(item: str) -> tuple[set[str], set[str]]:
    """(modalities, regions) of a free-text exam, as the reference's ``parse_radiology_request``.

    §5.3 IMAGE step 3: special modalities first (the first hit is the only modality), else every
    whole-word and substring modality cue; regions from their cue tables, else the region a
    unique modality implies (ECHO → Chest, MRCP → Abdomen, …).
    """
    modalities = _modalities(item)
    regions = _categories(item, _REGION_CUES)
    if not regions:
        implied = next((IMPLIED_REGION[m] for m in sorted(modalities) if m in IMPLIED_REGION), None)
        regions = {implied} if implied else set()
    return modalities, regions


def broad_modality(modality: str) -> str:
    """ECHO → Ultrasound, CTU → CT, MRCP → MRI, ECG → Radiograph, …; other names unchanged (§5.3 step 5)."""
    return UNIQUE_TO_BROAD.get(modality, modality)


# --------------------------------------------------------------------------------------------
# Imaging requests (§5.3 IMAGE) and their scoring (§5.3 step 5, §5.4)

RadiologyNames = Mapping[str, Mapping[str, Sequence[str]]]
"""``radiology_name_dict.json``: exam name → {"modalities": [...], "regions": [...]}."""

RadiologySpecs = Mapping[str, Mapping[str, Sequence[str]]]
"""``radiology_spec_dict.json``: region → modality → exam names."""


class ImageRequest(NamedTuple):
    modalities: set[str]
    regions: set[str]
    name: str
    """The requested text upper-cased, as the reference keeps it."""


def _split_exams(segment: str) -> list[str]:
    """Split on newline, else ";", else ","; parentheses vanish and delimiters inside them are ignored."""
    delimiter = "\n" if "\n" in segment else ";" if ";" in segment else ","
    items: list[str] = []
    pending, in_group = "", False
    for char in segment:
        if char in "()":
            in_group = char == "("
        elif char == delimiter:
            if not in_group and pending.strip():
                items.append(pending)
                pending = ""
        else:
            pending += char
    items.append(pending)
    return [item.strip() for item in items if item.strip()]


def image_requests(reply: str, header: str, name_dict: RadiologyNames | None) -> list[ImageRequest]:
    """The exams an imaging list reply asks for (§5.3 IMAGE steps 1-4).

    An item that is an exact exam name of ``name_dict`` takes its modalities and regions.
    Otherwise it is parsed: an item with only a region adds that region to the previous exam
    ("CT, abdomen"); an item with only a modality takes the regions found anywhere in ``reply``
    (the reference passes the reply from its last "Rationale:" on, so the rationale counts);
    an item with neither is dropped.
    """
    requests: list[ImageRequest] = []
    for item in _split_exams(request_segment(reply, header)):
        if len(item) <= 1:
            continue
        name = item.upper()
        known = name_dict.get(name) if name_dict else None
        if known is not None:
            requests.append(ImageRequest(set(known["modalities"]), set(known["regions"]), name))
            continue
        modalities, regions = parse_radiology(item)
        if modalities and regions:
            requests.append(ImageRequest(modalities, regions, name))
        elif regions and requests:
            previous = requests[-1]
            requests[-1] = previous._replace(regions=previous.regions | regions)
        elif modalities:
            _, reply_regions = parse_radiology(reply)
            if reply_regions:
                requests.append(ImageRequest(modalities, reply_regions, name))
    return requests


def _spec_exams(spec_dict: RadiologySpecs, region: str, modality: str) -> set[str]:
    """Exams listed under region × modality, with unique-modality lists folded into their broad one
    (the reference merges them into the spec dictionary at load time)."""
    by_modality = spec_dict.get(region, {})
    exams = set(by_modality.get(modality, ()))
    for unique, names in by_modality.items():
        if UNIQUE_TO_BROAD.get(unique) == modality:
            exams.update(names)
    return exams


def delivered_exams(
    requests: Sequence[ImageRequest], record_exam_names: Iterable[str], spec_dict: RadiologySpecs
) -> list[str]:
    """The record's exams an episode returns for these requests (§5.3 IMAGE step 5), in record order.

    An exam is delivered when a request names it exactly, or when some request's region × modality
    (its own modalities plus their broad forms) lists it in ``spec_dict``.
    """
    names = set(record_exam_names)
    reachable = {request.name for request in requests} & names
    for request in requests:
        modalities = request.modalities | {broad_modality(m) for m in request.modalities}
        for region in request.regions:
            for modality in modalities:
                reachable |= _spec_exams(spec_dict, region, modality) & names
    return [name for name in dict.fromkeys(record_exam_names) if name in reachable]


def _broadened(modalities: set[str], regions: set[str]) -> tuple[set[str], set[str]]:
    """(modalities, regions) as §5.4 scores a request: unique modalities become broad ones and add
    their implied organ."""
    implied = {IMPLIED_REGION[m] for m in modalities if m in UNIQUE_TO_BROAD and m in IMPLIED_REGION}
    return {broad_modality(m) for m in modalities}, regions | implied


def _exam_profile(name: str, name_dict: RadiologyNames) -> tuple[set[str], set[str]] | None:
    entry = name_dict.get(name)
    if entry is None:
        return None
    return set(entry["modalities"]), set(entry["regions"])


def _hit(requests: Sequence[ImageRequest], exam: tuple[set[str], set[str]], reference_bug: bool) -> bool:
    """Some request shares a region and a modality with the exam.

    The reference maps only the *request's* modalities to broad ones, so record exams whose
    dictionary modality is itself unique (CTU, MRA, ERCP, MRCP, MRE, …: 17 of the 184 names) can
    never be hit. By default both sides are mapped the same way; ``reference_bug`` restores the
    one-sided mapping.
    """
    exam_modalities, exam_regions = exam if reference_bug else _broadened(*exam)
    for request in requests:
        modalities, regions = _broadened(request.modalities, request.regions)
        if modalities & exam_modalities and regions & exam_regions:
            return True
    return False


def image_hit(
    requests: Sequence[ImageRequest],
    exam_name: str,
    name_dict: RadiologyNames,
    *,
    reference_bug: bool = False,
) -> bool:
    """Whether one record exam counts as requested in the §5.4 image recall.

    The exam's modalities and regions come from ``name_dict``; an exam missing from it is never hit.
    """
    profile = _exam_profile(exam_name, name_dict)
    return profile is not None and _hit(requests, profile, reference_bug)


def record_image_recall(
    requests: Sequence[ImageRequest],
    record_exam_names: Sequence[str],
    name_dict: RadiologyNames,
    *,
    reference_bug: bool = False,
) -> float | None:
    """Hits over the record's exams (§5.4); None when the record has no exams (the type is skipped).

    ``record_exam_names`` is the record's radiology list in order, repeats included: the reference
    counts every entry in the denominator.

    ``reference_bug=True`` reproduces the reference exactly: an exam missing from ``name_dict``
    silently reuses the previous exam's modalities and regions (a stale loop variable; with no
    previous exam we treat it as unhittable where the reference would crash), and record
    modalities are not broad-mapped (see ``_hit``). By default a missing exam still counts in the
    denominator but cannot be hit.
    """
    if not record_exam_names:
        return None
    hits = 0
    previous: tuple[set[str], set[str]] | None = None
    for name in record_exam_names:
        profile = _exam_profile(name, name_dict)
        if profile is None and reference_bug:
            profile = previous
        if profile is None:
            continue
        previous = profile
        if _hit(requests, profile, reference_bug):
            hits += 1
    return hits / len(record_exam_names)
