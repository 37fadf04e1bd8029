"""Leaderboard rows: the method's own headline columns (``method.headline``), a 95 % confidence
interval for its main figure, and the columns that decide whether two rows compare.

Confidence intervals. MultiCogEval's summary already carries a standard error per level that
includes question sampling; its interval is normalized accuracy ± 1.96 SE. For the others the
interval is a cluster bootstrap over knowledge points (1,000 resamples, fixed seed) of the figure
the headline sorts by, recomputed from the per-item scores kept on the server:
MultifacetEval's average facet accuracy (mean over facets of each facet's mean item score),
SDAK's FactAcc (mean item score over items and runs) and MedDisKEval's total score (mean over
answers of 0/5/10 points per tier, averaged over the graded metrics). Each equals the summary's
own figure on the full sample (tested), so the interval is around the number shown.

Item error: the estimated share of bad items among those the benchmark built (medprobe.gating), rate and
95 % interval, "not measured" on a user's own KB, "n/a" on released data.
"""

from __future__ import annotations

import csv
import io
from typing import Any

import numpy as np

from medprobe.contract import get_method
from medprobe.gating import item_error_cell
from medprobe.methods.meddisk.grading import TIER_POINTS
from medprobe.records import ItemScore
from medprobe.report.svg import value_bars

RESAMPLES = 1000
Z95 = 1.959964
#: cells whose text a participant chooses
PARTICIPANT_CELLS = ("model", "organisation", "size", "licence", "link")
#: rows per page of a leaderboard page
PAGE_ROWS = 50


def _meddisk_points(summary: dict[str, Any]) -> Any:
    graded = summary["metrics"]["graded_metrics"]
    return lambda item: sum(TIER_POINTS[item.meta["tiers"][m]] for m in graded) / len(graded)


def statistic(method: str, summary: dict[str, Any], items: list[ItemScore]) -> tuple[str, float, float, float] | None:
    """(name, value, low, high) of the bootstrap interval, or None for methods that report their own SE."""
    if method == "multifacet":
        name, value_of, by_facet = "Average", (lambda item: item.score), True
    elif method == "sdak":
        name, value_of, by_facet = "FactAcc", (lambda item: item.score), False
    elif method == "meddisk":
        name, value_of, by_facet = "total score", _meddisk_points(summary), False
    else:
        return None
    kps = sorted({item.knowledge_point for item in items})
    if not kps:
        return None
    facets = sorted({item.facet for item in items}) if by_facet else ["all"]
    index, column = {kp: i for i, kp in enumerate(kps)}, {f: j for j, f in enumerate(facets)}
    sums, counts = np.zeros((len(kps), len(facets))), np.zeros((len(kps), len(facets)))
    for item in items:
        i, j = index[item.knowledge_point], column[item.facet if by_facet else "all"]
        sums[i, j] += value_of(item)
        counts[i, j] += 1

    def figure(rows: np.ndarray) -> np.ndarray:
        total, n = sums[rows].sum(axis=-2), counts[rows].sum(axis=-2)
        return np.nanmean(np.where(n > 0, total / np.maximum(n, 1), np.nan), axis=-1)

    value = float(figure(np.arange(len(kps))))
    draws = np.random.default_rng(0).integers(0, len(kps), size=(RESAMPLES, len(kps)))
    low, high = np.nanpercentile(figure(draws), [2.5, 97.5])
    return name, value, float(low), float(high)


def headline_of(method: str, summary: dict[str, Any], items: list[ItemScore]) -> dict[str, Any]:
    """What the leaderboard shows of one scored submission (stored with it)."""
    row = get_method(method).headline(summary)
    columns = {k: v for k, v in row.items() if not k.startswith("_")}
    intervals: list[dict[str, Any]] = []
    found = statistic(method, summary, items)
    if found is not None:
        name, value, low, high = found
        intervals.append({"name": name, "value": value, "low": low, "high": high, "how": "bootstrap over knowledge points"})
    for level, block in summary["metrics"].get("levels", {}).items():
        if block.get("normalized") is not None and block.get("se") is not None:
            value = block["normalized"]
            intervals.append({"name": f"{level} (normalized)", "value": value, "low": value - Z95 * block["se"],
                              "high": value + Z95 * block["se"], "how": "± 1.96 SE (question sampling)"})
    return {"columns": columns, "sort": row.get("_sort", ""), "intervals": intervals}


def _interval_text(method: str, interval: dict[str, Any]) -> str:
    if method == "meddisk":
        return f"{interval['name']} [{interval['low']:.2f}, {interval['high']:.2f}]"
    return f"{interval['name']} [{100 * interval['low']:.1f}, {100 * interval['high']:.1f}] %"


def comparability(benchmark: Any, submission: Any) -> dict[str, str]:
    """Columns that tell whether two rows compare: scoring mode, knowledge base, embedder, prompt style."""
    summary = submission.summary or {}
    metrics = summary.get("metrics", {})
    knowledge = metrics.get("knowledge")
    kb = benchmark.data + (f" · {knowledge['digest']}" if isinstance(knowledge, dict) and knowledge.get("digest") else "")
    return {
        "mode": str(summary.get("mode", "–")), "knowledge base": kb,
        "embedder": str(metrics.get("scoring", {}).get("embedder", "–")), "prompt style": submission.prompt_style,
    }


