"""A tiny OpenAI-compatible HTTP server for tests, benchmarks and smoke checks.

Stdlib only (asyncio streams, HTTP/1.1 keep-alive). It answers ``GET /v1/models``,
``POST /v1/chat/completions`` and ``POST /v1/completions`` with a reply chosen by a function of
the request body, and can misbehave on purpose: fail the first N requests with a status code,
answer with empty text, or wait before answering.

    with serve_in_thread(MockOpenAI(reply=lambda body: "A")) as base_url:
        ...  # openai:mock@{base_url}
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any


def _last_user_text(body: dict[str, Any]) -> str:
    if "messages" in body:
        return str(body["messages"][-1].get("content", ""))
    return str(body.get("prompt", ""))


@dataclass
class MockOpenAI:
    reply: Callable[[dict[str, Any]], str] = lambda body: "A"
    fail_first: int = 0
    fail_status: int = 500
    delay_s: float = 0.0
    requests: int = 0
    bodies: list[dict[str, Any]] = field(default_factory=list)
    keep_bodies: bool = False

    def respond(self, method: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if method == "GET" and path.endswith("/models"):
            return 200, {"object": "list", "data": [{"id": "mock", "object": "model"}]}
        if method == "GET" and path.endswith("/stats"):  # for benchmarks: how many completions were asked
            return 200, {"requests": self.requests}
        if method != "POST" or not path.endswith(("/chat/completions", "/completions")):
            return 404, {"error": {"message": f"no route {method} {path}"}}
        self.requests += 1
        if self.keep_bodies:
            self.bodies.append(body)
        if self.requests <= self.fail_first:
            return self.fail_status, {"error": {"message": "injected failure"}}
        text = self.reply(body)
        prompt_tokens, completion_tokens = len(_last_user_text(body).split()), len(text.split())
        # total_tokens too: clients that read the OpenAI schema strictly (inspect_ai) require it
        usage = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens, "total_tokens": prompt_tokens + completion_tokens}
        choice: dict[str, Any] = {"index": 0, "finish_reason": "stop"}
        if path.endswith("/chat/completions"):
            choice["message"] = {"role": "assistant", "content": text}
        else:
            choice["text"] = text
        reply = {"id": f"mock-{self.requests}", "object": "completion", "created": 0, "model": str(body.get("model", "mock"))}
        return 200, {**reply, "choices": [choice], "usage": usage}

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, path, _ = lines[0].split(" ", 2)
                headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
                raw = await reader.readexactly(int(headers.get("content-length", "0")))
                body = json.loads(raw) if raw else {}
                if self.delay_s:
                    await asyncio.sleep(self.delay_s)
                if not await self.send(writer, method, path, body):
                    break
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass  # the client left, or the server is stopping (ending quietly: Python 3.11 logs a cancelled handler)
        finally:
            writer.close()

    async def send(self, writer: asyncio.StreamWriter, method: str, path: str, body: dict[str, Any]) -> bool:
        """Write the answer to one request; False closes the connection. The one place a subclass
        changes what goes on the wire (testing/fault_server.py injects its faults here)."""
        status, payload = self.respond(method, path, body)
        writer.write(http_response(status, json.dumps(payload).encode()))
        await writer.drain()
        return True


def http_response(status: int, data: bytes, headers: dict[str, str] | None = None, length: int | None = None) -> bytes:
    """An HTTP/1.1 response with a JSON body; ``length`` overrides the content-length (to announce
    more than is sent)."""
    lines = [f"HTTP/1.1 {status} X", "content-type: application/json", f"content-length: {len(data) if length is None else length}"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + data


@contextmanager
def serve_in_thread(mock: MockOpenAI, host: str = "127.0.0.1") -> Iterator[str]:
    """Run the server on a free port in a background thread; yield its base URL (…/v1)."""
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    state: dict[str, Any] = {}

    async def start() -> None:
        server = await asyncio.start_server(mock.handle, host, 0)
        state["server"] = server
        state["port"] = server.sockets[0].getsockname()[1]
        ready.set()

    thread = threading.Thread(target=lambda: (loop.run_until_complete(start()), loop.run_forever()), daemon=True)
    thread.start()
    ready.wait(10)
    async def stop() -> None:
        """Close the server and finish its connection handlers while the loop still runs."""
        state["server"].close()
        handlers = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in handlers:
            task.cancel()
        await asyncio.gather(*handlers, return_exceptions=True)

    try:
        yield f"http://{host}:{state['port']}/v1"
    finally:
        asyncio.run_coroutine_threadsafe(stop(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


def main() -> None:
    """``python -m testing.mock_server --port 8123 [--delay 0.02]`` (from the repository root): serve until interrupted (answers
    "A", each reply ``--delay`` seconds late; ``GET /v1/stats`` counts the completions asked)."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8123)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds each reply waits (a model's latency)")
    args = parser.parse_args()
    mock = MockOpenAI(delay_s=args.delay)

    async def serve() -> None:
        server = await asyncio.start_server(mock.handle, args.host, args.port)
        print(f"http://{args.host}:{args.port}/v1", flush=True)
        async with server:
            await server.serve_forever()

    with suppress(KeyboardInterrupt):
        asyncio.run(serve())


if __name__ == "__main__":
    main()
