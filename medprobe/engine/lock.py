"""One process at a time works on the runs of one fingerprint.

Two identical commands started together would otherwise both resume (or both create) the run
directory and both pay for every request. Every writer of a run directory (``run``, ``score``)
holds an exclusive lock named after the run's fingerprint, beside the response cache (so that runs
writing to different ``--out`` folders coordinate too), from before it looks for an unfinished run
until its summary is written. A second identical command waits: when the first finishes, the
second answers from the cache; when the first was interrupted or killed, the second resumes its
run directory. The kernel drops the lock when its process dies, SIGKILL included, so a lock is
never stale. (POSIX ``flock``; the lock file names its holder for the waiting message.)
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from medprobe.errors import MedprobeError
from medprobe.paths import home_dir


class RunLock:
    """``with RunLock(fingerprint, notify):`` waits (saying so through ``notify``) until no other
    process holds the lock, then holds it until the block ends."""

    def __init__(self, fingerprint: str, notify: Callable[[str], None]) -> None:
        self.path = home_dir() / "locks" / f"{fingerprint}.lock"
        self.notify = notify
        self._handle: TextIO | None = None

    def __enter__(self) -> RunLock:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle = self._handle = self.path.open("a+", encoding="utf-8")
        except OSError as exc:
            raise MedprobeError(f"cannot open the run lock {self.path}: {exc.strerror or exc}", field="MEDPROBE_HOME",
                                hint=f"{self.path.parent} must be a folder medprobe can write in") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another medprobe process"
            self.notify(f"the same run is in progress ({holder}); waiting for it to finish, then this run takes "
                        "its answers from the cache (or resumes it, if it stops early); Ctrl-C stops waiting")
            fcntl.flock(handle, fcntl.LOCK_EX)
        self.holds(None)
        return self

    def holds(self, run_dir: Path | None) -> None:
        """Name this process (and the run directory it works in) to processes that wait."""
        assert self._handle is not None
        self._handle.seek(0)
        self._handle.truncate()
        self._handle.write(f"pid {os.getpid()}" + (f", {run_dir}" if run_dir else ""))
        self._handle.flush()

    def __exit__(self, *exc: object) -> None:
        if self._handle is not None:
            self._handle.close()  # closing releases the lock
            self._handle = None
