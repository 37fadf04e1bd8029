"""Scoring MultifacetEval: parse -> (vote) -> fill or not -> per-question correctness ->
per knowledge point and facet -> facet accuracies, macro average, mastery curve.

Formulas follow REFERENCE_METHODS §4.2: MCQ, TFQ and MAQ item scores are the mean correctness
of their questions (MAQ by exact set match); the rectification item score is
(c_T + (No-1)·c_F)/No per pair of revision questions, which makes the facet accuracy the paper's
bias-corrected 1/No·acc_T + (No-1)/No·acc_F. p(M) counts knowledge points whose every question
of each included facet is right, adding facets in the order of the paper's Fig. 6, with and
without the negated questions.

Modes: *strict* scores an unparsed answer as wrong; *reference-compatible* fills it the way the
published scripts do (random letter / verdict, seeded per item so that the result does not
depend on the order answers arrived in). Multiple-answer questions are never filled (nor are
they in the reference). The per-facet parse-failure rate is reported in both modes.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from medprobe.contract import ScoreOptions, ScoreResult
from medprobe.methods.multifacet.questions import FACET_OF, MASTERY_ORDER, TASKS
from medprobe.methods.multifacet.reference_letter_set import parse_letter_set, parse_letter_set_cot
from medprobe.methods.multifacet.summary import FacetResult, Mastery, MultifacetMetrics
from medprobe.metrics.multifacet import (
    letter_set_correct,
    mastery_curve,
    random_baselines,
    revision_correct,
    revision_item_score,
)
from medprobe.metrics.stats import mean, mean_se
from medprobe.parsing.answers import (
    conclusion,
    jsonable,
    judged_id,
    question_of,
    read_reference,
    read_strict,
    with_judge,
)
from medprobe.parsing.base import ParseResult
from medprobe.parsing.fill import (
    complete_revision_strict,
    fill_option,
    fill_true_false,
    pad_revision,
)
from medprobe.parsing.reading import NO_REPLY, RANDOM_FILL, Reading, ReadingTally, unread_family
from medprobe.parsing.reference_option_letter import parse_option_letter, parse_option_letter_cot
from medprobe.parsing.reference_true_false import parse_true_false, parse_true_false_cot
from medprobe.parsing.reference_verdict_letter import parse_revision, parse_revision_cot
from medprobe.parsing.votes import vote_letter_set, vote_option, vote_revision, vote_true_false
from medprobe.records import ItemScore, Probe, Response
from medprobe.seeding import item_rng


@dataclass(frozen=True)
class Judged:
    """One question in one repeat: the final prediction, whether it was right, and how its replies
    were read (one rule family per reply or chain)."""

    correct: bool
    prediction: Any
    replies: int
    unparsed: int
    rules: tuple[str, ...] = ()


def _reference_extractor(probe: Probe, cot: bool) -> Callable[[str], ParseResult[Any]]:
    """The published script's extractor for this question's facet (§3.2 answer-only, §3.3 chains)."""
    fmt, lang = probe.answer_format, probe.language
    if probe.facet == "MCQ":
        return partial(parse_option_letter_cot if cot else parse_option_letter, option_texts=fmt.option_texts, language=lang)
    if probe.facet == "TFQ":
        return partial(parse_true_false_cot if cot else parse_true_false, language=lang)
    if probe.facet == "MAQ":
        return partial(parse_letter_set_cot if cot else parse_letter_set, option_texts=fmt.option_texts, language=lang)
    if cot:
        return partial(parse_revision_cot, option_texts=fmt.option_texts, given=fmt.given or "", language=lang)
    return partial(parse_revision, option_texts=fmt.option_texts, language=lang)


def read(probe: Probe, text: str | None, *, cot: bool, reference: bool, judgement: Response | None = None) -> Reading:
    """One reply (or chain) as the scoring mode reads it: the reference extractor, or the strict chat
    rules (a chain is read from its conclusion, where it states the answer) completed by the
    extraction judge's ``judgement`` when the rules read nothing."""
    if reference:
        return read_reference(text, _reference_extractor(probe, cot))
    reading = read_strict(conclusion(text) if cot and text is not None else text, probe.answer_format, question_of(probe.prompt))
    return with_judge(reading, probe.answer_format, judgement)


