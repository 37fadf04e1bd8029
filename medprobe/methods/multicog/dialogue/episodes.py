"""High level: full-path clinical diagnosis episodes — probes, live stepping, replay scoring.

Each (case, run) is one probe whose ``meta`` holds the whole case and the episode settings, so
that scoring can replay the dialogue from the recorded responses alone (no transcript needed,
and ``medprobe score --format medprobe`` works on it). Metrics per run (REFERENCE_METHODS §5.4):
exam recall per type and its macro over types, end-point accuracy (right diagnosis) and
full-path accuracy (right diagnosis × exam recall), each as a macro average over diseases,
the diagnosis graded by :func:`grade_diagnosis` and its kinds counted;
then mean ± SE over runs (the paper's error bar) and, beside it, the SE of a seeded bootstrap over
diseases and their cases (``se_cases``: case sampling and run noise together), which the report
shows as the error bar. Every model turn's reading family is tallied for "How answers were read".
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from medprobe.contract import Progress
from medprobe.methods.multicog.dialogue.agent import MAX_TURNS, Episode
from medprobe.methods.multicog.dialogue.cases import EXAM_TYPES, Case, load_cases
from medprobe.methods.multicog.dialogue.diagnosis import (
    KINDS,
    DiagnosisGrade,
    extract_diagnosis,
    grade_diagnosis,
)
from medprobe.methods.multicog.dialogue.fullpath import (
    CaseOutcome,
    bootstrap_over_cases,
    complete_index,
    over_runs,
    run_scores,
)
from medprobe.methods.multicog.summary import HighMetrics
from medprobe.parsing.reading import ReadingTally
from medprobe.records import (
    AnswerFormat,
    GenerationParams,
    ItemScore,
    Message,
    Probe,
    Request,
    Response,
    request_id,
)

METHOD = "multicog"
#: temperature 0.8 as the paper; each reply may use 512 tokens (the reference allows the whole 4,096-token
#: context): a turn is a short rationale and an action or a list, and the rest of the context holds the chat
DEFAULT_GENERATION = GenerationParams(temperature=0.8, max_tokens=512)
DEFAULT_RUNS = 3
DEFAULT_CONTEXT = 4096
JUDGE_PROMPT = (
    "Do these two diagnoses name the same disease?\nReference diagnosis: {gold}{also}\nProposed diagnosis: {pred}\n"
    "Answer yes or no."
)


def build_episodes(
    specs: list[str], *, limit: int | None, seed: int, runs: int, params: GenerationParams, context_tokens: int, max_turns: int
) -> tuple[list[Probe], dict[str, Any]]:
    cases = [case for spec in specs for case in load_cases(spec)]
    if limit is not None and limit < len(cases):
        cases = sorted(random.Random(seed).sample(cases, limit), key=lambda c: c.id)
    probes = []
    for case in cases:
        for run in range(runs):
            episode = Episode.start(f"{METHOD}/high/{case.id}/run{run}", case, run, seed, params, context_tokens, max_turns)
            probes.append(
                Probe(
                    id=episode.probe_id,
                    method=METHOD,
                    knowledge_point=f"case:{case.id}",
                    facet="DIAG",
                    variant=f"run{run}",
                    system=episode.messages[0].content,
                    prompt=episode.messages[1].content,
                    gold={"diagnosis": case.diagnosis, "disease": case.disease, "synonyms": case.diagnosis_synonyms},
                    answer_format=AnswerFormat(kind="free_text"),
                    meta={
                        "level": "high", "run": run, "case": case.model_dump(mode="json"), "params": params.model_dump(),
                        "context_tokens": context_tokens, "max_turns": max_turns,
                    },
                )
            )
    info = {
        "sources": specs,
        "cases": len(cases),
        "runs": runs,
        "diseases": len({c.disease for c in cases}),
        "diagnosis_pool": sorted({c.diagnosis for c in cases}),
        "exam_items": {kind: sum(len(c.exams_of(kind)) for c in cases) for kind in EXAM_TYPES},
        "generation": params.model_dump(),
        "context_tokens": context_tokens,
        "max_turns": max_turns,
    }
    return probes, info


def episode_of(probe: Probe, seed: int, diagnosis_pool: tuple[str, ...] = ()) -> Episode:
    """The probe's episode at its start; ``diagnosis_pool`` (the run's diagnoses) is what the
    baseline doctor may name, and changes nothing else."""
    meta = probe.meta
    episode = Episode.start(
        probe.id, Case.model_validate(meta["case"]), meta["run"], seed, GenerationParams.model_validate(meta["params"]),
        meta["context_tokens"], meta.get("max_turns", MAX_TURNS),
    )
    episode.diagnosis_pool = diagnosis_pool
    return episode


async def step_all(
    episodes: list[Episode], ask: Callable[[list[Request]], Awaitable[list[Response]]], *, concurrency: int, bar: Progress
) -> None:
    """Run every episode to its end, up to ``concurrency`` at a time.

    Each episode is stepped turn after turn on its own: with an in-process model (concurrency 1)
    consecutive requests then extend the same chat, so llama.cpp's prefix cache covers all but the
    newest turn; with a server, ``concurrency`` dialogues are in flight at once. ``bar`` advances per
    finished dialogue.
    """
    semaphore = asyncio.Semaphore(max(1, concurrency))

    async def one(episode: Episode) -> None:
        async with semaphore:
            while episode.status == "open":
                (response,) = await ask([episode.request()])
                episode.feed(response)
        bar.advance(sum(e.status == "failed" and e.reason.startswith("model error") for e in episodes))

    with bar:
        await asyncio.gather(*(one(e) for e in episodes))


def judge_request(probe: Probe, predicted: str) -> Request:
    gold = probe.gold
    also = f" (also called: {', '.join(gold['synonyms'])})" if gold["synonyms"] else ""
    text = JUDGE_PROMPT.format(gold=gold["diagnosis"], also=also, pred=predicted)
    return Request(
        id=request_id(judge_id(probe), 0), probe_id=judge_id(probe), messages=[Message(role="user", content=text)],
        params=GenerationParams(temperature=0.0, max_tokens=8), answer_format=AnswerFormat(kind="yes_no"),
    )


def judge_id(probe: Probe) -> str:
    return f"{probe.id}/judge"


def grade(probe: Probe, final_text: str, mode: str = "strict") -> DiagnosisGrade:
    """The episode's end point: the final text graded against the case's disease label and
    diagnosis, with the case's accepted synonyms."""
    gold = probe.gold
    return grade_diagnosis((gold["disease"], gold["diagnosis"]), final_text, mode, also=gold["synonyms"])


