"""Scoring SDAK: read each reply's leading verdict (after any reasoning block), pair the factual
and counterfactual replies of an item in a run, and compute per run: IFR, FactAcc, FactAcc per
atomic type, and the error type of every missed item (``medprobe.metrics.sdak.error_type``; the
reply to the counterfactual claim is checked for a restatement of the fact, which tells
misinterpretation from sycophancy); then mean ± standard deviation over the runs (paper 004
Table 4). How each reply was read is tallied per claim half ("factual claims", "counterfactual
claims"): a model that hedges or answers negated claims in another form shows there.

A failed or missing request has no verdict, so it counts as not following the instruction —
the run's status already says that requests failed. AccR is manual: ``accr_sample.csv`` holds a
seeded sample of 100 items of the first run with both claims, both replies and empty columns
for the reviewer, who marks whether each reason supports its verdict; AccR is the share of
reviewed items whose reasons do.
"""

from __future__ import annotations

import csv
import io
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from medprobe.methods import ScoreOptions, ScoreResult
from medprobe.methods.sdak.claims import TYPES
from medprobe.methods.sdak.restatement import states_fact
from medprobe.metrics.sdak import (
    RANDOM_FACT_ACC,
    PairVerdicts,
    by_type,
    error_counts,
    error_shares,
    error_type,
    fact_acc,
    ifr,
    mean_sd,
    per_type_accuracy,
)
from medprobe.parsing.claim_verdict import read_verdict
from medprobe.parsing.fill import item_rng
from medprobe.parsing.reading import NO_REPLY, Reading, ReadingTally
from medprobe.parsing.reply_text import strip_reasoning
from medprobe.records import ItemScore, Probe, Response
from medprobe.report.svg import radar

ACCR_SAMPLE = 100
ACCR_FILE = "accr_sample.csv"
RADAR_FILE = "fact_acc_by_type.svg"
REVIEW_COLUMNS = ("reason_supports_factual_verdict", "reason_supports_counterfactual_verdict", "reviewer_note")


HALVES = {"factual": "factual claims", "counterfactual": "counterfactual claims"}


@dataclass(frozen=True)
class Outcome:
    """One item in one run: its two claims, the two replies (reasoning blocks removed), how each
    was read, and the verdicts."""

    item: str
    type: str
    run: int
    claims: tuple[str, str]
    replies: tuple[str | None, str | None]
    readings: tuple[Reading, Reading]
    verdicts: PairVerdicts


def _read(probe: Probe, response: Response | None) -> tuple[str | None, Reading]:
    if response is None or response.error is not None:
        return None, Reading(None, NO_REPLY, NO_REPLY)
    return strip_reasoning(response.text).text, read_verdict(response.text, probe.language)


def outcomes(probes: list[Probe], responses: list[Response]) -> list[Outcome]:
    """Pair the two probes of each (item, run) with their replies, in item order."""
    by_probe = {r.probe_id: r for r in responses if r.sample == 0}
    cells: dict[tuple[str, int], dict[str, Probe]] = defaultdict(dict)
    for probe in probes:
        cells[(probe.knowledge_point, int(probe.meta["run"]))][probe.variant] = probe
    found = []
    for (item, run), pair in sorted(cells.items()):
        fact, counter = pair["factual"], pair["counterfactual"]
        fact_text, fact_reading = _read(fact, by_probe.get(fact.id))
        counter_text, counter_reading = _read(counter, by_probe.get(counter.id))
        claims = (fact.meta["claim"], counter.meta["claim"])
        restated = counter_reading.value is True and states_fact(counter_text or "", *claims, counter.language)
        verdicts = PairVerdicts(fact_reading.value, counter_reading.value, restated)
        found.append(Outcome(item, fact.facet, run, claims, (fact_text, counter_text), (fact_reading, counter_reading), verdicts))
    return found


def reading_tally(found: list[Outcome]) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    """Rule families per claim half, and why the replies without a verdict had none."""
    tally = ReadingTally()
    reasons: Counter[str] = Counter()
    for o in found:
        for half, reading in zip(HALVES.values(), o.readings, strict=True):
            tally.add(half, reading.rule)
            if not reading.read:
                reasons[reading.reason] += 1
    return tally.as_dict(), dict(reasons.most_common())


def _spread(values: list[float]) -> dict[str, Any]:
    average, sd = mean_sd(values)
    return {"mean": average, "sd": sd, "runs": values}


