"""The scoring job: a submission's answers -> the engine's ``rescore`` -> results in the database.

The job is idempotent, which is what makes a killed worker harmless: it reads everything from the
database, scores in a temporary folder, and stores the results and the status ``done`` in one
transaction at the end. Run again after a crash, it starts over from the same answers.
"""

from __future__ import annotations

import json
import re
import tempfile
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import delete
from sqlalchemy.orm import Session

from medprobe.contract import BuildOptions
from medprobe.engine.pipeline import package_versions, rescore
from medprobe.engine.rundir import probes_digest
from medprobe.errors import MedprobeError
from medprobe.jsonl import read_records, write_json, write_records
from medprobe.platform.benchmarks import probes_of, public_id
from medprobe.platform.charts import breakdown_charts
from medprobe.platform.leaderboard import headline_of
from medprobe.platform.models import DELETED, Benchmark, ResultFile, Submission
from medprobe.records import GenerationParams, ItemScore, Response, RunConfig

#: files of a run directory that may be shown: aggregates and charts. Everything else (per-item
#: scores, the SDAK review sheet, transcripts) pairs one's own answers with right/wrong and so
#: reveals the gold; it stays on the server.
PUBLIC_FILES = re.compile(r"^(summary\.json|report\.md|[a-z0-9_]+\.svg)$")
SessionFactory = Callable[[], Session]
#: the chat template a run-for-me report names: the engine sends the endpoint chat messages and its
#: server puts them in the model's template, which medprobe cannot see
ENDPOINT_TEMPLATE = "the endpoint's own (its server applies it to the chat messages medprobe sends)"


def run_config(benchmark: Benchmark, submission: Submission, probes_sha256: str, probes: int) -> RunConfig:
    """The run configuration the engine scores under: the benchmark's build, the submission's model name
    (and for a run for me, whose template the chat messages went out in)."""
    identity: dict[str, Any] = {"platform_submission": submission.id}
    if submission.source.startswith("endpoint:"):
        identity["chat_template"] = ENDPOINT_TEMPLATE
    return RunConfig(
        method=benchmark.method, command=["medprobe", "serve", f"submission {submission.id}"],
        created=datetime.now(UTC).isoformat(timespec="seconds"), model=submission.model_name,
        model_identity=identity, data=benchmark.data, limit=benchmark.size,
        seed=benchmark.seed, setting=benchmark.setting, samples=benchmark.samples,
        prompt_style="completion" if submission.prompt_style == "completion" else "chat",
        generation=GenerationParams.model_validate(benchmark.generation), probes=probes,
        probes_sha256=probes_sha256, build_info=benchmark.build_info, versions=package_versions(),
    )


def _responses(benchmark: Benchmark, submission: Submission, internal: dict[str, str]) -> list[Response]:
    rows = [Response.model_validate_json(line) for line in submission.answers_jsonl.splitlines() if line]
    return [row.model_copy(update={"probe_id": internal[row.probe_id]}) for row in rows]


def _scrub(text: str, public: dict[str, str]) -> str:
    """Engine probe ids in a note (e.g. 'no answer for …') are replaced by the pack's public ids."""
    if not any(pid in text for pid in public):
        return text
    pattern = re.compile("|".join(re.escape(pid) for pid in sorted(public, key=len, reverse=True)))
    return pattern.sub(lambda m: public[m.group(0)], text)


def public_config(benchmark: Benchmark, submission: Submission, summary: dict[str, Any]) -> dict[str, Any]:
    """config.json of the downloadable run directory: what was scored and how, nothing server-side."""
    return {
        "benchmark": benchmark.slug, "method": benchmark.method, "data": benchmark.data, "seed": benchmark.seed,
        "size": benchmark.size, "setting": benchmark.setting, "samples": benchmark.samples, "generation": benchmark.generation,
        "probes": benchmark.probes, "model": submission.model_name, "organisation": submission.organisation,
        "prompt_style": submission.prompt_style, "mode": summary.get("mode"), "versions": package_versions(),
    }


def score_submission(sessions: SessionFactory, submission_id: int) -> str:
    """Score one submission and store its results; returns the final status ('done' or 'failed')."""
    with sessions() as session:
        submission = session.get(Submission, submission_id)
        if submission is None:
            return "missing"
        if submission.status in ("done", "failed", DELETED):
            return submission.status
        submission.status, submission.started, submission.attempts = "scoring", datetime.now(UTC), submission.attempts + 1
        session.commit()
        benchmark = submission.benchmark
        try:
            files, summary, items = _score(benchmark, submission)
            headline = headline_of(benchmark.method, summary, items)
        except MedprobeError as exc:
            return _fail(session, submission, exc.render())
        except Exception as exc:  # noqa: BLE001 - any crash of the scorer is the submission's failure, shown to its owner
            traceback.print_exc()
            return _fail(session, submission, f"internal error while scoring: {type(exc).__name__}: {exc}")
        session.execute(delete(ResultFile).where(ResultFile.submission_id == submission.id))
        for name, (content, private) in files.items():
            session.add(ResultFile(submission_id=submission.id, name=name, content=content, private=private))
        submission.summary, submission.headline = summary, headline
        submission.status, submission.error, submission.finished = "done", None, datetime.now(UTC)
        session.commit()
        return "done"


def _fail(session: Session, submission: Submission, message: str) -> str:
    submission.status, submission.error, submission.finished = "failed", message, datetime.now(UTC)
    session.commit()
    return "failed"


def _score(benchmark: Benchmark, submission: Submission) -> tuple[dict[str, tuple[str, bool]], dict[str, Any], list[ItemScore]]:
    """Run the engine's rescore on the answers in a scratch folder; the files of its run directory
    (public or private), the summary with public ids only, and the item scores."""
    probes = probes_of(benchmark)
    public = {p.id: public_id(benchmark.id_key, p.id) for p in probes}
    internal = {v: k for k, v in public.items()}
    with tempfile.TemporaryDirectory(prefix="medprobe-score-") as tmp:
        source = Path(tmp) / "answers"
        source.mkdir()
        write_records(source / "probes.jsonl", probes)
        write_records(source / "responses.jsonl", _responses(benchmark, submission, internal))
        config = run_config(benchmark, submission, probes_digest(probes), len(probes))
        write_json(source / "config.json", config.model_dump(mode="json"))
        outcome = rescore(benchmark.method, source, "medprobe", BuildOptions(), out=Path(tmp) / "out",
                          reference_compatible=False, command=config.command)
        files: dict[str, tuple[str, bool]] = {}
        for path in sorted(outcome.path.iterdir()):
            if path.is_file() and path.name not in ("probes.jsonl", "responses.jsonl", "config.json"):
                text = path.read_text(encoding="utf-8")
                private = not PUBLIC_FILES.match(path.name)
                files[path.name] = (text if private else _scrub(text, public), private)
        items = read_records(outcome.path / "scores.jsonl", ItemScore)
    summary = json.loads(files["summary.json"][0])
    files.update({name: (svg, False) for name, svg in breakdown_charts(benchmark.method, summary).items()})
    return files, summary, items
