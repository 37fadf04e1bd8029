"""The background worker: durable jobs on DBOS, whose queue lives in the platform's own database
(the same SQLite file, or a ``dbos`` schema in the same PostgreSQL database).

The web process only enqueues (``Jobs``, a DBOS client that runs no job code); ``medprobe worker``
(started by ``medprobe serve``) runs them. DBOS records each job before it starts and marks it
finished after it returns; a worker killed in between leaves the job pending, and the next worker
with the same executor id recovers it on start and runs it again from the beginning (one worker holds
an id at a time: ``executor_lock``; a worker started by ``serve`` stops with it). The jobs are
idempotent (``medprobe.platform.scoring``), so a rerun loses nothing and doubles nothing. A job
id per submission makes enqueueing twice harmless too.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from dbos import DBOS, DBOSClient
from sqlalchemy import text

from medprobe.errors import MedprobeError
from medprobe.paths import home_dir
from medprobe.platform.db import make_engine, normalise_url, sessions
from medprobe.platform.runforme import run_endpoint
from medprobe.platform.scoring import SessionFactory, score_submission

QUEUE = "medprobe-jobs"
#: set by ``medprobe serve`` for the workers it starts: its process id, which they outlive by at most a second
PARENT_ENV = "MEDPROBE_SERVE_PID"
APP = "medprobe"
_state: dict[str, Any] = {}


def _sessions() -> SessionFactory:
    return _state["sessions"]


@DBOS.workflow(name="medprobe_score")
def score_job(submission_id: int) -> str:
    """Score an uploaded submission."""
    return score_submission(_sessions(), submission_id)


@DBOS.workflow(name="medprobe_run_endpoint")
def run_job(submission_id: int) -> str:
    """Ask an admin's registered endpoint (engine: cache, resume, retries), then score."""
    return run_endpoint(_sessions(), submission_id, Path(_state["runs"]))


def migrate_queue(url: str) -> None:
    """Create or upgrade the queue's tables (DBOS's own migrations)."""
    DBOS.migrate(normalise_url(url))


@contextmanager
def executor_lock(url: str, executor_id: str) -> Iterator[None]:
    """Hold the executor id for as long as the worker runs, or refuse to start: two workers with one
    id would both recover the id's unfinished jobs and score them twice at once. SQLite: an exclusive
    lock on a file beside the database; PostgreSQL: a session advisory lock (both freed when the
    process dies, however it dies)."""
    url = normalise_url(url)
    taken = MedprobeError(f"a worker with the executor id '{executor_id}' is running already on this database",
                          field="--executor", hint="stop it first, or give this one another --executor")
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///")).with_name(f"{Path(url).name}.{executor_id}.worker-lock")
        with path.open("a") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise taken from None
            yield
        return
    key = int.from_bytes(hashlib.sha256(f"medprobe worker {executor_id}".encode()).digest()[:8], "big", signed=True)
    with make_engine(url).connect() as connection:
        if not connection.execute(text("SELECT pg_try_advisory_lock(:key)"), {"key": key}).scalar():
            raise taken
        yield


def _watch_parent(parent: int, stop: threading.Event) -> None:
    """Stop when the process that started the worker is gone (``medprobe serve`` killed, even with SIGKILL)."""
    while not stop.wait(1.0):
        if os.getppid() != parent:
            stop.set()


def run_worker(url: str, executor_id: str = "worker-0", concurrency: int = 1) -> None:
    """Run jobs until SIGTERM/SIGINT, or until the ``medprobe serve`` that started it ends ($MEDPROBE_SERVE_PID).
    Jobs a killed worker with this executor id left are recovered first; only one worker holds an id at a time."""
    with executor_lock(url, executor_id):
        _state["sessions"] = sessions(make_engine(url))
        _state["runs"] = str(home_dir() / "platform-runs")
        DBOS(config={"name": APP, "system_database_url": normalise_url(url), "executor_id": executor_id,
                     "run_admin_server": False, "log_level": "WARNING"})
        DBOS.launch()
        DBOS.register_queue(QUEUE, worker_concurrency=concurrency, polling_interval_sec=0.5)
        stop = threading.Event()
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        signal.signal(signal.SIGINT, lambda *_: stop.set())
        if os.environ.get(PARENT_ENV, "").isdigit():
            threading.Thread(target=_watch_parent, args=(int(os.environ[PARENT_ENV]), stop), daemon=True).start()
        print(f"medprobe worker {executor_id}: ready", flush=True)
        stop.wait()
        DBOS.destroy(workflow_completion_timeout_sec=0)


class Jobs:
    """The web side of the queue: enqueue jobs without running them."""

    def __init__(self, url: str) -> None:
        self.client = DBOSClient(system_database_url=normalise_url(url))

    def score(self, submission_id: int) -> None:
        self._enqueue("medprobe_score", f"score-{submission_id}", submission_id)

    def run(self, submission_id: int) -> None:
        self._enqueue("medprobe_run_endpoint", f"run-{submission_id}", submission_id)

    def _enqueue(self, workflow: str, job_id: str, submission_id: int) -> None:
        self.client.enqueue({"queue_name": QUEUE, "workflow_name": workflow, "workflow_id": job_id}, submission_id)

    def close(self) -> None:
        self.client.destroy()
