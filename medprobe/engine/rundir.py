"""The run directory: config.json, probes.jsonl, responses.jsonl, scores.jsonl, summary.json,
report.md under ``runs/<UTC time>-<method>-<model>/``.

A run directory is complete or recognisably unfinished at every instant, whenever the process
dies: it appears under its name with config.json and probes.jsonl or not at all (it is set up in
a hidden ``.<fingerprint>.<id>.partial`` folder and renamed into place), every other file is
replaced whole (:func:`medprobe.jsonl.replacing`), and summary.json, written last, marks it
finished. An interrupted run is found again by its fingerprint (model identity, probe set,
decoding, samples, prompt style) and continued in place: responses.jsonl is append-only and its
torn last line, if the process was killed mid-write, is dropped; :meth:`RunDir.repair` restores
what an older version could leave (probes.jsonl missing, temporary files).
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from medprobe.errors import MedprobeError
from medprobe.jsonl import (
    JsonlAppender,
    dumps,
    read_json,
    read_records,
    replacing,
    space_for,
    validation_error,
    write_json,
    write_records,
)
from medprobe.records import ItemScore, Probe, Response, RunConfig

CONFIG, PROBES, RESPONSES, SCORES, SUMMARY, REPORT = (
    "config.json",
    "probes.jsonl",
    "responses.jsonl",
    "scores.jsonl",
    "summary.json",
    "report.md",
)


def _probe_lines(probes: list[Probe]) -> Iterator[bytes]:
    """probes.jsonl, line by line."""
    for probe in probes:
        yield (dumps(probe) + "\n").encode("utf-8")


def probes_digest(probes: list[Probe]) -> str:
    """The SHA-256 of probes.jsonl for these probes."""
    digest = hashlib.sha256()
    for line in _probe_lines(probes):
        digest.update(line)
    return digest.hexdigest()


@dataclass(frozen=True)
class StagedProbes:
    """probes.jsonl, already written, and its digest."""

    path: Path
    sha256: str


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (signal 0 checks without sending anything)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _discard_orphaned_probes(out: Path) -> None:
    """Remove the probes files that killed processes staged (``.probes.<pid>.<id>.tmp``, their
    process gone); a live process's are its own."""
    for path in out.glob(".probes.*.tmp"):
        pid = path.name.split(".")[2]
        if pid.isdigit() and not _alive(int(pid)):
            path.unlink(missing_ok=True)


@contextmanager
def staged_probes(out: Path, probes: list[Probe]) -> Iterator[StagedProbes]:
    """probes.jsonl written once, hashed as it is written, in a hidden ``.tmp`` file under ``out``
    that :meth:`RunDir.create` or :meth:`RunDir.repair` moves into the run directory (removed at
    the end if neither did). A run needs the digest for its fingerprint before it has a directory;
    serialising the probes a second time for the file cost 0.1-0.3 s (a MultifacetEval release
    is 50 MB of prompts), and holding the lines meanwhile as much memory (180 MB at limit 8000)."""
    out.mkdir(parents=True, exist_ok=True)
    _discard_orphaned_probes(out)
    path = out / f".probes.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp"
    try:
        digest = hashlib.sha256()
        with space_for(path), path.open("xb") as handle:
            for line in _probe_lines(probes):
                digest.update(line)
                handle.write(line)
        yield StagedProbes(path, digest.hexdigest())
    finally:
        path.unlink(missing_ok=True)


def fingerprint(config: RunConfig) -> str:
    """What decides the responses: a run with the same fingerprint can reuse them."""
    keep = {
        "method": config.method,
        "model": config.model_identity,
        "probes": config.probes_sha256,
        "generation": config.generation.model_dump(),
        "samples": config.samples,
        "repeats": config.repeats,
        "seed": config.seed,
        "prompt_style": config.prompt_style,
    }
    return hashlib.sha256(json.dumps(keep, sort_keys=True).encode()).hexdigest()[:16]


