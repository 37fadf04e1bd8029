"""Full-path diagnosis metrics of MultiCogEval's high level (REFERENCE_METHODS §5.4).

Pure arithmetic over per-case outcomes, as the reference's ``get_diagnosis_results`` computes it:
a case's end-point score is whether the diagnosis is right, its full-path score is that times
its ``complete_index`` (the mean exam recall over the exam types its record holds), and each run
reports micro (over cases) and macro (over diseases) averages. Runs are then summarised as
mean ± SE over runs (as the paper reports), and the error bar that also covers the sampling of
cases comes from a seeded bootstrap over cases (``bootstrap_over_cases``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from medprobe.metrics.stats import bootstrap_se, mean, mean_se


def type_recall(requested: set[str], record: set[str]) -> float | None:
    """Share of the record's items of one type (lab or microbiology) that the model requested.

    None when the record has none of that type: §5.4 skips the type rather than counting it as 1.
    (The reference divides by ``len(record) + 1e-10``; we divide exactly, a 1e-10 difference.)
    """
    if not record:
        return None
    return len(requested & record) / len(record)


def complete_index(recalls: dict[str, float | None]) -> float:
    """Mean of the recalls present, or 1.0 when the record has no lab, microbiology or imaging
    at all (§5.4; physical examination is not counted)."""
    present = [value for value in recalls.values() if value is not None]
    return sum(present) / len(present) if present else 1.0


@dataclass(frozen=True)
class CaseOutcome:
    """One scored episode: whether the diagnosis was right and the recall of each exam type
    (None where the record has none of that type)."""

    case_id: str
    disease: str
    correct: bool
    recalls: dict[str, float | None]

    @property
    def end_point(self) -> float:
        return 1.0 if self.correct else 0.0

    @property
    def full_path(self) -> float:
        return self.end_point * complete_index(self.recalls)


def _macro(outcomes: Sequence[CaseOutcome], score: Callable[[CaseOutcome], float]) -> float:
    """Mean over diseases of each disease's mean score (the paper's headline averaging)."""
    by_disease: dict[str, list[float]] = {}
    for outcome in outcomes:
        by_disease.setdefault(outcome.disease, []).append(score(outcome))
    return sum(sum(values) / len(values) for values in by_disease.values()) / len(by_disease)


def _recall_types(outcomes: Iterable[CaseOutcome]) -> list[str]:
    return list(dict.fromkeys(kind for outcome in outcomes for kind in outcome.recalls))


def run_scores(outcomes: list[CaseOutcome]) -> dict[str, float | None]:
    """The numbers of one run (§5.4 "Aggregates per run").

    ``micro_end_point``/``macro_end_point``, ``micro_full_path``/``macro_full_path``; ``recall_<type>``
    — the mean recall of that type over the cases whose record has it (None when none has); and
    ``exam_recall``, the mean of those per-type means (presumably the paper's Table 5 "exam
    recall").
    """
    if not outcomes:
        raise ValueError("run_scores needs at least one case")
    scores: dict[str, float | None] = {
        "micro_end_point": mean([o.end_point for o in outcomes]),
        "macro_end_point": _macro(outcomes, lambda o: o.end_point),
        "micro_full_path": mean([o.full_path for o in outcomes]),
        "macro_full_path": _macro(outcomes, lambda o: o.full_path),
    }
    per_type: list[float] = []
    for kind in _recall_types(outcomes):
        value = mean([v for o in outcomes if (v := o.recalls.get(kind)) is not None])
        scores[f"recall_{kind}"] = value
        if value is not None:
            per_type.append(value)
    scores["exam_recall"] = mean(per_type)
    return scores


def over_runs(per_run: list[dict[str, float | None]]) -> dict[str, dict[str, Any]]:
    """Mean and standard error of every number across runs ("seeds"), as the reference reports.

    SE = std(ddof=1)/sqrt(n) over the runs where the number exists; it is None for a single run.
    Each entry also says how many runs it averages.
    """
    keys = dict.fromkeys(key for scores in per_run for key in scores)
    summary: dict[str, dict[str, Any]] = {}
    for key in keys:
        values = [value for scores in per_run if (value := scores.get(key)) is not None]
        average, se = mean_se(values)
        summary[key] = {"mean": average, "se": se, "runs": len(values)}
    return summary


def bootstrap_over_cases(per_run: dict[int, list[CaseOutcome]], *, resamples: int = 1000, seed: int = 0) -> dict[str, float | None]:
    """SE of every run-averaged number when the cases themselves are resampled (seeded bootstrap).

    The SE over runs says how much a score moves when the same cases are played again; a case set
    is also a sample (AgentClinic has one or two cases per disease). The headline numbers are macro
    averages over diseases, so a resample draws *diseases* with replacement, each with all its cases
    and their episodes of every run, and a disease drawn twice counts twice (drawing single cases
    would merge repeats of a disease into one macro entry and shrink the spread). The spread then
    covers both the case sampling and the run-to-run noise. Statistic: ``run_scores`` per run,
    averaged over runs.
    """
    runs = sorted(per_run)
    clusters: dict[str, dict[int, list[CaseOutcome]]] = {}
    for run in runs:
        for outcome in per_run[run]:
            clusters.setdefault(outcome.disease, {}).setdefault(run, []).append(outcome)

    def statistic(drawn: Sequence[dict[int, list[CaseOutcome]]]) -> dict[str, float | None]:
        scores = []
        for run in runs:
            outcomes = [replace(o, disease=str(k)) for k, cluster in enumerate(drawn) for o in cluster.get(run, [])]
            if outcomes:
                scores.append(run_scores(outcomes))
        return {key: entry["mean"] for key, entry in over_runs(scores).items()}

    return bootstrap_se(list(clusters.values()), statistic, resamples=resamples, seed=seed)
