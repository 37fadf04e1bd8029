"""Runs against a server that misbehaves (testing/fault_server.py): every fault kind, transient and
permanent. A run finishes, loses nothing, records every failure, and never scores a failure as an answer."""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from medprobe.contract import BuildOptions
from medprobe.engine.pipeline import RunPlan, run
from medprobe.errors import MedprobeError
from medprobe.models import make_backend
from medprobe.records import Message, Request, Response
from testing.fault_server import FAULTS, HARMLESS, FaultyOpenAI, prompt_of
from testing.fixtures import deterministic_reply, write_tiny_release
from testing.mock_server import MockOpenAI, http_response, serve_in_thread

#: what the recorded error of a request that failed on every attempt says, per fault kind
RECORDED = {
    "500": "HTTP 500",
    "429-seconds": "HTTP 429",
    "429-date": "HTTP 429",
    "drop": "RemoteProtocolError",
    "truncate": "RemoteProtocolError",
    "malformed-json": "unreadable reply",
    "empty-choices": "unreadable reply",
    "null-content": "empty completion",
    "empty-content": "empty completion",
    "wrong-types": "unreadable reply",
    "no-reply": "ReadTimeout",
    "trickle": "ReadTimeout",
}


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_release(tmp_path_factory.mktemp("release") / "medqa")


def a_third(prompt: str) -> bool:
    """A fixed third of the prompts (the permanent faults' victims)."""
    return hashlib.sha256(prompt.encode()).digest()[0] % 3 == 0


def go(mock: MockOpenAI, release: Path, out: Path, retries: int, use_cache: bool = False) -> dict[str, Any]:
    with serve_in_thread(mock) as url:
        outcome = run(RunPlan(
            method="multifacet", build=BuildOptions(data=str(release)), model=f"openai:mock@{url}", out=out, progress=False,
            use_cache=use_cache, model_options={"retries": str(retries), "timeout": "1", "concurrency": "8"},
        ))
    return {"summary": outcome.summary, "path": outcome.path}


