"""Concurrency is what the user asks: throttling halves it, successes grow it back to the asked
value and never beyond (unless -O max_concurrency allows more), so a run never drifts into a regime
the user did not choose."""

from __future__ import annotations

import asyncio

from medprobe.models.openai import OpenAIBackend
from medprobe.records import Message, Request
from testing.mock_server import MockOpenAI, serve_in_thread


def test_the_limit_grows_back_to_the_asked_concurrency_and_no_further() -> None:
    backend = OpenAIBackend("m@http://localhost:8000/v1", {"concurrency": "16"})
    assert backend.max_concurrency == 16
    backend.limiter.throttled()
    assert backend.limiter.limit == 8
    for _ in range(10_000):
        backend.limiter.succeeded()
    assert backend.limiter.limit == 16


def test_max_concurrency_allows_growth_when_asked() -> None:
    backend = OpenAIBackend("m@http://localhost:8000/v1", {"concurrency": "4", "max_concurrency": "8"})
    for _ in range(10_000):
        backend.limiter.succeeded()
    assert (backend.limiter.limit, backend.max_concurrency) == (8, 8)


def test_a_backend_serves_requests_in_two_event_loops() -> None:
    """An aiohttp session belongs to one event loop; a second asyncio.run gets its own."""
    with serve_in_thread(MockOpenAI(reply=lambda body: "B")) as url:
        backend = OpenAIBackend(f"m@{url}", {})
        request = Request(id="p#0", probe_id="p", messages=[Message(role="user", content="q")])
        first = asyncio.run(backend.complete(request))
        second = asyncio.run(backend.complete(request))
        asyncio.run(backend.aclose())
    assert (first.text, second.text, first.error, second.error) == ("B", "B", None, None)
