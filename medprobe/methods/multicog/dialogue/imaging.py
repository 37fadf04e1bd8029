"""Imaging requests of the MultiCogEval high level: the exams an imaging list asks for, which
recorded exams they hit, and image recall.

This reproduces the public reference (THUMLP/MultiCogEval, ``scripts/evaluate_high_level.py``) as
recorded in REFERENCE_METHODS §5.3 (IMAGE) and §5.4; modalities and regions of free text come from
:mod:`medprobe.methods.multicog.dialogue.radiology`. The radiology dictionaries are loaded from
paths the user supplies.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from medprobe.methods.multicog.dialogue.exam_requests import request_segment
from medprobe.methods.multicog.dialogue.radiology import (
    IMPLIED_REGION,
    UNIQUE_TO_BROAD,
    broad_modality,
    parse_radiology,
)

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


_NOT_IMAGING = re.compile(
    r"\b(?:ecg|ekg|electrocardiogra\w*|eeg|electroencephalogra\w*|emg|electromyogra\w*|nerve conduction|endoscopy|"
    r"esophagogastroduodenoscopy|egd|colonoscopy|sigmoidoscopy|bronchoscopy|laryngoscopy|cystoscopy|anoscopy)\b",
    re.IGNORECASE,
)
_NOT_IMAGING_MODALITIES = frozenset({"ECG", "Upper GI Series", "Lower GI Series"})


def names_no_imaging(item: str, modalities: set[str]) -> bool:
    """Whether a requested item is a study that is not imaging: an ECG, EEG, EMG, nerve conduction
    study or endoscopy (medprobe's deviation). The reference reads "ECG" as a chest radiograph and
    "upper GI endoscopy" as a barium series, and lets "colonoscopy" add the abdomen to the previous
    exam. An endoscopic ultrasound or an echo-endoscopy stays imaging (EUS)."""
    return bool(_NOT_IMAGING.search(item)) and modalities <= _NOT_IMAGING_MODALITIES


def image_requests(reply: str, header: str, name_dict: RadiologyNames | None) -> list[ImageRequest]:
    """The exams an imaging list reply asks for (§5.3 IMAGE steps 1-4).

    An item that is an exact exam name of ``name_dict`` takes its modalities and regions.
    Otherwise it is parsed: an item with only a region adds that region to the previous exam
    ("CT, abdomen"); an item with only a modality takes the regions found anywhere in ``reply``
    (the reference passes the reply from its last "Rationale:" on, so the rationale counts);
    an item with neither is dropped, and so is a study that is not imaging (``names_no_imaging``).
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
        if names_no_imaging(item, modalities):
            continue
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