def verified(submission: Any) -> bool:
    """The platform asked the model itself (an admin's run for me): the answers are the model's, not a
    participant's file, which could come from anywhere."""
    return str(submission.source).startswith("endpoint:")


def rows(benchmark: Any, submissions: list[Any]) -> list[dict[str, str]]:
    """One row per public, scored submission, best first (by the method's own sort key)."""
    ordered = sorted(submissions, key=lambda s: (s.headline or {}).get("sort", ""), reverse=True)
    out = []
    for rank, sub in enumerate(ordered, start=1):
        headline = sub.headline or {"columns": {}, "intervals": []}
        run = (sub.summary or {}).get("run", {})
        out.append({
            "rank": str(rank), "model": sub.model_name, "organisation": sub.organisation, "size": sub.model_size,
            "licence": sub.licence, "link": sub.link,
            "verified": "yes" if verified(sub) else "no", "date": sub.created.date().isoformat(), **headline["columns"],
            "95% CI": "; ".join(_interval_text(benchmark.method, i) for i in headline["intervals"]) or "–",
            "item error": item_error_cell(sub.summary or {}),
            **comparability(benchmark, sub),
            "answered": f"{run.get('answered', 0)}/{run.get('requests', 0)}", "submission": str(sub.id),
        })
    return out


def _sort_key(value: str) -> tuple[int, float, str]:
    """Numbers (a cell's leading number: "45.2", "45.2 [40.1, 50.3] %") before text, each in order."""
    head = value.split()[0] if value.split() else ""
    try:
        return 0, float(head.rstrip("%")), ""
    except ValueError:
        return 1, 0.0, value.lower()


def browse(table: list[dict[str, str]], sort: str = "", descending: bool = False, query: str = "", page: int = 1
           ) -> tuple[list[dict[str, str]], int]:
    """The rows a leaderboard page shows: those whose model, organisation, size or licence holds
    ``query`` (any case), sorted by column ``sort`` (default: rank), the ``page``-th PAGE_ROWS of
    them; and the number of pages."""
    needle = query.strip().lower()
    rows = [r for r in table if not needle or any(needle in r[k].lower() for k in ("model", "organisation", "size", "licence"))]
    if sort and table and sort in table[0]:
        rows = sorted(rows, key=lambda r: _sort_key(r[sort]), reverse=descending)
    pages = max(1, -(-len(rows) // PAGE_ROWS))
    page = min(max(1, page), pages)
    return rows[(page - 1) * PAGE_ROWS: page * PAGE_ROWS], pages


def main_figure(headline: dict[str, Any] | None) -> tuple[str, float] | None:
    """The figure a benchmark's rows are compared by (its first interval's), for the overview."""
    intervals = (headline or {}).get("intervals") or []
    return (intervals[0]["name"], float(intervals[0]["value"])) if intervals else None


def figure_text(method: str, value: float) -> str:
    """MedDisKEval's total is in points (0-10); the other methods' figures are shares, shown in %."""
    return f"{value:.2f}" if method == "meddisk" else f"{100 * value:.1f}"


def overview_charts(benchmarks: list[Any], rows: list[dict[str, Any]], figures: dict[str, str], top: int = 10) -> list[str]:
    """Per benchmark, the best ``top`` models by its main figure, as bars in the table's units."""
    charts = []
    for b in benchmarks:
        points = b.method == "meddisk"
        ranked = sorted(((r["model"], r["cells"][b.slug]["value"] * (1 if points else 100)) for r in rows if b.slug in r["cells"]),
                        key=lambda x: -x[1])[:top]
        if ranked:
            unit = "points of 10" if points else "%"
            charts.append(value_bars(ranked, f"{b.slug}: {figures[b.slug]} ({unit}), best first", 10.0 if points else 100.0))
    return charts


def overview(benchmarks: list[Any], submissions: list[Any]) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Model x benchmark: per (model, organisation), each benchmark's best main figure among the public
    rows; and each benchmark's figure name. Rows sorted by how many benchmarks they have, then name."""
    by_model: dict[tuple[str, str], dict[str, Any]] = {}
    names: dict[str, str] = {}
    for sub in submissions:
        figure = main_figure(sub.headline)
        if figure is None:
            continue
        names[sub.benchmark.slug] = figure[0]
        row = by_model.setdefault((sub.model_name, sub.organisation), {"model": sub.model_name, "organisation": sub.organisation,
                                                                      "cells": {}})
        best = row["cells"].get(sub.benchmark.slug)
        if best is None or figure[1] > best["value"]:
            row["cells"][sub.benchmark.slug] = {"value": figure[1], "text": figure_text(sub.benchmark.method, figure[1]),
                                                "submission": sub.id, "verified": verified(sub)}
    slugs = [b.slug for b in benchmarks if b.slug in names]
    rows = sorted(by_model.values(), key=lambda r: (-len(r["cells"]), r["model"].lower()))
    return rows, {slug: names[slug] for slug in slugs}


def safe_cell(value: str) -> str:
    """A cell a spreadsheet will not run as a formula (names are chosen by participants)."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def to_csv(table: list[dict[str, str]]) -> str:
    out = io.StringIO()
    if table:
        writer = csv.DictWriter(out, fieldnames=list(table[0]))
        writer.writeheader()
        writer.writerows({k: safe_cell(v) if k in PARTICIPANT_CELLS else v for k, v in row.items()} for row in table)
    return out.getvalue()