def summarize(found: list[Outcome]) -> dict[str, Any]:
    """Run-level metrics, then mean ± sd over runs; error types are counted over all runs."""
    by_run: dict[int, list[Outcome]] = defaultdict(list)
    for o in found:
        by_run[o.run].append(o)
    runs = [by_run[r] for r in sorted(by_run)]
    accuracy = [per_type_accuracy((o.type, o.verdicts) for o in run) for run in runs]
    grouped = [by_type((o.type, o.verdicts) for o in run) for run in runs]
    per_type = {}
    for kind in (k for k in TYPES if runs and k in grouped[0]):
        acc, sd = mean_sd([run_acc[kind] for run_acc in accuracy])
        per_type[kind] = {
            "label": TYPES[kind].label,
            "items": len(grouped[0][kind]),
            "fact_acc": acc,
            "fact_acc_sd": sd,
            "ifr": mean_sd([ifr(groups[kind]) or 0.0 for groups in grouped])[0],
        }
    counts = error_counts(o.verdicts for o in found)
    replies = [v for o in found for v in (o.verdicts.factual, o.verdicts.counterfactual)]
    return {
        "items": len(runs[0]) if runs else 0,
        "runs": len(runs),
        "ifr": _spread([ifr([o.verdicts for o in run]) or 0.0 for run in runs]),
        "fact_acc": _spread([fact_acc([o.verdicts for o in run]) or 0.0 for run in runs]),
        "random_fact_acc": RANDOM_FACT_ACC,
        "per_type": per_type,
        "errors": {"missed": sum(counts.values()), "counts": counts, "shares": error_shares(counts)},
        "no_verdict_rate": sum(v is None for v in replies) / len(replies) if replies else None,
    }


def accr_sample(found: list[Outcome], seed: int, size: int = ACCR_SAMPLE) -> tuple[str, int]:
    """The manual AccR sheet (CSV, UTF-8 with BOM so spreadsheet programs read Chinese right)
    and how many items it holds: ``size`` items of the first run, drawn with the run seed."""
    first_run = min((o.run for o in found), default=0)
    first = [o for o in found if o.run == first_run]
    picked = sorted(item_rng(seed, "accr").sample(first, min(size, len(first))), key=lambda o: o.item)
    words = {True: "correct", False: "incorrect", None: "no verdict"}
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["item", "type", "factual_claim", "factual_reply", "factual_verdict", "counterfactual_claim",
                     "counterfactual_reply", "counterfactual_verdict", "fact_acc", "error_type", *REVIEW_COLUMNS])
    for o in picked:
        v = o.verdicts
        writer.writerow([o.item, TYPES[o.type].label, o.claims[0], o.replies[0] or "", words[v.factual], o.claims[1],
                         o.replies[1] or "", words[v.counterfactual], int(v.correct), error_type(v) or "", *([""] * len(REVIEW_COLUMNS))])
    return "\ufeff" + buffer.getvalue(), len(picked)


def score(probes: list[Probe], responses: list[Response], options: ScoreOptions) -> ScoreResult:
    found = outcomes(probes, responses)
    metrics = summarize(found)
    reading, metrics["no_verdict_reasons"] = reading_tally(found)
    metrics["setting"] = options.setting
    sheet, sampled = accr_sample(found, options.seed)
    metrics["accr"] = {"file": ACCR_FILE, "items": sampled}
    items = [
        ItemScore(
            knowledge_point=o.item, facet=o.type, score=float(o.verdicts.correct),
            correct=[o.verdicts.factual is True, o.verdicts.counterfactual is False],
            parsed=[o.verdicts.factual, o.verdicts.counterfactual],
            unparsed=sum(v is None for v in (o.verdicts.factual, o.verdicts.counterfactual)),
            meta={"run": o.run, "error": error_type(o.verdicts), "followed": o.verdicts.followed,
                  "counter_states_fact": o.verdicts.counter_states_fact},
        )
        for o in found
    ]
    per_type = metrics["per_type"]
    chart = radar(
        [row["label"] for row in per_type.values()],
        [("FactAcc", [row["fact_acc"] or 0.0 for row in per_type.values()]), ("IFR", [row["ifr"] or 0.0 for row in per_type.values()])],
        "SDAK: FactAcc and IFR per atomic type (mean over runs)",
    )
    notes = []
    if options.reference_compatible:
        notes.append("SDAK fills no verdict at random in any mode: a reply without a leading verdict is what IFR measures")
    if metrics["runs"] < 2:
        notes.append("one run only: no standard deviation (the paper reports mean ± sd over 3 runs)")
    return ScoreResult(items, metrics, notes, extra_files={ACCR_FILE: sheet, RADAR_FILE: chart}, reading=reading)

