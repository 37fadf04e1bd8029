"""Persistent response cache (SQLite).

The key is a hash of everything that can change a model's answer: the backend's identity
(model file or endpoint and name), the full prompt or chat, the decoding parameters, the sample
index and the sampling seed. A repeated command therefore finishes from the cache without
calling the model, and each self-consistency sample is cached on its own. Only successful
answers are stored; failed requests are retried next time. WAL mode with one commit per answer
keeps every finished answer across a crash or SIGKILL.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from medprobe.paths import home_dir
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


class ResponseCache:
    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path else default_cache_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(_SCHEMA)

    def get_many(self, keys: list[str]) -> dict[str, Response]:
        found: dict[str, Response] = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for key, blob in self._db.execute(f"SELECT key, response FROM responses WHERE key IN ({marks})", chunk):
                found[key] = Response.model_validate_json(blob)
        return found

    def put(self, key: str, model_id: str, response: Response) -> None:
        blob = response.model_copy(update={"cached": False}).model_dump_json()
        self._db.execute(
            "INSERT OR REPLACE INTO responses (key, model, created, response) VALUES (?, ?, ?, ?)",
            (key, model_id, time.time(), blob),
        )

    def stats(self) -> dict[str, Any]:
        rows = self._db.execute("SELECT model, COUNT(*) FROM responses GROUP BY model ORDER BY model").fetchall()
        return {
            "path": str(self.path),
            "bytes": self.path.stat().st_size if self.path.exists() else 0,
            "models": {model: count for model, count in rows},
            "total": sum(count for _, count in rows),
        }

    def clear(self, model: str | None = None) -> int:
        if model is None:
            cursor = self._db.execute("DELETE FROM responses")
        else:
            cursor = self._db.execute("DELETE FROM responses WHERE model = ?", (model,))
        self._db.execute("VACUUM")
        return cursor.rowcount

    def close(self) -> None:
        self._db.close()
