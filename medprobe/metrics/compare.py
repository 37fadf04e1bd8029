"""Per-aspect comparison of two models with Welch's t-test (paper 000, §4.2.3, Table 5).

The paper compares each medical model (A) with its backbone (B) on every knowledge aspect, using the
per-answer similarity scores, and reports the t statistic with an asterisk when p < 0.05. Welch's test is
used because the two models' score variances differ.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from scipy.stats import ttest_ind

from medprobe.aspects import ASPECTS_BY_KEY

ALPHA = 0.05


def welch(a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    """Welch's t-test of A against B (positive t: A scores higher).

    Non-finite values (NaN: e.g. a severity reply with no number) are dropped and counted in ``dropped_a``/
    ``dropped_b``; pass 0 instead if a missing answer should count as wrong. With fewer than 2 values on a
    side, or no variance on either side, the test is undefined: ``t`` and ``p`` are None and ``reason`` says
    why.
    """
    xs = [float(v) for v in a if math.isfinite(v)]
    ys = [float(v) for v in b if math.isfinite(v)]
    result: dict[str, Any] = {
        "n_a": len(xs),
        "n_b": len(ys),
        "dropped_a": len(a) - len(xs),
        "dropped_b": len(b) - len(ys),
        "mean_a": sum(xs) / len(xs) if xs else None,
        "mean_b": sum(ys) / len(ys) if ys else None,
        "t": None,
        "p": None,
        "significant": False,
        "direction": "n.s.",
    }
    if len(xs) < 2 or len(ys) < 2:
        return result | {"reason": "fewer than 2 values on a side"}
    if len(set(xs)) == 1 and len(set(ys)) == 1:
        return result | {"reason": "no variance on either side"}
    test = ttest_ind(xs, ys, equal_var=False)
    t, p = float(test.statistic), float(test.pvalue)
    significant = p < ALPHA
    direction = ("better" if t > 0 else "worse") if significant else "n.s."
    return result | {"t": t, "p": p, "significant": significant, "direction": direction}


def welch_by_aspect(
    a: Mapping[str, Sequence[float]], b: Mapping[str, Sequence[float]]
) -> list[dict[str, Any]]:
    """:func:`welch` for every aspect in A or B (A's order first, then B's extra aspects).

    An aspect missing on one side is reported with n = 0 there and no test.
    """
    aspects = list(a) + [key for key in b if key not in a]
    return [{"aspect": key} | welch(a.get(key, ()), b.get(key, ())) for key in aspects]


def format_t(result: Mapping[str, Any]) -> str:
    """Table 5 cell: t with one decimal and an asterisk when p < 0.05 ("17.9*", "-0.6"); "–" if untested."""
    if result["t"] is None:
        return "–"
    return f"{result['t']:.1f}" + ("*" if result["significant"] else "")


def aspect_label(key: str) -> str:
    """Title-case English aspect name for table rows ("Patient Population"); unknown keys as given."""
    aspect = ASPECTS_BY_KEY.get(key)
    return aspect.en.title() if aspect else key


def welch_table(columns: Mapping[str, Sequence[Mapping[str, Any]]]) -> str:
    """A Table 5-shaped Markdown table: one row per aspect, one column per comparison.

    ``columns`` maps a column title (e.g. "BianQue-2 vs ChatGLM-6B") to that comparison's
    :func:`welch_by_aspect` results. Rows follow the first appearance of each aspect across columns;
    a comparison without an aspect shows "–".
    """
    by_column = {title: {r["aspect"]: r for r in results} for title, results in columns.items()}
    aspects = list(dict.fromkeys(key for results in by_column.values() for key in results))
    lines = [
        "| Aspect | " + " | ".join(by_column) + " |",
        "|---|" + "---:|" * len(by_column),
    ]
    for key in aspects:
        cells = [format_t(results[key]) if key in results else "–" for results in by_column.values()]
        lines.append(f"| {aspect_label(key)} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
