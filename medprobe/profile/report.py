"""The profile written out: profile.json (every number), report.md and profile.html (the same
tables, the page with charts drawn by medprobe.report.svg)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape
from pathlib import Path
from typing import Any

from rich.table import Table

from medprobe.aspects import ASPECTS_BY_KEY
from medprobe.engine.rundir import slug
from medprobe.jsonl import replacing, write_json
from medprobe.metrics.compare import aspect_label, format_t
from medprobe.report.markdown import md_table, pct
from medprobe.report.svg import matrix, radar, value_bars

CSS = "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}table{border-collapse:collapse;margin:1em 0}" \
      "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}th{background:#f4f4f4}p.intro{color:#444}"


@dataclass
class Section:
    title: str
    intro: str
    header: list[str]
    rows: list[list[Any]]


def _ci(interval: list[float] | None, percent: bool = False) -> str:
    if not interval:
        return ""
    low, high = interval
    return f" [{pct(low)}, {pct(high)}]" if percent else f" [{low:.2f}, {high:.2f}]"


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _p(value: float | None) -> str:
    return "–" if value is None else "< 0.001" if value < 0.001 else f"{value:.3f}"


def _aspect(key: str) -> str:
    aspect = ASPECTS_BY_KEY.get(key)
    return aspect.en if aspect else key


def sections(profile: dict[str, Any]) -> list[Section]:
    ways = profile["ways"]
    title = {w["key"]: w["title"] for w in ways}
    per_way = profile["per_way"]
    found = [
        Section("Per method", "On the knowledge points every method asked: the mean score (share of questions right; "
                "for recall the graded tiers' mean) and the share of points known (every question right; recall: "
                "tier mean ≥ 0.75). Parse failures count as wrong. Item error: the estimated share of bad items among "
                "those the method's run built (95 % interval; from blind reading on a built-in KB, \"not measured\" on your own).",
                ["method", "points", "score %", "known %", "questions", "parse failures", "item error"],
                [[w["title"], per_way[w["key"]]["points"], pct(per_way[w["key"]]["score"]), pct(per_way[w["key"]]["known"]),
                  per_way[w["key"]]["questions"],
                  f"{per_way[w['key']]['parse_failures']} ({pct(per_way[w['key']]['parse_failure_rate'])} %)",
                  per_way[w["key"]]["item_error"]] for w in ways]),
        Section("Per aspect", "Known % (score %) per aspect and method.", ["aspect", "points", *(w["title"] for w in ways)],
                [[_aspect(aspect), next(iter(row.values()))["points"],
                  *(f"{pct(row[w['key']]['known'])} ({pct(row[w['key']]['score'])})" for w in ways)]
                 for aspect, row in profile["per_aspect"].items()]),
    ]
    counts = {(i["right"], i["wrong"]): i for i in profile["illusions"]}
    found.append(Section(
        "Illusions", "Points known the way of the row and not the way of the column (count, share of the shared points).",
        ["known ↓ / not known →", *(w["title"] for w in ways)],
        [[w["title"], *("–" if w == v else f"{counts[(w['key'], v['key'])]['count']} ({pct(counts[(w['key'], v['key'])]['share'])} %)"
                        for v in ways)] for w in ways],
    ))
    found.append(Section(
        "Illusion examples", "Up to five points per pair: the score each way gave.",
        ["known", "not known", "disease", "aspect", "score known", "score not known"],
        [[title[i["right"]], title[i["wrong"]], e["disease"], _aspect(e["aspect"]), pct(e["right_score"]), pct(e["wrong_score"])]
         for i in profile["illusions"] for e in i["examples"]],
    ))
    found.append(Section(
        "Agreement between methods", "How often two methods agree that a point is known or not, what two unrelated methods "
        "with the same rates would agree by chance, Cohen's kappa (agreement beyond chance; 0 = chance) and Spearman's rho "
        "of the point scores (0 = chance), with 95 % bootstrap intervals over points (rough when there are few points, or when "
        "a method knows almost none of them: then the p of rho is the safer guide).",
        ["methods", "points", "agreement %", "chance %", "kappa", "Spearman rho", "p (rho)"],
        [[f"{title[a['ways'][0]]} · {title[a['ways'][1]]}", a["points"], pct(a.get("agreement")) + _ci(a.get("ci", {}).get("agreement"), True),
          pct(a.get("chance")), _num(a.get("kappa")) + _ci(a.get("ci", {}).get("kappa")), _num(a.get("rho")) + _ci(a.get("ci", {}).get("rho")),
          _p(a.get("rho_p"))] for a in profile["agreement"]],
    ))
    if profile["against"]:
        found += against_sections(profile["model"], profile["against"], title)
    found.append(Section(
        "Diseases", "Per disease, per aspect: ✓ known, ✗ not known, and the score (%).",
        ["disease", "aspect", *(w["title"] for w in ways)],
        [[d["disease"], _aspect(p["aspect"]),
          *(("✓ " if p["ways"][w["key"]]["known"] else "✗ ") + pct(p["ways"][w["key"]]["score"], 0) for w in ways)]
         for d in profile["diseases"] for p in d["points"]],
    ))
    return found


def against_sections(model: str, against: dict[str, Any], title: dict[str, str]) -> list[Section]:
    keys = [k for k in title if k in against["welch"]]
    aspects = list(dict.fromkeys(r["aspect"] for k in keys for r in against["welch"][k]))
    cells = {k: {r["aspect"]: r for r in against["welch"][k]} for k in keys}
    return [
        Section(f"{model} against {against['model_b']}",
                f"Welch's t of the point scores, A ({model}) against B ({against['model_b']}), on {against['points']} shared points; "
                "positive: A higher; * p < 0.05 (as in paper 000's Table 5).",
                ["aspect", *(title[k] for k in keys)],
                [[aspect_label(a), *(format_t(cells[k][a]) if a in cells[k] else "–" for k in keys)] for a in aspects]),
        Section("Known % of A and B", "", ["method", "A known %", "B known %", "A score %", "B score %"],
                [[title[k], pct(against["known"][k]["a"]), pct(against["known"][k]["b"]),
                  pct(cells[k][aspects[-1]]["mean_a"]), pct(cells[k][aspects[-1]]["mean_b"])] for k in keys]),
    ]


def header_rows(profile: dict[str, Any]) -> list[list[Any]]:
    missing = "; ".join(f"{k}: {len(v)}" for k, v in profile["points"]["missing"].items() if v) or "none"
    rows = [
        ["model", profile["model"]],
        ["knowledge base", f"{profile['data']} (content {profile['kb_sha256']})"],
        ["seed", profile["seed"]],
        ["knowledge points", f"{profile['points']['sampled']} sampled, {profile['points']['shared']} asked by every method"],
        ["points a method could not build", missing],
        *[[f"run ({method})", path] for method, path in profile["runs"].items()],
    ]
    if profile["incomplete_runs"]:
        rows.append(["incomplete runs (failed requests count as wrong)", ", ".join(profile["incomplete_runs"])])
    return rows


def render_markdown(profile: dict[str, Any]) -> str:
    parts = [f"# Knowledge profile: {profile['model']}", "", md_table(["", ""], header_rows(profile)), ""]
    for section in sections(profile):
        parts += [f"## {section.title}", ""] + ([section.intro, ""] if section.intro else [])
        parts += [md_table(section.header, section.rows) if section.rows else "(none)", ""]
    return "\n".join(parts)


def charts(profile: dict[str, Any]) -> list[str]:
    ways = profile["ways"]
    known = [(w["title"], 100 * (profile["per_way"][w["key"]]["known"] or 0.0)) for w in ways]
    aspects = list(profile["per_aspect"])
    series = [(w["title"], [profile["per_aspect"][a][w["key"]]["known"] or 0.0 for a in aspects]) for w in ways]
    counts = {(i["right"], i["wrong"]): i["count"] for i in profile["illusions"]}
    grid = [[None if w == v else counts[(w["key"], v["key"])] for v in ways] for w in ways]
    per_aspect = [radar([_aspect(a) for a in aspects], series, "Share of points known, per aspect")] if aspects else []
    return [
        value_bars(known, "Knowledge points known, per method (%)", 100.0),
        *per_aspect,
        matrix([w["title"] for w in ways], [w["key"] for w in ways], grid, "Illusions: known in the row, not in the column"),
    ]


def _html_table(header: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def render_html(profile: dict[str, Any]) -> str:
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>Knowledge profile: {escape(profile['model'])}</title>",
             f"<style>{CSS}</style></head><body><h1>Knowledge profile: {escape(profile['model'])}</h1>",
             _html_table(["", ""], header_rows(profile)), *charts(profile)]
    for section in sections(profile):
        parts.append(f"<h2>{escape(section.title)}</h2>" + (f"<p class='intro'>{escape(section.intro)}</p>" if section.intro else ""))
        parts.append(_html_table(section.header, section.rows) if section.rows else "<p>(none)</p>")
    return "\n".join(parts) + "\n</body></html>\n"


def write_profile(profile: dict[str, Any], out: Path, folder: Path | None = None) -> Path:
    """profile.json, report.md and profile.html in ``folder`` (default: a new folder under ``out``)."""
    folder = folder or out / f"{datetime.now(UTC):%Y%m%dT%H%M%SZ}-profile-{slug(profile['model'])}"
    folder.mkdir(parents=True, exist_ok=True)
    write_json(folder / "profile.json", profile)
    for name, text in (("report.md", render_markdown(profile)), ("profile.html", render_html(profile))):
        with replacing(folder / name) as handle:
            handle.write(text)
    return folder


def profile_table(profile: dict[str, Any]) -> Table:
    """The terminal summary: per method, score, known and the illusions against every other way."""
    ways = profile["ways"]
    illusions = {(i["right"], i["wrong"]): i["count"] for i in profile["illusions"]}
    table = Table("way", "score %", "known %", "parse failures", "item error", *(f"not {w['key']}" for w in ways),
                  title=f"Knowledge profile · {profile['model']} · {profile['points']['shared']} shared knowledge points of {profile['data']}")
    for w in ways:
        row = profile["per_way"][w["key"]]
        table.add_row(w["key"], pct(row["score"]), pct(row["known"]), str(row["parse_failures"]), row["item_error"],
                      *("–" if v == w else str(illusions[(w["key"], v["key"])]) for v in ways))
    table.caption = "not X: points known this way and not way X (illusions). " + "; ".join(f"{w['key']} = {w['title']}" for w in ways)
    return table


def against_table(profile: dict[str, Any]) -> Table:
    """The terminal summary of --against: per way, both known shares and Welch's t over all aspects."""
    against = profile["against"]
    table = Table("way", "A known %", "B known %", "A score %", "B score %", "t (all aspects)",
                  title=f"A {profile['model']} against B {against['model_b']} · {against['points']} points")
    for key, rows in against["welch"].items():
        overall = rows[-1]
        table.add_row(key, pct(against["known"][key]["a"]), pct(against["known"][key]["b"]), pct(overall["mean_a"]),
                      pct(overall["mean_b"]), format_t(overall) + (f" (p {_p(overall['p'])})" if overall["p"] is not None else ""))
    return table
