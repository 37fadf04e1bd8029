"""Small SVG charts for reports (no plotting dependency): horizontal stacked bars of tier
shares, horizontal bars of one value per row, grouped bars, and a radar chart of values per category."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

TIER_COLOURS = {"CW": "#d9534f", "PC": "#f0ad4e", "BC": "#5cb85c"}
TIER_NAMES = {"CW": "Completely Wrong", "PC": "Partially Correct", "BC": "Basically Correct"}
_ROW, _LABEL, _WIDTH = 26, 210, 420
SERIES_COLOURS = ("#337ab7", "#d9534f", "#5cb85c", "#f0ad4e", "#777777")


def _frame(height: int, body: list[str], title: str) -> str:
    total_width = _LABEL + _WIDTH + 80
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_width}" height="{height}" font-family="sans-serif" font-size="12">'
        f'<text x="8" y="18" font-size="14" font-weight="bold">{escape(title)}</text>' + "".join(body) + "</svg>\n"
    )


def tier_bars(rows: Sequence[tuple[str, dict[str, float]]], title: str) -> str:
    """One stacked bar (CW | PC | BC, as fractions) per row, with a legend."""
    body = []
    for i, (label, dist) in enumerate(rows):
        y = 34 + i * _ROW
        body.append(f'<text x="8" y="{y + 14}">{escape(label)}</text>')
        x = float(_LABEL)
        for key in ("CW", "PC", "BC"):
            width = _WIDTH * dist.get(key, 0.0)
            body.append(f'<rect x="{x:.1f}" y="{y}" width="{width:.1f}" height="18" fill="{TIER_COLOURS[key]}"/>')
            if width > 28:
                body.append(f'<text x="{x + 4:.1f}" y="{y + 13}" fill="white">{100 * dist.get(key, 0.0):.0f}%</text>')
            x += width
    legend_y = 34 + len(rows) * _ROW + 10
    for j, key in enumerate(("CW", "PC", "BC")):
        x = 8 + j * 150
        body.append(f'<rect x="{x}" y="{legend_y}" width="12" height="12" fill="{TIER_COLOURS[key]}"/>')
        body.append(f'<text x="{x + 16}" y="{legend_y + 11}">{TIER_NAMES[key]}</text>')
    return _frame(legend_y + 24, body, title)


def value_bars(rows: Sequence[tuple[str, float]], title: str, maximum: float) -> str:
    """One bar per row, scaled to ``maximum``, with the value printed after it."""
    body = []
    for i, (label, value) in enumerate(rows):
        y = 34 + i * _ROW
        width = _WIDTH * max(0.0, value) / maximum if maximum else 0.0
        body.append(f'<text x="8" y="{y + 14}">{escape(label)}</text>')
        body.append(f'<rect x="{_LABEL}" y="{y}" width="{width:.1f}" height="18" fill="#337ab7"/>')
        body.append(f'<text x="{_LABEL + width + 6:.1f}" y="{y + 14}">{value:.2f}</text>')
    return _frame(34 + len(rows) * _ROW + 10, body, title)


def grouped_bars(axes: Sequence[str], series: Sequence[tuple[str, Sequence[float]]], title: str, maximum: float = 1.0) -> str:
    """Per axis, one bar per named series (in the series' colours, value printed), and a legend."""
    body = []
    for k, (name, _) in enumerate(series):
        colour = SERIES_COLOURS[k % len(SERIES_COLOURS)]
        body.append(f'<rect x="{8 + 150 * k}" y="30" width="12" height="12" fill="{colour}"/>')
        body.append(f'<text x="{24 + 150 * k}" y="41">{escape(name)}</text>')
    y = 56
    for i, axis in enumerate(axes):
        body.append(f'<text x="8" y="{y + 14}">{escape(axis)}</text>')
        for k, (_, values) in enumerate(series):
            width = _WIDTH * min(1.0, max(0.0, values[i] / maximum)) if maximum else 0.0
            body.append(f'<rect x="{_LABEL}" y="{y}" width="{width:.1f}" height="16" fill="{SERIES_COLOURS[k % len(SERIES_COLOURS)]}"/>')
            body.append(f'<text x="{_LABEL + width + 6:.1f}" y="{y + 13}">{values[i]:.2f}</text>')
            y += 20
        y += 8
    return _frame(y + 10, body, title)


def radar(axes: Sequence[str], series: Sequence[tuple[str, Sequence[float]]], title: str, maximum: float = 1.0) -> str:
    """A radar chart: one spoke per axis (clockwise from the top), grid rings at quarters of
    ``maximum``, one closed polygon per named series (values in axis order), and a legend. With
    fewer than three axes a polygon encloses nothing (two series on two spokes drew as one line), so
    the values are drawn as grouped bars instead."""
    if len(axes) < 3:
        return grouped_bars(axes, series, title, maximum)
    cx, cy, r = (_LABEL + _WIDTH + 80) / 2, 280.0, 170.0
    n = len(axes)

    def point(i: int, fraction: float) -> tuple[float, float]:
        angle = -math.pi / 2 + 2 * math.pi * i / n
        return cx + r * fraction * math.cos(angle), cy + r * fraction * math.sin(angle)

    def path(fractions: Sequence[float]) -> str:
        return " ".join(f"{x:.1f},{y:.1f}" for x, y in (point(i, f) for i, f in enumerate(fractions)))

    body = []
    for ring in (0.25, 0.5, 0.75, 1.0):
        body.append(f'<polygon points="{path([ring] * n)}" fill="none" stroke="#ccc"/>')
        body.append(f'<text x="{cx + 3:.1f}" y="{cy - r * ring + 12:.1f}" fill="#999" font-size="10">{ring * maximum:g}</text>')
    for i, axis in enumerate(axes):
        x, y = point(i, 1.0)
        lx, ly = point(i, 1.12)
        anchor = "middle" if abs(lx - cx) < 1 else ("start" if lx > cx else "end")
        body.append(f'<line x1="{cx}" y1="{cy}" x2="{x:.1f}" y2="{y:.1f}" stroke="#ccc"/>')
        body.append(f'<text x="{lx:.1f}" y="{ly + 4:.1f}" text-anchor="{anchor}">{escape(axis)}</text>')
    for k, (name, values) in enumerate(series):
        colour = SERIES_COLOURS[k % len(SERIES_COLOURS)]
        fractions = [min(1.0, max(0.0, v / maximum)) if maximum else 0.0 for v in values]
        body.append(f'<polygon points="{path(fractions)}" fill="{colour}" fill-opacity="0.15" stroke="{colour}" stroke-width="2"/>')
        body.append(f'<rect x="8" y="{34 + 18 * k}" width="12" height="12" fill="{colour}"/>')
        body.append(f'<text x="24" y="{45 + 18 * k}">{escape(name)}</text>')
    return _frame(int(cy + r + 60), body, title)


def matrix(rows: Sequence[str], columns: Sequence[str], counts: Sequence[Sequence[int | None]], title: str) -> str:
    """A grid of counts, row label on the left, column labels on top, each cell shaded by its
    share of the largest count (None: an empty grey cell, e.g. a row against itself)."""
    cell, top = 64, 70
    peak = max((c for row in counts for c in row if c is not None), default=0) or 1
    body = []
    for j, label in enumerate(columns):
        x = _LABEL + j * cell + cell / 2
        body.append(f'<text x="{x:.1f}" y="{top - 8}" text-anchor="middle" font-size="11">{escape(label)}</text>')
    for i, (label, row) in enumerate(zip(rows, counts, strict=True)):
        y = top + i * cell / 2
        body.append(f'<text x="8" y="{y + 20:.1f}">{escape(label)}</text>')
        for j, count in enumerate(row):
            x = _LABEL + j * cell
            if count is None:
                body.append(f'<rect x="{x}" y="{y:.1f}" width="{cell - 2}" height="{cell / 2 - 2:.1f}" fill="#eee"/>')
                continue
            body.append(f'<rect x="{x}" y="{y:.1f}" width="{cell - 2}" height="{cell / 2 - 2:.1f}" fill="#d9534f" fill-opacity="{0.08 + 0.8 * count / peak:.2f}"/>')
            body.append(f'<text x="{x + cell / 2 - 1:.1f}" y="{y + 20:.1f}" text-anchor="middle">{count}</text>')
    return _frame(int(top + len(rows) * cell / 2 + 16), body, title)
