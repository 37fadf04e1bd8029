"""What a MedDisKEval run shows: the terminal table, the leaderboard row and its report.md section, read
from the typed metrics of its summary (:class:`~medprobe.methods.meddisk.summary.MedDisKMetrics`)."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from medprobe.aspects import ASPECTS
from medprobe.methods.meddisk.grading import LEVEL_BOUNDARIES, METRICS, format_total
from medprobe.methods.meddisk.summary import MedDisKMetrics
from medprobe.report.markdown import md_table, pct
from medprobe.report.typed import read_metrics

METRIC_NAMES = {"bleu1": "BLEU-1", "rouge1": "ROUGE-1", "cosine": "cosine"}


def _graded_names(m: MedDisKMetrics) -> str:
    return ", ".join(METRIC_NAMES[k] for k in m.graded_metrics)


def headline(summary: dict[str, Any]) -> dict[str, str]:
    """One leaderboard row (paper Table 4), with what decides whether rows compare: the knowledge
    asked about (language · points · digest), the embedder, the metrics graded and the Chinese tokenizer."""
    m = read_metrics(MedDisKMetrics, summary)
    d = m.mean_distribution
    knowledge = m.knowledge
    return {"CW %": pct(d["CW"]), "PC %": pct(d["PC"]), "BC %": pct(d["BC"]), "total score": format_total(m.total_score),
            "level": str(m.level),
            "knowledge points": f"{knowledge.language} · {knowledge.points} · {knowledge.digest}" if knowledge else "–",
            "embedder": m.scoring.embedder, "graded": "+".join(METRIC_NAMES[k] for k in m.graded_metrics),
            "tokenizer": m.scoring.tokenizer if knowledge and knowledge.language == "zh" else "–",
            "_sort": f"{m.total_score:012.6f}"}


def table(summary: dict[str, Any]) -> Table:
    m = read_metrics(MedDisKMetrics, summary)
    table = Table("metric", "Completely Wrong %", "Partially Correct %", "Basically Correct %",
                  title=f"MedDisKEval · {summary['model']} · {m.responses} answers")
    for metric in METRICS:
        d = m.distribution[metric]
        table.add_row(METRIC_NAMES[metric], pct(d["CW"]), pct(d["PC"]), pct(d["BC"]))
    d = m.mean_distribution
    table.add_row(f"[bold]average ({_graded_names(m)})", pct(d["CW"]), pct(d["PC"]), pct(d["BC"]))
    table.caption = (
        f"total score {format_total(m.total_score)} / 10 · level {m.level} · answer pattern found "
        f"{pct(m.postprocess.pattern_found_rate)}% · 'None' {pct(m.postprocess.said_none_rate)}% · "
        f"embedder {m.scoring.embedder}, thresholds {m.scoring.thresholds}"
    )
    return table


def report(summary: dict[str, Any]) -> str:
    m = read_metrics(MedDisKMetrics, summary)
    d = m.mean_distribution
    rows = [[a.en, a.type, r.n, *(f"{r.mean_score[k]:.3f}" for k in METRICS), format_total(r.total_score)]
            for a in ASPECTS if a.key in m.per_aspect for r in [m.per_aspect[a.key]]]
    post, scoring = m.postprocess, m.scoring
    return "\n".join([
        "## Tiers and total score (Table 4 shape)",
        "",
        md_table(["Model", "Completely Wrong", "Partially Correct", "Basically Correct", "Total Score", "Level"],
                 [[summary["model"], pct(d["CW"]) + "%", pct(d["PC"]) + "%", pct(d["BC"]) + "%", format_total(m.total_score), m.level]]),
        "",
        f"The total averages the tier distributions of {_graded_names(m)}. "
        "Distribution by metric (Figure 4 shape): ![tiers](tiers.svg)",
        "",
        md_table(["metric", "CW %", "PC %", "BC %"], [[METRIC_NAMES[k], *(pct(m.distribution[k][t]) for t in ("CW", "PC", "BC"))] for k in METRICS]),
        "",
        "## By aspect (Figure 10 shape)",
        "",
        md_table(["aspect", "type", "answers", *(f"mean {METRIC_NAMES[k]}" for k in METRICS), "total score"], rows),
        "",
        "![aspects](aspects.svg)",
        "",
        "## Scoring",
        "",
        f"Embedding model: `{scoring.embedder}`; thresholds: {scoring.thresholds}; Chinese tokens: "
        f"{scoring.tokenizer}; entity extractor: `{scoring.extractor}`. Levels are our reading of the paper's "
        f"Table 4 (total ≥ {LEVEL_BOUNDARIES[0]:g} → 1, ≥ {LEVEL_BOUNDARIES[1]:g} → 2, ≥ {LEVEL_BOUNDARIES[2]:g} → 3, else 4).",
        "",
        f"Post-processing: answer pattern found in {pct(post.pattern_found_rate)}% of replies; 'None' answers "
        f"{pct(post.said_none_rate)}%; empty after post-processing {pct(post.empty_answer_rate)}%; failed requests "
        f"{post.failed_requests} (all scored 0).",
        "",
    ])
