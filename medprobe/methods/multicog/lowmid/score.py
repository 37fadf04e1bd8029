"""Scoring the low and mid levels: parse (§3.1) -> fill or not -> per-item scores per repeat -> per-task
accuracy, SE, normalized accuracy, levels and the macro average over datasets (§4.1).

Modes: *strict* reads replies with the chat-aware rules of ``medprobe.parsing.answers`` and scores an
unreadable reply as wrong. *Reference-compatible* does what the reference scripts
do with a reply they cannot read: a random letter for MCQ (but an exactly empty MCQ reply stays wrong), a
random yes/no for AE, a random verdict for MR (and, for "incorrect", a random letter other than Alice's);
SV is never filled. Each fill uses its own RNG, ``item_rng(seed, "fill", probe id)``, so a score does not
depend on the order replies arrived in. Two deliberate departures from the reference's fills: letters are
drawn from the question's own options (the reference draws A-E even for 4-option MedMCQA, §3.1 step 5 and
§4.4 item 11, which makes the filled answer impossible rather than random), and a request that got no
reply (or an item missing from imported results) is unanswered, never filled. In reference-compatible mode the reference extractors run unchanged.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

from medprobe.methods.multicog.lowmid.metrics import (
    LEVEL_OF,
    MID_TASKS,
    TASKS,
    accuracy,
    item_se,
    macro,
    mid_item_se,
    mid_level,
    random_baseline,
    rectification_item_score,
    task_estimate,
)
from medprobe.methods.multicog.lowmid.reference_yes_no import parse_answer_existence
from medprobe.methods.multicog.summary import DatasetResult, LevelEstimate, LowMidMetrics, TaskResult
from medprobe.metrics.multifacet import normalized
from medprobe.parsing.answers import judged_id, question_of, read_reference, read_strict, with_judge
from medprobe.parsing.base import EMPTY_REPLY, ParseResult, Revision
from medprobe.parsing.fill import fill_option, fill_true_false, pad_revision
from medprobe.parsing.reading import RANDOM_FILL, UNPARSED, ReadingTally, not_read, unread_family
from medprobe.parsing.reference_option_letter import parse_option_letter_mce
from medprobe.parsing.reference_true_false import parse_statement_mce
from medprobe.parsing.reference_verdict_letter import parse_rectification_mce
from medprobe.records import ItemScore, Probe, Response
from medprobe.seeding import item_rng


@dataclass(frozen=True)
class Judged:
    """One question in one repeat: right or not, the prediction used, and how the reply was read."""

    correct: bool
    prediction: Any
    rule: str

    @property
    def parsed(self) -> bool:
        return not not_read(self.rule)


def _reference_extractor(probe: Probe) -> Callable[[str], ParseResult[Any]]:
    fmt, language = probe.answer_format, probe.language
    if probe.facet == "MCQ":
        return partial(parse_option_letter_mce, option_texts=fmt.option_texts, language=language)
    if probe.facet == "SV":
        return partial(parse_statement_mce, language=language)
    if probe.facet == "AE":
        return partial(parse_answer_existence, language=language)
    return partial(parse_rectification_mce, language=language)


def _fill(probe: Probe, reason: str, seed: int) -> Any:
    """The reference's random answer for an unparsed reply (None where it has none)."""
    rng = item_rng(seed, "fill", probe.id)
    fmt = probe.answer_format
    if probe.facet == "MCQ":
        return None if reason == EMPTY_REPLY else fill_option(rng, fmt.options)
    if probe.facet == "AE":
        return fill_true_false(rng)
    if probe.facet == "MR":
        return pad_revision(None, fmt.given or "", fmt.options, rng)
    return None


def judge(probe: Probe, reply: str | None, *, seed: int, reference_compatible: bool, judgement: Response | None = None) -> Judged:
    """Read one reply in the scoring mode and score it (strict reading is completed by the extraction
    judge's ``judgement`` where it was asked). A failed request (or an item missing from imported
    results) is unanswered in both modes: there is nothing to fill."""
    if reference_compatible:
        reading = read_reference(reply, _reference_extractor(probe))
    else:
        reading = with_judge(read_strict(reply, probe.answer_format, question_of(probe.prompt)), probe.answer_format, judgement)
    prediction, rule = reading.value, reading.rule if reading.read else unread_family(reading)
    if prediction is None and reference_compatible and reply is not None:
        prediction = _fill(probe, reading.reason, seed)
        rule = RANDOM_FILL if prediction is not None else UNPARSED
    if prediction is None:
        return Judged(False, None, rule)
    if probe.facet != "MR":
        return Judged(prediction == probe.gold, prediction, rule)
    assert isinstance(prediction, Revision)
    if probe.variant == "given_right":  # the verdict alone counts here (§4.1)
        correct = prediction.judge is True
    else:
        correct = prediction.judge is False and prediction.option == probe.gold[1]
    return Judged(correct, [prediction.judge, prediction.option], rule)


def item_score(task: str, judged: dict[str, Judged], n_options: int) -> float:
    """MCQ: right or not; SV, AE: share of the two questions right; MR: the weighted score (§4.1). A
    question missing from the probes counts as wrong."""
    if task == "MR":
        right, wrong = judged.get("given_right"), judged.get("given_wrong")
        return rectification_item_score(bool(right and right.correct), bool(wrong and wrong.correct), n_options)
    questions = 1 if task == "MCQ" else 2
    return sum(j.correct for j in judged.values()) / questions