def judge(
    probe: Probe, texts: list[str | None], cot: bool, reference: bool, seed: int, repeat: int,
    judgements: list[Response | None] | None = None,
) -> Judged:
    """Read the reply (or vote over the chains) of one question and score it; ``judgements`` are the
    extraction judge's answers for the same replies, where it was asked."""
    fmt, gold = probe.answer_format, probe.gold

    def rng(kind: str) -> random.Random:
        """The question's own RNG for a vote or a fill, made only where one is needed (most
        questions need neither, and seeding a Random costs more than reading the reply)."""
        return item_rng(seed, kind, probe.id, str(repeat))

    letters = fmt.options
    given = fmt.given or ""
    judgements = judgements or [None] * len(texts)
    readings = [read(probe, t, cot=cot, reference=reference, judgement=j) for t, j in zip(texts, judgements, strict=True)]
    # the reference fills what it cannot read; a question with no reply at all stays unanswered
    reference = reference and any(t is not None for t in texts)
    preds = [r.value for r in readings]
    # usable = a complete answer; a reference revision without a verdict (or "incorrect" without a
    # letter) is not one, though reference-compatible padding still starts from such partial answers
    usable = [p is not None and (probe.facet != "RQ" or complete_revision_strict(p, given) is not None) for p in preds]
    parsed = [p for p, ok in zip(preds, usable, strict=True) if ok]
    unparsed = len(texts) - len(parsed)

    if probe.facet == "MCQ":
        pred = vote_option(parsed, letters, rng("vote")) if cot else (parsed[0] if parsed else None)
        if pred is None and reference:
            pred = fill_option(rng("fill"), letters)
        correct = pred == gold
    elif probe.facet == "TFQ":
        if cot:
            pred = vote_true_false(preds if reference else parsed, rng("vote")) if (reference or parsed) else None
        else:
            pred = parsed[0] if parsed else None
        if pred is None and reference:
            pred = fill_true_false(rng("fill"))
        correct = pred is not None and pred == gold
    elif probe.facet == "MAQ":
        pred = vote_letter_set(parsed, rng("vote")) if cot else (parsed[0] if parsed else None)
        correct = letter_set_correct(pred, set(gold))
    else:
        if cot:
            raw = vote_revision(preds if reference else parsed, given, rng("vote")) if (reference or parsed) else None
        else:
            raw = preds[0] if reference else (parsed[0] if parsed else None)
        pred = pad_revision(raw, given, letters, rng("fill")) if reference else complete_revision_strict(raw, given)
        correct = pred is not None and revision_correct(pred, bool(gold[0]), gold[1])
    filled = reference and not cot and probe.facet != "MAQ"  # what the reference fills at random
    rules = tuple(r.rule if ok or r.rule == NO_REPLY else (RANDOM_FILL if filled else unread_family(r))
                  for r, ok in zip(readings, usable, strict=True))
    return Judged(bool(correct), jsonable(pred), len(texts), unparsed, rules)


def _facet_item(task: str, questions: list[tuple[Probe, Judged]], n_options: int) -> float:
    if task != "RQ":
        return sum(j.correct for _, j in questions) / len(questions)
    pairs: dict[bool, dict[str, bool]] = defaultdict(dict)
    for probe, j in questions:
        pairs[bool(probe.meta.get("negated"))][probe.variant.removeprefix("neg_")] = j.correct
    scores = [revision_item_score(p.get("given_right", False), p.get("given_wrong", False), n_options) for p in pairs.values()]
    return sum(scores) / len(scores)


