"""The runner: turns requests into responses with cache, resume, concurrency and progress.

Order of business for each request: already in this run's responses file (resume) -> skip;
in the response cache -> record it as cached; otherwise send it. Every response is handed to
``sink`` the moment it exists (the run directory appends it to responses.jsonl and flushes), so
killing the process at any point loses at most the answers in flight.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field
from itertools import chain, islice

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from medprobe.contract import Requests
from medprobe.engine.cache import ResponseCache, cache_key
from medprobe.errors import MedprobeError
from medprobe.models.base import ModelBackend
from medprobe.records import Request, Response

#: stop a run when this many requests in a row failed: the model is down, not flaky
MAX_CONSECUTIVE_ERRORS = 25
#: a request waiting longer than this is reported while it waits (a hung or overloaded server)
SLOW_REQUEST_S = 30.0
#: the progress bar is told of answers at most this often
SHOW_EVERY_S = 0.1
#: off a terminal (output piped to a file) no bar is drawn; a plain progress line is printed this often
PLAIN_EVERY_S = 30.0


@dataclass
class RunStats:
    total: int = 0
    resumed: int = 0
    from_cache: int = 0
    sent: int = 0
    errors: int = 0
    elapsed_s: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    last_error: str | None = field(default=None, repr=False)


def _prompt_order(request: Request) -> tuple[str, ...]:
    """Sort key that puts prompts sharing a prefix (the few-shot demos) next to each other, so
    servers and llama.cpp reuse their prefix caches. A tuple of the texts themselves, not one text
    joined from them: sorting computes every key first, and 80,000 joined copies of 2 KB prompts
    were 130 MB."""
    if request.messages is not None:
        return tuple(m.content for m in request.messages)
    return (request.prompt or "",)


def _own(response: Response, request: Request, cached: bool = False) -> Response:
    """The response under the identity of the request it answers (a cache hit may come from an
    identical prompt of another probe; backends need not track turns)."""
    return response.model_copy(update={"probe_id": request.probe_id, "sample": request.sample, "turn": request.turn, "cached": cached})


def notice(text: str) -> None:
    """One line on standard error (also with ``--quiet``: these are warnings, not progress)."""
    Console(stderr=True).print(text, highlight=False, markup=False)


class ProgressBar:
    """A progress bar on standard error with count, rate, elapsed time, ETA, errors and requests
    waiting too long."""

    def __init__(self, total: int, enabled: bool, label: str, unit: str = "req") -> None:
        self.unit = unit
        console = Console(stderr=True)
        #: a bar cannot be redrawn in a file: there, a plain line every PLAIN_EVERY_S shows a long run is alive
        self.plain = enabled and not console.is_terminal
        self.label = label
        self.bar = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[errors]}"),
            TextColumn("{task.fields[waiting]}"),
            console=console,
            disable=not enabled or self.plain,
            transient=False,
        )
        self.total = total
        self.task = self.bar.add_task(label, total=total, rate="", errors="", waiting="")
        self.started = self.shown = self.printed = time.perf_counter()
        self.done = self.errors = 0

    def advance(self, errors: int) -> None:
        """One more answer. The bar hears of answers at most every ``SHOW_EVERY_S`` (it is redrawn ten
        times a second): updating it per answer was a fifth of the runner's own work on a fast server."""
        self.done += 1
        self.errors = errors
        now = time.perf_counter()
        if now - self.shown >= SHOW_EVERY_S:
            self._show(now)

    def _show(self, now: float) -> None:
        self.shown = now
        rate = self.done / max(1e-9, now - self.started)
        if self.plain and now - self.printed >= PLAIN_EVERY_S:
            self.printed = now
            left = (self.total - self.done) / rate if rate > 0 else None
            eta = f", about {left / 60:.0f} min left" if left is not None else ""
            errors = f", {self.errors} errors" if self.errors else ""
            notice(f"{self.label}: {self.done}/{self.total} {self.unit}, {rate:.2f} {self.unit}/s{eta}{errors}")
        errors = f"[red]{self.errors} errors" if self.errors else ""
        self.bar.update(self.task, completed=self.done, rate=f"{rate:.1f} {self.unit}/s", errors=errors)

    def skip(self, n: int) -> None:
        """``n`` requests fewer to send: answered already, by this run's file or the cache."""
        if n:
            self.total -= n
            self.bar.update(self.task, total=self.total)

    def waiting(self, slow: int) -> None:
        self.bar.update(self.task, waiting=f"[yellow]{slow} waiting > {SLOW_REQUEST_S:g} s" if slow else "")

    def __enter__(self) -> ProgressBar:
        self.bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._show(time.perf_counter())
        self.bar.__exit__(*exc)