Key = tuple[str, str]  # (dataset, task)


class LowMidScores(NamedTuple):
    items: list[ItemScore]
    metrics: LowMidMetrics
    #: how replies were read, per "dataset/task" (``medprobe.parsing.reading``)
    reading: dict[str, dict[str, int]]


def score_lowmid(probes: list[Probe], responses: list[Response], *, seed: int, reference_compatible: bool) -> LowMidScores:
    """Item scores (one per dataset x item x task x repeat), the metrics described in the module
    docstring, and how the replies were read."""
    replies = {r.probe_id: r.text for r in responses if r.sample == 0 and r.error is None}
    judgements = {r.probe_id: r for r in responses if r.sample == 0}
    tally = ReadingTally()
    groups: dict[tuple[str, str, int, str], list[Probe]] = defaultdict(list)
    n_options: dict[str, int] = {}
    for probe in probes:
        dataset = probe.meta["dataset"]
        groups[(dataset, probe.facet, probe.meta["repeat"], probe.knowledge_point)].append(probe)
        if dataset not in n_options and (probe.meta.get("n_options") or probe.answer_format.options):
            n_options[dataset] = probe.meta.get("n_options") or len(probe.answer_format.options)

    items: list[ItemScore] = []
    per_repeat: dict[Key, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    per_item: dict[Key, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    unparsed: dict[Key, int] = defaultdict(int)
    replies_seen: dict[Key, int] = defaultdict(int)
    for (dataset, task, repeat, kp), members in sorted(groups.items(), key=lambda g: (g[0][0], TASKS.index(g[0][1]), g[0][2], g[0][3])):
        judged = {
            p.variant: judge(p, replies.get(p.id), seed=seed, reference_compatible=reference_compatible, judgement=judgements.get(judged_id(p.id)))
            for p in members
        }
        for j in judged.values():
            tally.add(f"{dataset}/{task}", j.rule)
        value = item_score(task, judged, n_options.get(dataset, 0))
        per_repeat[(dataset, task)][repeat].append(value)
        per_item[(dataset, task)][kp].append(value)
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
    return LowMidScores(items, _metrics(per_repeat, per_item, unparsed, replies_seen, n_options), tally.as_dict())


def _metrics(
    per_repeat: dict[Key, dict[int, list[float]]],
    per_item: dict[Key, dict[str, list[float]]],
    unparsed: dict[Key, int],
    replies: dict[Key, int],
    n_options: dict[str, int],
) -> LowMidMetrics:
    rows: dict[str, dict[str, TaskResult]] = defaultdict(dict)
    normalized_runs: dict[str, dict[str, list[float]]] = defaultdict(dict)
    for (dataset, task), by_repeat in per_repeat.items():
        baseline = random_baseline(task, n_options.get(dataset))
        runs = [accuracy(by_repeat[r]) for r in sorted(by_repeat)]
        estimate = task_estimate(runs, baseline)
        normalized_runs[dataset][task] = [normalized(a, baseline) for a in runs]
        se_items = item_se(per_item[(dataset, task)])
        rows[dataset][task] = TaskResult.model_validate({
            **estimate,
            "se_items": se_items,
            "normalized_se_items": None if se_items is None else se_items / (1 - baseline),
            "random_baseline": baseline,
            "parse_failure_rate": unparsed[(dataset, task)] / replies[(dataset, task)],
            "questions": replies[(dataset, task)] // len(runs),
            "repeats": len(runs),
        })
    datasets = {dataset: _dataset(dataset, tasks, n_options, normalized_runs[dataset], per_item) for dataset, tasks in rows.items()}
    levels: dict[str, LevelEstimate] = {}
    for level in ("low", "mid"):
        found = [estimate for block in datasets.values() if (estimate := getattr(block, level)) is not None]
        if level == "mid" and any(block.mid_missing is not None for block in datasets.values()):
            continue  # a dataset without its mid level must not vanish from the macro average
        if found:
            levels[level] = LevelEstimate.model_validate(macro([e.model_dump(exclude_unset=True) for e in found]))
    return LowMidMetrics(datasets=datasets, levels=levels)


def _dataset(
    dataset: str,
    found: dict[str, TaskResult],
    n_options: dict[str, int],
    normalized_runs: dict[str, list[float]],
    per_item: dict[Key, dict[str, list[float]]],
) -> DatasetResult:
    """One dataset's tasks in task order, its low level (normalized MCQ) and its mid level (the mean of
    SV, AE and MR, only when it has all three: a mean of the others would not be the paper's mid level)."""
    tasks = {t: found[t] for t in TASKS if t in found}
    levels: dict[str, Any] = {}
    if "MCQ" in tasks:
        mcq = tasks["MCQ"]
        levels["low"] = LevelEstimate(normalized=mcq.normalized, se=mcq.normalized_se_items, se_repeats=mcq.normalized_se)
    absent = [t for t in MID_TASKS if t not in tasks]
    if absent and len(absent) < len(MID_TASKS):
        levels["mid_missing"] = absent
    elif not absent:
        mid = mid_level(normalized_runs)
        baselines = {t: row.random_baseline for t, row in tasks.items()}
        items = {t: per_item[(dataset, t)] for t in MID_TASKS if (dataset, t) in per_item}
        levels["mid"] = LevelEstimate(normalized=mid["normalized"], se=mid_item_se(items, baselines), se_repeats=mid["se"])
    return DatasetResult(n_options=n_options.get(dataset), tasks=tasks, **levels)
