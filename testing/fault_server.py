"""A fault-injecting OpenAI-compatible server for tests and the reliability benchmark.

It is :class:`testing.mock_server.MockOpenAI` (127.0.0.1 only, a background thread, stopped with its
``with`` block) with one fault kind injected into completion requests: either on a seeded share of
attempts (``rate``: transient faults a retry gets past) or on every attempt at the prompts ``sticky``
picks (permanent faults a retry never gets past). Every wait it makes is bounded (``hang_s``,
``slow_s``), so a test can never hang on it.

    with serve_in_thread(FaultyOpenAI(fault="truncate", rate=0.3, reply=...)) as url: ...
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from email.utils import formatdate
from typing import Any

from testing.mock_server import MockOpenAI, http_response

#: what each fault kind does to a completion request
FAULTS: dict[str, str] = {
    "500": "HTTP 500 with an error body",
    "429-seconds": "HTTP 429 with Retry-After: 1 (seconds)",
    "429-date": "HTTP 429 with Retry-After as an HTTP date 2 s ahead",
    "drop": "the connection closed without a reply",
    "truncate": "the connection closed after half of the announced body",
    "malformed-json": "a body that is not JSON",
    "empty-choices": "a reply with an empty choices list",
    "null-content": "a reply whose content is null",
    "empty-content": "a reply whose content is an empty string",
    "wrong-types": "content 123, a usage that is a list, or a finish_reason object (in turn)",
    "no-reply": "no answer at all (the connection hangs, bounded by hang_s)",
    "slow": "the right answer, slow_s late",
    "trickle": "the right answer, one byte every trickle_s (bounded by hang_s): every read is quick, the whole reply is not",
}
#: fault kinds that still deliver the answer (no failure to record)
HARMLESS = frozenset({"slow"})
_WRONG_TYPES = (("content", 123), ("usage", []), ("finish_reason", {"type": "stop"}))


def prompt_of(body: dict[str, Any]) -> str:
    """The request's full prompt: what identifies it across retries."""
    return json.dumps(body.get("messages") or body.get("prompt"), sort_keys=True)


@dataclass
class FaultyOpenAI(MockOpenAI):
    fault: str = "500"
    #: chance that an attempt is faulted (seeded; retries draw again)
    rate: float = 0.0
    #: prompts (see ``prompt_of``) that are faulted on every attempt
    sticky: Callable[[str], bool] = lambda prompt: False
    seed: int = 0
    hang_s: float = 10.0
    slow_s: float = 0.3
    trickle_s: float = 0.25
    #: completion requests that arrived, and how many of them were faulted
    posts: int = 0
    injected: int = 0
    #: prompt -> (arrival time, faulted) of every attempt, in order
    attempts: dict[str, list[tuple[float, bool]]] = field(default_factory=lambda: defaultdict(list))

    def __post_init__(self) -> None:
        if self.fault not in FAULTS:
            raise ValueError(f"unknown fault kind {self.fault!r}; known: {', '.join(FAULTS)}")
        self._rng = random.Random(self.seed)

    async def send(self, writer: asyncio.StreamWriter, method: str, path: str, body: dict[str, Any]) -> bool:
        if method != "POST":
            return await super().send(writer, method, path, body)
        self.posts += 1
        prompt = prompt_of(body)
        faulted = self.sticky(prompt) or self._rng.random() < self.rate
        self.attempts[prompt].append((time.monotonic(), faulted))
        if not faulted:
            return await super().send(writer, method, path, body)
        self.injected += 1
        return await self._inject(writer, path, body)

    async def _inject(self, writer: asyncio.StreamWriter, path: str, body: dict[str, Any]) -> bool:
        kind = self.fault
        if kind in ("drop", "no-reply"):
            if kind == "no-reply":
                await asyncio.sleep(self.hang_s)
            return False
        if kind == "slow":
            await asyncio.sleep(self.slow_s)
            return await super().send(writer, "POST", path, body)
        if kind == "trickle":
            _, payload = self.respond("POST", path, body)
            await self._trickle(writer, http_response(200, json.dumps(payload).encode()))
            return False
        if kind.startswith("429"):
            after = "1" if kind == "429-seconds" else formatdate(time.time() + 2, usegmt=True)
            writer.write(http_response(429, b'{"error": {"message": "slow down"}}', {"retry-after": after}))
        elif kind == "500":
            writer.write(http_response(500, b'{"error": {"message": "injected failure"}}'))
        else:
            data = json.dumps(self._mangled(kind, path, body)).encode()
            if kind == "truncate":
                writer.write(http_response(200, data[: len(data) // 2], length=len(data)))
                await writer.drain()
                return False
            writer.write(http_response(200, data[: len(data) // 2] if kind == "malformed-json" else data))
        await writer.drain()
        return True

    async def _trickle(self, writer: asyncio.StreamWriter, data: bytes) -> None:
        """Send ``data`` a byte at a time, for at most ``hang_s``."""
        started = time.monotonic()
        for byte in data:
            if time.monotonic() - started > self.hang_s:
                return
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(self.trickle_s)

    def _mangled(self, kind: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """The normal reply with the fault's damage done to it."""
        _, payload = self.respond("POST", path, body)
        choice = payload["choices"][0]
        text_key = "message" if "message" in choice else "text"
        if kind == "empty-choices":
            payload["choices"] = []
        elif kind in ("null-content", "empty-content"):
            value = None if kind == "null-content" else ""
            if text_key == "message":
                choice["message"]["content"] = value
            else:
                choice["text"] = value
        elif kind == "wrong-types":
            name, value = _WRONG_TYPES[self.injected % len(_WRONG_TYPES)]
            if name == "usage":
                payload["usage"] = value
            elif name == "finish_reason":
                choice["finish_reason"] = value
            elif text_key == "message":
                choice["message"]["content"] = value
            else:
                choice["text"] = value
        return payload
