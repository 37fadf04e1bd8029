"""Run for me (admins only): the server asks a registered OpenAI-compatible endpoint with the engine.

Only an admin can register an endpoint or start a run, so the server never sends a request to an
address a participant chose. The run is the engine's (response cache, resume, retries) on the
benchmark's stored probes, in a folder per submission: a worker killed mid-run resumes it where it stopped. The answers then go
through the same scoring as an upload.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from medprobe.contract import ProbeSet, get_method
from medprobe.engine.extraction import judge_model
from medprobe.engine.pipeline import Outcome, RunPlan, run_built
from medprobe.engine.rundir import RunDir
from medprobe.errors import MedprobeError
from medprobe.platform.answers import Answers
from medprobe.platform.benchmarks import BenchmarkSpec, build_options, probes_of, public_id
from medprobe.platform.models import DELETED, Benchmark, Endpoint, Submission
from medprobe.platform.scoring import SessionFactory, score_submission
from medprobe.records import GenerationParams

ENDPOINT_PREFIXES = ("openai:",)


def check_endpoint_model(model: str) -> str:
    """An endpoint is an ``openai:MODEL@http(s)://…`` model id (the engine's OpenAI-compatible backend)."""
    model = model.strip()
    if not model.startswith(ENDPOINT_PREFIXES) or "@" not in model:
        raise MedprobeError(f"not an endpoint: '{model[:80]}'", field="model", hint="openai:MODEL@https://host/v1")
    return model


def ask_stored(plan: RunPlan, benchmark: Benchmark) -> Outcome:
    """The engine's run on the benchmark's stored probes, not on a rebuild: the stored ones carry the
    option order the pack shows, which a rebuild would not. (The engine's public ``run`` builds its
    probes itself; ``run_built`` is its second half, which asks given ones.)"""
    probe_set = ProbeSet(probes_of(benchmark), GenerationParams.model_validate(benchmark.generation), benchmark.samples,
                         benchmark.setting, dict(benchmark.build_info))
    return run_built(plan, get_method(benchmark.method), probe_set, judge_model(plan.build.options))


def run_endpoint(sessions: SessionFactory, submission_id: int, runs: Path) -> str:
    """Answer the benchmark with the submission's endpoint, store the answers, then score them."""
    with sessions() as session:
        submission = session.get(Submission, submission_id)
        if submission is None or submission.status in ("done", "failed", DELETED):
            return submission.status if submission else "missing"
        benchmark = submission.benchmark
        endpoint = session.get(Endpoint, int(submission.source.removeprefix("endpoint:")))
        submission.status, submission.started, submission.attempts = "running", datetime.now(UTC), submission.attempts + 1
        session.commit()
        try:
            if endpoint is None:
                raise MedprobeError("the endpoint was removed")
            spec = BenchmarkSpec(slug=benchmark.slug, title=benchmark.title, method=benchmark.method, data=benchmark.data,
                                 seed=benchmark.seed, size=benchmark.size, setting=benchmark.setting, options=dict(benchmark.options))
            plan = RunPlan(method=benchmark.method, build=build_options(spec), model=endpoint.model,
                           model_options={"key_env": endpoint.key_env} if endpoint.key_env else {},
                           out=runs / f"submission-{submission.id}", progress=False,
                           command=["medprobe", "serve", f"run for submission {submission.id}"])
            outcome = ask_stored(plan, benchmark)
            known = {p.id for p in probes_of(benchmark)}
            answers = Answers()
            for response in RunDir(outcome.path).responses().values():
                if response.error is not None:
                    continue
                if response.probe_id not in known:
                    raise MedprobeError("the benchmark's data changed since it was published; publish it again")
                answers.rows.append({"probe_id": public_id(benchmark.id_key, response.probe_id), "sample": response.sample, "text": response.text})
            answers.rows.sort(key=lambda row: (row["probe_id"], row["sample"]))
        except MedprobeError as exc:
            submission.status, submission.error, submission.finished = "failed", exc.render(), datetime.now(UTC)
            session.commit()
            return "failed"
        submission.answers_jsonl, submission.answers, submission.status = answers.jsonl(), len(answers.rows), "queued"
        session.commit()
    return score_submission(sessions, submission_id)
