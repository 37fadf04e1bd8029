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

The HTTP client is aiohttp: on one server and one machine it answers several times more requests per
second than httpx, whose connection pool gets slower as connections grow (benchmarks/throughput.py
measures both). Concurrency is what the user asks (``-O concurrency``, default 16): throttling halves
it and successes grow it back to that, never beyond unless ``-O max_concurrency`` allows more.

Only an exact model id selects a host (:func:`_endpoint`); credentials in the URL are used and shown
nowhere (:mod:`medprobe.redact`). ``-O timeout`` bounds each whole request, a server trickling bytes
included; no redirect is followed (a request sent on could reach a host the user did not name); a reply
body over ``-O max_reply_bytes`` is not read as an answer.

Sampling parameters outside the OpenAI API (``top_k``, the repetition penalty) go under the names the
server's family reads (:mod:`medprobe.models.server_family`); the run's notes say what was sent.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import time
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict, ValidationError
from tenacity import AsyncRetrying, retry_if_exception_type, stop_after_attempt

from medprobe.errors import MedprobeError
from medprobe.models.base import EMPTY_COMPLETION, failed
from medprobe.models.server_family import extra_sampling, family_of_host, family_of_models, sent_note
from medprobe.records import Request, Response
from medprobe.redact import redacted

if TYPE_CHECKING:
    import aiohttp

#: the '@' that begins the URL of ``MODEL@URL``: the first one followed by a scheme (a model name may hold '@')
_URL_START = re.compile(r"@(?=[A-Za-z][A-Za-z0-9+.-]*://)")
#: what after an '@' is a host without its scheme (``localhost``, ``host:8000``, ``10.0.0.1``, ``host/v1``),
#: not the version tag some model names carry (``claude-3@20240229``)
_HOSTLIKE = re.compile(r"^localhost\b|[:/.]")
RETRY_STATUSES = {408, 409, 429, 500, 502, 503, 504}
#: seconds to open a connection, whatever -O timeout says: a server that is not there is known at once
CONNECT_TIMEOUT_S = 5.0
#: the largest reply body read, by default (``-O max_reply_bytes``): a completion is kilobytes, and a
#: server that sends megabytes is looping or is no completion endpoint; the body is held in memory
MAX_REPLY_BYTES = 4 * 1024 * 1024
REDIRECTS = frozenset({301, 302, 303, 307, 308})
DEFAULT_BASE_URL = "https://api.openai.com/v1"
HINT = "use openai:MODEL@http://host:port/v1 (or openai:MODEL alone for $OPENAI_BASE_URL, else the OpenAI API)"
JSON_HEADERS = {"content-type": "application/json"}


class RetryableError(Exception):
    """A failed attempt that the next attempt may get past."""


class StatusError(Exception):
    """An HTTP error status; retried only as :class:`RetryableStatus`."""

    def __init__(self, status: int, body: str) -> None:
        super().__init__(f"HTTP {status}: {redacted(body)[:300]}")  # a server's error page may echo a key back
        self.status = status


class RetryableStatus(StatusError, RetryableError):
    """An HTTP status worth retrying; carries the server's Retry-After when given."""

    def __init__(self, status: int, body: str, retry_after: float | None) -> None:
        super().__init__(status, body)
        self.retry_after = retry_after


class TransportFailure(RetryableError):
    """The connection failed or timed out. ``kind`` names it as the records always have
    (ConnectTimeout, ReadTimeout, ConnectError, RemoteProtocolError), whatever the HTTP client."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind


class ReplyTooLarge(Exception):
    """A reply body over the size limit: not held, not read as an answer, not retried (it would be as large again)."""


class UnreadableReply(RetryableError):
    """A successful HTTP reply that carries no usable answer."""


def transport_failure(exc: Exception) -> TransportFailure:
    """aiohttp's exception as a :class:`TransportFailure`."""
    import aiohttp

    if isinstance(exc, aiohttp.ConnectionTimeoutError):
        kind = "ConnectTimeout"
    elif isinstance(exc, TimeoutError):
        kind = "ReadTimeout"
    elif isinstance(exc, aiohttp.ClientConnectorError):
        kind = "ConnectError"
    else:
        kind = "RemoteProtocolError"
    return TransportFailure(kind, redacted(f"{type(exc).__name__}: {exc}"))


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
        raise UnreadableReply(f"unreadable reply: {where + ': ' if where else ''}{first['msg']}: {redacted(body.decode('utf-8', 'replace'))[:200]!r}") from None
    if not reply.choices:
        raise UnreadableReply("unreadable reply: no choices")
    choice = reply.choices[0]
    text = choice.message.content if choice.message is not None else choice.text
    if not (text or "").strip():
        reason = f" (finish_reason {choice.finish_reason})" if choice.finish_reason else ""
        raise UnreadableReply(f"{EMPTY_COMPLETION}{reason}")
    return text or "", choice.finish_reason, reply.usage or _Usage()