def wants_judge(probe: Probe, final_text: str) -> bool:
    """The judge decides only what no rule decides: a diagnosis of kind "other" in strict mode (a
    hedge, a broader name and no diagnosis are decided, and wrong)."""
    return grade(probe, final_text).kind == "other"


def replay(probe: Probe, by_id: dict[str, Response], seed: int) -> Episode:
    """Re-run the dialogue over the recorded replies; an unrecorded turn ends it as interrupted."""
    episode = episode_of(probe, seed)
    while episode.status == "open":
        episode.feed(by_id.get(episode.request().id))
    return episode


READING_TASK = "high: dialogue turns"


@dataclass
class HighScore:
    items: list[ItemScore]
    metrics: HighMetrics
    transcripts: list[dict[str, Any]]
    notes: list[str]
    reading: dict[str, dict[str, int]]


def score_high(probes: list[Probe], responses: list[Response], *, seed: int, mode: str = "strict") -> HighScore:
    """Replay and score every episode; ``mode`` is how final diagnoses are graded ("strict" or
    "reference-compatible", see :func:`grade_diagnosis`)."""
    by_id = {r.request_id: r for r in responses}
    per_run: dict[int, list[CaseOutcome]] = {}
    items, transcripts = [], []
    kinds = dict.fromkeys(KINDS, 0)
    tally = ReadingTally()
    for probe in probes:
        episode = replay(probe, by_id, seed)
        for family in episode.readings:
            tally.add(READING_TASK, family)
        diagnosis = extract_diagnosis(episode.final_text)
        verdict = grade(probe, episode.final_text, mode)
        judged = by_id.get(request_id(judge_id(probe), 0))
        if verdict.kind == "other" and judged is not None and judged.error is None and judged.text.strip().lower().startswith("yes"):
            verdict = DiagnosisGrade(True, "judge")
        case = episode.case
        recalls = {
            kind: (len(set(episode.requested.get(kind, [])) & {e.id for e in case.exams_of(kind)}) / len(case.exams_of(kind)))
            if case.exams_of(kind) else None
            for kind in EXAM_TYPES
        }
        outcome = CaseOutcome(case.id, case.disease, verdict.correct, recalls)
        per_run.setdefault(probe.meta["run"], []).append(outcome)
        kinds[verdict.kind] = kinds.get(verdict.kind, 0) + 1
        graded = {"diagnosis_kind": verdict.kind, "diagnosis_rule": verdict.detail}
        items.append(
            ItemScore(
                knowledge_point=probe.knowledge_point, facet="full-path", score=float(verdict.correct) * complete_index(recalls),
                correct=[verdict.correct], parsed=[diagnosis],
                meta={"run": probe.meta["run"], "status": episode.status, "reason": episode.reason, **graded, "recalls": recalls},
            )
        )
        transcripts.append({**episode.summary(), "diagnosis": diagnosis, **graded, "gold": probe.gold})
    runs = [run_scores(outcomes) for _, outcomes in sorted(per_run.items())]
    # the run numbers (macro_full_path, recall_LAB, ...) by their summary.json keys, which the model reads
    spreads: dict[str, Any] = over_runs(runs) if runs else {}
    for key, se in bootstrap_over_cases(per_run, seed=seed).items():
        spreads[key]["se_cases"] = se
    metrics = HighMetrics.model_validate({
        **spreads,
        "episodes": len(probes),
        "finished": sum(1 for t in transcripts if t["status"] == "done"),
        "stopped": {reason: sum(1 for t in transcripts if t["reason"] == reason) for reason in sorted({t["reason"] for t in transcripts if t["status"] != "done"})},
        "grading": mode,
        "diagnosis_kinds": {kind: n for kind, n in kinds.items() if n},
        "rolled_back": sum(t["rolled_back"] for t in transcripts),
        "summaries": sum(t["summaries"] for t in transcripts),
    })
    notes = []
    if metrics.finished < len(probes):
        notes.append(f"{len(probes) - metrics.finished} of {len(probes)} diagnostic dialogues ended without a diagnosis (scored 0); see transcripts.jsonl")
    return HighScore(items, metrics, transcripts, notes, tally.as_dict())

