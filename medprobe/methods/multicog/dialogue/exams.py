"""Which of a case's exam items a model's request names.

Laboratory and microbiology requests are split into items and each item is fuzzy-matched
(`medprobe.methods.multicog.dialogue.exam_requests.fuzzy_match`, the reference rule: ratio > 90, plural
rule, whole-word containment) against a catalog of names -> exam ids. For MIMIC-style cases the
catalog is the user's ``meta_lab_tests_UMLS_ext.json`` (names and UMLS synonyms -> item ids); for
every other case it is built from the case itself: each exam's name and synonyms, the name of the
group it is listed under, medprobe's own small synonym table below, and the names of every panel
of :mod:`medprobe.methods.multicog.dialogue.panels` (CBC, BMP, CMP, LFTs, …), each returning the
components the case records, wherever it lists them. Imaging
requests hit an exam when they share a body region and a modality with it (after mapping special
modalities such as ECHO to broad ones), or when they name it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from medprobe.methods.multicog.dialogue import prompts
from medprobe.methods.multicog.dialogue.cases import Case, Exam, ExamType
from medprobe.methods.multicog.dialogue.exam_requests import Catalog, parse_lab_request, request_form
from medprobe.methods.multicog.dialogue.imaging import image_hit, image_requests
from medprobe.methods.multicog.dialogue.panels import panel_members
from medprobe.methods.multicog.dialogue.radiology import broad_modality, parse_radiology

#: canonical test name -> other names clinicians use (ours; lower case); panels are in ``panels.PANELS``
SYNONYMS: dict[str, tuple[str, ...]] = {
    "c-reactive protein": ("crp",),
    "erythrocyte sedimentation rate": ("esr", "sed rate"),
    "b-type natriuretic peptide": ("bnp", "nt-probnp", "brain natriuretic peptide", "natriuretic peptide"),
    "troponin i": ("troponin", "troponins", "cardiac troponin", "trop"),
    "d-dimer": ("ddimer", "d dimer"),
    "blood glucose": ("glucose", "blood sugar", "serum glucose"),
    "beta-hydroxybutyrate": ("serum ketones", "ketones", "bhb", "beta hydroxybutyrate"),
    "urine pregnancy test": ("pregnancy test", "hcg", "beta-hcg", "beta hcg", "urine hcg"),
    "procalcitonin": ("pct",),
    "hemoglobin a1c": ("hba1c", "a1c", "glycated hemoglobin"),
    "blood culture": ("blood cultures", "blood cx"),
    "urine culture": ("urine cultures", "urine cx"),
    "sputum culture": ("sputum cultures",),
    "sputum gram stain": ("gram stain", "sputum gram"),
    "cerebrospinal fluid analysis": ("csf analysis", "lumbar puncture", "lp", "csf studies", "spinal tap"),
    "csf culture": ("cerebrospinal fluid culture",),
    "csf gram stain": ("cerebrospinal fluid gram stain",),
    "urinary pneumococcal antigen": ("pneumococcal antigen", "urine antigen", "streptococcus pneumoniae antigen"),
    "electrocardiogram": ("ecg", "ekg", "12-lead ecg", "12 lead ecg"),
    "echocardiogram": ("echo", "tte", "transthoracic echo", "transthoracic echocardiography", "echocardiography"),
    "chest x-ray": ("cxr", "chest radiograph", "chest film", "chest xray"),
    "ct pulmonary angiography": ("ctpa", "ct angiogram of the chest", "ct pulmonary angiogram", "pe protocol ct"),
}


def _norm(text: str) -> str:
    return re.sub(r"[\s_]+", " ", text.strip().lower())


@cache
def _synonym_index() -> dict[str, tuple[str, ...]]:
    """Every name in the table -> all names of its group."""
    index: dict[str, tuple[str, ...]] = {}
    for canonical, others in SYNONYMS.items():
        group = (canonical, *others)
        for name in group:
            index[name] = group
    return index


def _names(exam: Exam) -> Iterable[str]:
    yield exam.name
    yield from exam.synonyms
    yield from _synonym_index().get(_norm(exam.name), ())


def case_catalog(case: Case, kind: ExamType) -> Catalog:
    """Names -> exam ids for one case and exam type, built from the case (plus the table)."""
    table: dict[str, list[str]] = {}

    def add(name: str, exam_id: str) -> None:
        forms = dict.fromkeys((_norm(name), _norm(request_form(name))))  # in order: ties go to the earlier key
        for form in (form for form in forms if form):
            ids = table.setdefault(form, [])
            if exam_id not in ids:
                ids.append(exam_id)

    exams = case.exams_of(kind)
    for exam in exams:
        for name in _names(exam):
            add(name, exam.id)
        if exam.panel:
            add(exam.panel, exam.id)
    for panel, ids in panel_members(exams):
        for name in panel.names:
            for exam_id in ids:
                add(name, exam_id)
    return Catalog(table)


@cache
def mimic_catalog(meta_path: str) -> Catalog:
    return Catalog.from_mimic(Path(meta_path))


def requested_lab_ids(case: Case, kind: ExamType, reply: str, header: str) -> set[str]:
    """Exam ids named by a LAB or MICRO list reply."""
    meta = case.meta.get("mimic_meta")
    catalog = mimic_catalog(str(Path(meta) / "meta_lab_tests_UMLS_ext.json")) if meta else case_catalog(case, kind)
    return parse_lab_request(reply, header, catalog)


def exam_geometry(exam: Exam) -> tuple[set[str], set[str]]:
    if exam.regions and exam.modalities:
        return {broad_modality(m) for m in exam.modalities}, set(exam.regions)
    modalities, regions = parse_radiology(exam.name)
    return {broad_modality(m) for m in modalities}, regions


@cache
def _name_dict(meta_dir: str) -> dict[str, Any]:
    return json.loads((Path(meta_dir) / "radiology_name_dict.json").read_text(encoding="utf-8"))


def requested_image_ids(case: Case, reply: str, header: str) -> set[str]:
    """Imaging exams hit by an IMAGE list reply: same region and modality, or the exam named.

    MIMIC cases use the reference rule with the user's radiology_name_dict.json (§5.4)."""
    exams = case.exams_of("IMAGE")
    meta = case.meta.get("mimic_meta")
    if meta and (Path(meta) / "radiology_name_dict.json").exists():
        names = _name_dict(meta)
        asked_mimic = image_requests(reply, header, names)
        return {e.id for e in exams if image_hit(asked_mimic, e.name, names)}
    asked = image_requests(reply, header, None)
    by_name = parse_lab_request(reply, header, case_catalog(case, "IMAGE"))
    hit = set(by_name)
    for exam in exams:
        modalities, regions = exam_geometry(exam)
        for req_modalities, req_regions, _ in asked:
            if regions & req_regions and modalities & {broad_modality(m) for m in req_modalities}:
                hit.add(exam.id)
                break
    return hit


