"""The runner, cache, resume and backends, against a local mock OpenAI-compatible server."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from medprobe.contract import BuildOptions
from medprobe.engine.cache import ResponseCache, cache_key
from medprobe.engine.pipeline import RunPlan, run
from medprobe.errors import MedprobeError
from medprobe.models import make_backend
from medprobe.records import AnswerFormat, GenerationParams, Message, Request
from testing.fixtures import deterministic_reply, write_tiny_kb
from testing.mock_server import MockOpenAI, serve_in_thread


def plan(kb: Path, model: str, out: Path, **kwargs: object) -> RunPlan:
    return RunPlan(method="multifacet", build=BuildOptions(data=str(kb), seed=0), model=model, out=out, progress=False, **kwargs)


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    return write_tiny_kb(tmp_path / "kb.jsonl")


def test_cache_key_covers_everything_that_changes_output() -> None:
    base = Request(id="p#0", probe_id="p", messages=[Message(role="user", content="q")], params=GenerationParams())
    variants = [
        base.model_copy(update={"messages": [Message(role="user", content="q2")]}),
        base.model_copy(update={"params": GenerationParams(temperature=0.5)}),
        base.model_copy(update={"params": GenerationParams(max_tokens=7)}),
        base.model_copy(update={"params": GenerationParams(stop=["x"])}),
        base.model_copy(update={"sample": 1}),
        base.model_copy(update={"seed": 3}),
        base.model_copy(update={"messages": None, "prompt": "q"}),
    ]
    identity = {"backend": "openai", "model": "m", "base_url": "u"}
    keys = {cache_key(identity, base)} | {cache_key(identity, v) for v in variants}
    keys.add(cache_key({**identity, "model": "other"}, base))
    assert len(keys) == len(variants) + 2
    # the request id is bookkeeping, not input: same prompt under another id shares the entry
    assert cache_key(identity, base.model_copy(update={"id": "other#0"})) == cache_key(identity, base)


def test_repeated_command_finishes_from_cache(kb: Path, tmp_path: Path) -> None:
    mock = MockOpenAI(reply=deterministic_reply)
    with serve_in_thread(mock) as url:
        first = run(plan(kb, f"openai:mock@{url}", tmp_path / "runs"))
        sent = mock.requests
        second = run(plan(kb, f"openai:mock@{url}", tmp_path / "runs"))
    requests = first.summary["run"]["requests"]
    assert sent == requests == first.summary["run"]["sent"] > 0
    assert mock.requests == sent, "the second run must not call the model"
    assert second.summary["run"]["from_cache"] == requests and second.summary["run"]["sent"] == 0
    assert second.summary["metrics"] == first.summary["metrics"]
    assert first.path != second.path
    for name in ("config.json", "probes.jsonl", "responses.jsonl", "scores.jsonl", "summary.json", "report.md"):
        assert (first.path / name).exists()


def test_sampled_generations_are_cached_per_sample(kb: Path, tmp_path: Path) -> None:
    mock = MockOpenAI(reply=deterministic_reply, keep_bodies=True)
    with serve_in_thread(mock) as url:
        first = run(plan(kb, f"openai:mock@{url}", tmp_path / "runs", temperature=0.7, repeats=2))
        sent = mock.requests
        again = run(plan(kb, f"openai:mock@{url}", tmp_path / "runs", temperature=0.7, repeats=2))
    assert sent == first.summary["run"]["requests"] == 2 * first.summary["run"]["probes"]
    assert len({b["seed"] for b in mock.bodies}) == 2, "each sample index has its own sampling seed"
    assert again.summary["run"]["sent"] == 0 and again.summary["run"]["from_cache"] == sent
    assert first.summary["metrics"]["repeats"] == 2


def test_resume_after_sigkill_sends_no_finished_request_again(kb: Path, tmp_path: Path) -> None:
    mock = MockOpenAI(reply=deterministic_reply, delay_s=0.01, keep_bodies=True)
    out = tmp_path / "runs"
    with serve_in_thread(mock) as url:
        model = f"openai:mock@{url}"
        cmd = [sys.executable, "-m", "medprobe.cli", "run", "multifacet", "--data", str(kb), "--model", model,
               "--out", str(out), "-q", "-O", "concurrency=2", "-O", "max_concurrency=2"]
        child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=os.environ.copy())
        responses = None
        deadline = time.time() + 60
        while time.time() < deadline:
            found = list(out.glob("*/responses.jsonl"))
            if found and sum(1 for _ in found[0].open()) >= 40:
                responses = found[0]
                break
            time.sleep(0.05)
        assert responses is not None, child.communicate(timeout=5)
        child.send_signal(signal.SIGKILL)
        child.wait(10)
        done_before = {json.loads(line)["probe_id"] for line in responses.read_text().splitlines() if line.strip().endswith("}")}
        sent_before = mock.requests
        mock.bodies.clear()
        resumed = run(plan(kb, model, out))
    assert resumed.resumed and resumed.path == responses.parent
    total = resumed.summary["run"]["requests"]
    assert sent_before < total
    resent = {b["messages"][-1]["content"] for b in mock.bodies}
    probes = {json.loads(line)["id"]: json.loads(line)["prompt"] for line in (resumed.path / "probes.jsonl").open()}
    assert not resent & {probes[p] for p in done_before}, "a finished request was sent again"
    with serve_in_thread(MockOpenAI(reply=deterministic_reply)) as url2:
        clean = run(plan(kb, f"openai:mock@{url2}", tmp_path / "clean", use_cache=False))
    assert resumed.summary["metrics"] == clean.summary["metrics"]
    assert resumed.summary["run"]["errors"] == 0


def test_throttling_and_server_errors_are_retried(kb: Path, tmp_path: Path) -> None:
    for status in (429, 503):
        mock = MockOpenAI(reply=deterministic_reply, fail_first=3, fail_status=status)
        with serve_in_thread(mock) as url:
            outcome = run(plan(kb, f"openai:mock@{url}", tmp_path / f"runs{status}", use_cache=False, model_options={"retries": "5"}))
        assert outcome.summary["run"]["errors"] == 0
        assert mock.requests == outcome.summary["run"]["requests"] + 3


def test_client_errors_are_recorded_and_a_dead_model_stops_the_run(kb: Path, tmp_path: Path) -> None:
    mock = MockOpenAI(fail_first=10_000, fail_status=400)
    with serve_in_thread(mock) as url, pytest.raises(MedprobeError, match="failed requests in a row.*HTTP 400"):
        run(plan(kb, f"openai:mock@{url}", tmp_path / "runs", use_cache=False))
    lines = next((tmp_path / "runs").glob("*/responses.jsonl")).read_text().splitlines()
    assert lines and all(json.loads(line)["error"].startswith("HTTP 400") for line in lines)


def test_unreachable_endpoint_is_a_clear_error(kb: Path, tmp_path: Path) -> None:
    with pytest.raises(MedprobeError, match="cannot reach the model endpoint http://127.0.0.1:9/v1"):
        run(plan(kb, "openai:m@http://127.0.0.1:9/v1", tmp_path / "runs", use_cache=False))


def test_model_returning_empty_text_fails_the_command(kb: Path, tmp_path: Path) -> None:
    """Over HTTP an empty completion is a failed request; a server that only sends them stops the run."""
    with serve_in_thread(MockOpenAI(reply=lambda body: "")) as url:
        result = subprocess.run(
            [sys.executable, "-m", "medprobe.cli", "run", "multifacet", "--data", str(kb), "--model", f"openai:m@{url}",
             "--out", str(tmp_path / "runs"), "-q", "--no-cache", "-O", "retries=0"],
            capture_output=True, text=True, env=os.environ.copy(), timeout=120,
        )
    assert result.returncode == 2
    assert "failed requests in a row; last error: empty completion" in " ".join(result.stderr.split())
    lines = next((tmp_path / "runs").glob("*/responses.jsonl")).read_text().splitlines()
    assert lines and all(json.loads(line)["error"].startswith("empty completion") for line in lines)


def test_unknown_backend_and_options_are_clear_errors() -> None:
    with pytest.raises(MedprobeError, match="unknown model backend 'gpt'"):
        make_backend("gpt:4")
    with pytest.raises(MedprobeError, match="not understood by the llamacpp backend"):
        make_backend("llamacpp:default", {"concurrency": "4"})


def test_random_model_answers_in_format_and_is_reproducible() -> None:
    backend = make_backend("random", seed=1)
    formats = {
        "option_letter": AnswerFormat(kind="option_letter", options=list("ABCDE")),
        "letter_set": AnswerFormat(kind="letter_set", options=list("ABCD")),
        "true_false": AnswerFormat(kind="true_false"),
        "verdict_letter": AnswerFormat(kind="verdict_letter", options=list("ABCD"), given="B"),
    }

    async def ask(kind: str, i: int) -> str:
        request = Request(id=f"{kind}{i}#0", probe_id=f"{kind}{i}", prompt="q", answer_format=formats[kind])
        return (await backend.complete(request)).text

    replies = {kind: [asyncio.run(ask(kind, i)) for i in range(200)] for kind in formats}
    assert set(replies["option_letter"]) == set("ABCDE")
    assert set(replies["true_false"]) == {"true", "false"}
    assert all(r == "correct" or r.startswith("incorrect, the correct answer is ") for r in replies["verdict_letter"])
    assert all(set(r.split(",")) <= set("ABCD") and r for r in replies["letter_set"])
    assert asyncio.run(ask("option_letter", 7)) == replies["option_letter"][7]


def test_embedded_model_is_greedy_and_reports_usage() -> None:
    backend = make_backend("llamacpp:default", {"n_ctx": "512"})
    request = Request(
        id="p#0", probe_id="p", messages=[Message(role="user", content="Is fever a symptom? Reply yes or no.")],
        params=GenerationParams(max_tokens=8),
    )

    async def twice() -> list[str]:
        try:
            return [(await backend.complete(request)).text for _ in range(2)]
        finally:
            await backend.aclose()

    first, second = asyncio.run(twice())
    assert first and first == second
    too_long = request.model_copy(update={"messages": [Message(role="user", content="word " * 2000)]})
    response = backend.complete_sync(too_long)  # type: ignore[attr-defined]
    assert response.error and "context" in response.error.lower()


def test_cache_survives_reopen(tmp_path: Path) -> None:
    from medprobe.records import Response

    cache = ResponseCache(tmp_path / "c.sqlite")
    cache.put("k", "m", Response(probe_id="p", text="hello", prompt_tokens=3))
    cache.close()
    again = ResponseCache(tmp_path / "c.sqlite")
    assert again.get_many(["k", "missing"])["k"].text == "hello"
    assert again.stats()["total"] == 1
    assert again.clear() == 1


def test_completion_prompt_style_uses_the_completions_endpoint(kb: Path, tmp_path: Path) -> None:
    mock = MockOpenAI(reply=deterministic_reply, keep_bodies=True)
    with serve_in_thread(mock) as url:
        outcome = run(plan(kb, f"openai:mock@{url}", tmp_path / "runs", prompt_style="completion", use_cache=False))
    assert outcome.summary["run"]["errors"] == 0
    assert all("prompt" in b and "messages" not in b for b in mock.bodies)
    assert all(b["prompt"].endswith("Answer: ") for b in mock.bodies)


def test_adaptive_limiter_halves_on_throttling_and_grows_back() -> None:
    from medprobe.models.openai import AdaptiveLimiter

    limiter = AdaptiveLimiter(initial=16, maximum=20)
    limiter.throttled()
    limiter.throttled()
    assert limiter.limit == 4
    for _ in range(4):
        limiter.succeeded()
    assert limiter.limit == 5, "one step up after a full window of successes"
    for _ in range(200):
        limiter.succeeded()
    assert limiter.limit == 20, "never above the maximum"
    for _ in range(10):
        limiter.throttled()
    assert limiter.limit == 1, "never below one"


def test_batch_protocol_answers_in_request_order() -> None:
    from medprobe.models import generate

    backend = make_backend("random", seed=3)
    fmt = AnswerFormat(kind="option_letter", options=list("ABCD"))
    requests = [Request(id=f"p{i}#0", probe_id=f"p{i}", prompt="q", answer_format=fmt) for i in range(50)]
    responses = asyncio.run(generate(backend, requests))
    assert [r.probe_id for r in responses] == [r.probe_id for r in requests]
    assert all(r.text in "ABCD" and r.error is None for r in responses)


def test_progress_off_a_terminal_is_a_plain_line_now_and_then(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A long run piped to a file showed no progress at all: no bar can be drawn there."""
    from medprobe.engine import runner

    monkeypatch.setattr(runner, "PLAIN_EVERY_S", 0.0)
    monkeypatch.setattr(runner, "SHOW_EVERY_S", 0.0)
    with runner.ProgressBar(4, enabled=True, label="mock") as bar:
        assert bar.plain, "pytest's captured stderr is not a terminal"
        bar.advance(errors=0)
        bar.advance(errors=1)
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("mock: ")]
    assert lines[0].startswith("mock: 1/4 req, ") and "1 errors" in lines[1]
