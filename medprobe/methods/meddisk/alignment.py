"""Expert alignment of MedDisKEval grading thresholds (paper 000, §3.2.2 and Appendix F–G).

The Table 12 cut points only hold for the metric implementations and the M3E embedding model they were
calibrated with. To re-calibrate for another embedding model or language:

1. :func:`grade_sample` draws scored answers by score interval (0.1 wide, 10 per interval in the paper)
   for every metric × type, and :func:`write_sheet` writes them as a CSV for clinicians;
2. clinicians fill the ``label`` column with CW/PC/BC (or 0/1/2); :func:`read_sheet` reads it back;
3. :func:`fit_thresholds` picks the cut points that agree best with the labels;
4. :func:`validation_sample` draws another random set for clinicians (150 in the paper), and
   :func:`validate` reports the Spearman correlation between their labels and the graded tiers (Table 2).

Items are the scored answers of the MedDisKEval run: dicts with ``id``, ``disease``, ``aspect``, ``type``,
``answer`` (post-processed model text), ``reference`` (knowledge-base text), ``model`` and ``scores``
``{metric: float}``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import spearmanr

from medprobe import sheets
from medprobe.errors import MedprobeError
from medprobe.methods.meddisk.grading import (
    ALL_TYPES,
    GRADED_TYPES,
    METRIC_RANGES,
    METRICS,
    TIERS,
    Thresholds,
    check_metric,
    tier,
)

Row = dict[str, Any]

SHEET_COLUMNS: tuple[str, ...] = (
    "sheet_id",
    "item_id",
    "metric",
    "type",
    "interval",
    "score",
    "disease",
    "aspect",
    "model",
    "answer",
    "reference",
    *METRICS,
    "label",
)
_FLOAT_COLUMNS = ("score", *METRICS)
_ITEM_KEYS = ("id", "disease", "aspect", "type", "answer", "reference", "model", "scores")
_LABEL_ALIASES = {"cw": "CW", "pc": "PC", "bc": "BC", "0": "CW", "1": "PC", "2": "BC"}
_ORDINAL = {t: i for i, t in enumerate(TIERS)}
# Distances to the base thresholds are compared after rounding, so float noise cannot break a tie.
_TIE_DECIMALS = 12


def parse_label(value: Any) -> str | None:
    """A clinician label as CW/PC/BC; blank means not labelled yet.

    Accepts CW/PC/BC in any case and the paper's ordinal scores 0/1/2 (integers too, for labels filled in
    code). Raises ``ValueError`` with the accepted forms; callers add the location.
    """
    text = "" if value is None else str(value).strip()
    if not text:
        return None
    try:
        return _LABEL_ALIASES[text.lower()]
    except KeyError:
        raise ValueError(f"bad label '{text}': use CW, PC, BC (or 0, 1, 2), or leave it blank") from None


def _item_key(item: Mapping[str, Any]) -> tuple[str, str]:
    """Items are ordered by (model, id) before drawing, so the sample does not depend on input order."""
    return str(item["model"]), str(item["id"])


def _checked_item(item: Mapping[str, Any]) -> Mapping[str, Any]:
    missing = [key for key in _ITEM_KEYS if key not in item]
    if missing:
        raise MedprobeError(f"scored item {item.get('id', '?')!r} lacks '{missing[0]}'", field=missing[0])
    return item


def _score(item: Mapping[str, Any], metric: str) -> float | None:
    """The item's score for ``metric``, or None when it has none (absent or NaN); out of range is an error."""
    value = item["scores"].get(metric)
    if value is None or math.isnan(value):
        return None
    lo, hi = METRIC_RANGES[metric]
    if not lo <= value <= hi:
        raise MedprobeError(
            f"score {value!r} of item {item['id']!r} is outside [{lo:g}, {hi:g}]", field=f"scores.{metric}"
        )
    return float(value)


def _interval_index(score: float, lo: float, width: float, n_bins: int) -> int:
    """Bin with inclusive lower bounds; the top score (1.0) joins the last bin instead of opening a new one.

    The quotient is rounded before flooring so 0.3 lands in [0.3, 0.4) although 0.3 / 0.1 < 3 in floats.
    """
    return min(math.floor(round((score - lo) / width, 9)), n_bins - 1)


def _interval_label(index: int, lo: float, hi: float, width: float, n_bins: int) -> str:
    """Label like "[0.3, 0.4)"; the last interval is closed and ends at the range's top even if ``width`` overshoots."""
    start, end = lo + index * width, min(lo + (index + 1) * width, hi)
    closing = "]" if index == n_bins - 1 else ")"
    return f"[{round(start, 9):g}, {round(end, 9):g}{closing}"