def requested_ids(case: Case, kind: ExamType, reply: str, header: str) -> set[str]:
    return requested_image_ids(case, reply, header) if kind == "IMAGE" else requested_lab_ids(case, kind, reply, header)


def results_text(case: Case, kind: ExamType, ids: set[str]) -> str:
    """The requested exams' results, one per line, in the case's order."""
    lines = []
    for exam in case.exams_of(kind):
        if exam.id in ids:
            label = f"{exam.panel} - {exam.name}" if exam.panel else exam.name
            lines.append(f"{label}: {exam.result}")
    return "\n".join(lines)


def orderable_names(case: Case, kind: ExamType) -> list[str]:
    """Names that order the case's exams of one type, one per exam where one exists: the exam's own
    name when a list naming it returns it, else the group it is listed under ("Level" of "Blood
    Glucose", "K" of "Serum Electrolytes"). What the baseline doctor picks from; an exam no name
    reaches is left out (a name holding "and", which the reference's parser splits)."""
    header = prompts.HEADERS[kind]
    names: list[str] = []
    for exam in case.exams_of(kind):
        for name in (exam.name, exam.panel):
            if name and exam.id in requested_ids(case, kind, f"{header} {name}", header):
                names.append(name)
                break
    return list(dict.fromkeys(names))
