"""Test panels and the component items a case records under them, for cases outside MIMIC.

A doctor orders "a CBC" or "a basic metabolic panel", while a case records hemoglobin, WBC and
sodium, often loose ("Blood tests": {"Hemoglobin": …, "Sodium": …}) or under a panel of another
name ("Chemistry Panel"). The reference expands panel names for MIMIC at load time (its
"supplementary" keys, REFERENCE_METHODS §1.4); this is our table for every other case: each panel
with its names and the components it is made of, so that asking for a panel returns the components
the case has, wherever the case lists them.

A component belongs to a panel only from the same specimen: the WBC of a urinalysis is no part of
a complete blood count, and a CSF glucose no part of a metabolic panel. Names are compared after
``normalize`` (lower case, parentheses and punctuation dropped, "serum", "plasma", "level" left out).
Facts about which tests make up which panel are standard clinical usage; the table is ours.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property

from medprobe.methods.multicog.dialogue.cases import Exam

_IGNORED_WORDS = frozenset({"serum", "plasma", "level", "levels", "value", "values", "concentration", "test"})


def normalize(name: str) -> str:
    """"Serum Urea Nitrogen (BUN)" -> "urea nitrogen"; "Total Serum Calcium" -> "total calcium"."""
    text = re.sub(r"\([^)]*\)", " ", name.lower())
    words = re.sub(r"[^a-z0-9+&]+", " ", text).split()
    return " ".join(word for word in words if word not in _IGNORED_WORDS)


@dataclass(frozen=True)
class Panel:
    """One panel: the names it is ordered by (the first is canonical), the specimen, and its
    components (each a group of names for one item)."""

    names: tuple[str, ...]
    specimen: str
    components: tuple[tuple[str, ...], ...]

    @cached_property
    def component_keys(self) -> frozenset[str]:
        return frozenset(normalize(name) for group in self.components for name in group)

    def includes(self, other: Panel) -> bool:
        """A basic metabolic panel includes the electrolytes, a comprehensive one both."""
        return other.specimen == self.specimen and other.component_keys <= self.component_keys


_CBC = (
    ("hemoglobin", "hb", "hgb", "haemoglobin"),
    ("hematocrit", "hct", "packed cell volume", "pcv"),
    ("white blood cells", "white blood cell count", "wbc", "wbc count", "total wbc count", "white cell count",
     "leukocytes", "leukocyte count", "total leukocyte count"),
    ("platelets", "platelet count", "plt"),
    ("red blood cells", "red blood cell count", "rbc", "rbc count", "erythrocytes", "erythrocyte count"),
    ("mean corpuscular volume", "mcv"),
    ("mean corpuscular hemoglobin", "mch"),
    ("mean corpuscular hemoglobin concentration", "mchc"),
    ("red cell distribution width", "rdw"),
    ("neutrophils", "neutrophil count", "absolute neutrophil count", "anc", "segmented neutrophils"),
    ("lymphocytes", "lymphocyte count", "absolute lymphocyte count"),
    ("monocytes", "monocyte count"),
    ("eosinophils", "eosinophil count"),
    ("basophils", "basophil count"),
    ("bands", "band forms", "band neutrophils"),
    ("differential", "wbc differential", "differential count", "leukocyte differential"),
)
_ELECTROLYTES = (
    ("sodium", "na"), ("potassium", "k"), ("chloride", "cl"), ("bicarbonate", "hco3", "bicarb", "co2", "total co2"),
)
_RENAL = (("blood urea nitrogen", "urea nitrogen", "bun", "urea"), ("creatinine", "cr"))
_BMP = (*_ELECTROLYTES, *_RENAL, ("glucose", "glu", "blood glucose", "fasting glucose", "random glucose", "blood sugar"),
        ("calcium", "ca", "total calcium"))
_LFT = (
    ("alanine aminotransferase", "alt", "sgpt", "alanine transaminase"),
    ("aspartate aminotransferase", "ast", "sgot", "aspartate transaminase"),
    ("alkaline phosphatase", "alp", "alk phos"),
    ("bilirubin", "total bilirubin", "bilirubin total", "tbili"),
    ("direct bilirubin", "bilirubin direct", "conjugated bilirubin"),
    ("indirect bilirubin", "bilirubin indirect", "unconjugated bilirubin"),
    ("albumin", "alb"),
    ("total protein",),
    ("gamma glutamyl transferase", "ggt", "gamma gt"),
)
_LIPIDS = (
    ("total cholesterol", "cholesterol"), ("ldl", "ldl cholesterol", "low density lipoprotein"),
    ("hdl", "hdl cholesterol", "high density lipoprotein"), ("triglycerides", "tg"),
)
_COAGULATION = (
    ("prothrombin time", "pt"), ("inr", "international normalized ratio", "pt inr"),
    ("activated partial thromboplastin time", "aptt", "ptt", "partial thromboplastin time"), ("fibrinogen",),
    ("thrombin time",), ("bleeding time",),
)
_BLOOD_GAS = (("ph",), ("pco2", "paco2"), ("po2", "pao2"), ("base excess",), ("oxygen saturation", "sao2", "o2 saturation"))
_THYROID = (
    ("thyroid stimulating hormone", "tsh", "thyrotropin"), ("free t4", "ft4", "t4", "thyroxine", "free thyroxine"),
    ("free t3", "ft3", "t3", "triiodothyronine"),
)
_IRON = (("iron",), ("ferritin",), ("total iron binding capacity", "tibc"), ("transferrin saturation", "tsat"), ("transferrin",))
_CARDIAC = (
    ("troponin", "troponins", "troponin i", "troponin t", "cardiac troponin"), ("creatine kinase mb", "ck mb"),
    ("creatine kinase", "ck", "cpk"), ("myoglobin",),
)
_INFLAMMATION = (("erythrocyte sedimentation rate", "esr", "sed rate"), ("c reactive protein", "crp"))
_URINE = (
    ("appearance",), ("color", "colour"), ("specific gravity",), ("ph",), ("protein",), ("glucose",), ("ketones",),
    ("blood",), ("nitrites", "nitrite"), ("leukocyte esterase",), ("wbc", "white blood cells", "leukocytes"),
    ("rbc", "red blood cells", "erythrocytes"), ("bacteria",), ("casts",), ("crystals",), ("bilirubin",),
    ("urobilinogen",), ("epithelial cells",),
)
_HEPATITIS = (
    ("hbsag", "hepatitis b surface antigen"), ("anti hbs", "hepatitis b surface antibody"),
    ("anti hbc", "igm anti hbc", "hepatitis b core antibody", "hepatitis b core igg antibody", "hepatitis b core igm antibody"),
    ("hbeag", "hepatitis b envelope antigen"), ("anti hav igm", "hepatitis a igm antibody", "hepatitis a igg antibody"),
    ("anti hcv", "hepatitis c antibody"), ("anti hdv", "hepatitis d antibody"),
)

PANELS: tuple[Panel, ...] = (
    Panel(("complete blood count", "cbc", "full blood count", "fbc", "blood count", "hemogram", "cbc with differential",
           "cbc with diff"), "blood", _CBC),
    Panel(("electrolytes", "serum electrolytes", "electrolyte panel", "lytes"), "blood", _ELECTROLYTES),
    Panel(("renal function tests", "renal function panel", "renal panel", "kidney function tests", "renal profile", "rft",
           "kft"), "blood", _RENAL),
    Panel(("basic metabolic panel", "bmp", "chem 7", "chem-7", "urea and electrolytes", "u&e"), "blood", _BMP),
    Panel(("liver function tests", "lfts", "lft", "liver panel", "hepatic function panel", "liver enzymes",
           "liver function panel"), "blood", _LFT),
    Panel(("comprehensive metabolic panel", "cmp", "chem 14", "metabolic panel", "chemistry panel", "blood chemistry",
           "serum chemistry", "serum chemistries", "biochemistry"), "blood", (*_BMP, *_LFT)),
    Panel(("lipid panel", "lipid profile", "lipids", "fasting lipid panel", "cholesterol panel"), "blood", _LIPIDS),
    Panel(("coagulation panel", "coagulation profile", "coagulation studies", "coagulation tests", "coags",
           "clotting profile"), "blood", _COAGULATION),
    Panel(("arterial blood gas", "arterial blood gases", "abg", "blood gas", "blood gases", "blood gas analysis"), "blood",
          _BLOOD_GAS),
    Panel(("thyroid function tests", "thyroid panel", "thyroid profile", "thyroid function", "tfts", "tft"), "blood",
          _THYROID),
    Panel(("iron studies", "iron panel", "iron profile"), "blood", _IRON),
    Panel(("cardiac enzymes", "cardiac markers", "cardiac biomarkers", "cardiac enzyme panel"), "blood", _CARDIAC),
    Panel(("inflammatory markers",), "blood", _INFLAMMATION),
    Panel(("urinalysis", "urine analysis", "ua", "urine dipstick", "urine test", "urine tests", "urine routine",
           "urine microscopy"), "urine", _URINE),
    Panel(("hepatitis panel", "viral hepatitis panel", "hepatitis viral panel", "hepatitis serology"), "blood", _HEPATITIS),
)

_SPECIMENS = (
    ("urine", re.compile(r"\burin|\bua\b")),
    ("csf", re.compile(r"\bcsf\b|cerebrospinal|lumbar")),
    ("stool", re.compile(r"\bstool|\bf(?:a)?ecal")),
    ("fluid", re.compile(r"synovial|pleural|ascit|peritoneal|\bjoint\b|arthrocentesis|aspirat")),
)


def specimen(exam: Exam) -> str:
    """Where an item was measured, from its name and its panel's: urine, csf, stool, fluid or blood."""
    text = f"{exam.panel or ''} {exam.name}".lower()
    return next((kind for kind, pattern in _SPECIMENS if pattern.search(text)), "blood")


