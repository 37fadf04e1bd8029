"""Any OpenAI-compatible server: vLLM, SGLang, TGI, Ollama, llama.cpp server, hosted APIs.

``openai:MODEL@BASE_URL`` (e.g. ``openai:Qwen2.5-7B-Instruct@http://localhost:8000/v1``).
Chat requests go to ``/chat/completions``, plain prompts to ``/completions``. The API key is
read from ``$OPENAI_API_KEY`` (or the variable named by the ``key_env`` option); local servers
need none. Throttling (429), server errors (5xx), timeouts, dropped connections and replies that
carry no usable answer are retried a finite number of times with exponential backoff (honouring
Retry-After, in seconds or as an HTTP date); concurrency adapts: it halves on throttling and grows
back by one after a run of successes.

A reply is read against the OpenAI schema, strictly: a body that is not JSON, has no choices, or
has a field of the wrong type (``content: 123``, a ``usage`` list, a ``finish_reason`` object) is
*unreadable*, and an empty completion (content null, empty or only whitespace) carries no answer.
Both fail the attempt; after the last attempt the request is recorded with that error — never as an
answer, and never cached — and the run goes on. Over HTTP an empty completion cannot be told apart
from a server, proxy or content filter that lost the text, or a reasoning model that spent its
token budget before answering.

``top_k`` and ``repetition_penalty`` are not OpenAI API parameters but most open-model servers
(vLLM, SGLang, TGI, llama.cpp server) accept them; they are sent only when a method sets them,
and never to api.openai.com, which rejects unknown sampling parameters. There the request runs
with temperature and top_p alone, and config.json still records what the method asked for.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import time
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx
from pydantic import BaseModel, ConfigDict, ValidationError
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from medprobe.errors import MedprobeError
from medprobe.models.base import EMPTY_COMPLETION, failed
from medprobe.records import Request, Response

#: MODEL@URL, the URL with any scheme (only http and https are accepted, the others named)
_SPEC = re.compile(r"^(?P<model>.+?)@(?P<url>[A-Za-z][A-Za-z0-9+.-]*://\S*)$")
#: MODEL@host:port/… — a URL without its scheme
_SCHEMELESS = re.compile(r"^.+?@[\w.-]+(?::\d+|/)")
RETRY_STATUSES = {408, 409, 429, 500, 502, 503, 504}
#: hosts that answer HTTP 400 to sampling parameters outside the OpenAI API
STRICT_HOSTS = frozenset({"api.openai.com"})
#: sampling parameters open-model servers understand but the OpenAI API does not
EXTRA_SAMPLING = ("top_k", "repetition_penalty")
#: seconds to open a connection, whatever -O timeout says: a server that is not there is known at once
CONNECT_TIMEOUT_S = 5.0


class RetryableError(Exception):
    """A failed attempt that the next attempt may get past."""


class RetryableStatus(RetryableError):
    """An HTTP status worth retrying; carries the server's Retry-After when given."""

    def __init__(self, status: int, body: str, retry_after: float | None) -> None:
        super().__init__(f"HTTP {status}: {body[:300]}")
        self.status = status
        self.retry_after = retry_after


class UnreadableReply(RetryableError):
    """A successful HTTP reply that carries no usable answer."""


class _Strict(BaseModel):
    """Types as the OpenAI API defines them, no coercion (123 is not text); unknown fields are fine."""

    model_config = ConfigDict(strict=True)


class _Message(_Strict):
    content: str | None = None


class _Choice(_Strict):
    message: _Message | None = None
    text: str | None = None
    finish_reason: str | None = None


class _Usage(_Strict):
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


class _Reply(_Strict):
    choices: list[_Choice]
    usage: _Usage | None = None


def read_reply(body: bytes) -> tuple[str, str | None, _Usage]:
    """(text, finish reason, usage) of a completion reply's first choice; raises UnreadableReply for
    a body that breaks the schema, or that holds no text (an empty completion)."""
    try:
        reply = _Reply.model_validate_json(body)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise UnreadableReply(f"unreadable reply: {where + ': ' if where else ''}{first['msg']}: {body[:200]!r}") from None
    if not reply.choices:
        raise UnreadableReply("unreadable reply: no choices")
    choice = reply.choices[0]
    text = choice.message.content if choice.message is not None else choice.text
    if not (text or "").strip():
        reason = f" (finish_reason {choice.finish_reason})" if choice.finish_reason else ""
        raise UnreadableReply(f"{EMPTY_COMPLETION}{reason}")
    return text or "", choice.finish_reason, reply.usage or _Usage()


