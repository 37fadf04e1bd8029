"""The worker's lifecycle: it stops with the ``medprobe serve`` that started it, even when that is
killed, and two workers never run under one executor id."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from medprobe.platform.db import make_engine, migrate
from medprobe.platform.worker import migrate_queue
from testing.platform_helpers import WORKER, Worker

#: a stand-in for `medprobe serve`: starts its worker as serve does, prints the worker's pid, waits
SERVE = """
import sys, time
from medprobe.platform.serve import Workers
pool = Workers(sys.argv[1], 1)
while "worker-0" not in pool.procs:
    time.sleep(0.05)
print("worker pid", pool.procs["worker-0"].pid, flush=True)
time.sleep(600)
"""


@pytest.fixture
def url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path}/p.sqlite"
    migrate(make_engine(url))
    migrate_queue(url)
    return url


def _gone(pid: int) -> bool:
    """Exited (a zombie nobody reaped counts as exited)."""
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split()[0] in ("Z", "X")
    except (FileNotFoundError, IndexError):
        return True


def test_a_killed_serve_takes_its_worker_with_it(url: str) -> None:
    serve = subprocess.Popen([sys.executable, "-c", SERVE, url], stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parent.parent)
    try:
        assert serve.stdout is not None
        lines = [serve.stdout.readline(), serve.stdout.readline()]
        pid = int(next(line for line in lines if line.startswith("worker pid")).split()[-1])
        assert any("ready" in line for line in lines), lines
        os.kill(serve.pid, signal.SIGKILL)
        serve.wait(timeout=30)
        deadline = time.monotonic() + 20
        while not _gone(pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _gone(pid), "the worker outlived its killed serve"
    finally:
        if serve.poll() is None:
            serve.kill()


def test_two_workers_never_share_an_executor_id(url: str) -> None:
    first = Worker(url).start()
    try:
        second = subprocess.run([sys.executable, str(WORKER), url], capture_output=True, text=True, timeout=120)
        assert second.returncode != 0 and "running already" in second.stderr, second.stderr[-2000:]
    finally:
        first.stop()
    again = Worker(url).start()  # once the first has stopped, the id is free
    again.stop()