def _sheet_row(item: Mapping[str, Any], metric: str, interval: str) -> Row:
    row: Row = {
        "sheet_id": 0,
        "item_id": str(item["id"]),
        "metric": metric,
        "type": str(item["type"]),
        "interval": interval,
        "score": _score(item, metric) if metric else None,
        "disease": str(item["disease"]),
        "aspect": str(item["aspect"]),
        "model": str(item["model"]),
        "answer": str(item["answer"]),
        "reference": str(item["reference"]),
        "label": None,
    }
    row.update({m: _score(item, m) for m in METRICS})
    return row


def grade_sample(
    items: Iterable[Mapping[str, Any]], *, per_interval: int = 10, width: float = 0.1, seed: int = 0
) -> list[Row]:
    """Interval sampling for the clinician sheet (paper §3.2.2: intervals of 0.1, 10 examples each).

    For every metric × graded type, scores are binned into ``width``-wide intervals over the metric's range
    ([0, 1]; cosine [-1, 1]) and up to ``per_interval`` items are drawn from each bin. Each cell and bin has
    its own generator seeded from ``seed`` and the cell's name, so changing one cell's data leaves the other
    draws alone. Numeric aspects are skipped: they are graded by exact match. An item can appear once per
    metric; the rows carry all three scores so the same sheet can also feed :func:`validate`.
    """
    if per_interval < 1 or not width > 0:
        raise MedprobeError(f"need per_interval >= 1 and width > 0, got {per_interval} and {width}")
    pool = sorted((_checked_item(item) for item in items), key=_item_key)
    rows: list[Row] = []
    for metric in METRICS:
        lo, hi = METRIC_RANGES[metric]
        n_bins = math.ceil(round((hi - lo) / width, 9))
        for aspect_type in GRADED_TYPES:
            bins: list[list[Mapping[str, Any]]] = [[] for _ in range(n_bins)]
            for item in pool:
                score = _score(item, metric)
                if str(item["type"]) == aspect_type and score is not None:
                    bins[_interval_index(score, lo, width, n_bins)].append(item)
            for index, members in enumerate(bins):
                rng = random.Random(f"{seed}/{metric}/{aspect_type}/{index}")
                drawn = rng.sample(members, min(per_interval, len(members)))
                interval = _interval_label(index, lo, hi, width, n_bins)
                cell = [_sheet_row(item, metric, interval) for item in drawn]
                rows.extend(sorted(cell, key=lambda r: r["score"]))
    return _numbered(rows)


def validation_sample(
    items: Iterable[Mapping[str, Any]], *, n: int = 150, seed: int = 0, exclude: Iterable[Row] = ()
) -> list[Row]:
    """Uniform random draw of ``n`` items for the agreement check (paper: "another 150 randomly selected").

    Items already on a calibration sheet (``exclude``, matched by model and item id) are left out, so the
    check is not run on the labels the thresholds were fitted to. Rows have empty ``metric``/``score``/
    ``interval``; all three scores are in the metric columns. All aspect types are eligible.
    """
    taken = {(str(row["model"]), str(row["item_id"])) for row in exclude}
    pool = sorted((item for item in map(_checked_item, items) if _item_key(item) not in taken), key=_item_key)
    drawn = random.Random(f"{seed}/validation").sample(pool, min(n, len(pool)))
    return _numbered([_sheet_row(item, "", "") for item in drawn])


def _numbered(rows: list[Row]) -> list[Row]:
    """Sheet ids run 1..N so clinicians can refer to rows by a short number."""
    for number, row in enumerate(rows, start=1):
        row["sheet_id"] = number
    return rows


def write_sheet(rows: Sequence[Row], path: str | Path) -> None:
    """Write the sheet as CSV for clinicians (``medprobe.sheets``: UTF-8 with a byte-order mark, so that
    Excel opens Chinese text correctly; scores written with ``repr`` so they round-trip exactly)."""
    sheets.write_sheet(path, SHEET_COLUMNS, rows)


def read_sheet(path: str | Path) -> list[Row]:
    """Read a (labelled) sheet back; errors name the file, the line the row starts on, and the column.

    Labels become CW/PC/BC (None when blank); scores become floats (None when blank). Extra columns a
    clinician added (comments) are ignored.
    """
    return [_parsed_row(raw, Path(path), line) for line, raw in sheets.read_sheet(path, SHEET_COLUMNS)]