class AdaptiveLimiter:
    """Additive-increase / multiplicative-decrease bound on requests in flight."""

    def __init__(self, initial: int, maximum: int) -> None:
        self.limit = max(1, min(initial, maximum))
        self.maximum = maximum
        self.in_flight = 0
        self._successes = 0
        self._changed = asyncio.Condition()

    async def __aenter__(self) -> None:
        async with self._changed:
            await self._changed.wait_for(lambda: self.in_flight < self.limit)
            self.in_flight += 1

    async def __aexit__(self, *exc: object) -> None:
        async with self._changed:
            self.in_flight -= 1
            self._changed.notify_all()

    def throttled(self) -> None:
        self.limit = max(1, self.limit // 2)
        self._successes = 0

    def succeeded(self) -> None:
        self._successes += 1
        if self._successes >= self.limit and self.limit < self.maximum:
            self.limit += 1
            self._successes = 0


def _retryable(exc: BaseException) -> bool:
    return isinstance(exc, RetryableError | httpx.TimeoutException | httpx.TransportError)


def _backoff(state: RetryCallState) -> float:
    exc = state.outcome.exception() if state.outcome else None
    if isinstance(exc, RetryableStatus) and exc.retry_after is not None:
        return min(exc.retry_after, 60.0)
    return min(30.0, 0.5 * 2 ** (state.attempt_number - 1)) * (0.5 + random.random())


def _retry_after(response: httpx.Response) -> float | None:
    """Retry-After in seconds: a number of seconds or an HTTP date (RFC 9110 allows both)."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def _endpoint(spec: str) -> tuple[str, str]:
    """(model, base URL) of ``MODEL@URL``, or of ``MODEL`` alone with $OPENAI_BASE_URL or the OpenAI API."""
    match = _SPEC.match(spec)
    if match:
        url = httpx.URL(match["url"])
        if url.scheme not in ("http", "https") or not url.host:
            raise MedprobeError(
                f"'{match['url']}' is not an http:// or https:// URL with a host", field="--model",
                hint="use openai:MODEL@http://host:port/v1",
            )
        return match["model"], match["url"].rstrip("/")
    if _SCHEMELESS.match(spec):
        raise MedprobeError(f"the URL in '{spec}' has no http:// or https://", field="--model", hint="use openai:MODEL@http://host:port/v1")
    if not spec:
        raise MedprobeError("empty model name", field="--model", hint="use openai:MODEL@http://host:port/v1")
    return spec, os.environ.get("OPENAI_BASE_URL", "https://api.openai.com/v1").rstrip("/")


class OpenAIBackend:
    """A model behind an OpenAI-compatible HTTP API."""

    cacheable = True

    def __init__(self, spec: str, options: dict[str, str]) -> None:
        self.model, self.base_url = _endpoint(spec)
        self.model_id = f"openai:{self.model}@{self.base_url}"
        self.extra_sampling = httpx.URL(self.base_url).host not in STRICT_HOSTS
        self._checked = False
        key_env = options.get("key_env", "OPENAI_API_KEY")
        self.api_key = os.environ.get(key_env)
        self.max_concurrency = int(options.get("max_concurrency", 64))
        self.limiter = AdaptiveLimiter(int(options.get("concurrency", 16)), self.max_concurrency)
        self.attempts = int(options.get("retries", 5)) + 1
        timeout = float(options.get("timeout", 120))
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        self.client = httpx.AsyncClient(
            base_url=self.base_url,
            headers=headers,
            timeout=httpx.Timeout(timeout, connect=min(CONNECT_TIMEOUT_S, timeout)),
            limits=httpx.Limits(max_connections=self.max_concurrency, max_keepalive_connections=self.max_concurrency),
        )

    def identity(self) -> dict[str, Any]:
        return {"backend": "openai", "model": self.model, "base_url": self.base_url}

    async def check(self) -> None:
        """One cheap GET (once per backend): an unreachable server or a rejected key stops the run
        before it starts."""
        if self._checked:
            return
        try:
            response = await self.client.get("/models", timeout=httpx.Timeout(10.0, connect=CONNECT_TIMEOUT_S))
        except httpx.HTTPError as exc:
            raise MedprobeError(
                f"cannot reach the model endpoint {self.base_url}: {type(exc).__name__}: {exc}",
                field="--model",
                hint="is the server running and the URL right (it usually ends in /v1)?",
            ) from None
        if response.status_code in (401, 403):
            raise MedprobeError(
                f"the endpoint {self.base_url} refused the API key (HTTP {response.status_code})",
                hint="set OPENAI_API_KEY, or name another variable with -O key_env=NAME",
            )
        self._checked = True

    def _body(self, request: Request) -> tuple[str, dict[str, Any]]:
        params = request.params
        body: dict[str, Any] = {
            "model": self.model,
            "temperature": params.temperature,
            "top_p": params.top_p,
            "max_tokens": params.max_tokens,
        }
        if params.stop:
            body["stop"] = params.stop
        if request.seed is not None:
            body["seed"] = request.seed
        if self.extra_sampling:
            body.update({name: getattr(params, name) for name in EXTRA_SAMPLING if getattr(params, name) is not None})
        if request.messages is not None:
            body["messages"] = [m.model_dump() for m in request.messages]
            return "/chat/completions", body
        body["prompt"] = request.prompt or ""
        return "/completions", body

    async def _post(self, path: str, body: dict[str, Any]) -> tuple[str, str | None, _Usage]:
        async with self.limiter:
            response = await self.client.post(path, json=body)
        if response.status_code in RETRY_STATUSES:
            if response.status_code == 429:
                self.limiter.throttled()
            raise RetryableStatus(response.status_code, response.text, _retry_after(response))
        response.raise_for_status()
        read = read_reply(response.content)
        self.limiter.succeeded()
        return read

    async def complete(self, request: Request) -> Response:
        started = time.perf_counter()
        path, body = self._body(request)
        try:
            async for attempt in AsyncRetrying(
                stop=stop_after_attempt(self.attempts), wait=_backoff, retry=retry_if_exception(_retryable), reraise=True
            ):
                with attempt:
                    text, finish_reason, usage = await self._post(path, body)
        except httpx.HTTPStatusError as exc:
            return failed(request, f"HTTP {exc.response.status_code}: {exc.response.text[:300]}", started)
        except UnreadableReply as exc:
            return failed(request, f"{exc} (after {self.attempts} attempts)", started)
        except (RetryableStatus, httpx.HTTPError) as exc:
            return failed(request, f"{type(exc).__name__} after {self.attempts} attempts: {exc}", started)
        return Response(
            probe_id=request.probe_id,
            sample=request.sample,
            text=text,
            finish_reason=finish_reason,
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
            latency_s=time.perf_counter() - started,
        )

    async def aclose(self) -> None:
        await self.client.aclose()
