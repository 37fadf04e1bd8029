"""The 18 clinical knowledge aspects of MedDisK (paper 000, Table 1) and their types.

Types decide how an aspect is stored and scored: enumerated aspects are lists of entities,
declarative aspects are free text (examination findings), and the one numeric aspect is the
severity level (1-4), scored by exact match.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from medprobe.errors import MedprobeError


class AspectType(StrEnum):
    ENUMERATED = "enumerated"
    DECLARATIVE = "declarative"
    NUMERIC = "numeric"


@dataclass(frozen=True)
class Aspect:
    key: str
    type: AspectType
    en: str
    zh: str
    definition: str

    def name(self, language: str) -> str:
        return self.zh if language == "zh" else self.en


_E, _D, _N = AspectType.ENUMERATED, AspectType.DECLARATIVE, AspectType.NUMERIC

ASPECTS: tuple[Aspect, ...] = (
    Aspect("patient_population", _E, "patient population", "常见患病人群", "groups of people the disease most often affects"),
    Aspect("prevalence_ages", _E, "prevalence ages", "好发年龄", "age groups in which the disease is common"),
    Aspect("onset_ages", _E, "onset ages", "特发年龄", "age groups to which the disease is confined"),
    Aspect("primary_symptoms", _E, "primary symptoms", "常见症状", "the most prominent symptoms"),
    Aspect("associated_symptoms", _E, "associated symptoms", "伴随症状", "symptoms that accompany the primary ones"),
    Aspect("differential_symptoms", _E, "differential symptoms", "鉴别性症状", "symptoms that set the disease apart from others"),
    Aspect("physical_examination", _D, "physical examination findings", "体格检查", "signs found on examination that matter for diagnosis"),
    Aspect("anatomical_sites", _E, "anatomical sites", "解剖部位", "body sites most directly involved"),
    Aspect("affected_sites", _E, "affected sites", "影响部位", "all body sites the disease affects"),
    Aspect("affected_body_systems", _E, "affected body systems", "累及人体系统", "body systems damaged or affected"),
    Aspect("treatment_principles", _E, "treatment principles", "治疗原则", "principles guiding treatment"),
    Aspect("secondary_diseases", _E, "secondary diseases", "继发疾病", "diseases directly caused by this one"),
    Aspect("medications", _E, "medications", "常用药物", "drugs used to treat the disease"),
    Aspect("surgical_procedures", _E, "surgical procedures", "手术治疗", "operations used to treat the disease"),
    Aspect("laboratory_examinations", _D, "abnormal laboratory findings", "实验室检查异常结果", "abnormal laboratory test results"),
    Aspect("auxiliary_examinations", _D, "abnormal auxiliary examination findings", "辅助检查异常结果", "abnormal non-laboratory test results (imaging, ECG, scales)"),
    Aspect("departments", _E, "departments", "就诊科室", "clinical departments that treat the disease"),
    Aspect("severity_level", _N, "severity level", "危重等级", "1 (immediately life-threatening) to 4 (chronic or mild)"),
)

ASPECTS_BY_KEY: dict[str, Aspect] = {a.key: a for a in ASPECTS}


def get_aspect(key: str) -> Aspect:
    try:
        return ASPECTS_BY_KEY[key]
    except KeyError:
        raise MedprobeError(
            f"unknown aspect '{key}'",
            hint="aspects must be one of: " + ", ".join(ASPECTS_BY_KEY) + "; put other knowledge under 'extra'",
        ) from None


def enumerated_keys() -> list[str]:
    return [a.key for a in ASPECTS if a.type is AspectType.ENUMERATED]
