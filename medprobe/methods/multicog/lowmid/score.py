"""Scoring the low and mid levels: parse (§3.1) -> fill or not -> per-item scores per repeat -> per-task
accuracy, SE, normalized accuracy, levels and the macro average over datasets (§4.1).

Modes: *strict* scores an unparsed reply as wrong. *Reference-compatible* does what the reference scripts
do with a reply they cannot read: a random letter for MCQ (but an exactly empty MCQ reply stays wrong), a
random yes/no for AE, a random verdict for MR (and, for "incorrect", a random letter other than Alice's);
SV is never filled. Each fill uses its own RNG, ``item_rng(seed, "fill", probe id)``, so a score does not
depend on the order replies arrived in. Two deliberate departures from the reference's fills: letters are
drawn from the question's own options (the reference draws A-E even for 4-option MedMCQA, §3.1 step 5 and
§4.4 item 11, which makes the filled answer impossible rather than random), and a request that got no
reply is read as the empty reply.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from medprobe.metrics.multicog import (
    LEVEL_OF,
    MID_TASKS,
    TASKS,
    Estimate,
    accuracy,
    macro,
    mid_level,
    random_baseline,
    rectification_item_score,
    task_estimate,
)
from medprobe.metrics.multifacet import normalized
from medprobe.parsing.base import Parsed, ParseResult, Unparsed
from medprobe.parsing.fill import fill_option, fill_true_false, item_rng, pad_revision
from medprobe.parsing.option_letter import EMPTY_REPLY, parse_option_letter_mce
from medprobe.parsing.true_false import parse_statement_mce
from medprobe.parsing.verdict_letter import Revision, parse_rectification_mce
from medprobe.parsing.yes_no import parse_answer_existence
from medprobe.records import ItemScore, Probe, Response


@dataclass(frozen=True)
class Judged:
    """One question in one repeat: right or not, the prediction used, and whether the reply parsed."""

    correct: bool
    prediction: Any
    parsed: bool


def _parse(probe: Probe, reply: str) -> ParseResult[Any]:
    fmt, language = probe.answer_format, probe.language
    if probe.facet == "MCQ":
        return parse_option_letter_mce(reply, fmt.option_texts, language)
    if probe.facet == "SV":
        return parse_statement_mce(reply, language)
    if probe.facet == "AE":
        return parse_answer_existence(reply, language)
    return parse_rectification_mce(reply, language)


def _fill(probe: Probe, result: Unparsed, seed: int) -> Any:
    """The reference's random answer for an unparsed reply (None where it has none)."""
    rng = item_rng(seed, "fill", probe.id)
    fmt = probe.answer_format
    if probe.facet == "MCQ":
        return None if result.reason == EMPTY_REPLY else fill_option(rng, fmt.options)
    if probe.facet == "AE":
        return fill_true_false(rng)
    if probe.facet == "MR":
        return pad_revision(None, fmt.given or "", fmt.options, rng)
    return None


def judge(probe: Probe, reply: str, *, seed: int, reference_compatible: bool) -> Judged:
    result = _parse(probe, reply)
    if isinstance(result, Parsed):
        prediction = result.value
    else:
        prediction = _fill(probe, result, seed) if reference_compatible else None
    parsed = isinstance(result, Parsed)
    if prediction is None:
        return Judged(False, None, parsed)
    if probe.facet != "MR":
        return Judged(prediction == probe.gold, prediction, parsed)
    assert isinstance(prediction, Revision)
    if probe.variant == "given_right":  # the verdict alone counts here (§4.1)
        correct = prediction.judge is True
    else:
        correct = prediction.judge is False and prediction.option == probe.gold[1]
    return Judged(correct, [prediction.judge, prediction.option], parsed)


def item_score(task: str, judged: dict[str, Judged], n_options: int) -> float:
    """MCQ: right or not; SV, AE: share of the two questions right; MR: the weighted score (§4.1). A
    question missing from the probes counts as wrong."""
    if task == "MR":
        right, wrong = judged.get("given_right"), judged.get("given_wrong")
        return rectification_item_score(bool(right and right.correct), bool(wrong and wrong.correct), n_options)
    questions = 1 if task == "MCQ" else 2
    return sum(j.correct for j in judged.values()) / questions