def recorded(run_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (run_dir / "responses.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("fault", list(FAULTS))
def test_transient_faults_are_retried_and_lose_nothing(fault: str, release: Path, tmp_path: Path) -> None:
    mock = FaultyOpenAI(reply=deterministic_reply, fault=fault, rate=0.3, seed=1, keep_bodies=True)
    result = go(mock, release, tmp_path / "runs", retries=10)
    summary, lines = result["summary"], recorded(result["path"])
    requests = summary["run"]["requests"]
    assert summary["status"] == "complete" and summary["run"]["errors"] == 0
    assert mock.injected > 0
    # one line per request, each the server's true answer to that prompt
    assert len(lines) == len({line["probe_id"] for line in lines}) == requests
    expected = {prompt_of(body): deterministic_reply(body) for body in mock.bodies}
    by_probe = {line["probe_id"]: line["text"] for line in lines}
    assert sorted(by_probe.values()) == sorted(expected[p] for p in {prompt_of(b) for b in mock.bodies})
    # a faulted attempt costs exactly one more attempt; a delivered answer is never asked for again
    resent = 0 if fault in HARMLESS else mock.injected
    assert mock.posts == requests + resent
    assert fault in HARMLESS or all(not attempts[-1][1] for attempts in mock.attempts.values())  # the answer came last
    if fault.startswith("429"):  # Retry-After (1 s, or a date 1-2 s ahead) was waited out before the next attempt
        assert min(later[0] - earlier[0] for a in mock.attempts.values() for earlier, later in zip(a, a[1:], strict=False)) >= 0.9


@pytest.mark.parametrize("fault", sorted(set(FAULTS) - HARMLESS))
def test_permanent_faults_are_recorded_and_never_scored_as_answers(fault: str, release: Path, tmp_path: Path) -> None:
    mock = FaultyOpenAI(reply=deterministic_reply, fault=fault, sticky=a_third, hang_s=5)
    result = go(mock, release, tmp_path / "runs", retries=1)
    summary, lines = result["summary"], recorded(result["path"])
    failed = [line for line in lines if line["error"] is not None]
    victims = sum(a_third(prompt) for prompt in mock.attempts)
    assert victims > 0 and len(failed) == victims == summary["run"]["errors"]
    assert summary["status"].startswith("incomplete")
    assert len(lines) == summary["run"]["requests"]  # every request is recorded, answered or failed
    assert all(RECORDED[fault] in line["error"] and line["text"] == "" for line in failed)
    assert all(len(mock.attempts[p]) == 2 for p in mock.attempts if a_third(p))  # retried once, then given up
    # every failure is read as "no reply", none as an answer
    no_reply = sum(counts.get("no reply", 0) for counts in summary["reading"].values())
    assert no_reply == len(failed)
    assert summary["run"]["answered"] == summary["run"]["requests"] - len(failed)


def test_empty_completions_are_not_cached_and_a_rerun_gets_real_answers(release: Path, tmp_path: Path) -> None:
    mock = FaultyOpenAI(reply=deterministic_reply, fault="null-content", sticky=a_third)
    with serve_in_thread(mock) as url:
        plan = RunPlan(method="multifacet", build=BuildOptions(data=str(release)), model=f"openai:cache-test@{url}",
                       out=tmp_path / "runs", progress=False, model_options={"retries": "0"})
        first = run(plan).summary["run"]
        mock.sticky = lambda prompt: False  # the server is healthy again
        second = run(replace(plan, fresh=True)).summary["run"]  # a new directory: its answers come from the cache
    assert first["errors"] > 0 and first["empty_completions"] == first["errors"]
    assert second["errors"] == 0 and second["empty_completions"] == 0
    assert second["sent"] == first["errors"] and second["from_cache"] == first["answered"]


@pytest.mark.parametrize(
    ("choice", "usage", "error"),
    [
        ({"message": {"content": 123}}, None, "choices.0.message.content"),
        ({"message": {"content": "A"}}, [], "usage"),
        ({"message": {"content": "A"}, "finish_reason": {"type": "stop"}}, None, "choices.0.finish_reason"),
        ({"message": {"content": None}, "finish_reason": "length"}, None, "empty completion (finish_reason length)"),
        ({"message": {"content": " \n"}}, None, "empty completion"),
    ],
)
def test_an_unreadable_reply_is_that_requests_error(choice: dict[str, Any], usage: Any, error: str) -> None:
    class Odd(MockOpenAI):
        def respond(self, method: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
            if method == "GET":
                return super().respond(method, path, body)
            self.requests += 1
            return 200, {"choices": [choice], "usage": usage}

    async def ask(url: str) -> Response:
        backend = make_backend(f"openai:m@{url}", {"retries": "1"})
        try:
            return await backend.complete(Request(id="p#0", probe_id="p", messages=[Message(role="user", content="q")]))
        finally:
            await backend.aclose()

    mock = Odd()
    with serve_in_thread(mock) as url:
        response = asyncio.run(ask(url))
    assert response.error is not None and error in response.error and response.text == ""
    assert mock.requests == 2  # retried like any other failed attempt


def test_the_report_and_the_terminal_count_empty_completions(release: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from medprobe.cli import app

    mock = FaultyOpenAI(reply=deterministic_reply, fault="empty-content", sticky=a_third)
    with serve_in_thread(mock) as url:
        result = CliRunner().invoke(app, ["run", "multifacet", "--data", str(release), "--model", f"openai:m@{url}", "-q", "--no-cache",
                                          "-O", "retries=0", "--out", str(tmp_path / "runs")], env={"COLUMNS": "1000", "NO_COLOR": "1"})
    victims = sum(a_third(prompt) for prompt in mock.attempts)
    assert f"{victims} request(s) failed ({victims} of them empty completions)" in result.stderr
    report = (Path(result.stdout.strip().splitlines()[-1]) / "report.md").read_text()
    assert f"| empty replies: answers / failed requests | 0 / {victims} |" in report


# --- the whole request is bounded, redirects are not followed, replies are capped -------------------------


def ask_once(url: str, options: dict[str, str]) -> tuple[Response, float]:
    """One request through the openai backend: its response and how long it took."""

    async def go() -> Response:
        backend = make_backend(f"openai:m@{url}", options)
        try:
            return await backend.complete(Request(id="p#0", probe_id="p", messages=[Message(role="user", content="q")]))
        finally:
            await backend.aclose()

    started = time.perf_counter()
    response = asyncio.run(go())
    return response, time.perf_counter() - started


def test_a_trickling_server_cannot_stretch_a_request_past_its_timeout() -> None:
    """Every read comes within the timeout (a byte each 0.25 s); -O timeout bounds the whole request."""
    mock = FaultyOpenAI(reply=deterministic_reply, fault="trickle", rate=1.0, hang_s=8)
    with serve_in_thread(mock) as url:
        response, took = ask_once(url, {"timeout": "1", "retries": "0"})
    assert response.error is not None and "ReadTimeout" in response.error and response.text == ""
    assert took < 3, took


@dataclass
class Counting(MockOpenAI):
    """A server that counts every request it gets, GET included (the host a redirect points to)."""

    hits: int = 0

    async def send(self, writer: asyncio.StreamWriter, method: str, path: str, body: dict[str, Any]) -> bool:
        self.hits += 1
        return await super().send(writer, method, path, body)


@dataclass
class Redirecting(MockOpenAI):
    """Answers GET /models, then redirects every completion (307, which keeps the POST) to ``target``."""

    target: str = ""
    also_models: bool = False

    async def send(self, writer: asyncio.StreamWriter, method: str, path: str, body: dict[str, Any]) -> bool:
        if method == "GET" and not self.also_models:
            return await super().send(writer, method, path, body)
        writer.write(http_response(307, b"{}", {"location": self.target + path.removeprefix("/v1")}))
        await writer.drain()
        return True


def test_a_redirect_to_another_host_is_not_followed(release: Path, tmp_path: Path) -> None:
    other = Counting()
    with serve_in_thread(other) as target:
        with serve_in_thread(Redirecting(target=target)) as url:
            response, _ = ask_once(url, {"retries": "0"})
        with serve_in_thread(Redirecting(target=target, also_models=True)) as url, pytest.raises(MedprobeError, match="redirects to"):
            run(RunPlan(method="multifacet", build=BuildOptions(data=str(release)), model=f"openai:m@{url}", out=tmp_path / "runs",
                        progress=False, use_cache=False))
    assert response.error is not None and "307" in response.error and "not followed" in response.error
    assert other.hits == 0, "a request reached the host the redirect named"


def test_a_reply_over_the_size_limit_is_cut_recorded_and_not_an_answer(tmp_path: Path) -> None:
    huge = "A" * 2_000_000
    mock = MockOpenAI(reply=lambda body: huge)
    with serve_in_thread(mock) as url:
        response, _ = ask_once(url, {"max_reply_bytes": "100000", "retries": "3"})
        within, _ = ask_once(url, {"retries": "0"})  # the default limit (4 MiB) reads it
    assert response.error is not None and "max_reply_bytes=100000" in response.error and response.text == ""
    assert mock.requests == 2, "a reply over the limit is not asked for again"
    assert within.error is None and within.text == huge


# --- credentials in the URL are used, never shown or stored ---------------------------------------------


class QueryTolerant(MockOpenAI):
    """A server whose routes ignore the query string (the URL carries ?key=…)."""

    async def send(self, writer: asyncio.StreamWriter, method: str, path: str, body: dict[str, Any]) -> bool:
        return await super().send(writer, method, path.partition("?")[0], body)


def test_credentials_in_the_url_are_in_no_file_and_no_output(release: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from medprobe.cli import app

    home, out = tmp_path / "home", tmp_path / "runs"
    mock = QueryTolerant(reply=deterministic_reply)
    outputs = []
    with serve_in_thread(mock) as url:
        for password in ("s3cret-one", "s3cret-two"):  # the cache key does not hold the secret: the second run is all cached
            authority = url.replace("http://", f"http://user:{password}@")
            result = CliRunner().invoke(app, ["run", "multifacet", "--data", str(release), "--model", f"openai:m@{authority}?key=k3y-v4lue",
                                              "--out", str(out), "--fresh", "-O", "retries=0"],
                                        env={"COLUMNS": "1000", "NO_COLOR": "1", "MEDPROBE_HOME": str(home)})
            assert result.exit_code == 0, result.output
            outputs.append(result.output)
    assert mock.requests > 0
    summaries = [json.loads((path / "summary.json").read_text()) for path in sorted(out.iterdir())]
    assert summaries[0]["run"]["sent"] == mock.requests and summaries[1]["run"]["from_cache"] == mock.requests
    assert "openai:m@http://***@127.0.0.1" in summaries[0]["model"] and "key=***" in summaries[0]["model"]
    stored = [p for p in (*out.rglob("*"), *home.rglob("*")) if p.is_file()]
    assert any(p.name == "responses.sqlite" for p in stored) and any(p.suffix == ".lock" for p in stored)
    for secret in ("s3cret", "k3y-v4lue"):
        assert not any(secret in p.name for p in (*out.rglob("*"), *home.rglob("*")))
        assert not [p for p in stored if secret.encode() in p.read_bytes()]
        assert not [o for o in outputs if secret in o]
