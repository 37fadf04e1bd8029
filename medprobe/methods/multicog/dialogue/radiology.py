"""The modality and body region of a free-text imaging exam (MultiCogEval high level); which
recorded exams a request hits is in :mod:`medprobe.methods.multicog.dialogue.imaging`.

This reproduces the public reference (THUMLP/MultiCogEval, ``scripts/utils.py`` and
``scripts/evaluate_high_level.py``) as recorded in REFERENCE_METHODS §5.3 (IMAGE) and §5.4. The
tables below are facts taken from the reference; the code around them is our own. The radiology
dictionaries are loaded from paths the user supplies.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

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
    ("Spine", ("spine", "cervical", "(?<!trans)thoracic", "spinal")),  # ours: "transthoracic" (echo) is no spine
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
"""Substring (regex) region cues (19 rows). One deviation, ours: the reference's "thoracic" also
matched "transthoracic", so a transthoracic echocardiogram was a spine study."""

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
