"""Two small SVG charts for reports (no plotting dependency): horizontal stacked bars of tier
shares, and horizontal bars of one value per row."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

TIER_COLOURS = {"CW": "#d9534f", "PC": "#f0ad4e", "BC": "#5cb85c"}
TIER_NAMES = {"CW": "Completely Wrong", "PC": "Partially Correct", "BC": "Basically Correct"}
_ROW, _LABEL, _WIDTH = 26, 210, 420


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
