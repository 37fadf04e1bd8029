"""``medprobe serve``: migrate the database, make the demo on first start, start the worker(s), serve.

The worker is a child process (``medprobe worker``) with a fixed executor id; if it dies, it is
started again with the same id, and DBOS hands it back the jobs it had in progress. It stops when
``serve`` stops, or within a second when ``serve`` is killed; a worker of an earlier ``serve`` that
still holds the id makes the new one wait (it is started again each second) rather than share it.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from medprobe.errors import MedprobeError
from medprobe.paths import home_dir
from medprobe.platform.auth import create_user, set_password
from medprobe.platform.benchmarks import BenchmarkSpec, publish
from medprobe.platform.db import make_engine, migrate, normalise_url, sessions
from medprobe.platform.models import Benchmark, User
from medprobe.platform.worker import PARENT_ENV, Jobs, migrate_queue

DEMO = BenchmarkSpec(slug="demo-multifacet-en", title="Demo: MultifacetEval on the built-in English KB (20 knowledge points)",
                     method="multifacet", data="builtin:en", seed=0, size=20)
ADMIN_EMAIL = "admin@localhost"


def default_db() -> str:
    return f"sqlite:///{home_dir() / 'platform.sqlite'}"


def prepare(url: str) -> None:
    """Bring the platform's tables and the queue's tables up to date."""
    migrate(make_engine(url))
    migrate_queue(url)


def first_start(session: Session, say: Callable[[str], None], *, include_unmeasured: bool = False) -> None:
    """On an empty database: an admin account (password from $MEDPROBE_ADMIN_PASSWORD, else made up
    and printed once) and the demo benchmark, so a newcomer sees working pages at once. The demo is built
    on builtin:en and gated like any build (medprobe.gating); ``include_unmeasured`` lets in the aspects
    blind reading has not measured."""
    if session.scalar(select(func.count()).select_from(User).where(User.is_admin.is_(True))) == 0:
        password = os.environ.get("MEDPROBE_ADMIN_PASSWORD") or secrets.token_urlsafe(12)
        create_user(session, ADMIN_EMAIL, "Admin", password, admin=True)
        shown = "from $MEDPROBE_ADMIN_PASSWORD" if "MEDPROBE_ADMIN_PASSWORD" in os.environ else password
        say(f"admin account: {ADMIN_EMAIL}, password {shown}")
    if session.scalar(select(func.count()).select_from(Benchmark)) == 0:
        say(f"publishing the demo benchmark '{DEMO.slug}' ({DEMO.method} on {DEMO.data}, {DEMO.size} knowledge points)")
        publish(session, replace(DEMO, include_unmeasured=include_unmeasured), None)


def reset_password(url: str, email: str) -> str:
    """A new, made-up password for an account (its browser sessions ended): the way back in for an
    admin who lost the password printed at first start, since no e-mail is sent."""
    url = normalise_url(url)
    migrate(make_engine(url))
    with sessions(make_engine(url))() as session:
        user = session.scalar(select(User).where(User.email == email.strip().lower()))
        if user is None:
            raise MedprobeError(f"no account with the e-mail '{email}'", field="--reset-password")
        password = secrets.token_urlsafe(12)
        set_password(session, user, password)
    return password


class Workers:
    """Worker processes, each started again with its executor id whenever it exits unexpectedly."""

    def __init__(self, url: str, count: int) -> None:
        self.url, self.stopping = url, threading.Event()
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        for i in range(count):
            threading.Thread(target=self._keep, args=(f"worker-{i}",), daemon=True).start()

    def _keep(self, executor: str) -> None:
        while not self.stopping.is_set():
            proc = subprocess.Popen([sys.executable, "-m", "medprobe", "worker", "--db", self.url, "--executor", executor],
                                    env={**os.environ, PARENT_ENV: str(os.getpid())})
            self.procs[executor] = proc
            code = proc.wait()
            if not self.stopping.is_set():
                print(f"medprobe serve: {executor} exited ({code}); starting it again", file=sys.stderr, flush=True)
                self.stopping.wait(1)  # a worker that cannot start is not restarted in a tight loop

    def stop(self) -> None:
        self.stopping.set()
        for proc in self.procs.values():
            proc.terminate()
        for proc in self.procs.values():
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


def serve(url: str, host: str, port: int, workers: int = 1, *, include_unmeasured: bool = False) -> None:
    import uvicorn

    from medprobe.platform.app import Settings, create_app

    url = normalise_url(url)
    prepare(url)
    with sessions(make_engine(url))() as session:
        first_start(session, lambda text: print(f"medprobe serve: {text}", file=sys.stderr, flush=True), include_unmeasured=include_unmeasured)
    pool = Workers(url, workers) if workers else None
    jobs = Jobs(url)
    try:
        print(f"medprobe serve: http://{host}:{port}/ (database {Path(url).name if url.startswith('sqlite') else 'PostgreSQL'})",
              file=sys.stderr, flush=True)
        uvicorn.run(create_app(Settings(db=url), jobs), host=host, port=port, log_level="warning")
    finally:
        jobs.close()
        if pool:
            pool.stop()