class AdaptiveLimiter:
    """Additive-increase / multiplicative-decrease bound on requests in flight: the limit halves on
    throttling and grows back by one after a run of successes, up to ``maximum``."""

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


def _backoff(exc: RetryableError, attempt: int) -> float:
    """Seconds to wait before the next attempt: the server's Retry-After (at most a minute), else
    exponential backoff with jitter."""
    if isinstance(exc, RetryableStatus) and exc.retry_after is not None:
        return min(exc.retry_after, 60.0)
    return min(30.0, 0.5 * 2 ** (attempt - 1)) * (0.5 + random.random())


def _retry_after(value: str | None) -> float | None:
    """Retry-After in seconds: a number of seconds or an HTTP date (RFC 9110 allows both)."""
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


def _host(url: str) -> str | None:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is no number
    except ValueError:
        return None
    return parts.hostname if parts.scheme in ("http", "https") else None


def _printable(text: str, given: str) -> None:
    """Refuse whitespace and control characters (``given`` names the option or variable)."""
    odd = next((i for i, c in enumerate(text) if c.isspace() or not c.isprintable()), None)
    if odd is not None:
        raise MedprobeError(
            f"{text[odd]!r} at position {odd + 1} of {redacted(text)!r}", field=given,
            hint="remove the whitespace (a trailing space or newline often comes with a copied id)",
        )


def _base_url(url: str, given: str) -> str:
    """``url`` as the base of every request, checked: an http:// or https:// URL with a host and no
    fragment (the checks of ``given``, the option or variable that named it)."""
    _printable(url, given)
    if not _host(url) or urlsplit(url).fragment:
        raise MedprobeError(f"'{redacted(url)}' is not an http:// or https:// URL with a host", field=given, hint=HINT)
    return url.rstrip("/")


def _endpoint(spec: str) -> tuple[str, str]:
    """(model, base URL) of ``MODEL@URL``, or of ``MODEL`` alone with $OPENAI_BASE_URL or the OpenAI API.

    Only an exact id selects a host: whitespace or a control character anywhere, an empty model name,
    an '@' with nothing or a host without scheme after it are refused, never read as a model name for
    the default host (which would send the prompts to a server the user did not name)."""
    _printable(spec, "--model")
    start = _URL_START.search(spec)
    model, url = (spec[: start.start()], spec[start.end() :]) if start else (spec, "")
    tail = spec.rpartition("@")[2]
    if not start and "@" in spec and (not tail or _HOSTLIKE.search(tail)):  # else a version tag, part of the name
        what = "nothing after '@'" if not tail else f"the URL '{redacted(tail)}' has no http:// or https://"
        raise MedprobeError(f"{what} in '{redacted(spec)}'", field="--model", hint=HINT)
    if not model or model.startswith("@"):
        raise MedprobeError(f"empty model name in '{redacted(spec)}'", field="--model", hint=HINT)
    if "://" in model:
        raise MedprobeError(f"the model name '{redacted(model)}' holds a URL not set off by '@'", field="--model", hint=HINT)
    if url:
        return model, _base_url(url, "--model")
    given = os.environ.get("OPENAI_BASE_URL")
    return model, _base_url(given, "OPENAI_BASE_URL") if given else DEFAULT_BASE_URL


