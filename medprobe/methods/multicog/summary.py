"""The metrics of a MultiCogEval run, typed: what ``summary.json`` holds under ``metrics``.

The method's scorer builds a :class:`MultiCogMetrics` and the run keeps its
``model_dump(exclude_unset=True)``: a number that could not be computed for a run (a level without its
tasks, a statistic over one repeat only in some places) is left out of the file rather than written as
null, and the field order below is the key order of summary.json. The report reads the same model back
from the file. Its JSON Schema is published in the documentation (the MultiCogEval page).
"""

from __future__ import annotations

from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

#: the prefix of an exam type's recall in summary.json (``recall_LAB``, ``recall_IMAGE``, ...)
RECALL_PREFIX = "recall_"


class TaskResult(BaseModel):
    """One low or mid task of one dataset, over its repeats (demo draws)."""

    accuracy: float
    #: over repeats (the paper's); None for one repeat
    se: float | None
    normalized: float
    normalized_se: float | None
    #: over questions and repeats (a bootstrap over questions, in closed form)
    se_items: float | None
    normalized_se_items: float | None
    random_baseline: float
    parse_failure_rate: float
    questions: int
    repeats: int


class LevelEstimate(BaseModel):
    """A level's normalized accuracy and its SE (questions or cases, and repeats); ``se_repeats``: over
    repeats alone (the low and mid levels only)."""

    normalized: float | None
    se: float | None = None
    se_repeats: float | None = None


class DatasetResult(BaseModel):
    """The low and mid level tasks of one dataset, and its levels."""

    n_options: int | None
    #: task (MCQ, SV, AE, MR) -> result, in that order
    tasks: dict[str, TaskResult]
    low: LevelEstimate | None = None
    #: the mid tasks this dataset lacks, when it has some but not all (then it has no mid level)
    mid_missing: list[str] | None = None
    mid: LevelEstimate | None = None


class LowMidMetrics(BaseModel):
    datasets: dict[str, DatasetResult]
    #: "low" / "mid" -> macro average over datasets
    levels: dict[str, LevelEstimate]


class RunSpread(BaseModel):
    """A dialogue number over runs: its mean, SE over runs, how many runs have it, and the SE of a
    bootstrap over diseases and their cases."""

    mean: float | None
    se: float | None
    runs: int
    se_cases: float | None = None


def _recalls_schema(schema: dict[str, Any]) -> None:
    """The schema says what the file holds: one ``recall_<type>`` key per exam type, not a ``recall`` map."""
    recall = schema["properties"].pop("recall")
    schema["patternProperties"] = {f"^{RECALL_PREFIX}": recall["additionalProperties"]}


class HighMetrics(BaseModel):
    """Full-path diagnosis over the dialogue episodes (the paper's Table 5)."""

    model_config = ConfigDict(json_schema_extra=_recalls_schema)

    micro_end_point: RunSpread | None = None
    macro_end_point: RunSpread | None = None
    micro_full_path: RunSpread | None = None
    macro_full_path: RunSpread | None = None
    #: exam type -> recall; summary.json holds each as its own ``recall_<type>`` key, in this place
    recall: dict[str, RunSpread] = Field(default_factory=dict)
    exam_recall: RunSpread | None = None
    episodes: int
    finished: int
    #: why episodes ended without a diagnosis -> how many
    stopped: dict[str, int]
    grading: str
    diagnosis_kinds: dict[str, int]
    rolled_back: int
    summaries: int

    @model_validator(mode="before")
    @classmethod
    def _gather_recalls(cls, data: Any) -> Any:
        if not isinstance(data, dict) or "recall" in data:
            return data
        recall = {key.removeprefix(RECALL_PREFIX): value for key, value in data.items() if key.startswith(RECALL_PREFIX)}
        rest = {key: value for key, value in data.items() if not key.startswith(RECALL_PREFIX)}
        return {**rest, "recall": recall} if recall else rest

    @model_serializer(mode="wrap")
    def _spread_recalls(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        out: dict[str, Any] = {}
        for key, value in data.items():
            if key == "recall":
                out.update({f"{RECALL_PREFIX}{kind}": spread for kind, spread in value.items()})
            else:
                out[key] = value
        return out


class MultiCogMetrics(BaseModel):
    """Low and mid level tasks, the full-path dialogue, and the three levels."""

    lowmid: LowMidMetrics | None = None
    high: HighMetrics | None = None
    #: "low" / "mid" / "high" -> normalized accuracy and SE
    levels: dict[str, LevelEstimate]

    def dump(self) -> dict[str, Any]:
        """What summary.json keeps: what was computed, nothing unset."""
        return self.model_dump(exclude_unset=True)
