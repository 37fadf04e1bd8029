"""MultiCogEval low- and mid-level metrics (REFERENCE_METHODS.md §4.1, paper §3.3 and Appendix B).

Accuracy is computed per repeat (one pass over the items with one draw of demos), then reported as the
mean over repeats with SE = std(ddof=1)/sqrt(#repeats). Each task is normalized against its random
baseline, ``(acc - rand) / (1 - rand)``, so that 0 is chance and 1 is perfect on every task and the
levels can be compared: Low = normalized MCQ; Mid = mean of the normalized SV, AE and MR accuracies.
The paper's Low/Mid figures over several datasets are macro averages.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from medprobe.metrics.multifacet import normalized
from medprobe.metrics.stats import mean_se

TASKS: tuple[str, ...] = ("MCQ", "SV", "AE", "MR")
LOW_TASKS: tuple[str, ...] = ("MCQ",)
MID_TASKS: tuple[str, ...] = ("SV", "AE", "MR")
LEVEL_OF: dict[str, str] = {"MCQ": "low", "SV": "mid", "AE": "mid", "MR": "mid"}

Estimate = dict[str, float | None]


def random_baseline(task: str, n_options: int | None) -> float:
    """Chance accuracy (Appendix B): 1/No for MCQ and for MR (whose weighting makes it 1/No whatever the
    guessing strategy), 1/2 for the two-label SV and AE. MedQA (5 options): 0.2 / 0.5 / 0.5 / 0.2;
    MedMCQA and 4-option knowledge-base questions: 0.25 / 0.5 / 0.5 / 0.25."""
    if task in ("SV", "AE"):
        return 0.5
    if task not in ("MCQ", "MR"):
        raise ValueError(f"unknown MultiCogEval task {task!r}")
    if n_options is None or n_options < 2:
        raise ValueError(f"a {task} question needs at least two options, got {n_options}")
    return 1 / n_options


def rectification_item_score(right_judged_correct: bool, wrong_rectified: bool, n_options: int) -> float:
    """MR score of one item in one repeat: ``w·[Alice-right question judged correct] + (1-w)·[Alice-wrong
    question judged incorrect with the gold letter]``, w = 1/No (§4.1).

    The Alice-right question is scored on the verdict alone. With p the probability of saying
    "correct", a guesser scores ``w·p + (1-w)·(1-p)/(No-1)``, which is 1/No for every p only when
    w = 1/No (Appendix B).
    """
    w = 1 / n_options
    return w * right_judged_correct + (1 - w) * wrong_rectified


def accuracy(item_scores: Sequence[float]) -> float:
    """Accuracy of one repeat: the mean item score. For SV and AE an item score is the mean over its two
    questions, which gives the reference's (#correct)/(2N)."""
    if not item_scores:
        raise ValueError("accuracy needs at least one item")
    return sum(item_scores) / len(item_scores)


def task_estimate(per_repeat: Sequence[float], baseline: float) -> Estimate:
    """Mean and SE over repeats, raw and normalized (the normalized SE is SE/(1-rand), as in the
    reference notebook). SEs are None with a single repeat."""
    acc, se = mean_se(per_repeat)
    if acc is None:
        raise ValueError("task_estimate needs at least one repeat")
    return {
        "accuracy": acc,
        "se": se,
        "normalized": normalized(acc, baseline),
        "normalized_se": None if se is None else se / (1 - baseline),
    }


def mid_level(per_repeat_normalized: Mapping[str, Sequence[float]]) -> Estimate:
    """Mid level = mean of the normalized mid tasks. The reference gives no SE for it; here it is the SE
    of the per-repeat averages (§4.1's suggestion), over the repeats every task has."""
    tasks = [t for t in MID_TASKS if per_repeat_normalized.get(t)]
    if not tasks:
        raise ValueError("mid_level needs at least one mid-level task")
    repeats = min(len(per_repeat_normalized[t]) for t in tasks)
    averages = [sum(per_repeat_normalized[t][r] for t in tasks) / len(tasks) for r in range(repeats)]
    value, se = mean_se(averages)
    return {"normalized": value, "se": se}


def macro(estimates: Sequence[Estimate]) -> Estimate:
    """Macro average over datasets (the paper's Low/Mid columns average MedQA and MedMCQA). The datasets
    are independent samples, so each SE of the average (``se``, ``se_repeats``) is sqrt(sum SE_i^2)/k;
    None if any dataset lacks it."""
    if not estimates:
        raise ValueError("macro needs at least one dataset")
    values = [e["normalized"] for e in estimates]
    if any(v is None for v in values):
        raise ValueError("macro needs a normalized value for every dataset")
    out: Estimate = {"normalized": sum(v for v in values if v is not None) / len(values)}
    for key in [k for k in estimates[0] if k.startswith("se")]:
        ses = [e.get(key) for e in estimates]
        out[key] = math.sqrt(sum(s * s for s in ses if s is not None)) / len(ses) if all(s is not None for s in ses) else None
    return out


def item_se(by_item: Mapping[str, Sequence[float]]) -> float | None:
    """Standard error that includes item sampling: the SE over items of each item's mean over repeats.

    A benchmark is one sample of questions, and the spread over repeats (demo draws) says nothing about
    it. Bootstrapping the items — each with its results in every repeat — estimates exactly this SE for
    a mean; the closed form is used because it is exact and costs nothing. None with fewer than two
    items."""
    return mean_se([sum(v) / len(v) for v in by_item.values() if v])[1]


def mid_item_se(by_task: Mapping[str, Mapping[str, Sequence[float]]], baselines: Mapping[str, float]) -> float | None:
    """Item-sampling SE of the mid level: per item, the mean of its normalized mid-task scores (items
    that have every mid task of the dataset), then the SE over items (see ``item_se``). Items are taken in
    sorted order: a set's order follows the per-process string hash, and the sum's last digits the order."""
    tasks = [t for t in MID_TASKS if by_task.get(t)]
    if not tasks:
        return None
    shared = set.intersection(*(set(by_task[t]) for t in tasks))
    per_item = {
        item: [sum(normalized(sum(by_task[t][item]) / len(by_task[t][item]), baselines[t]) for t in tasks) / len(tasks)]
        for item in sorted(shared)
    }
    return item_se(per_item)
