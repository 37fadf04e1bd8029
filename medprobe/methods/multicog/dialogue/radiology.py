"""Imaging requests of the MultiCogEval high level: the modality and body region of a free-text
exam, which recorded exams a request hits, and image recall.

This reproduces the public reference (THUMLP/MultiCogEval, ``scripts/utils.py`` and
``scripts/evaluate_high_level.py``) as recorded in REFERENCE_METHODS §5.3 (IMAGE) and §5.4. The
tables below are facts taken from the reference; the code around them is our own. The radiology
dictionaries are loaded from paths the user supplies.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from medprobe.methods.multicog.dialogue.requests import request_segment

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
