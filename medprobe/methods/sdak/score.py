"""Scoring SDAK: read each reply's leading verdict (after any reasoning block), pair the factual
and counterfactual replies of an item in a run, and compute per run: IFR, FactAcc, FactAcc per
atomic type, and the error type of every missed item (``medprobe.methods.sdak.metrics.error_type``; the
reply to the counterfactual claim is checked for a restatement of the fact, which tells
misinterpretation from sycophancy); then mean ± standard deviation over the runs (paper 004
Table 4). How each reply was read is tallied per claim half ("factual claims", "counterfactual
claims"): a model that hedges or answers negated claims in another form shows there.

Every reply is read twice: by the strict reader (``medprobe.methods.sdak.strict_verdict``) and by the
authors' prefix rules (``medprobe.methods.sdak.reference_verdict``). The scoring mode picks which verdicts
the metrics use (reference-compatible: the authors'); the other reading is kept so that the report
shows where and why the two disagree, and what IFR and FactAcc would be under the other.

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
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from medprobe.contract import ScoreOptions, ScoreResult
from medprobe.methods.sdak.claims import TYPES
from medprobe.methods.sdak.metrics import (
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
from medprobe.methods.sdak.reference_verdict import AuthorsReading, authors_reading
from medprobe.methods.sdak.restatement import states_fact
from medprobe.methods.sdak.strict_verdict import read_verdict
from medprobe.methods.sdak.summary import Accr, Errors, ReaderRates, Readers, SdakMetrics, Spread, TypeResult
from medprobe.parsing.reading import NO_REPLY, Reading, ReadingTally
from medprobe.parsing.reply_text import strip_reasoning
from medprobe.records import ItemScore, Probe, Response
from medprobe.report.svg import radar
from medprobe.seeding import item_rng

ACCR_SAMPLE = 100
ACCR_FILE = "accr_sample.csv"
RADAR_FILE = "fact_acc_by_type.svg"
REVIEW_COLUMNS = ("reason_supports_factual_verdict", "reason_supports_counterfactual_verdict", "reviewer_note")


HALVES = {"factual": "factual claims", "counterfactual": "counterfactual claims"}
VERDICT_WORDS = {True: "correct", False: "incorrect", None: "none"}
#: every reply the two readings read differently, with its claim: it pairs replies with their claim half
#: (the gold), so like the AccR sheet it is a file of the run directory, not part of summary.json or report.md
DISAGREEMENTS_FILE = "reader_disagreements.jsonl"


@dataclass(frozen=True)
class ReadPair:
    """One item in one run: its two claims, the two raw replies, how each was read (strict and by
    the authors' rules), the verdicts the scoring mode uses and those the other mode would use."""

    item: str
    type: str
    run: int
    claims: tuple[str, str]
    raw: tuple[str | None, str | None]
    strict: tuple[Reading, Reading]
    authors: tuple[AuthorsReading, AuthorsReading]
    reference: bool
    verdicts: PairVerdicts
    other: PairVerdicts

    @property
    def replies(self) -> tuple[str | None, str | None]:
        """The replies without their reasoning blocks (what a reviewer reads)."""
        return (None if self.raw[0] is None else strip_reasoning(self.raw[0]).text,
                None if self.raw[1] is None else strip_reasoning(self.raw[1]).text)

    @property
    def readings(self) -> tuple[Reading, Reading]:
        """How the scoring mode read the two replies."""
        return (self.authors[0].as_reading(), self.authors[1].as_reading()) if self.reference else self.strict


def _strict(probe: Probe, raw: str | None) -> Reading:
    return Reading(None, NO_REPLY, NO_REPLY) if raw is None else read_verdict(raw, probe.language)


def read_pairs(probes: list[Probe], responses: list[Response], reference: bool = False) -> list[ReadPair]:
    """Pair the two probes of each (item, run) with their first-sample replies, in item order;
    ``reference``: score with the authors' rules."""
    by_probe = {r.probe_id: r for r in responses if r.sample == 0}
    cells: dict[tuple[str, int], dict[str, Probe]] = defaultdict(dict)
    for probe in probes:
        cells[(probe.knowledge_point, int(probe.meta["run"]))][probe.variant] = probe
    found = []
    for (item, run), pair in sorted(cells.items()):
        fact, counter = pair["factual"], pair["counterfactual"]
        raw = (_raw(by_probe.get(fact.id)), _raw(by_probe.get(counter.id)))
        strict = (_strict(fact, raw[0]), _strict(counter, raw[1]))
        authors = (authors_reading(raw[0], factual=True), authors_reading(raw[1], factual=False))
        claims = (fact.meta["claim"], counter.meta["claim"])
        states = states_fact(strip_reasoning(raw[1] or "").text, *claims, counter.language)
        by_strict = PairVerdicts(strict[0].value, strict[1].value, strict[1].value is True and states)
        by_authors = PairVerdicts(authors[0].value, authors[1].value, authors[1].value is True and states)
        verdicts, other = (by_authors, by_strict) if reference else (by_strict, by_authors)
        found.append(ReadPair(item, fact.facet, run, claims, raw, strict, authors, reference, verdicts, other))
    return found


def _raw(response: Response | None) -> str | None:
    """The reply as the model wrote it; ``None`` for a failed or missing request."""
    return None if response is None or response.error is not None else response.text


def reading_tally(found: list[ReadPair]) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    """Rule families per claim half, and why the replies without a verdict had none."""
    tally = ReadingTally()
    reasons: Counter[str] = Counter()
    for o in found:
        for half, reading in zip(HALVES.values(), o.readings, strict=True):
            tally.add(half, reading.rule)
            if not reading.read:
                reasons[reading.reason] += 1
    return tally.as_dict(), dict(reasons.most_common())


def _word(value: bool | None) -> str:
    return VERDICT_WORDS[value]


def _by_run_means(found: list[ReadPair], pick: str) -> ReaderRates:
    """IFR and FactAcc, mean over runs, of the verdicts ``pick`` ("verdicts" or "other")."""
    by_run: dict[int, list[PairVerdicts]] = defaultdict(list)
    for o in found:
        by_run[o.run].append(getattr(o, pick))
    runs = [by_run[r] for r in sorted(by_run)]
    return ReaderRates(ifr=mean_sd([ifr(run) or 0.0 for run in runs])[0], fact_acc=mean_sd([fact_acc(run) or 0.0 for run in runs])[0])


def _halves(found: list[ReadPair]) -> Iterator[tuple[ReadPair, str, str, str | None, Reading, AuthorsReading]]:
    """Every reply: its pair, claim half, claim, raw text, strict reading and the authors' reading."""
    for o in found:
        for half, claim, raw, strict, authors in zip(HALVES.values(), o.claims, o.raw, o.strict, o.authors, strict=True):
            yield o, half, claim, raw, strict, authors


def compare_readers(found: list[ReadPair], reference: bool) -> Readers:
    """The strict reader against the authors' rules on the same replies: IFR and FactAcc under each,
    and per claim half how often each pair of verdicts occurred and which of the authors' rules decided."""
    pairs: dict[str, Counter[str]] = {half: Counter() for half in HALVES.values()}
    rules: dict[str, Counter[str]] = {half: Counter() for half in HALVES.values()}
    for _, half, _, _, strict, authors in _halves(found):
        pairs[half][f"{_word(strict.value)} / {_word(authors.value)}"] += 1
        rules[half][authors.rule] += 1
    scored, other = _by_run_means(found, "verdicts"), _by_run_means(found, "other")
    return Readers(
        strict=other if reference else scored,
        reference=scored if reference else other,
        verdict_pairs={half: dict(c.most_common()) for half, c in pairs.items()},
        authors_rules={half: dict(c.most_common()) for half, c in rules.items()},
        disagreements=sum(strict.value != authors.value for *_, strict, authors in _halves(found)),
        disagreements_file=DISAGREEMENTS_FILE,
    ).scored_by("reference" if reference else "strict")


def disagreements(found: list[ReadPair]) -> list[dict[str, Any]]:
    """The replies the strict reader and the authors' rules read differently, with why (the strict
    reader's reason when it read none; the authors' deciding rule)."""
    return [
        {"item": o.item, "run": o.run, "half": half, "claim": claim, "reply": raw, "strict": _word(strict.value),
         "strict_rule": strict.rule, "strict_reason": strict.reason, "reference": _word(authors.value), "reference_rule": authors.rule}
        for o, half, claim, raw, strict, authors in _halves(found) if strict.value != authors.value
    ]


def _spread(values: list[float]) -> Spread:
    average, sd = mean_sd(values)
    return Spread(mean=average, sd=sd, runs=values)


def summarize(found: list[ReadPair], no_verdict: dict[str, int], reference: bool, setting: str | None, accr: Accr) -> SdakMetrics:
    """Run-level metrics, then mean ± sd over runs; error types are counted over all runs. With them: why
    replies had no verdict, both readers compared (``reference``: the authors' rules scored) and the AccR sheet."""
    by_run: dict[int, list[ReadPair]] = defaultdict(list)
    for o in found:
        by_run[o.run].append(o)
    runs = [by_run[r] for r in sorted(by_run)]
    accuracy = [per_type_accuracy((o.type, o.verdicts) for o in run) for run in runs]
    grouped = [by_type((o.type, o.verdicts) for o in run) for run in runs]
    per_type: dict[str, TypeResult] = {}
    for kind in (k for k in TYPES if runs and k in grouped[0]):
        acc, sd = mean_sd([run_acc[kind] for run_acc in accuracy])
        per_type[kind] = TypeResult(
            label=TYPES[kind].label,
            items=len(grouped[0][kind]),
            fact_acc=acc,
            fact_acc_sd=sd,
            ifr=mean_sd([ifr(groups[kind]) or 0.0 for groups in grouped])[0],
        )
    counts = error_counts(o.verdicts for o in found)
    replies = [v for o in found for v in (o.verdicts.factual, o.verdicts.counterfactual)]
    return SdakMetrics(
        items=len(runs[0]) if runs else 0,
        runs=len(runs),
        ifr=_spread([ifr([o.verdicts for o in run]) or 0.0 for run in runs]),
        fact_acc=_spread([fact_acc([o.verdicts for o in run]) or 0.0 for run in runs]),
        random_fact_acc=RANDOM_FACT_ACC,
        per_type=per_type,
        errors=Errors(missed=sum(counts.values()), counts=counts, shares=error_shares(counts)),
        no_verdict_rate=sum(v is None for v in replies) / len(replies) if replies else None,
        no_verdict_reasons=no_verdict,
        readers=compare_readers(found, reference),
        setting=setting,
        accr=accr,
    )


def accr_sample(found: list[ReadPair], seed: int, size: int = ACCR_SAMPLE) -> tuple[str, int]:
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
    found = read_pairs(probes, responses, reference=options.reference_compatible)
    sheet, sampled = accr_sample(found, options.seed)
    reading, no_verdict = reading_tally(found)
    metrics = summarize(found, no_verdict, options.reference_compatible, options.setting, Accr(file=ACCR_FILE, items=sampled))
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
    per_type = metrics.per_type.values()
    chart = radar(
        [row.label for row in per_type],
        [("FactAcc", [row.fact_acc or 0.0 for row in per_type]), ("IFR", [row.ifr or 0.0 for row in per_type])],
        "SDAK: FactAcc and IFR per atomic type (mean over runs)",
    )
    notes = []
    if options.reference_compatible:
        notes.append("reference-compatible: verdicts read by the SDAK authors' prefix rules on the raw first-sample reply; "
                     "no verdict is filled at random (a reply without one is what IFR measures)")
        if any(p.language != "zh" for p in probes):
            notes.append("the authors' rules read Chinese verdicts only: English replies get no verdict in this mode")
    if metrics.runs < 2:
        notes.append("one run only: no standard deviation (the paper reports mean ± sd over 3 runs)")
    extra: dict[str, list[dict[str, Any]] | str] = {ACCR_FILE: sheet, RADAR_FILE: chart, DISAGREEMENTS_FILE: disagreements(found)}
    return ScoreResult(items, metrics.model_dump(), notes, extra_files=extra, reading=reading)

