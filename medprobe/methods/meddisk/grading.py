"""MedDisKEval expert-aligned grading (paper 000, §3.2.2, §4.2.2, Appendix G).

A similarity score between a model's answer and the knowledge-base text is graded into one of three
tiers — Completely Wrong (CW), Partially Correct (PC), Basically Correct (BC) — with two cut points per
metric × aspect type (paper Table 12). A model's tier distribution per metric is averaged over the three
metrics, weighted 0/5/10 into a total score, and the total is binned into four levels (Table 4).

The cosine cut points were calibrated by clinicians for the M3E embedding model and Chinese text; they do
not transfer to another embedding model or language. :class:`Thresholds` therefore records what it was
calibrated for, and ``medprobe.methods.meddisk.alignment`` re-fits it from clinician labels.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from types import MappingProxyType
from typing import Any

from medprobe.aspects import AspectType
from medprobe.errors import MedprobeError
from medprobe.jsonl import read_json

METRICS: tuple[str, ...] = ("bleu1", "rouge1", "cosine")
TIERS: tuple[str, ...] = ("CW", "PC", "BC")
# Aspect types graded by thresholds; the numeric type (severity level) is graded by exact match.
GRADED_TYPES: tuple[str, ...] = (AspectType.ENUMERATED.value, AspectType.DECLARATIVE.value)
ALL_TYPES: tuple[str, ...] = tuple(t.value for t in AspectType)
# Closed score range of each metric; sampling intervals and fitted cut points live inside it.
METRIC_RANGES: Mapping[str, tuple[float, float]] = MappingProxyType(
    {"bleu1": (0.0, 1.0), "rouge1": (0.0, 1.0), "cosine": (-1.0, 1.0)}
)
TIER_POINTS: Mapping[str, int] = MappingProxyType({"CW": 0, "PC": 5, "BC": 10})
# Our reading of Table 4 (the paper gives no boundaries): level 1 from 3.5, level 2 from 2.9, level 3 from 2.0.
LEVEL_BOUNDARIES: tuple[float, float, float] = (3.5, 2.9, 2.0)
# Totals are sums of fractions; snapping to this many decimals keeps float noise (2.7499999999999996)
# from moving a total across a level boundary or a display rounding tie.
_SNAP_DECIMALS = 9

Cut = tuple[float, float]

_TABLE_12: dict[tuple[str, str], Cut] = {
    ("bleu1", "enumerated"): (0.05, 0.25),
    ("bleu1", "declarative"): (0.05, 0.45),
    ("rouge1", "enumerated"): (0.05, 0.75),
    ("rouge1", "declarative"): (0.05, 0.55),
    ("cosine", "enumerated"): (0.35, 0.75),
    ("cosine", "declarative"): (0.55, 0.65),
}


def check_metric(metric: str) -> str:
    """Return ``metric`` if known, else raise a user error listing the known ones."""
    if metric not in METRICS:
        raise MedprobeError(f"unknown metric '{metric}'", hint="metrics are: " + ", ".join(METRICS))
    return metric


def check_type(aspect_type: str) -> str:
    """Return the aspect type as a plain string if known, else raise a user error."""
    value = str(aspect_type)
    if value not in ALL_TYPES:
        raise MedprobeError(f"unknown aspect type '{value}'", hint="types are: " + ", ".join(ALL_TYPES))
    return value


@dataclass(frozen=True)
class Thresholds:
    """Cut points ``(cw_pc, pc_bc)`` for every metric × graded type, and what they were calibrated for.

    A score below ``cw_pc`` is CW, below ``pc_bc`` PC, otherwise BC (each tier's lower bound is
    inclusive, as in Table 12). ``cw_pc == pc_bc`` is allowed: it is a two-tier grading with no PC band,
    which a fit produces when clinicians never used PC in that cell.
    """

    cuts: Mapping[tuple[str, str], Cut]
    calibrated_for: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "cuts", MappingProxyType(_checked_cuts(self.cuts)))

    @classmethod
    def default(cls) -> Thresholds:
        """Paper Table 12, calibrated with clinicians on Chinese text and M3E embeddings."""
        return cls(_TABLE_12, calibrated_for="M3E (paper Table 12)")

    def cut(self, metric: str, aspect_type: str) -> Cut:
        """The ``(cw_pc, pc_bc)`` pair of one cell."""
        return self.cuts[(check_metric(metric), check_type(aspect_type))]

    def to_json(self) -> dict[str, Any]:
        """The file layout: ``{"calibrated_for": ..., "thresholds": {metric: {type: [cw_pc, pc_bc]}}}``."""
        nested = {m: {t: list(self.cuts[(m, t)]) for t in GRADED_TYPES} for m in METRICS}
        return {"calibrated_for": self.calibrated_for, "thresholds": nested}

    def save(self, path: str | Path) -> None:
        text = json.dumps(self.to_json(), ensure_ascii=False, indent=2)
        Path(path).write_text(text + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Thresholds:
        """Read a thresholds file; every problem is reported with the file and the offending field."""
        data = read_json(path)
        try:
            return cls._from_json(data)
        except MedprobeError as exc:
            raise MedprobeError(exc.message, file=path, field=exc.field, hint=exc.hint) from None

    @classmethod
    def _from_json(cls, data: Any) -> Thresholds:
        if not isinstance(data, dict):
            raise MedprobeError("expected a JSON object with 'calibrated_for' and 'thresholds'")
        unknown = set(data) - {"calibrated_for", "thresholds"}
        if unknown:
            raise MedprobeError("unknown field", field=sorted(unknown)[0])
        note = data.get("calibrated_for", "")
        if not isinstance(note, str):
            raise MedprobeError("expected a string", field="calibrated_for")
        table = data.get("thresholds")
        if not isinstance(table, dict):
            raise MedprobeError(
                "missing or not an object {metric: {type: [cw_pc, pc_bc]}}", field="thresholds"
            )
        cuts: dict[tuple[str, str], Cut] = {}
        for metric, by_type in table.items():
            if not isinstance(by_type, dict):
                raise MedprobeError("expected an object {type: [cw_pc, pc_bc]}", field=f"thresholds.{metric}")
            for aspect_type, pair in by_type.items():
                cuts[(metric, aspect_type)] = _pair(pair, f"thresholds.{metric}.{aspect_type}")
        return cls(cuts, calibrated_for=note)


def _pair(value: Any, field: str) -> Cut:
    """Parse ``[cw_pc, pc_bc]`` as two finite numbers (booleans are not numbers here)."""
    ok = (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    )
    if not ok:
        raise MedprobeError("expected [cw_pc, pc_bc], two numbers", field=field)
    return float(value[0]), float(value[1])


def _checked_cuts(cuts: Mapping[tuple[str, str], Cut]) -> dict[tuple[str, str], Cut]:
    """Every metric × graded type present exactly, each pair ordered and inside the metric's range."""
    checked: dict[tuple[str, str], Cut] = {}
    for (metric, aspect_type), (low, high) in cuts.items():
        field = f"thresholds.{metric}.{aspect_type}"
        if metric not in METRICS:
            raise MedprobeError(
                f"unknown metric '{metric}'", field=field, hint="metrics are: " + ", ".join(METRICS)
            )
        if aspect_type not in GRADED_TYPES:
            hint = "thresholds exist for: " + ", ".join(GRADED_TYPES)
            if aspect_type == AspectType.NUMERIC:
                hint = "the numeric type is graded by exact match (1 -> BC, 0 -> CW) and takes no thresholds"
            raise MedprobeError(f"unknown aspect type '{aspect_type}'", field=field, hint=hint)
        lo, hi = METRIC_RANGES[metric]
        if not (math.isfinite(low) and math.isfinite(high) and lo <= low <= hi and lo <= high <= hi):
            raise MedprobeError(f"cut points must lie in the metric's range [{lo:g}, {hi:g}]", field=field)
        if low > high:
            raise MedprobeError(
                f"cw_pc ({low:g}) is above pc_bc ({high:g}); the pair must not decrease", field=field
            )
        checked[(metric, str(aspect_type))] = (float(low), float(high))
    for metric in METRICS:
        for aspect_type in GRADED_TYPES:
            if (metric, aspect_type) not in checked:
                raise MedprobeError("missing entry", field=f"thresholds.{metric}.{aspect_type}")
    return checked


