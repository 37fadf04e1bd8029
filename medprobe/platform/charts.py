"""Breakdown charts the platform adds to a scored submission: accuracy, and the share of replies that
could not be read as an answer, per MultifacetEval facet, MultiCogEval task or SDAK knowledge type.

The methods draw their own charts where their papers do (MedDisKEval's tiers and aspects, SDAK's
FactAcc radar); MultifacetEval and MultiCogEval report their breakdowns only as tables, and a
results page should show at a glance where a model fails and whether its replies were read at all.
"""

from __future__ import annotations

from typing import Any

from medprobe.report.svg import value_bars

#: (label, accuracy, share of replies not read as an answer)
Row = tuple[str, float, float]


def _multifacet(metrics: dict[str, Any]) -> list[Row]:
    return [(name, f["accuracy"], f["parse_failure_rate"]) for name, f in metrics.get("facets", {}).items()
            if f.get("accuracy") is not None]


def _multicog(metrics: dict[str, Any]) -> list[Row]:
    datasets = metrics.get("lowmid", {}).get("datasets", {})
    return [(f"{dataset} {task}" if len(datasets) > 1 else task, t["accuracy"], t["parse_failure_rate"])
            for dataset, d in datasets.items() for task, t in d.get("tasks", {}).items() if t.get("accuracy") is not None]


def _sdak(metrics: dict[str, Any]) -> list[Row]:
    """FactAcc per knowledge type; a reply that does not begin with a verdict is one not followed (1 - IFR)."""
    return [(t["label"], t["fact_acc"], 1.0 - t["ifr"]) for t in metrics.get("per_type", {}).values()]


BREAKDOWNS = {"multifacet": ("facet", _multifacet), "multicog": ("task", _multicog), "sdak": ("knowledge type", _sdak)}


def breakdown_charts(method: str, summary: dict[str, Any]) -> dict[str, str]:
    """``breakdown_accuracy.svg`` and ``breakdown_unread.svg`` for a method with a breakdown, else nothing."""
    if method not in BREAKDOWNS:
        return {}
    part, rows_of = BREAKDOWNS[method]
    rows = rows_of(summary.get("metrics", {}))
    if not rows:
        return {}
    return {
        "breakdown_accuracy.svg": value_bars([(label, accuracy) for label, accuracy, _ in rows], f"Accuracy by {part}", 1.0),
        "breakdown_unread.svg": value_bars([(label, unread) for label, _, unread in rows],
                                           f"Replies not read as an answer, by {part}", 1.0),
    }
