"""Clinical cases for the full-path diagnosis task, and their importers.

A :class:`Case` holds what a doctor would learn step by step: the history of present illness,
the physical examination, and exam items of three types (LAB, MICRO, IMAGE) with their results,
plus the gold diagnosis, accepted synonyms and the body system. Studies of none of the three
types (ECG, EEG, EMG, endoscopy, spirometry, …: ``OTHER``) are given with the physical examination
and are not exam items: the paper's exam recall covers laboratory, microbiology and imaging only.
Sources:

* medprobe case JSONL (one Case per line; ``medprobe cases`` writes this format);
* AgentClinic OSCE JSONL (``agentclinic_medqa_extended.jsonl``): test results are mapped to
  LAB / MICRO / IMAGE / OTHER by name (see :func:`exam_type`), panels such as a complete blood
  count become one item per component so that asking for the panel or a component both count,
  and a result that is not there yet (pending, scheduled, not performed, …) is no exam item;
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

ExamType = Literal["LAB", "MICRO", "IMAGE", "OTHER"]
EXAM_TYPES: tuple[ExamType, ...] = ("LAB", "MICRO", "IMAGE")
"""The exam types a model orders (one action each) and whose recall is scored; ``OTHER`` studies
come with the physical examination."""


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
    "diagnostic tests", "imaging", "imaging studies", "imaging results", "radiology", "further tests", "additional testing",
    "imaging and other tests", "lab work", "basic labs", "basic laboratory tests", "infectious disease testing", "microbiology",
}
#: containers whose children are imaging even when a child's name says nothing about it
_IMAGING_CONTAINERS = {"imaging", "imaging studies", "imaging results", "radiology"}


def _cues(words: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{words})\b", re.IGNORECASE)


_IMAGE = _cues(
    r"x-?rays?|radiograph\w*|ct|cta|mri|mra|ultrasound|ultrasonograph\w*|sonograph\w*|echo\w*|doppler|duplex|"
    r"mammogra\w*|scan|imaging|angiogra\w*|fluorosc\w*|pet|dexa|dxa|spect|tomograph\w*|scintigra\w*|venogra\w*|"
    r"urogra\w*|pyelogra\w*|barium|esophagram|myelogra\w*|cholangiogra\w*|hida|mrcp|ercp|catheteri[sz]ation"
)
#: physiological studies, endoscopies, bedside measurements and assessments: neither laboratory,
#: microbiology nor imaging (imaging cues are checked first: an echocardiogram or an endoscopic
#: ultrasound stays imaging)
_OTHER = _cues(
    r"ecg|ekg|electrocardiogra\w*|holter|telemetry|stress test|tilt.table|eeg|electroencephalogra\w*|emg|"
    r"electromyogra\w*|nerve conduction|endoscop\w*|colonoscop\w*|sigmoidoscop\w*|bronchoscop\w*|laryngoscop\w*|"
    r"cystoscop\w*|anoscop\w*|egd|esophagogastroduodenoscop\w*|spirometr\w*|pulmonary function|pfts?|dlco|"
    r"polysomnogra\w*|sleep study|sleep diary|actigraph\w*|audiometr\w*|audiolog\w*|hearing test|tympanometr\w*|"
    r"vestibular|dix.hallpike|slit lamp|fundoscop\w*|ophthalmolog\w*|tonometr\w*|visual fields?|vital signs?|"
    r"blood pressure|ankle.brachial|wedge pressure|psycholog\w*|neuropsycholog\w*|assessment tools?|checklists?|"
    r"dermoscop\w*|occupational history|autonomic|interventions?"
)
#: tests for pathogens: cultures, stains, nucleic-acid tests, serology and antigens of infections
_MICRO = _cues(
    r"cultures?|gram stain|acid.fast|pcr|naat|koh|smear for|microscopy for|serolog\w*|"
    r"(?<!specific )(?<!carcinoembryonic )antigens?|viral|bacterial|fungal|parasit\w*|ova|rapid strep|monospot|hiv|"
    r"hepatitis|tuberculin|quantiferon|igra|sputum|swab|wet mount|skin scraping|toxin|rpr|vdrl|treponemal|syphilis|"
    r"lyme|chlamydia|gonorrh\w*|torch|toxoplasm\w*|cmv|cytomegalovirus|ebv|epstein|varicella|herpes|hsv|influenza|"
    r"rsv|covid\w*|malaria|giardia|helicobacter|pylori|clostridi\w*|sti|std"
)
_CUES: tuple[tuple[ExamType, re.Pattern[str]], ...] = (("IMAGE", _IMAGE), ("OTHER", _OTHER), ("MICRO", _MICRO))


def _cue_type(name: str) -> ExamType | None:
    text = name.replace("_", " ")
    return next((kind for kind, pattern in _CUES if pattern.search(text)), None)


def exam_type(name: str, group: str | None = None) -> ExamType:
    """LAB / MICRO / IMAGE / OTHER from a test name, else from the group it is listed in.

    Imaging (radiographs, CT, MRI, ultrasound, echocardiography, contrast studies) is IMAGE;
    physiological studies, endoscopies and bedside measurements (ECG, EEG, EMG, nerve conduction,
    endoscopy, spirometry, audiometry, vital signs) are OTHER; pathogen tests (cultures, stains,
    PCR, serology and antigens of infections) are MICRO; everything else — blood, urine and CSF
    chemistry and counts, pathology, genetics — is LAB. The name's own cue wins over its group's, so
    a lumbar-puncture panel keeps its cell counts in LAB and its Gram stain in MICRO.
    """
    group_kind = "IMAGE" if (group or "").replace("_", " ").lower() in _IMAGING_CONTAINERS else _cue_type(group or "")
    return _cue_type(name) or group_kind or "LAB"


_NOT_THERE_YET = re.compile(
    r"\b(?:pending|scheduled|awaited|awaiting|not yet (?:available|performed|done|back|reported))\b|"
    r"^(?:(?:findings?|results?|interpretation)\s*:\s*)?(?:not (?:available|performed|done|provided|specified|indicated|"
    r"reported|obtained|mentioned|conducted)|n/?a\b|$)",
    re.IGNORECASE,
)


def has_result(result: str) -> bool:
    """Whether a recorded result is one: "Pending", "scheduled for next week", "Not performed",
    "Not provided" or an empty text is no result, so the test is no exam item (a model cannot be
    scored for asking for what the case does not hold). "Normal, specifics not provided" is one."""
    return not _NOT_THERE_YET.search(result.strip())


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
        single = not isinstance(value, dict) or kind in ("IMAGE", "OTHER") or set(components) <= {"Findings", "Result", "Results", "Interpretation"}
        if single:
            exams.append(Exam(id=_slug(name), type=kind, name=name, result=_flatten(value)))
        else:
            for part, result in value.items():
                exams.append(Exam(id=f"{_slug(name)}.{_slug(part)}", type=exam_type(_label(part), name), name=_label(part),
                                  result=_flatten(result), panel=name))
    return [exam for exam in exams if has_result(exam.result)]


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