def _parsed_row(raw: Mapping[str, str | None], path: Path, line: int) -> Row:
    row: Row = {key: (raw.get(key) or "") for key in SHEET_COLUMNS}
    try:
        row["sheet_id"] = int(row["sheet_id"])
    except ValueError:
        raise MedprobeError(
            f"expected a whole number, got '{row['sheet_id']}'", file=path, line=line, field="sheet_id"
        ) from None
    for key in _FLOAT_COLUMNS:
        text = row[key].strip()
        try:
            row[key] = float(text) if text else None
        except ValueError:
            raise MedprobeError(f"expected a number, got '{text}'", file=path, line=line, field=key) from None
    if row["metric"] and row["metric"] not in METRICS:
        raise MedprobeError(f"unknown metric '{row['metric']}'", file=path, line=line, field="metric")
    if row["type"] not in ALL_TYPES:
        raise MedprobeError(f"unknown aspect type '{row['type']}'", file=path, line=line, field="type")
    try:
        row["label"] = parse_label(row["label"])
    except ValueError as exc:
        raise MedprobeError(str(exc), file=path, line=line, field="label") from None
    return row


def _row_label(row: Mapping[str, Any]) -> str | None:
    try:
        return parse_label(row.get("label"))
    except ValueError as exc:
        raise MedprobeError(f"sheet row {row.get('sheet_id')}: {exc}", field="label") from None


