"""MIMIC-IV-CDM style cases from a user's own credentialed MIMIC-IV files.

medprobe ships no patient data. With PhysioNet access to MIMIC-IV (v2.2) and MIMIC-IV-Note:

1. Build the per-admission records with the MultiCogEval reference script
   (``scripts/gen_high_level.py`` of THUMLP/MultiCogEval, which writes
   ``all_hadm_info_first_diag.pkl``: ``{disease: {hadm_id: record}}``) or with the MIMIC-IV-CDM
   pipeline of Hager et al. (2024) (``{hadm_id: record}``). A record has "Patient History",
   "Physical Examination", "Laboratory Tests" ``{itemid: value}``, "Microbiology"
   ``{test_itemid: value}`` and "Radiology" ``[{"Exam Name", "Modality", "Region", "Report"}]``.
2. ``medprobe cases import-mimic RECORDS --meta ../shared/data/mimic_iv_meta
   --lab-labels hosp/d_labitems.csv.gz [--micro-labels hosp/microbiologyevents.csv.gz]
   [--diseases hadm_ids_dict.json] -o mimic_cases.jsonl``. Lab and microbiology items keep their
   MIMIC item ids, so requests are matched with the public ``meta_lab_tests_UMLS_ext.json``
   (names and UMLS synonyms -> item ids) exactly as the reference does; imaging exams carry the
   record's region and modality.
3. ``medprobe run multicog --level high --data mimic_cases.jsonl``.

RECORDS may be a pickle (as the scripts write it) or JSON of the same shape; a flat
``{hadm_id: record}`` file needs ``--diseases`` (``hadm_ids_dict.json``: disease -> hadm ids).
"""

from __future__ import annotations

import csv
import gzip
import json
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from medprobe.errors import MedprobeError
from medprobe.methods.multicog.dialogue.cases import Case, Exam


def _open_text(path: Path) -> Any:
    return gzip.open(path, "rt", encoding="utf-8") if path.suffix == ".gz" else path.open(encoding="utf-8")


def read_labels(path: Path, id_column: str, label_column: str) -> dict[str, str]:
    """item id -> name from a MIMIC CSV (e.g. d_labitems: itemid,label; microbiologyevents:
    test_itemid,test_name), read as a stream (the microbiology table is large)."""
    labels: dict[str, str] = {}
    with _open_text(path) as handle:
        reader = csv.DictReader(handle)
        if not reader.fieldnames or id_column not in reader.fieldnames or label_column not in reader.fieldnames:
            raise MedprobeError(f"expected columns {id_column} and {label_column}", file=path, hint=f"found: {reader.fieldnames}")
        for row in reader:
            labels.setdefault(str(row[id_column]).strip(), str(row[label_column]).strip())
    return labels


def load_records(path: Path) -> Any:
    if not path.exists():
        raise MedprobeError("records file not found", file=path)
    if path.suffix in (".pkl", ".pickle"):
        with path.open("rb") as handle:
            return pickle.load(handle)  # the user's own file, produced by their own pipeline
    with _open_text(path) as handle:
        return json.load(handle)


def _admissions(records: Any, diseases: dict[str, list[str]] | None, path: Path) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(disease, hadm_id, record) from the nested or the flat layout."""
    if not isinstance(records, dict) or not records:
        raise MedprobeError("expected a non-empty mapping of admissions", file=path)
    sample = next(iter(records.values()))
    if isinstance(sample, dict) and "Patient History" not in sample:  # nested: disease -> hadm -> record
        for disease, admissions in records.items():
            for hadm, record in admissions.items():
                yield str(disease), str(hadm), record
        return
    if diseases is None:
        raise MedprobeError("flat records need the disease of each admission", file=path, hint="pass --diseases hadm_ids_dict.json")
    disease_of = {str(h): d for d, hadms in diseases.items() for h in hadms}
    for hadm, record in records.items():
        if str(hadm) in disease_of:
            yield disease_of[str(hadm)], str(hadm), record


def _case(disease: str, hadm: str, record: dict[str, Any], labels: dict[str, str], micro: dict[str, str], meta_dir: Path, path: Path) -> Case:
    try:
        history = str(record["Patient History"]).strip()
    except KeyError:
        raise MedprobeError(f"admission {hadm}: no 'Patient History'", file=path, field=f"{disease}.{hadm}") from None
    exams = [
        Exam(id=str(item), type="LAB", name=labels.get(str(item), f"lab item {item}"), result=str(value))
        for item, value in (record.get("Laboratory Tests") or {}).items()
    ]
    exams += [
        Exam(id=str(item), type="MICRO", name=micro.get(str(item), f"microbiology test {item}"), result=str(value))
        for item, value in (record.get("Microbiology") or {}).items()
    ]
    seen: set[str] = set()
    for study in record.get("Radiology") or []:
        name = str(study.get("Exam Name", "")).strip()
        if not name or name in seen:  # the reference keys studies by name: duplicates collapse
            continue
        seen.add(name)
        exams.append(
            Exam(
                id=f"rad:{name}", type="IMAGE", name=name, result=str(study.get("Report", "")),
                regions=[r for r in [study.get("Region")] if r], modalities=[m for m in [study.get("Modality")] if m],
            )
        )
    return Case(
        id=f"mimic-{hadm}", source="mimic-iv", disease=disease, diagnosis=disease, history=history,
        physical_exam=str(record.get("Physical Examination", "")).strip(), exams=exams,
        meta={"hadm_id": hadm, "mimic_meta": str(meta_dir)},
    )


def import_mimic(
    records_path: Path,
    *,
    meta_dir: Path,
    lab_labels: Path | None = None,
    micro_labels: Path | None = None,
    diseases_path: Path | None = None,
) -> list[Case]:
    if not (meta_dir / "meta_lab_tests_UMLS_ext.json").exists():
        raise MedprobeError("no meta_lab_tests_UMLS_ext.json here", file=meta_dir, field="--meta", hint="point --meta at the MultiCogEval mimic-iv metadata folder")
    labels = read_labels(lab_labels, "itemid", "label") if lab_labels else {}
    micro = read_labels(micro_labels, "test_itemid", "test_name") if micro_labels else {}
    diseases = json.loads(diseases_path.read_text(encoding="utf-8")) if diseases_path else None
    records = load_records(records_path)
    cases = [_case(d, h, r, labels, micro, meta_dir, records_path) for d, h, r in _admissions(records, diseases, records_path)]
    if not cases:
        raise MedprobeError("no admissions matched", file=records_path)
    return cases