#: requests are read, looked up in the cache and put in prompt order this many at a time, so that a
#: run never holds all of its requests at once (80,000 were 55 MB) while each window still sends the
#: prompts that share a prefix together
WINDOW = 8192


async def execute(
    backend: ModelBackend,
    requests: Requests,
    sink: Callable[[Response], None],
    *,
    done: Collection[str] = (),
    cache: ResponseCache | None = None,
    progress: bool = True,
) -> RunStats:
    """Obtain a response for every request whose id is not in ``done``; hand each to ``sink`` at once."""
    started = time.perf_counter()
    finished = done if isinstance(done, set | frozenset | dict) else set(done)
    stats = RunStats(total=len(requests))
    bar = ProgressBar(len(requests), progress, backend.model_id)
    identity = backend.identity() if cache is not None and backend.cacheable else None
    keys: dict[str, str] = {}  # request id -> cache key, until its answer is stored

    def to_send() -> Iterator[Request]:
        """The requests to send, a window at a time; those answered already (this run's file, the
        cache) are counted, and cached answers handed to ``sink``, as their window is read."""
        unread = iter(requests)
        while window := list(islice(unread, WINDOW)):
            pending = [r for r in window if r.id not in finished]
            stats.resumed += len(window) - len(pending)
            if identity is not None and cache is not None and pending:
                window_keys = {r.id: cache_key(identity, r) for r in pending}
                hits = cache.get_many(list(window_keys.values()))
                unanswered = []
                for request in pending:
                    hit = hits.get(window_keys[request.id])
                    if hit is None:
                        unanswered.append(request)
                        keys[request.id] = window_keys[request.id]
                    else:
                        sink(_own(hit, request, cached=True))
                        stats.from_cache += 1
                pending = unanswered
            bar.skip(len(window) - len(pending))
            pending.sort(key=_prompt_order)
            yield from pending

    queue = to_send()
    first = next(queue, None)
    if first is not None:
        await backend.check()
        await _send_all(backend, chain([first], queue), sink, keys, cache, stats, bar)
    stats.elapsed_s = time.perf_counter() - started
    return stats


async def _send_all(
    backend: ModelBackend,
    queue: Iterator[Request],
    sink: Callable[[Response], None],
    keys: dict[str, str],
    cache: ResponseCache | None,
    stats: RunStats,
    bar: ProgressBar,
) -> None:
    consecutive_errors = 0
    in_flight: dict[str, float] = {}  # request id -> when it was sent

    async def worker() -> None:
        nonlocal consecutive_errors
        for request in queue:
            if consecutive_errors >= MAX_CONSECUTIVE_ERRORS:
                return
            in_flight[request.id] = time.monotonic()
            try:
                response = _own(await backend.complete(request), request)
            finally:
                del in_flight[request.id]
            stats.sent += 1
            if response.error is None:
                consecutive_errors = 0
                if cache is not None and request.id in keys:
                    cache.put(keys.pop(request.id), backend.model_id, response)
                stats.prompt_tokens += response.prompt_tokens or 0
                stats.completion_tokens += response.completion_tokens or 0
            else:
                consecutive_errors += 1
                stats.errors += 1
                stats.last_error = response.error
            sink(response)
            bar.advance(stats.errors)

    async def watch() -> None:
        """Show requests that wait longer than SLOW_REQUEST_S, and say so once: a server that
        never answers shows itself while the run waits, not only when its timeouts end."""
        warned = False
        while True:
            await asyncio.sleep(SLOW_REQUEST_S / 3)
            now = time.monotonic()
            slow = sum(1 for sent in in_flight.values() if now - sent > SLOW_REQUEST_S)
            bar.waiting(slow)
            if slow and not warned:
                warned = True
                notice(f"slow: {slow} request(s) waiting more than {SLOW_REQUEST_S:g} s for {backend.model_id}; "
                       "Ctrl-C stops the run, the same command resumes it")

    with bar:
        workers = [asyncio.create_task(worker()) for _ in range(backend.max_concurrency)]
        watcher = asyncio.create_task(watch())
        try:
            await asyncio.gather(*workers)
        finally:
            watcher.cancel()
    if consecutive_errors >= MAX_CONSECUTIVE_ERRORS:
        raise MedprobeError(
            f"stopped after {MAX_CONSECUTIVE_ERRORS} failed requests in a row; last error: {stats.last_error}",
            hint="fix the model or endpoint and run the same command again: finished answers are kept",
        )