class OpenAIBackend:
    """A model behind an OpenAI-compatible HTTP API."""

    cacheable = True

    def __init__(self, spec: str, options: dict[str, str]) -> None:
        self.model, self.base_url = _endpoint(spec)
        #: the base URL as shown and stored: without the credentials it may hold (they are used, not kept)
        self.shown_url = redacted(self.base_url)
        self.model_id = f"openai:{self.model}@{self.shown_url}"
        #: the server family (which sampling names it reads): given, a hosted API's, or asked in check()
        self.family = options.get("server") or family_of_host(_host(self.base_url) or "")
        self._checked = False
        key_env = options.get("key_env", "OPENAI_API_KEY")
        self.api_key = os.environ.get(key_env)
        concurrency = int(options.get("concurrency", 16))
        self.max_concurrency = max(concurrency, int(options.get("max_concurrency", concurrency)))
        self.limiter = AdaptiveLimiter(concurrency, self.max_concurrency)
        self.attempts = int(options.get("retries", 5)) + 1
        timeout = float(options.get("timeout", 120))
        self.timeout_s = timeout
        self.max_reply_bytes = int(options.get("max_reply_bytes", MAX_REPLY_BYTES))
        # user:password in the URL go as HTTP basic authentication (aiohttp sends them); one
        # Authorization header only, so the API key is not sent then
        with_userinfo = urlsplit(self.base_url).username is not None
        self.headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key and not with_userinfo else {}
        self._session: aiohttp.ClientSession | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        #: one line per distinct set of sampling parameters sent (the run's notes)
        self.sent: dict[str, None] = {}

    def identity(self) -> dict[str, Any]:
        return {"backend": "openai", "model": self.model, "base_url": self.shown_url}

    def _url(self, path: str) -> str:
        """The address of an endpoint: ``path`` after the base URL's path, before its query."""
        parts = urlsplit(self.base_url)
        return urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/") + path, parts.query, ""))

    def _http(self) -> aiohttp.ClientSession:
        """The HTTP session, made on first use inside the running event loop (an aiohttp session
        belongs to the loop it was made in; a later ``asyncio.run`` gets a session of its own).
        aiohttp is imported here, not with the module: a run answered from the cache never needs it,
        and importing it (with its TLS context) takes a third of a second."""
        import aiohttp

        loop = asyncio.get_running_loop()
        if self._session is None or self._session.closed or self._loop is not loop:
            connector = aiohttp.TCPConnector(limit=self.max_concurrency, limit_per_host=0)
            # -O timeout bounds the whole request (a server trickling bytes cannot stretch it)
            timeout = aiohttp.ClientTimeout(total=self.timeout_s, sock_connect=min(CONNECT_TIMEOUT_S, self.timeout_s))
            self._session = aiohttp.ClientSession(headers=self.headers, timeout=timeout, connector=connector)
            self._loop = loop
        return self._session

    async def check(self) -> None:
        """One cheap GET (once per backend): an unreachable server or a rejected key stops the run
        before it starts; its model list names the server family where none is known yet."""
        import aiohttp

        if self._checked:
            return
        session = self._http()
        timeout = aiohttp.ClientTimeout(total=10.0, sock_connect=CONNECT_TIMEOUT_S)
        try:
            async with session.get(self._url("/models"), timeout=timeout, allow_redirects=False) as response:
                status, content = response.status, await self._read(response)
                location = response.headers.get("location", "")
        except (aiohttp.ClientError, TimeoutError) as exc:
            failure = transport_failure(exc)
            raise MedprobeError(
                f"cannot reach the model endpoint {self.shown_url}: {failure.kind}: {failure}",
                field="--model",
                hint="is the server running and the URL right (it usually ends in /v1)?",
            ) from None
        except ReplyTooLarge as exc:
            raise MedprobeError(f"the model list of {self.shown_url}: {exc}", field="--model") from None
        if status in REDIRECTS:
            raise MedprobeError(
                f"the endpoint {self.shown_url} redirects to '{redacted(location)}'; medprobe follows no redirects "
                "(a request sent on could reach a host you did not name)", field="--model",
                hint="put the address it redirects to in --model",
            )
        if status in (401, 403):
            raise MedprobeError(
                f"the endpoint {self.shown_url} refused the API key (HTTP {status})",
                hint="set OPENAI_API_KEY, or name another variable with -O key_env=NAME",
            )
        if self.family is None:
            try:
                self.family = family_of_models(json.loads(content))
            except ValueError:
                self.family = family_of_models(None)
        self._checked = True

    def _body(self, request: Request) -> tuple[str, dict[str, Any]]:
        params = request.params
        family = self.family or "vllm"
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
        body.update(extra_sampling(family, params))
        self.sent[sent_note(family, self.shown_url, params)] = None
        if request.messages is not None:
            body["messages"] = [m.model_dump() for m in request.messages]
            return "/chat/completions", body
        body["prompt"] = request.prompt or ""
        return "/completions", body

    async def _post(self, url: str, data: bytes) -> tuple[str, str | None, _Usage]:
        import aiohttp  # imported by self._http() already

        async with self.limiter:
            try:
                async with self._http().post(url, data=data, headers=JSON_HEADERS, allow_redirects=False) as response:
                    status, content = response.status, await self._read(response)
                    retry_after, location = response.headers.get("retry-after"), response.headers.get("location", "")
            except (aiohttp.ClientError, TimeoutError) as exc:
                raise transport_failure(exc) from None
        if status in REDIRECTS:
            raise StatusError(status, f"redirect to '{redacted(location)}' not followed (medprobe follows no redirects)")
        if status in RETRY_STATUSES:
            if status == 429:
                self.limiter.throttled()
            raise RetryableStatus(status, content.decode("utf-8", "replace"), _retry_after(retry_after))
        if status >= 400:
            raise StatusError(status, content.decode("utf-8", "replace"))
        read = read_reply(content)
        self.limiter.succeeded()
        return read

    async def _read(self, response: aiohttp.ClientResponse) -> bytes:
        """The reply body, read up to ``max_reply_bytes`` (beyond it: ReplyTooLarge, nothing kept)."""
        limit = self.max_reply_bytes
        if (response.content_length or 0) > limit:
            raise ReplyTooLarge(f"reply of {response.content_length} bytes, over -O max_reply_bytes={limit}: not read")
        body = bytearray()
        async for chunk in response.content.iter_chunked(64 * 1024):
            body += chunk
            if len(body) > limit:
                raise ReplyTooLarge(f"reply over -O max_reply_bytes={limit} bytes: cut there and not read as an answer")
        return bytes(body)

    async def _attempts(self, url: str, data: bytes) -> tuple[str, str | None, _Usage]:
        """Post until an attempt succeeds or ``self.attempts`` have failed (the last failure raised).
        The first attempt is made directly: nearly all succeed, and tenacity's per-call machinery was
        5% of a run against a fast server; the retries after a failure go through tenacity."""
        try:
            return await self._post(url, data)
        except RetryableError as exc:
            if self.attempts == 1:
                raise
            await asyncio.sleep(_backoff(exc, 1))
        retries = AsyncRetrying(
            stop=stop_after_attempt(self.attempts - 1),
            wait=lambda state: _backoff(state.outcome.exception(), state.attempt_number + 1),  # type: ignore[union-attr, arg-type]
            retry=retry_if_exception_type(RetryableError),
            reraise=True,
        )
        return await retries(self._post, url, data)

    async def complete(self, request: Request) -> Response:
        started = time.perf_counter()
        path, body = self._body(request)
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        try:
            text, finish_reason, usage = await self._attempts(self._url(path), data)
        except UnreadableReply as exc:
            return failed(request, f"{exc} (after {self.attempts} attempts)", started)
        except RetryableStatus as exc:
            return failed(request, f"RetryableStatus after {self.attempts} attempts: {exc}", started)
        except (StatusError, ReplyTooLarge) as exc:
            return failed(request, str(exc), started)
        except TransportFailure as exc:
            return failed(request, f"{exc.kind} after {self.attempts} attempts: {exc}", started)
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
        if self._session is not None and self._loop is asyncio.get_running_loop():
            await self._session.close()
        self._session = self._loop = None