def tier(score: float, metric: str, aspect_type: str, thresholds: Thresholds) -> str:
    """Grade one score into CW / PC / BC.

    Numeric aspects are exact-match indicators: 1 is BC and anything else (0, or NaN when the reply held no
    number) is CW — the paper maps 1 to BC and 0 to CW. A NaN score of any metric is CW as well, because a
    missing answer carries no correct knowledge, and NaN would otherwise silently fail every comparison.
    """
    aspect_type = check_type(aspect_type)
    check_metric(metric)
    if aspect_type == AspectType.NUMERIC:
        return "BC" if score == 1 else "CW"
    if math.isnan(score):
        return "CW"
    cw_pc, pc_bc = thresholds.cut(metric, aspect_type)
    if score >= pc_bc:
        return "BC"
    return "PC" if score >= cw_pc else "CW"


def distribution(tiers: Iterable[str]) -> dict[str, float]:
    """Fraction of answers in each tier.

    An empty input gives all zeros rather than an error, so a model with nothing graded in some slice shows
    up as an empty row (total score 0) instead of aborting the whole report.
    """
    counts = dict.fromkeys(TIERS, 0)
    for value in tiers:
        if value not in counts:
            raise MedprobeError(f"unknown tier '{value}'", hint="tiers are: " + ", ".join(TIERS))
        counts[value] += 1
    n = sum(counts.values())
    return {t: (counts[t] / n if n else 0.0) for t in TIERS}


