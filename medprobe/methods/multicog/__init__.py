"""MultiCogEval (paper 002): three cognitive levels of medical knowledge use.

* low — multiple-choice questions (MCQ);
* mid — statement validation (SV), multi-step rectification (MR), answer existence (AE);
* high — full-path clinical diagnosis: a multi-turn dialogue in which the model orders exams
  and names a diagnosis.

``--data`` takes one or more comma-separated sources. Low/mid: the MultiCogEval release, raw
MedQA / MedMCQA JSONL (mid-level items then need ``-X generator=MODEL``), or a knowledge base
(``builtin:en`` by default). High: medprobe case JSONL, AgentClinic JSONL, MIMIC-IV-CDM cases
imported with ``medprobe cases``, or ``builtin:cases`` (the demo cases; default). ``--level``
picks levels (default all three); ``--repeats`` is 5 demo draws for low/mid and 3 runs for the
dialogue unless given; ``-X cases=N`` and ``-X runs=N`` size the dialogue sample apart from
``--limit`` / ``--repeats``; ``-X judge=MODEL`` adds a judge for diagnoses no rule matches;
``-X context_tokens=N`` and ``-X max_turns=N`` tune the dialogue.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from medprobe.contract import (
    BuildOptions,
    PointTest,
    ProbeSet,
    ProfileRole,
    RunSession,
    ScoreOptions,
    ScoreResult,
    Way,
)
from medprobe.errors import MedprobeError
from medprobe.gating import GATES_KEY, ItemCells, record_gates
from medprobe.jsonl import first_record
from medprobe.methods.multicog import report
from medprobe.methods.multicog.dialogue import episodes as dialogue
from medprobe.methods.multicog.lowmid import build_lowmid, import_raw, review, score_lowmid
from medprobe.methods.multicog.lowmid.kb import READ_AS
from medprobe.methods.multicog.profile_part import point_test
from medprobe.methods.multicog.summary import HighMetrics, LevelEstimate, LowMidMetrics, MultiCogMetrics
from medprobe.models import make_backend
from medprobe.options import read_options, whole
from medprobe.precision import point_cell
from medprobe.records import UNBUILT_KEY, GenerationParams, Probe, Response
from medprobe.sources.kb import KnowledgeBase
from medprobe.verification import ReviewItem

LEVELS = ("low", "mid", "high")
LOWMID = GenerationParams(temperature=0.0, max_tokens=50, stop=["\n\nQuestion"])
DEFAULT_LOWMID_DATA, DEFAULT_CASES = "builtin:en", "builtin:cases"
OPTIONS = {"judge", "generator", "context_tokens", "max_turns", "cases", "runs"}
NUMBERS = {"context_tokens": whole(1), "max_turns": whole(1), "cases": whole(1), "runs": whole(1)}


def parse_levels(text: str | None) -> list[str]:
    levels = [part.strip() for part in (text or "low,mid,high").split(",") if part.strip()]
    unknown = [lv for lv in levels if lv not in LEVELS]
    if unknown or not levels:
        raise MedprobeError(f"unknown level(s): {', '.join(unknown) or '(none)'}", field="--level", hint="low, mid, high, or a comma list")
    return [lv for lv in LEVELS if lv in levels]


def is_case_source(spec: str) -> bool:
    """Cases are JSONL whose first record is a medprobe Case or an AgentClinic OSCE record."""
    if spec in ("builtin:cases", "builtin"):
        return True
    path = Path(spec)
    if not path.is_file() or path.suffix != ".jsonl":
        return False
    record = first_record(path)
    return isinstance(record, dict) and ("OSCE_Examination" in record or {"history", "exams", "diagnosis"} <= set(record))


class MultiCogMethod:
    name = "multicog"
    title = "MultiCogEval"
    default_data = f"{DEFAULT_LOWMID_DATA},{DEFAULT_CASES}"
    settings: tuple[str, ...] = ()
    raw_formats = ("multicogeval-raw",)

    #: the typed metrics of its summary.json (their JSON Schema is published in the docs)
    results_model = MultiCogMetrics

    profile = ProfileRole(
        rank=30,
        ways=(Way("mcq", "multicog", "MultiCogEval low (MCQ)", frozenset({"MCQ"})),
              Way("mid", "multicog", "MultiCogEval mid (SV, AE, MR)", frozenset({"SV", "AE", "MR"}))),
        question_types=tuple(sorted(set(READ_AS.values()))),
        level="low,mid",  # clinical cases (the high level) are not knowledge points
    )

    def profile_points(self, kb: KnowledgeBase, seed: int) -> PointTest:
        return point_test(kb, seed)

    def build(self, options: BuildOptions) -> ProbeSet:
        unknown = sorted(set(options.options) - OPTIONS)
        if unknown:
            raise MedprobeError(f"unknown option(s) {', '.join(unknown)}", field="-X", hint="multicog options: " + ", ".join(sorted(OPTIONS)))
        numbers = read_options(options.options, NUMBERS, "-X")
        levels = parse_levels(options.level)
        specs = [s.strip() for s in (options.data or "").split(",") if s.strip()]
        case_specs = [s for s in specs if is_case_source(s)]
        mcq_specs = [s for s in specs if s not in case_specs]
        notes = []
        probes: list[Probe] = []
        info: dict[str, Any] = {"levels": levels}
        lowmid = [lv for lv in levels if lv != "high"]
        if lowmid:
            if not mcq_specs:
                mcq_specs = [DEFAULT_LOWMID_DATA]
                notes.append(f"low/mid level questions from {DEFAULT_LOWMID_DATA} (no MCQ source given)")
            built, info["lowmid"] = build_lowmid(
                mcq_specs, limit=options.limit, seed=options.seed, repeats=options.repeats or 5,
                generator=options.options.get("generator"), levels=set(lowmid), points=options.point_ids(),
                include_unmeasured=options.include_unmeasured,
            )
            record_gates(info, info["lowmid"].get(GATES_KEY, {}))
            if UNBUILT_KEY in info["lowmid"]:
                info[UNBUILT_KEY] = info["lowmid"].pop(UNBUILT_KEY)  # where the engine looks for them
            probes += built
        if "high" in levels:
            if options.points is not None:
                raise MedprobeError("the high level asks clinical cases, not a profile's knowledge points", field="--level", hint="--level low,mid")
            if not case_specs:
                case_specs = [DEFAULT_CASES]
                notes.append("diagnosis cases from the built-in demo cases (no case source given)")
            updates = {k: v for k, v in (("temperature", options.temperature), ("max_tokens", options.max_tokens)) if v is not None}
            episodes, info["high"] = dialogue.build_episodes(
                case_specs, limit=numbers.get("cases", options.limit), seed=options.seed,
                runs=numbers.get("runs", options.repeats or dialogue.DEFAULT_RUNS),
                params=dialogue.DEFAULT_GENERATION.model_copy(update=updates),
                context_tokens=numbers.get("context_tokens", dialogue.DEFAULT_CONTEXT),
                max_turns=numbers.get("max_turns", dialogue.MAX_TURNS),
            )
            probes += episodes
        elif case_specs:
            raise MedprobeError("case data given but the high level is not selected", field="--data", hint="add --level high")
        info["judge"] = options.options.get("judge")
        info["notes"] = [*notes, *info.get("notes", [])]
        return ProbeSet(probes, LOWMID, 1, None, info, own_repeats=True)

    async def interact(self, probe_set: ProbeSet, session: RunSession) -> None:
        """Ask the static questions at once, then step all dialogues turn by turn together."""
        static = [p for p in probe_set.probes if p.meta.get("level") != "high"]
        talks = [p for p in probe_set.probes if p.meta.get("level") == "high"]
        if static:
            await session.ask(session.requests_for(static))
        if not talks:
            return
        if session.prompt_style != "chat":
            raise MedprobeError("the diagnosis dialogue needs a chat model", field="--prompt-style", hint="use --prompt-style chat")
        pool = tuple(probe_set.info["high"]["diagnosis_pool"])  # the baseline doctor's candidates
        episodes = [dialogue.episode_of(p, session.seed, pool) for p in talks]

        async def ask_quietly(requests: list[Any]) -> list[Response]:
            return await session.ask(requests, progress=False)

        bar = session.progress_bar(len(episodes), "dialogues", "dialogue")
        await dialogue.step_all(episodes, ask_quietly, concurrency=session.concurrency, bar=bar)
        judge = probe_set.info.get("judge")
        if judge:
            await self._judge(judge, talks, episodes, session)

    async def _judge(self, judge: str, probes: list[Probe], episodes: list[Any], session: RunSession) -> None:
        """Ask the judge only about diagnoses that no rule decides (kind "other")."""
        from medprobe.methods.multicog.dialogue.diagnosis import extract_diagnosis

        pending = [
            dialogue.judge_request(probe, extract_diagnosis(episode.final_text))
            for probe, episode in zip(probes, episodes, strict=True) if dialogue.wants_judge(probe, episode.final_text)
        ]
        if pending:
            backend = make_backend(judge, seed=session.seed)
            try:
                await session.ask(pending, backend=backend)
            finally:
                await backend.aclose()

    def score(self, probes: list[Probe], responses: list[Response], options: ScoreOptions) -> ScoreResult:
        static = [p for p in probes if p.meta.get("level") != "high"]
        talks = [p for p in probes if p.meta.get("level") == "high"]
        items, notes, extra, reading = [], [], {}, {}
        lowmid_metrics = high_metrics = None
        if static:
            lowmid = score_lowmid(static, responses, seed=options.seed, reference_compatible=options.reference_compatible)
            items += lowmid.items
            lowmid_metrics = lowmid.metrics
            reading.update(lowmid.reading)
            notes += [f"{dataset}: no mid level, since {', '.join(block.mid_missing)} has no items (it is the mean of SV, AE and MR)"
                      for dataset, block in lowmid_metrics.datasets.items() if block.mid_missing is not None]
        if talks:
            mode = "reference-compatible" if options.reference_compatible else "strict"
            high = dialogue.score_high(talks, responses, seed=options.seed, mode=mode)
            items += high.items
            high_metrics = high.metrics
            notes += high.notes
            extra["transcripts.jsonl"] = high.transcripts
            reading.update(high.reading)
        parts = {"lowmid": lowmid_metrics, "high": high_metrics}  # a part not asked stays out of summary.json
        metrics = MultiCogMetrics(**{k: v for k, v in parts.items() if v is not None}, levels=self._levels(lowmid_metrics, high_metrics))
        return ScoreResult(items, metrics.dump(), notes, extra, reading)

    @staticmethod
    def _levels(lowmid: LowMidMetrics | None, high: HighMetrics | None) -> dict[str, LevelEstimate]:
        """Low and mid (normalized, macro over datasets) and high (macro full-path accuracy; its SE
        from the bootstrap over cases, which includes the run-to-run spread)."""
        levels = dict(lowmid.levels) if lowmid is not None else {}
        if high is not None and high.macro_full_path is not None:
            full_path = high.macro_full_path
            se = full_path.se_cases if "se_cases" in full_path.model_fields_set else full_path.se
            levels["high"] = LevelEstimate(normalized=full_path.mean, se=se)
        return levels

    def import_raw(self, path: Path, fmt: str, options: BuildOptions) -> tuple[ProbeSet, list[Response]]:
        probes, responses, info = import_raw(path, options.name, options.repeats, release=options.data)
        return ProbeSet(probes, LOWMID, 1, None, info, own_repeats=True), responses

    def commands(self) -> typer.Typer:
        """The method's own commands, mounted by ``medprobe`` (imported only when one is asked for)."""
        from medprobe.methods.multicog.cli import app

        return app

    def review_items(self, probes: list[Probe]) -> list[ReviewItem]:
        """Low and mid level questions; the dialogue cases of the high level are not reviewed."""
        return review.review_items(probes)

    def item_cells(self, probes: list[Probe], build_info: dict[str, Any]) -> ItemCells:
        """(KB, aspect, question type) of each low/mid question built from a knowledge base, once however
        many repeats ask it; release, raw-MCQ and case items come from no KB."""
        datasets = build_info.get("lowmid", {}).get("datasets", {})
        kb_of = {name: d["kb"] for name, d in datasets.items() if "kb" in d}
        questions = {(p.knowledge_point, p.facet, p.variant): p for p in probes if p.meta.get("dataset") in kb_of}
        language = {kb: gate["language"] for kb, gate in build_info.get(GATES_KEY, {}).items()}
        return Counter(
            (kb, point_cell(language.get(kb, ""), p.knowledge_point.removeprefix(f"{p.meta['dataset']}:")), READ_AS[p.facet])
            for p in questions.values() for kb in [kb_of[p.meta["dataset"]]]
        )

    def headline(self, summary: dict[str, Any]) -> dict[str, str]:
        return report.headline(summary)

    def table(self, summary: dict[str, Any]) -> Table:
        return report.table(summary)

    def report(self, summary: dict[str, Any]) -> str:
        return report.report(summary)


METHOD = MultiCogMethod()