def _candidate_cuts(scores: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Every distinct split of the sorted scores: the range's low end (nothing below), the midpoints between
    consecutive distinct scores, and the range's high end (nothing above) when no score sits on it."""
    distinct = np.unique(scores)
    ends = [hi] if distinct[-1] < hi else []
    return np.array([lo, *((distinct[:-1] + distinct[1:]) / 2), *ends])


def _best_cut(
    scores: np.ndarray, labels: np.ndarray, base: tuple[float, float], lo: float, hi: float
) -> tuple[float, float]:
    """Maximize agreement over all (t1 <= t2) from the candidate grid.

    Ties go to the pair closest to the base thresholds (smallest |t1 - b1| + |t2 - b2|), so sparse labels
    move the base only as far as the labels require; remaining ties go to the lower t1, then the lower t2.
    With ``k`` the number of scores below a cut, a pair's correct count is
    ``#CW below t1 + #PC between + #BC from t2``, read off prefix sums for all pairs at once.
    """
    cuts = _candidate_cuts(scores, lo, hi)
    order = np.argsort(scores, kind="stable")
    below = np.searchsorted(scores[order], cuts, side="left")
    prefix = {t: np.concatenate([[0], np.cumsum(labels[order] == t)]) for t in TIERS}
    k1, k2 = below[:, None], below[None, :]
    correct = prefix["CW"][k1] + (prefix["PC"][k2] - prefix["PC"][k1]) + (prefix["BC"][-1] - prefix["BC"][k2])
    t1, t2 = np.meshgrid(cuts, cuts, indexing="ij")
    distance = np.round(np.abs(t1 - base[0]) + np.abs(t2 - base[1]), _TIE_DECIMALS)
    valid = (t1 <= t2).ravel()
    t1, t2 = t1.ravel()[valid], t2.ravel()[valid]
    best = np.lexsort((t2, t1, distance.ravel()[valid], -correct.ravel()[valid]))[0]
    return float(t1[best]), float(t2[best])


def cohen_kappa(a: Sequence[str], b: Sequence[str]) -> float | None:
    """Unweighted Cohen's kappa over the three tiers; None when chance agreement is 1 (one tier only)."""
    n = len(a)
    chance = sum((a.count(t) / n) * (b.count(t) / n) for t in TIERS)
    return None if chance == 1 else (_agreement(a, b) - chance) / (1 - chance)


def _agreement(a: Sequence[str], b: Sequence[str]) -> float:
    return sum(x == y for x, y in zip(a, b, strict=True)) / len(a)


def fit_thresholds(
    rows: Iterable[Mapping[str, Any]], base: Thresholds | None = None, *, calibrated_for: str | None = None
) -> tuple[Thresholds, dict[str, Any]]:
    """Fit the cut points of every metric × graded type to clinician labels.

    Uses the labelled rows of each cell (``metric``, ``type``, ``score``, ``label``); accuracy against the
    labels is maximized over the candidate grid (see :func:`_best_cut` for ties). Cells without labels keep
    ``base`` (default: Table 12) and say so in the report. The report has, per ``"metric/type"`` cell,
    ``n_labelled``, ``fitted``, ``thresholds``, ``base``, and for fitted cells ``agreement`` and ``kappa``
    of the fitted cut points and ``base_agreement`` of the base ones on the same labels; plus the total
    ``n_labelled``. ``calibrated_for`` names what was calibrated (e.g. the embedding model and language).
    """
    base = base or Thresholds.default()
    by_cell: dict[tuple[str, str], list[tuple[float, str]]] = {}
    for row in rows:
        label = _row_label(row)
        graded = str(row["type"]) in GRADED_TYPES and row.get("metric") and row.get("score") is not None
        if label is not None and graded:
            key = (check_metric(row["metric"]), str(row["type"]))
            by_cell.setdefault(key, []).append((float(row["score"]), label))
    cuts = dict(base.cuts)
    for (metric, aspect_type), pairs in by_cell.items():
        scores = np.array([score for score, _ in pairs])
        labels = np.array([label for _, label in pairs])
        cuts[(metric, aspect_type)] = _best_cut(
            scores, labels, base.cuts[(metric, aspect_type)], *METRIC_RANGES[metric]
        )
    total = sum(len(pairs) for pairs in by_cell.values())
    note = calibrated_for or f"expert labels ({total} rows); unlabelled cells from {base.calibrated_for}"
    fitted = Thresholds(cuts, calibrated_for=note)
    cells = {
        f"{metric}/{aspect_type}": _cell_report(
            metric, aspect_type, by_cell.get((metric, aspect_type), []), fitted, base
        )
        for metric in METRICS
        for aspect_type in GRADED_TYPES
    }
    return fitted, {"n_labelled": total, "cells": cells}


def _cell_report(
    metric: str, aspect_type: str, pairs: list[tuple[float, str]], fitted: Thresholds, base: Thresholds
) -> dict[str, Any]:
    report: dict[str, Any] = {
        "n_labelled": len(pairs),
        "fitted": bool(pairs),
        "thresholds": fitted.cut(metric, aspect_type),
        "base": base.cut(metric, aspect_type),
    }
    if not pairs:
        return report | {"note": "no labelled rows; kept the base thresholds"}
    expert = [label for _, label in pairs]
    graded = [tier(score, metric, aspect_type, fitted) for score, _ in pairs]
    base_graded = [tier(score, metric, aspect_type, base) for score, _ in pairs]
    return report | {
        "agreement": _agreement(expert, graded),
        "kappa": cohen_kappa(expert, graded),
        "base_agreement": _agreement(expert, base_graded),
    }


def validate(rows: Iterable[Mapping[str, Any]], thresholds: Thresholds) -> dict[str, dict[str, Any]]:
    """Spearman correlation between clinician labels and graded tiers, both as 0/1/2 (paper Table 2).

    Per metric, over the labelled rows with that metric's score; and ``"average"``, the mean of the three
    graded tiers, over the rows that have all three scores (the paper's strongest agreement). Each entry has
    ``rho``, ``p`` and ``n``; when ``n < 3`` or one side is constant, ``rho``/``p`` are None with a ``reason``.
    """
    labelled = [(row, label) for row in rows if (label := _row_label(row)) is not None]
    result: dict[str, dict[str, Any]] = {}
    for metric in METRICS:
        pairs = [
            (_ORDINAL[label], _ORDINAL[tier(row[metric], metric, str(row["type"]), thresholds)])
            for row, label in labelled
            if row.get(metric) is not None
        ]
        result[metric] = _spearman(pairs)
    averaged = [
        (
            _ORDINAL[label],
            sum(_ORDINAL[tier(row[m], m, str(row["type"]), thresholds)] for m in METRICS) / len(METRICS),
        )
        for row, label in labelled
        if all(row.get(m) is not None for m in METRICS)
    ]
    result["average"] = _spearman(averaged)
    return result


def _spearman(pairs: Sequence[tuple[float, float]]) -> dict[str, Any]:
    n = len(pairs)
    if n < 3:
        return {"rho": None, "p": None, "n": n, "reason": "fewer than 3 labelled rows"}
    expert, graded = zip(*pairs, strict=True)
    if len(set(expert)) == 1 or len(set(graded)) == 1:
        return {"rho": None, "p": None, "n": n, "reason": "labels or grades are all the same"}
    rho, p = spearmanr(expert, graded)
    return {"rho": float(rho), "p": float(p), "n": n}
