"""What the engine offers a method outside a run, so that no method handles the runner, the response
cache or a run directory itself: asking a model a batch of requests while a method builds (a generator
writing material), and reading the configuration of a run directory (commands that read finished runs).
Inside a run a method is handed the engine as a session instead (medprobe.contract.RunSession)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from medprobe.contract import Requests
from medprobe.engine.cache import ResponseCache
from medprobe.engine.rundir import RunDir
from medprobe.engine.runner import RunStats, execute
from medprobe.models.base import ModelBackend
from medprobe.records import Response, RunConfig


def ask_all(backend: ModelBackend, requests: Requests, on_answer: Callable[[Response], None], *, progress: bool) -> RunStats:
    """Answer ``requests`` with ``backend`` through the response cache (building twice asks once),
    handing each response to ``on_answer``; the backend is closed after."""
    cache = ResponseCache()

    async def go() -> RunStats:
        try:
            return await execute(backend, requests, on_answer, cache=cache, progress=progress)
        finally:
            await backend.aclose()

    try:
        return asyncio.run(go())
    finally:
        cache.close()


def run_config(run_dir: Path) -> RunConfig:
    """The configuration of a run directory (a MedprobeError when the folder is none)."""
    return RunDir.open(run_dir).config()