@cache
def _named(name: str) -> tuple[Panel, ...]:
    """The panels a (normalized) name orders."""
    return tuple(panel for panel in PANELS if name in {normalize(n) for n in panel.names})


def _component_key(name: str, specimen_kind: str) -> str:
    key = normalize(name)
    return re.sub(r"^(?:urine|urinary) ", "", key) if specimen_kind == "urine" else key


def belongs(exam: Exam, panel: Panel) -> bool:
    """Whether asking for ``panel`` returns ``exam``: the exam, or the group it is listed under, is
    this panel or one it includes, or is one of its components (same specimen). A group named after
    a component holds that component ("Blood Glucose": {"Level": …, "Fasting": …})."""
    names = [name for name in (exam.name, exam.panel) if name]
    if any(panel.includes(named) for name in names for named in _named(normalize(name))):
        return True
    kind = specimen(exam)
    return kind == panel.specimen and any(_component_key(name, kind) in panel.component_keys for name in names)


def panel_members(exams: Sequence[Exam]) -> Iterable[tuple[Panel, list[str]]]:
    """Each panel of the table with the ids of the exams it returns (panels returning none left out)."""
    for panel in PANELS:
        ids = [exam.id for exam in exams if belongs(exam, panel)]
        if ids:
            yield panel, ids
