"""The one protocol every model backend implements.

A backend turns a request (chat messages or a plain prompt, decoding parameters, sample index)
into a :class:`~medprobe.records.Response` with text, finish reason, token counts, latency and
error. The runner owns batching, caching, resume and progress; a backend only says how many
requests it can take at once and how to answer one.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from medprobe.records import Request, Response


@runtime_checkable
class ModelBackend(Protocol):
    """What the runner needs from a model."""

    model_id: str
    #: upper bound on requests in flight; 1 for in-process models
    max_concurrency: int
    #: whether answers may be stored in the response cache (False for random/replay)
    cacheable: bool

    def identity(self) -> dict[str, Any]:
        """Everything about the model that changes its output (part of the cache key)."""
        ...

    async def check(self) -> None:
        """Fail fast with a clear MedprobeError when the model cannot be used at all."""
        ...

    async def complete(self, request: Request) -> Response:
        """Answer one request; never raises for per-request failures (sets ``error``)."""
        ...

    async def aclose(self) -> None: ...


async def generate(backend: ModelBackend, requests: Sequence[Request]) -> list[Response]:
    """Answer a batch of requests with the backend's own concurrency, in request order.

    This is the plain batch form of the protocol; ``medprobe.engine.runner`` adds the cache,
    resume and progress around the same per-request calls.
    """
    import asyncio

    semaphore = asyncio.Semaphore(max(1, backend.max_concurrency))

    async def one(request: Request) -> Response:
        async with semaphore:
            return await backend.complete(request)

    return list(await asyncio.gather(*(one(r) for r in requests)))


#: how the error of a request whose completion held no text begins (the report counts them)
EMPTY_COMPLETION = "empty completion"


def is_empty_completion(response: Response) -> bool:
    return (response.error or "").startswith(EMPTY_COMPLETION)


def failed(request: Request, error: str, started: float) -> Response:
    """A response that records why no answer was obtained."""
    return Response(probe_id=request.probe_id, sample=request.sample, error=error, latency_s=time.perf_counter() - started)
