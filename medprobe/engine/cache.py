"""Persistent response cache (SQLite).

The key is a hash of everything that can change a model's answer: the backend's identity
(model file or endpoint and name), the full prompt or chat, the decoding parameters, the sample
index and the sampling seed. A repeated command therefore finishes from the cache without
calling the model, and each self-consistency sample is cached on its own. Only successful
answers are stored; failed requests are retried next time. WAL mode with one commit per answer
keeps every finished answer across a crash or SIGKILL.

A damaged database (a file that is not SQLite, or pages overwritten) is never read around: every
operation that finds damage stops with a MedprobeError naming the file and the ways on
(``medprobe cache clear --force``, moving the file aside, ``--no-cache``); a full disk the same way.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from medprobe.errors import MedprobeError
from medprobe.paths import NO_SPACE, home_dir
from medprobe.records import Request, Response

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    created REAL NOT NULL,
    response TEXT NOT NULL
)
"""


def default_cache_path() -> Path:
    return home_dir() / "responses.sqlite"


def cache_key(identity: dict[str, Any], request: Request) -> str:
    blob = json.dumps({"model": identity, "request": request.payload()}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


#: the files of one SQLite database in WAL mode
SIDE_FILES = ("", "-wal", "-shm", "-journal")


def remove_database(path: Path) -> list[Path]:
    """Remove the cache database and its side files without opening it (``cache clear --force``: a
    damaged file cannot be opened to be emptied); the files removed."""
    if path.is_dir():
        raise MedprobeError("the response cache is a folder, not a database file", file=path,
                            hint="move the folder aside; medprobe makes a new cache file in its place")
    removed = []
    for suffix in SIDE_FILES:
        side = path.with_name(path.name + suffix)
        if side.is_file():
            side.unlink()
            removed.append(side)
    return removed


def _unusable(path: Path, exc: BaseException) -> MedprobeError:
    """The MedprobeError for a cache that cannot be used (``exc``: what SQLite or the reader said)."""
    text = str(exc)
    if isinstance(exc, sqlite3.OperationalError) and "full" in text or getattr(exc, "errno", None) in NO_SPACE:
        return MedprobeError(f"no space left on the device of the response cache ({text})", file=path,
                             hint="free some space, or run with --no-cache; finished answers are kept in the run directory")
    if path.is_dir():
        return MedprobeError("the response cache is a folder, not a database file", file=path,
                             hint="move the folder aside (medprobe makes a new cache file), or run with --no-cache")
    return MedprobeError(
        f"the response cache is damaged or unreadable ({type(exc).__name__}: {text})", file=path,
        hint="`medprobe cache clear --force` removes it (or move the file aside to keep it); "
             "--no-cache runs without it; finished answers are kept in the run directory",
    )


class ResponseCache:
    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path else default_cache_path()
        with self._guard():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(_SCHEMA)

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """SQLite's errors (a damaged file, a folder in its place, a full disk) and stored answers that
        no longer read as answers, as one MedprobeError naming the cache."""
        try:
            yield
        except (sqlite3.DatabaseError, ValidationError, OSError) as exc:
            raise _unusable(self.path, exc) from None

    def get_many(self, keys: list[str]) -> dict[str, Response]:
        found: dict[str, Response] = {}
        with self._guard():
            for start in range(0, len(keys), 500):
                chunk = keys[start : start + 500]
                marks = ",".join("?" * len(chunk))
                for key, blob in self._db.execute(f"SELECT key, response FROM responses WHERE key IN ({marks})", chunk):
                    found[key] = Response.model_validate_json(blob)
        return found

    def put(self, key: str, model_id: str, response: Response) -> None:
        blob = response.model_copy(update={"cached": False}).model_dump_json()
        with self._guard():
            self._db.execute(
                "INSERT OR REPLACE INTO responses (key, model, created, response) VALUES (?, ?, ?, ?)",
                (key, model_id, time.time(), blob),
            )

    def stats(self) -> dict[str, Any]:
        with self._guard():
            rows = self._db.execute("SELECT model, COUNT(*) FROM responses GROUP BY model ORDER BY model").fetchall()
        return {
            "path": str(self.path),
            "bytes": self.path.stat().st_size if self.path.exists() else 0,
            "models": {model: count for model, count in rows},
            "total": sum(count for _, count in rows),
        }

    def clear(self, model: str | None = None) -> int:
        with self._guard():
            if model is None:
                cursor = self._db.execute("DELETE FROM responses")
            else:
                cursor = self._db.execute("DELETE FROM responses WHERE model = ?", (model,))
            self._db.execute("VACUUM")
        return cursor.rowcount

    def close(self) -> None:
        self._db.close()
