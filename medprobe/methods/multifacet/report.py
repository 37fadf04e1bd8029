"""What a MultifacetEval run shows: the terminal table, the leaderboard row and its report.md section,
read from the typed metrics of its summary (:class:`~medprobe.methods.multifacet.summary.MultifacetMetrics`)."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from medprobe.methods.multifacet.questions import FACET_OF, TASKS
from medprobe.methods.multifacet.summary import MultifacetMetrics
from medprobe.report.markdown import md_table, pct, pct_pm
from medprobe.report.typed import read_metrics

SHORT = {"comparison": "Comp.", "rectification": "Rect.", "discrimination": "Disc.", "verification": "Veri."}


def headline(summary: dict[str, Any]) -> dict[str, str]:
    """One leaderboard row (paper Table 1): facet accuracies, their average and p(M) over 4 facets."""
    m = read_metrics(MultifacetMetrics, summary)
    row = {SHORT[f]: pct(r.accuracy) for f, r in m.facets.items()}
    curve = m.mastery.without_negation
    return {**row, "Average": pct(m.average), "p(M)": pct(curve[-1] if curve else None), "_sort": f"{m.average or 0:012.6f}"}


def table(summary: dict[str, Any]) -> Table:
    m = read_metrics(MultifacetMetrics, summary)
    table = Table(
        "facet", "task", "accuracy %", "random %", "parse failures %", "questions",
        title=f"MultifacetEval · {summary['model']} · {m.knowledge_points} knowledge points · {summary['mode']}",
    )
    for facet, row in m.facets.items():
        table.add_row(facet, row.task, pct_pm(row.accuracy, row.se), pct(row.random_baseline), pct(row.parse_failure_rate), str(row.questions))
    table.add_row("[bold]average", "", f"[bold]{pct(m.average)}", pct(m.random_average), pct(m.parse_failure_rate), "")
    curve = " → ".join(pct(v) for v in m.mastery.without_negation)
    table.caption = f"p(M), facets added {' → '.join(m.mastery.order)}: {curve} %"
    return table


def _vote_note(summary: dict[str, Any]) -> list[str]:
    """How self-consistency voted, for a cot-sc run (nothing for answer-only)."""
    if summary.get("setting") != "cot-sc":
        return []
    if summary["mode"] == "reference-compatible":
        unparsed = "as in the reference, an unparsed true/false chain counts as a 'false' vote."
    else:
        unparsed = "unparsed chains do not vote (a question with no parsed chain is wrong)."
    return ["Self-consistency: majority vote over the sampled chains, ties broken by the seeded RNG; " + unparsed]


def report(summary: dict[str, Any]) -> str:
    m = read_metrics(MultifacetMetrics, summary)
    facets = [FACET_OF[t] for t in TASKS if FACET_OF[t] in m.facets]
    header = ["Model", *(SHORT[f] for f in facets), "Average"]
    rows = [
        ["Random", *(pct(m.facets[f].random_baseline) for f in facets), pct(m.random_average)],
        [summary["model"], *(pct(m.facets[f].accuracy) for f in facets), pct(m.average)],
    ]
    order = m.mastery.order
    parts = [
        f"## Facet accuracy (%), {m.n_options} options, {m.knowledge_points} knowledge points",
        "",
        md_table(header, rows),
        "",
        "Rectification is bias-corrected: 1/No·acc_T + (No−1)/No·acc_F. Discrimination needs the exact option set.",
        *_vote_note(summary),
        "",
        "## Mastered knowledge points p(M) (%)",
        "",
        md_table(
            ["facets included", *(" + ".join(SHORT[f] for f in order[: i + 1]) for i in range(len(order)))],
            [
                ["without negated questions", *(pct(v) for v in m.mastery.without_negation)],
                ["with negated questions", *(pct(v) for v in m.mastery.with_negation)],
            ],
        ),
        "",
        "## Parse failures",
        "",
        md_table(["facet", "replies", "unparsed %"], [[f, m.facets[f].replies, pct(m.facets[f].parse_failure_rate)] for f in facets]),
    ]
    return "\n".join(parts) + "\n"
