"""Clinical cases for the full-path diagnosis task, and their importers.

A :class:`Case` holds what a doctor would learn step by step: the history of present illness,
the physical examination, and exam items of three types (LAB, MICRO, IMAGE) with their results,
plus the gold diagnosis, accepted synonyms and the body system. Sources:

* medprobe case JSONL (one Case per line; ``medprobe cases`` writes this format);
* AgentClinic OSCE JSONL (``agentclinic_medqa_extended.jsonl``): test results are mapped to
  LAB / MICRO / IMAGE by name (see :func:`exam_type`), panels such as a complete blood count
  become one item per component so that asking for the panel or a component both count;
* MIMIC-IV-CDM style records built from a user's own credentialed MIMIC-IV files
  (:mod:`medprobe.methods.multicog.dialogue.mimic`);
* the built-in demo cases shipped with medprobe (``builtin``), written by us, so the task runs
  offline.
"""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from medprobe.errors import MedprobeError
from medprobe.jsonl import iter_json_lines, validation_error
from medprobe.records import Record

ExamType = Literal["LAB", "MICRO", "IMAGE"]
EXAM_TYPES: tuple[ExamType, ...] = ("LAB", "MICRO", "IMAGE")


class Exam(Record):
    """One exam item of a case. ``panel`` names the panel it belongs to (e.g. a complete blood
    count), so that asking for the panel returns all of its components."""

    id: str
    type: ExamType
    name: str
    result: str
    panel: str | None = None
    synonyms: list[str] = Field(default_factory=list)
    #: imaging only: body regions and modalities (e.g. ["Chest"], ["CT"]); derived from the name when empty
    regions: list[str] = Field(default_factory=list)
    modalities: list[str] = Field(default_factory=list)


class Case(Record):
    id: str
    source: str
    disease: str = Field(description="label used for the macro average over diseases")
    diagnosis: str
    diagnosis_synonyms: list[str] = Field(default_factory=list)
    body_system: str | None = None
    history: str
    physical_exam: str = ""
    exams: list[Exam] = Field(default_factory=list)
    meta: dict[str, Any] = Field(default_factory=dict)

    def exams_of(self, kind: ExamType) -> list[Exam]:
        return [e for e in self.exams if e.type == kind]


# --- AgentClinic -------------------------------------------------------------------------------------

#: result groups that only hold other tests (their children are the exam items)
_CONTAINERS = {
    "blood tests", "blood test", "laboratory tests", "laboratory studies", "laboratory results", "lab tests",
    "lab results", "labs", "blood work", "bloodwork", "additional tests", "other tests", "tests", "investigations",
    "diagnostic tests", "imaging", "imaging studies", "radiology", "further tests", "additional testing",
    "imaging and other tests", "lab work", "basic labs", "basic laboratory tests", "infectious disease testing",
}
_IMAGE = re.compile(
    r"\b(x-?ray|radiograph|ct|cta|mri|mra|ultrasound|sonograph\w*|echo\w*|doppler|mammogra\w*|scan|imaging|angiogra\w*|"
    r"fluorosc\w*|ecg|ekg|electrocardiogra\w*|eeg|electroencephalogra\w*|emg|electromyogra\w*|nerve conduction|"
    r"endoscop\w*|colonoscop\w*|bronchoscop\w*|laryngoscop\w*|cystoscop\w*|pet|dexa|dxa|spect|holter|"
    r"radiograph\w*|tomograph\w*|scintigra\w*|fundoscop\w*|slit lamp|venogra\w*|urogra\w*)\b",
    re.IGNORECASE,
)
_MICRO = re.compile(
    r"\b(cultures?|gram stain|stain|pcr|naat|koh|smear for|microscopy for|serolog\w*|antigen|viral|bacterial|fungal|"
    r"parasit\w*|ova|rapid strep|monospot|hiv|hepatitis|tuberculin|quantiferon|igra|sputum|swab|wet mount|"
    r"skin scraping|lumbar puncture|csf analysis|stool studies|toxin|rpr|vdrl|treponemal|lyme|chlamydia|gonorrh\w*)\b",
    re.IGNORECASE,
)


def exam_type(name: str, container: str | None = None) -> ExamType:
    """LAB / MICRO / IMAGE from a test name: imaging and physiological studies (ECG, EEG, EMG,
    endoscopy) are IMAGE, pathogen tests (cultures, stains, PCR, serology, smears for organisms)
    are MICRO, everything else — blood, urine, chemistry, pathology, genetics — is LAB."""
    text = name.replace("_", " ")
    if (container or "").replace("_", " ").lower() in ("imaging", "imaging studies", "radiology") or _IMAGE.search(text):
        return "IMAGE"
    return "MICRO" if _MICRO.search(text) else "LAB"