def score(probes: list[Probe], responses: list[Response], options: ScoreOptions) -> ScoreResult:
    cot = options.setting == "cot-sc"
    samples, repeats = max(1, options.samples), max(1, options.repeats)
    by_request = {(r.probe_id, r.sample): r for r in responses}
    n_options = max((len(p.answer_format.options) for p in probes if p.answer_format.options), default=5)
    baselines = random_baselines(n_options)
    by_kp: dict[str, dict[str, list[Probe]]] = defaultdict(lambda: defaultdict(list))
    for probe in probes:
        by_kp[probe.knowledge_point][probe.facet].append(probe)

    items: list[ItemScore] = []
    facet_acc: dict[str, list[float]] = defaultdict(list)
    average: list[float] = []
    curves: dict[str, list[list[float]]] = {"without_negation": [], "with_negation": []}
    replies: dict[str, int] = defaultdict(int)
    unparsed: dict[str, int] = defaultdict(int)
    questions: dict[str, int] = defaultdict(int)
    tally = ReadingTally()
    facets_present = [FACET_OF[t] for t in TASKS if any(t in f for f in by_kp.values())]
    order = [f for f in MASTERY_ORDER if f in facets_present]

    for repeat in range(repeats):
        per_facet: dict[str, list[float]] = defaultdict(list)
        mastered: dict[str, dict[str, dict[str, bool]]] = {"without_negation": defaultdict(dict), "with_negation": defaultdict(dict)}
        for kp, tasks in by_kp.items():
            for task, task_probes in tasks.items():
                judged = []
                for probe in task_probes:
                    texts, judgements = [], []
                    for k in range(repeat * samples, (repeat + 1) * samples):
                        response = by_request.get((probe.id, k))
                        texts.append(response.text if response is not None and response.error is None else None)
                        judgements.append(by_request.get((judged_id(probe.id), k)))
                    j = judge(probe, texts, cot, options.reference_compatible, options.seed, repeat, judgements)
                    judged.append((probe, j))
                    replies[task] += j.replies
                    unparsed[task] += j.unparsed
                    for rule in j.rules:
                        tally.add(task, rule)
                    questions[task] += 1 if repeat == 0 else 0
                value = _facet_item(task, judged, n_options)
                facet = FACET_OF[task]
                per_facet[facet].append(value)
                mastered["with_negation"][facet][kp] = all(j.correct for _, j in judged)
                mastered["without_negation"][facet][kp] = all(j.correct for p, j in judged if not p.meta.get("negated"))
                items.append(
                    ItemScore(
                        knowledge_point=kp,
                        facet=facet,
                        score=value,
                        correct=[j.correct for _, j in judged],
                        parsed=[j.prediction for _, j in judged],
                        unparsed=sum(j.unparsed for _, j in judged),
                        meta={"repeat": repeat, "probes": [p.id for p, _ in judged]},
                    )
                )
        accs = {f: mean(v) for f, v in per_facet.items()}
        for facet, acc in accs.items():
            facet_acc[facet].append(acc or 0.0)
        average.append(sum(a or 0.0 for a in accs.values()) / len(accs) if accs else 0.0)
        for name in curves:
            curves[name].append(mastery_curve(mastered[name], order))

    metrics = _metrics(facet_acc, average, curves, order, baselines, n_options, by_kp, replies, unparsed, questions, repeats)
    notes = []
    missing = [FACET_OF[t] for t in TASKS if FACET_OF[t] not in facets_present]
    if missing:
        notes.append("facets without questions: " + ", ".join(missing) + "; the average and p(M) cover the others")
    return ScoreResult(items, metrics.model_dump(), notes, reading=tally.as_dict())


def _metrics(
    facet_acc: dict[str, list[float]],
    average: list[float],
    curves: dict[str, list[list[float]]],
    order: list[str],
    baselines: dict[str, float],
    n_options: int,
    by_kp: dict[str, Any],
    replies: dict[str, int],
    unparsed: dict[str, int],
    questions: dict[str, int],
    repeats: int,
) -> MultifacetMetrics:
    facets: dict[str, FacetResult] = {}
    for task in TASKS:
        facet = FACET_OF[task]
        if facet not in facet_acc:
            continue
        acc, se = mean_se(facet_acc[facet])
        facets[facet] = FacetResult(
            task=task,
            accuracy=acc,
            se=se,
            questions=questions[task],
            replies=replies[task],
            parse_failure_rate=unparsed[task] / replies[task] if replies[task] else None,
            random_baseline=baselines[facet],
        )
    avg, avg_se = mean_se(average)
    total_replies = sum(replies.values())
    return MultifacetMetrics(
        n_options=n_options,
        knowledge_points=len(by_kp),
        repeats=repeats,
        facets=facets,
        average=avg,
        average_se=avg_se,
        random_average=sum(baselines[f] for f in facets) / len(facets) if facets else None,
        mastery=Mastery(
            order=order,
            without_negation=[mean_se([c[i] for c in curves["without_negation"]])[0] for i in range(len(order))],
            with_negation=[mean_se([c[i] for c in curves["with_negation"]])[0] for i in range(len(order))],
        ),
        parse_failure_rate=sum(unparsed.values()) / total_replies if total_replies else None,
    )