Key = tuple[str, str]  # (dataset, task)


def score_lowmid(
    probes: list[Probe], responses: list[Response], *, seed: int, reference_compatible: bool
) -> tuple[list[ItemScore], dict[str, Any]]:
    """Item scores (one per dataset x item x task x repeat) and the metrics described in the module docstring."""
    replies = {r.probe_id: r.text for r in responses if r.sample == 0 and r.error is None}
    groups: dict[tuple[str, str, int, str], list[Probe]] = defaultdict(list)
    n_options: dict[str, int] = {}
    for probe in probes:
        dataset = probe.meta["dataset"]
        groups[(dataset, probe.facet, probe.meta["repeat"], probe.knowledge_point)].append(probe)
        if dataset not in n_options and (probe.meta.get("n_options") or probe.answer_format.options):
            n_options[dataset] = probe.meta.get("n_options") or len(probe.answer_format.options)

    items: list[ItemScore] = []
    per_repeat: dict[Key, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    unparsed: dict[Key, int] = defaultdict(int)
    replies_seen: dict[Key, int] = defaultdict(int)
    for (dataset, task, repeat, kp), members in sorted(groups.items(), key=lambda g: (g[0][0], TASKS.index(g[0][1]), g[0][2], g[0][3])):
        judged = {p.variant: judge(p, replies.get(p.id, ""), seed=seed, reference_compatible=reference_compatible) for p in members}
        value = item_score(task, judged, n_options.get(dataset, 0))
        per_repeat[(dataset, task)][repeat].append(value)
        unparsed[(dataset, task)] += sum(not j.parsed for j in judged.values())
        replies_seen[(dataset, task)] += len(judged)
        items.append(
            ItemScore(
                knowledge_point=kp, facet=task, score=value,
                correct=[j.correct for j in judged.values()], parsed=[j.prediction for j in judged.values()],
                unparsed=sum(not j.parsed for j in judged.values()),
                meta={"dataset": dataset, "repeat": repeat, "level": LEVEL_OF[task], "probes": [p.id for p in members]},
            )
        )
    return items, _metrics(per_repeat, unparsed, replies_seen, n_options)


def _metrics(
    per_repeat: dict[Key, dict[int, list[float]]],
    unparsed: dict[Key, int],
    replies: dict[Key, int],
    n_options: dict[str, int],
) -> dict[str, Any]:
    datasets: dict[str, Any] = {}
    normalized_runs: dict[str, dict[str, list[float]]] = defaultdict(dict)
    for (dataset, task), by_repeat in per_repeat.items():
        baseline = random_baseline(task, n_options.get(dataset))
        runs = [accuracy(by_repeat[r]) for r in sorted(by_repeat)]
        estimate = task_estimate(runs, baseline)
        normalized_runs[dataset][task] = [normalized(a, baseline) for a in runs]
        block = datasets.setdefault(dataset, {"n_options": n_options.get(dataset), "tasks": {}})
        block["tasks"][task] = {
            **estimate,
            "random_baseline": baseline,
            "parse_failure_rate": unparsed[(dataset, task)] / replies[(dataset, task)],
            "questions": replies[(dataset, task)] // len(runs),
            "repeats": len(runs),
        }
    for dataset, block in datasets.items():
        block["tasks"] = {t: block["tasks"][t] for t in TASKS if t in block["tasks"]}
        if "MCQ" in block["tasks"]:
            block["low"] = {"normalized": block["tasks"]["MCQ"]["normalized"], "se": block["tasks"]["MCQ"]["normalized_se"]}
        if any(t in block["tasks"] for t in MID_TASKS):
            block["mid"] = mid_level(normalized_runs[dataset])
    levels: dict[str, Estimate] = {}
    for level in ("low", "mid"):
        found = [block[level] for block in datasets.values() if level in block]
        if found:
            levels[level] = macro(found)
    return {"datasets": datasets, "levels": levels}
