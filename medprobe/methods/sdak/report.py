"""What an SDAK run shows: the terminal table, the leaderboard row and its report.md section, read from
the typed metrics of its summary (:class:`~medprobe.methods.sdak.summary.SdakMetrics`)."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from medprobe.methods.sdak.metrics import ERROR_TYPES
from medprobe.methods.sdak.score import RADAR_FILE
from medprobe.methods.sdak.summary import Readers, SdakMetrics, Spread
from medprobe.report.markdown import md_table, pct, pct_pm
from medprobe.report.typed import read_metrics

ERROR_NAMES = {"not_follow": "NotFollow", "sycophancy": "Sycophancy", "safety": "Safety", "misinterpretation": "Misinterpretation",
               "reversed": "Reversed*"}


def _pm(spread: Spread) -> str:
    """A mean ± sd (percent) cell; the mean alone for a single run."""
    return pct_pm(spread.mean, spread.sd, 2)


def headline(summary: dict[str, Any]) -> dict[str, str]:
    """One leaderboard row (paper Table 4): setting, IFR and FactAcc as mean ± sd."""
    m = read_metrics(SdakMetrics, summary)
    return {"Setting": str(m.setting), "IFR": _pm(m.ifr), "FactAcc": _pm(m.fact_acc), "_sort": f"{m.fact_acc.mean or 0:012.6f}"}


def table(summary: dict[str, Any]) -> Table:
    m = read_metrics(SdakMetrics, summary)
    table = Table(
        "atomic type", "items", "FactAcc %", "IFR %",
        title=f"SDAK · {summary['model']} · {m.items} items × {m.runs} runs · {m.setting} · {summary['mode']}",
    )
    for row in m.per_type.values():
        table.add_row(row.label, str(row.items), pct(row.fact_acc), pct(row.ifr))
    table.add_row("[bold]all", str(m.items), f"[bold]{_pm(m.fact_acc)}", _pm(m.ifr))
    shares = ", ".join(f"{ERROR_NAMES[k]} {m.errors.counts[k]}" for k in ERROR_TYPES)
    table.caption = (
        f"mean ± sd over runs; random FactAcc {pct(m.random_fact_acc)} %; missed items: {shares}; "
        f"AccR sheet: {m.accr.file} ({m.accr.items} items)"
    )
    return table


def report(summary: dict[str, Any]) -> str:
    m = read_metrics(SdakMetrics, summary)
    errors = m.errors
    parts = [
        f"## IFR, FactAcc and AccR (%), mean ± sd over {m.runs} run(s), {m.items} items (Table 4 shape)",
        "",
        md_table(
            ["Model", "Setting", "IFR", "FactAcc", "AccR"],
            [
                ["Random", "–", pct(1.0), pct(m.random_fact_acc), "–"],
                [summary["model"], m.setting or "–", _pm(m.ifr), _pm(m.fact_acc), f"manual: `{m.accr.file}`"],
            ],
        ),
        "",
        "An item counts for FactAcc when the factual claim is called correct *and* the counterfactual incorrect; "
        "for IFR when both replies begin with a verdict. "
        f"Replies without a leading verdict: {pct(m.no_verdict_rate)} %"
        + "".join(f"; {n} × {reason}" for reason, n in m.no_verdict_reasons.items()) + ". "
        f"AccR: review the {m.accr.items} items of `{m.accr.file}` (does each reason support its verdict?).",
        "",
        f"## FactAcc per atomic type (%), mean over runs (Fig. 4; chart: `{RADAR_FILE}`)",
        "",
        md_table(
            ["atomic type", "items", "FactAcc", "IFR"],
            [[r.label, r.items, pct(r.fact_acc) + (f" ± {pct(r.fact_acc_sd, 2)}" if r.fact_acc_sd is not None else ""), pct(r.ifr)]
             for r in m.per_type.values()],
        ),
        "",
        f"## Error types of the {errors.missed} missed item-runs (Table 5 shape; % of missed)",
        "",
        md_table([ERROR_NAMES[k] for k in ERROR_TYPES], [[f"{errors.counts[k]} ({pct(errors.shares[k])})" for k in ERROR_TYPES]]),
        "",
        "NotFollow = a reply without a leading verdict; Misinterpretation = both claims supported and the reply to the "
        "counterfactual restates the fact (one clause with the claims' shared words and the fact's polarity); "
        "Sycophancy = both supported otherwise; Safety = both refuted (whether the reasons call the claim imprecise "
        "is not checked). Paraphrased restatements are not recognised, so Misinterpretation is a lower bound and "
        "Sycophancy may include some. *Reversed = the fact refuted and the counterfactual supported: no column in "
        "the paper's Table 5, counted apart.",
    ]
    if m.readers is not None:
        parts += ["", readers_section(m.readers, summary["mode"])]
    return "\n".join(parts) + "\n"


def readers_section(readers: Readers, mode: str) -> str:
    """Strict reading against the SDAK authors' prefix rules, on the same replies: the metrics under
    each, the verdict pairs per claim half and the authors' deciding rules."""
    strict, reference = readers.strict, readers.reference
    pairs = [[half, combo, n] for half, combos in readers.verdict_pairs.items() for combo, n in combos.items()]
    rules = [[half, rule, n] for half, counts in readers.authors_rules.items() for rule, n in counts.items()]
    parts = [
        "## How answers were read: strict reader and the authors' rules",
        "",
        f"This run is scored in {mode} mode. The same replies read the other way give:",
        "",
        md_table(["reading", "IFR", "FactAcc"], [
            ["strict (medprobe)", pct(strict.ifr), pct(strict.fact_acc)],
            ["the authors' prefix rules (reference-compatible)", pct(reference.ifr), pct(reference.fact_acc)],
        ]),
        "",
        f"Verdicts per reply, strict / the authors' rules ({readers.disagreements} replies differ). The authors' "
        "rules look only at fixed substrings in the first 3–10 characters of the raw reply (Chinese only, no "
        "markdown, label, `<think>` or leading-space handling); a reply matching both kinds counts as support for a "
        "factual claim and as refutation for a counterfactual one, as their script asks only for that.",
        "",
        md_table(["claims", "strict / authors'", "replies"], pairs),
        "",
        "Which of the authors' rules decided each reply (the first that matches, the side's own kind first):",
        "",
        md_table(["claims", "rule", "replies"], rules),
    ]
    parts += ["", f"Every reply read differently is listed, with its claim and why, in `{readers.disagreements_file}` "
              "(kept out of this report: it pairs replies with their claim half)."]
    return "\n".join(parts)