def git_revision() -> str | None:
    """The medprobe source revision when running from a checkout (with '+dirty' for local edits)."""
    here = Path(__file__).resolve().parent
    try:
        rev = subprocess.run(["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5)
        if rev.returncode != 0:
            return None
        dirty = subprocess.run(["git", "-C", str(here), "status", "--porcelain", "--", "."], capture_output=True, text=True, timeout=5)
        return rev.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


def _json_object(path: Path) -> dict[str, Any] | None:
    """The JSON object in ``path``; None when it cannot be read or is no object (not a run of ours)."""
    if not path.is_file():  # a FIFO or device would hang or never end
        return None
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def slug(text: str) -> str:
    """A name that is safe in a folder name (model ids hold colons, slashes and @)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")[:60] or "model"


class RunDir:
    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def create(cls, out: Path, label: str, config: RunConfig, probes: StagedProbes) -> RunDir:
        """A new run directory ``<UTC time>-<method>-<label>`` holding config.json and probes.jsonl
        (moved in from ``probes``); it appears whole or not at all."""
        out.mkdir(parents=True, exist_ok=True)
        staging = out / f".{config.fingerprint}.{uuid.uuid4().hex[:8]}.partial"
        staging.mkdir()
        os.replace(probes.path, staging / PROBES)
        write_json(staging / CONFIG, config.model_dump(mode="json"))
        base = f"{datetime.now(UTC):%Y%m%dT%H%M%SZ}-{config.method}-{slug(label)}"
        n = 0
        while True:
            n += 1
            path = out / (base if n == 1 else f"{base}-{n}")
            if path.exists():
                continue
            try:
                os.rename(staging, path)
                return cls(path)
            except OSError as exc:  # another run took the name meanwhile
                if exc.errno not in (errno.EEXIST, errno.ENOTEMPTY):
                    raise

    @staticmethod
    def discard_partial(out: Path, fingerprint: str) -> None:
        """Remove what a killed process left while it set up a run directory with this fingerprint
        (call it holding the fingerprint's lock: nobody else is setting one up)."""
        for staging in out.glob(f".{fingerprint}.*.partial"):
            shutil.rmtree(staging, ignore_errors=True)

    @classmethod
    def find_unfinished(cls, out: Path, fingerprint_: str, scored_from: str | None = None, *, incomplete: bool = False) -> RunDir | None:
        """The newest run under ``out`` with this fingerprint, made by the same command (``run``, or
        ``score`` of the same responses), that has no summary yet or, with ``incomplete``, one whose
        status says some requests have no answer (the same command finishes it in place)."""
        if not out.is_dir():
            return None
        for config_path in sorted(out.glob(f"*/{CONFIG}"), reverse=True):
            run = cls(config_path.parent)
            config = _json_object(config_path)
            if run.path.name.startswith(".") or config is None:
                continue
            if config.get("fingerprint") == fingerprint_ and config.get("scored_from") == scored_from and run._to_finish(incomplete):
                return run
        return None

    def _to_finish(self, incomplete: bool) -> bool:
        """Whether the run is still to be finished: no summary.json, or (``incomplete``) a readable one
        whose status is not complete."""
        if not (self.path / SUMMARY).exists():
            return True
        summary = _json_object(self.path / SUMMARY) if incomplete else None
        return summary is not None and summary.get("status") != "complete"

    @classmethod
    def open(cls, path: Path) -> RunDir:
        if not (path / CONFIG).exists():
            raise MedprobeError("not a run directory (no config.json)", file=path)
        return cls(path)

    def repair(self, probes: StagedProbes) -> None:
        """Before a resume: drop temporary files a killed process left, and move the staged
        probes.jsonl in when the file is missing or not the probe set config.json names (the resumed
        run built the same probes: the digest is part of the fingerprint); else drop the staged one."""
        for leftover in self.path.glob("*.tmp"):
            leftover.unlink()
        path = self.path / PROBES
        if not path.exists() or hashlib.sha256(path.read_bytes()).hexdigest() != probes.sha256:
            os.replace(probes.path, path)
        else:
            probes.path.unlink()  # not held on disk twice while the run goes on

    def has_responses(self) -> bool:
        path = self.path / RESPONSES
        return path.exists() and path.stat().st_size > 0

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)

    def config(self) -> RunConfig:
        path = self.path / CONFIG
        value = read_json(path)
        if not isinstance(value, dict):
            raise MedprobeError(f"expected a JSON object, got {type(value).__name__}", file=path, hint="not a medprobe run directory")
        try:
            return RunConfig.model_validate(value)
        except ValidationError as exc:
            raise validation_error(exc, path, None) from None

    def write_config(self, config: RunConfig) -> None:
        write_json(self.path / CONFIG, config.model_dump(mode="json"))

    def probes(self) -> list[Probe]:
        return read_records(self.path / PROBES, Probe)

    def appender(self) -> JsonlAppender:
        return JsonlAppender(self.path / RESPONSES)

    def responses(self) -> dict[str, Response]:
        """Latest response per request; a success is never replaced by a later failure."""
        path = self.path / RESPONSES
        latest: dict[str, Response] = {}
        if not path.exists():
            return latest
        for response in read_records(path, Response, tolerate_torn_tail=True):
            previous = latest.get(response.request_id)
            if previous is None or previous.error is not None or response.error is None:
                latest[response.request_id] = response
        return latest

    def write_responses(self, responses: list[Response]) -> None:
        """responses.jsonl as a whole (a scoring writes every response at once)."""
        write_records(self.path / RESPONSES, responses)

    def write_results(self, items: list[ItemScore], summary: dict[str, Any], report: str) -> None:
        write_records(self.path / SCORES, items)
        with replacing(self.path / REPORT) as handle:
            handle.write(report)
        write_json(self.path / SUMMARY, summary)  # last: its presence marks the run finished