def mean_distribution(dists: Iterable[Mapping[str, float]]) -> dict[str, float]:
    """Average the tier distributions of the metrics, as the paper does per model before scoring (§4.2.2).

    Empty input gives all zeros, like :func:`distribution`.
    """
    dists = list(dists)
    if not dists:
        return dict.fromkeys(TIERS, 0.0)
    return {t: sum(d[t] for d in dists) / len(dists) for t in TIERS}


def total_score(dist: Mapping[str, float]) -> float:
    """``0·CW + 5·PC + 10·BC`` with fractions, so the total runs from 0 to 10 (paper Figure 5)."""
    return sum(TIER_POINTS[t] * dist[t] for t in TIERS)


def format_total(total: float) -> str:
    """Two decimals, half up (3.995 -> "4.00"), after snapping float noise away.

    Half up is the rounding readers expect. It does not reproduce every Table 4 total from that table's own
    percentages (BLOOMZ 25.9 % PC, 5.5 % BC gives exactly 1.845 -> "1.85", the paper prints 1.84): the
    percentages are rounded to 0.1 point (the BLOOMZ row sums to 100.1 %), so a total recomputed from them is
    only known to ±0.0075, and the paper rounded its unrounded total. Float formatting (``f"{x:.2f}"``) is
    not used because it rounds the binary value, which lands on either side of a tie by accident: the float
    1.845 prints as 1.84, and Baichuan's 0.293·5 + 0.163·10 (= 3.0949999…) as 3.09 where the paper has 3.10.
    """
    snapped = Decimal(repr(round(total, _SNAP_DECIMALS)))
    return str(snapped.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def level(total: float, boundaries: tuple[float, float, float] = LEVEL_BOUNDARIES) -> int:
    """Level 1 (best) to 4 from a total score; a total equal to a boundary belongs to the better level.

    The paper sorts models into four levels without stating boundaries. Its Table 4 prints each level once,
    beside the middle row of the level's block, and its text says "most medical LLMs are placed in Level 3";
    together: 4.00 is level 1; 3.14 down to 3.00 level 2; 2.75 (DoctorGLM) down to 2.20 level 3 (four of the
    six medical models); 1.84 level 4. The defaults are round numbers inside the gaps (4.00 | 3.14,
    3.00 | 2.75, 2.20 | 1.84), far enough from both sides that the rounding of the printed totals (±0.0125)
    cannot move a model across.
    """
    if len(boundaries) != 3 or not all(a > b for a, b in zip(boundaries, boundaries[1:], strict=False)):
        raise MedprobeError(f"level boundaries must be three strictly decreasing totals, got {boundaries}")
    snapped = round(total, _SNAP_DECIMALS)
    for index, bound in enumerate(boundaries, start=1):
        if snapped >= bound:
            return index
    return 4