def _label(key: str) -> str:
    return key.replace("_", " ").strip()


def _flatten(value: Any) -> str:
    if isinstance(value, dict):
        return "; ".join(f"{_label(k)}: {_flatten(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_flatten(v) for v in value)
    return str(value)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def _agentclinic_exams(results: dict[str, Any], container: str | None = None) -> list[Exam]:
    exams: list[Exam] = []
    for key, value in results.items():
        name = _label(key)
        if isinstance(value, dict) and name.lower() in _CONTAINERS:
            exams += _agentclinic_exams(value, container=name)
            continue
        kind = exam_type(name, container)
        components = {k: v for k, v in value.items() if not isinstance(v, dict)} if isinstance(value, dict) else {}
        single = not isinstance(value, dict) or kind == "IMAGE" or set(components) <= {"Findings", "Result", "Results", "Interpretation"}
        if single:
            exams.append(Exam(id=_slug(name), type=kind, name=name, result=_flatten(value)))
        else:
            for part, result in value.items():
                exams.append(Exam(id=f"{_slug(name)}.{_slug(part)}", type=kind, name=_label(part), result=_flatten(result), panel=name))
    return exams


def _unique_ids(exams: list[Exam]) -> list[Exam]:
    """AgentClinic may name a test twice (e.g. at top level and under Imaging); keep both."""
    seen: dict[str, int] = {}
    out = []
    for exam in exams:
        n = seen[exam.id] = seen.get(exam.id, 0) + 1
        out.append(exam if n == 1 else exam.model_copy(update={"id": f"{exam.id}~{n}"}))
    return out


def _agentclinic_case(record: dict[str, Any], index: int) -> Case:
    osce = record["OSCE_Examination"]
    actor = osce["Patient_Actor"]
    history = " ".join(
        part
        for part in (
            actor.get("Demographics", "") + ".",
            actor.get("History", ""),
            "Symptoms: " + _flatten(actor.get("Symptoms", {})) + "." if actor.get("Symptoms") else "",
            "Past medical history: " + _flatten(actor.get("Past_Medical_History", "")) if actor.get("Past_Medical_History") else "",
            "Social history: " + _flatten(actor.get("Social_History", "")) if actor.get("Social_History") else "",
            "Review of systems: " + _flatten(actor.get("Review_of_Systems", "")) if actor.get("Review_of_Systems") else "",
        )
        if part
    )
    diagnosis = str(osce["Correct_Diagnosis"]).strip()
    return Case(
        id=f"agentclinic-{index:03d}",
        source="agentclinic",
        disease=diagnosis,
        diagnosis=diagnosis,
        history=history,
        physical_exam=_flatten(osce.get("Physical_Examination_Findings", {})),
        exams=_unique_ids(_agentclinic_exams(osce.get("Test_Results", {}) or {})),
        meta={"objective": osce.get("Objective_for_Doctor", "")},
    )


# --- loading -----------------------------------------------------------------------------------------


def builtin_cases_path() -> Path:
    return Path(str(files("medprobe.methods.multicog.dialogue").joinpath("demo_cases.jsonl")))


def load_cases(spec: str) -> list[Case]:
    """Cases from ``builtin``, a medprobe case JSONL, or an AgentClinic JSONL (detected per line)."""
    path = builtin_cases_path() if spec in ("builtin", "builtin:cases") else Path(spec)
    cases: list[Case] = []
    for line, value in iter_json_lines(path):
        if not isinstance(value, dict):
            raise MedprobeError("expected one JSON object (a case) per line", file=path, line=line)
        try:
            if "OSCE_Examination" in value:
                cases.append(_agentclinic_case(value, line))
            else:
                cases.append(Case.model_validate(value))
        except ValidationError as exc:
            raise validation_error(exc, path, line) from None
        except (KeyError, TypeError, AttributeError) as exc:
            raise MedprobeError(f"not an AgentClinic OSCE record: missing or malformed {exc}", file=path, line=line) from None
    if not cases:
        raise MedprobeError("no cases in the file", file=path)
    ids = [c.id for c in cases]
    if len(set(ids)) != len(ids):
        duplicate = next(i for i in ids if ids.count(i) > 1)
        raise MedprobeError(f"duplicate case id '{duplicate}'", file=path, field="id")
    return cases
