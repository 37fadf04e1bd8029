"""Helpers for the platform tests: a throwaway PostgreSQL cluster, a worker process, and a browser-like client."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

PG_BIN = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
WORKER = Path(__file__).with_name("platform_worker.py")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def postgres_cluster() -> Iterator[str]:
    """A fresh PostgreSQL cluster in a temporary folder (initdb + pg_ctl); yields its URL."""
    if not PG_BIN:
        pytest.skip("PostgreSQL server binaries are missing (/usr/lib/postgresql/*/bin/initdb); `scripts/setup.sh dev` installs them with apt-get")
    bindir = PG_BIN[-1].parent
    root = Path(tempfile.mkdtemp(prefix="medprobe-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root
        shutil.chown(root, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    data = root / "data"

    def pg(*args: str) -> None:
        subprocess.run([*as_user, *args], check=True, capture_output=True, timeout=120)

    pg(str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8")
    pg(str(bindir / "pg_ctl"), "-D", str(data), "-w", "-l", str(root / "log"), "-o",
       f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off", "start")
    try:
        pg(str(bindir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "medprobe")
        yield f"postgresql://postgres@127.0.0.1:{port}/medprobe"
    finally:
        subprocess.run([*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


class Worker:
    """``medprobe worker`` in a child process (testing/platform_worker.py: optionally slow to score)."""

    def __init__(self, url: str, slow_s: float = 0.0) -> None:
        self.url, self.slow_s = url, slow_s
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> Worker:
        env = {**os.environ, "SLOW_SCORING_S": str(self.slow_s)}
        self.proc = subprocess.Popen([sys.executable, str(WORKER), self.url], env=env, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert "ready" in line, f"worker did not start: {line!r}"
        return self

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


def csrf(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, "no CSRF token in the page"
    return found.group(1)


class Browser:
    """A cookie-keeping client that fills in forms as a browser would (CSRF token included)."""

    def __init__(self, app: object) -> None:
        self.client = TestClient(app, follow_redirects=False)

    def get(self, url: str, **kwargs: object):  # type: ignore[no-untyped-def]
        return self.client.get(url, headers={"accept": "text/html"}, **kwargs)

    def post_form(self, page: str, action: str, data: dict[str, str], files: dict | None = None):  # type: ignore[no-untyped-def]
        token = csrf(self.get(page).text)
        return self.client.post(action, data={"csrf_token": token, **data}, files=files, headers={"accept": "text/html"})

    def signup(self, email: str, name: str, organisation: str = "", password: str = "a long password") -> None:
        reply = self.post_form("/signup", "/signup", {"email": email, "name": name, "organisation": organisation, "password": password})
        assert reply.status_code == 303, reply.text

    def login(self, email: str, password: str) -> int:
        return self.post_form("/login", "/login", {"email": email, "password": password}).status_code

    def new_token(self, name: str = "t") -> str:
        assert self.post_form("/account", "/account/tokens", {"name": name}).status_code == 303
        found = re.search(r'<pre id="new-token">([^<]+)</pre>', self.get("/account").text)
        assert found
        return found.group(1)


def wait_status(client: TestClient, submission_id: int, token: str, want: tuple[str, ...] = ("done", "failed"), timeout: float = 120) -> dict:
    """Poll the API until the submission reaches one of ``want`` (the test's own bounded wait)."""
    deadline = time.monotonic() + timeout
    while True:
        body = client.get(f"/api/submissions/{submission_id}", headers={"authorization": f"Bearer {token}"}).json()
        if body.get("status") in want or time.monotonic() > deadline:
            return body
        time.sleep(0.05)
