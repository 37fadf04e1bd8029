"""What a MultiCogEval run shows: the terminal table, the leaderboard row and its report.md section, read
from the typed metrics of its summary (:class:`~medprobe.methods.multicog.summary.MultiCogMetrics`)."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from medprobe.methods.multicog.dialogue.diagnosis import CORRECT_KINDS
from medprobe.methods.multicog.summary import HighMetrics, MultiCogMetrics, RunSpread
from medprobe.report.markdown import md_table, pct, pct_pm
from medprobe.report.typed import read_metrics

#: the dialogue numbers of the terminal table, in its order
TABLE_ROWS = (("macro_end_point", "diagnosis (end-point)"), ("exam_recall", "exam recall"), ("macro_full_path", "full-path"))
#: the dialogue numbers of report.md, in its order
REPORT_ROWS = (
    ("macro_end_point", "end-point accuracy (macro over diseases)"), ("macro_full_path", "full-path accuracy (macro)"),
    ("micro_end_point", "end-point accuracy (micro)"), ("micro_full_path", "full-path accuracy (micro)"),
    ("exam_recall", "exam recall (macro over types)"), ("recall_LAB", "lab recall"), ("recall_MICRO", "microbiology recall"),
    ("recall_IMAGE", "imaging recall"),
)


def _number(high: HighMetrics, key: str) -> RunSpread | None:
    """A dialogue number by its summary.json key (``macro_full_path``, ``recall_LAB``, ...); None when absent."""
    if key.startswith("recall_"):
        return high.recall.get(key.removeprefix("recall_"))
    spread: RunSpread | None = getattr(high, key)
    return spread


def headline(summary: dict[str, Any]) -> dict[str, str]:
    """One leaderboard row (paper Table 2): normalized accuracy per level."""
    levels = read_metrics(MultiCogMetrics, summary).levels
    row = {level.capitalize(): pct_pm(r.normalized, r.se) for level, r in levels.items()}
    key = sum(r.normalized or 0 for r in levels.values())
    return {**row, "_sort": f"{key + 10:012.6f}"}


def table(summary: dict[str, Any]) -> Table:
    m = read_metrics(MultiCogMetrics, summary)
    table = Table("level / task", "dataset", "accuracy %", "normalized %", "parse failures %", "questions",
                  title=f"MultiCogEval · {summary['model']} · {summary['mode']}")
    for dataset, block in (m.lowmid.datasets if m.lowmid else {}).items():
        for task, row in block.tasks.items():
            table.add_row(task, dataset, pct_pm(row.accuracy, row.se_items), pct_pm(row.normalized, row.normalized_se_items),
                          pct(row.parse_failure_rate), str(row.questions))
    if m.high is not None:
        for key, label in TABLE_ROWS:
            spread = _number(m.high, key)
            if spread is not None:
                table.add_row(label, "cases", pct_pm(spread.mean, spread.se_cases), "", "", str(m.high.episodes))
    for level, estimate in m.levels.items():
        table.add_row(f"[bold]{level} level", "macro", "", f"[bold]{pct_pm(estimate.normalized, estimate.se)}", "", "")
    return table


def _kinds_note(high: HighMetrics) -> list[str]:
    """The end points by kind, and how the mode treats hedges."""
    strict = high.grading == "strict"
    rows = [[kind, str(n), "yes" if kind in CORRECT_KINDS or kind == "judge" or (kind == "hedged" and not strict) else "no"]
            for kind, n in high.diagnosis_kinds.items()]
    mode = ("strict: a hedge (alternatives, a possibility, a differential) is wrong" if strict else
            "reference-compatible (MultiCogEval's rule): the gold name or an alias anywhere is right, hedged or not")
    return ["", f"End points by kind ({mode}):", "", md_table(["kind", "episodes", "correct"], rows), "",
            "match = the gold's name (any order, qualifiers); synonym = another name (case synonyms, reference aliases, MeSH, "
            "PyCMeKG, our lay names and eponyms); abbreviation = initials or a listed abbreviation; specific form = a form of the "
            "gold (MeSH places it under the gold, or the gold's name plus a specifying part); hedged = the gold only as an "
            "alternative, a possibility or in a differential; broader = a wider category; other = anything else (the only kind a "
            "judge model is asked about); none = no diagnosis; judge = accepted by the judge model.", ""]


def _lowmid_section(m: MultiCogMetrics) -> list[str]:
    datasets = m.lowmid.datasets if m.lowmid else {}
    if not datasets:
        return []
    rows = [[dataset, task, pct_pm(row.accuracy, row.se), pct(row.random_baseline), pct_pm(row.normalized, row.normalized_se),
             pct(row.normalized_se_items), pct(row.parse_failure_rate), row.questions]
            for dataset, block in datasets.items() for task, row in block.tasks.items()]
    return ["## Low and mid level tasks (Table 8 shape)", "",
            md_table(["dataset", "task", "accuracy % ± SE over repeats", "random %", "normalized % ± SE over repeats",
                      "SE questions and repeats", "unparsed %", "questions"], rows),
            "", "MR is weighted 1/No on the question giving the right answer and (No−1)/No on the one giving a wrong answer. "
            "The SE over repeats is the paper's (demo draws only); the SE over questions and repeats is that of a "
            "bootstrap over questions, each with its answers in every repeat (in closed form: the SE over questions "
            "of each question's mean over repeats).", ""]


def _high_section(h: HighMetrics) -> list[str]:
    rows = [[label, pct_pm(spread.mean, spread.se_cases), pct_pm(spread.mean, spread.se)]
            for key, label in REPORT_ROWS if (spread := _number(h, key)) is not None]
    return ["## Full-path diagnosis (%; Table 5 shape)", "",
            md_table(["metric", "mean ± SE (cases and runs)", "mean ± SE over runs (paper)"], rows), "",
            "The first error bar comes from a seeded bootstrap over diseases and their cases (1000 resamples), "
            "so it covers the sampling of cases as well as the run-to-run spread the paper reports.", "",
            f"Episodes: {h.episodes}, finished with a diagnosis: {h.finished}. Ended early: {h.stopped or 'none'}. "
            f"Invalid replies warned and rolled back: {h.rolled_back}; chats summarized to fit the context: {h.summaries}.",
            *_kinds_note(h),
            "Transcripts: transcripts.jsonl.", ""]


def report(summary: dict[str, Any]) -> str:
    m = read_metrics(MultiCogMetrics, summary)
    parts = [
        "## Levels (normalized accuracy %, mean ± SE; Table 2 shape)",
        "",
        md_table(["Model", *(lv.capitalize() for lv in m.levels)], [[summary["model"], *(pct_pm(r.normalized, r.se) for r in m.levels.values())]]),
        "",
        "The SE covers the sampling of questions and cases as well as the spread over repeats (demo draws) and runs "
        "that the paper reports; the task tables give both.",
        "",
        *_lowmid_section(m),
        *(_high_section(m.high) if m.high is not None else []),
    ]
    return "\n".join(parts)
