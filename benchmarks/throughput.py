"""Throughput at scale: medprobe against lm-eval, inspect_ai and bare HTTP loops, as a user runs them.

    .venv/bin/python -m benchmarks.throughput [--data ../shared/data] [--peers-venv DIR] [--trials N]
        [--concurrency 16,64] [--delay 0.02] [--inspect-at-scale] [--tools medprobe,inspect_ai] [--skip-peers] [--skip-extras]

One OpenAI-compatible mock server (testing.mock_server, its own process, each reply ``--delay`` late,
counting requests) answers every tool. The work is medprobe's own prompts on the MultiMedQA release
(../shared/data; the benchmark skips, saying so, where it is absent):
- 795 MCQs: ``medprobe run multicog --level low --repeats 1`` on multicogeval/medqa;
- 7,155 requests: ``medprobe run multifacet`` on multifaceteval/medqa (every facet and negation).
Each tool runs in a process of its own, end to end (start-up, reading, asking, scoring, writing), and
the wall time and peak memory (ru_maxrss of that process) are measured from outside:
- medprobe, ``-O concurrency=C``, no response cache;
- lm-eval (``local-chat-completions``, ``num_concurrent=C``) and inspect_ai (``openai-api``,
  ``--max-connections C``) on a task that asks exactly the prompts medprobe asked (taken from its run
  directory), installed from PyPI into a separate virtual environment (``--peers-venv``, created with
  pip when missing; a peer that cannot be installed is skipped with a message). inspect_ai runs at
  795 only unless ``--inspect-at-scale`` (it takes minutes at 7,155);
- bare loops (``--bare httpx|aiohttp``, this script in a process of its own): C workers posting the
  same prompts and decoding the JSON, nothing else; the limit of each HTTP client.
Trials are interleaved (each round runs every tool once) and medians are printed, with the ratios the
targets name. Then: a fully cached re-run of the 7,155 requests, ``medprobe --help``, and
``medprobe run multifacet --data builtin:en --limit 8000 --include-unmeasured --model random`` (wall time and peak memory).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
PEER_PACKAGES = {"lm-eval": ["lm-eval[api]"], "inspect_ai": ["inspect_ai", "openai"]}


@dataclass
class Work:
    name: str
    args: list[str]


@dataclass
class Measured:
    wall_s: float
    peak_mb: float
    requests: int

    def rate(self) -> float:
        return self.requests / self.wall_s


def works(data: Path) -> list[Work]:
    return [
        Work("795 MCQs", ["multicog", "--level", "low", "--repeats", "1", "--data", str(data / "multicogeval" / "medqa")]),
        Work("7,155 MultifacetEval", ["multifacet", "--data", str(data / "multifaceteval" / "medqa")]),
    ]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def mock_server(delay: float = 0.0) -> Iterator[str]:
    """The mock OpenAI-compatible server in a process of its own, each reply ``delay`` s late; its URL."""
    server = subprocess.Popen([sys.executable, "-m", "testing.mock_server", "--port", str(free_port()), "--delay", str(delay)],
                              stdout=subprocess.PIPE, cwd=ROOT)
    assert server.stdout is not None
    try:
        yield server.stdout.readline().decode().strip()
    finally:
        server.terminate()
        server.wait(5)


def served(url: str) -> int:
    """Completions the mock server has answered so far."""
    with urllib.request.urlopen(f"{url}/stats") as reply:
        return int(json.loads(reply.read())["requests"])


def measure(command: list[str], url: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> Measured:
    """Run ``command`` to its end; its wall time, peak memory and the completions it asked."""
    before = served(url)
    started = time.perf_counter()
    process = subprocess.Popen(command, env={**os.environ, **(env or {})}, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert process.stderr is not None
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if status != 0:
        raise RuntimeError(f"{command[0]} failed ({status}): {errors.decode(errors='replace')[-2000:]}")
    return Measured(wall, usage.ru_maxrss / 1024, served(url) - before)


def medprobe_run(work: Work, url: str, concurrency: int, home: Path, out: Path, cache: bool = False) -> Measured:
    command = [str(BIN / "medprobe"), "run", *work.args, "--model", f"openai:mock@{url}", "-O", f"concurrency={concurrency}",
               "--fresh", "-q", "--out", str(out)]
    return measure(command + ([] if cache else ["--no-cache"]), url, {"MEDPROBE_HOME": str(home)})


def export_prompts(out: Path, target: Path) -> int:
    """The prompts of medprobe's newest run under ``out``, as JSONL rows (id, input, target) for the peers."""
    run_dir = max(out.iterdir(), key=lambda p: p.stat().st_mtime)
    rows = 0
    with (run_dir / "probes.jsonl").open(encoding="utf-8") as probes, target.open("w", encoding="utf-8") as handle:
        for line in probes:
            probe = json.loads(line)
            text = f"{probe['system']}\n\n{probe['prompt']}" if probe.get("system") else probe["prompt"]
            handle.write(json.dumps({"id": probe["id"], "input": text, "target": "A"}, ensure_ascii=False) + "\n")
            rows += 1
    return rows


LM_EVAL_TASK = """task: medprobe_prompts
dataset_path: json
dataset_kwargs:
  data_files:
    test: {prompts}
test_split: test
output_type: generate_until
doc_to_text: "{{{{input}}}}"
doc_to_target: "{{{{target}}}}"
generation_kwargs:
  until: []
  max_gen_toks: 8
  do_sample: false
metric_list:
  - metric: exact_match
"""

INSPECT_TASK = '''import json, os
from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import match
from inspect_ai.solver import generate


@task
def medprobe_prompts():
    with open(os.environ["MEDPROBE_BENCH_PROMPTS"], encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    return Task(dataset=MemoryDataset([Sample(input=r["input"], target=r["target"], id=r["id"]) for r in rows]),
                solver=generate(), scorer=match())
'''


def lm_eval_run(venv: Path, prompts: Path, url: str, concurrency: int, scratch: Path) -> Measured:
    folder = scratch / f"lm-eval-{prompts.stem}"
    folder.mkdir(exist_ok=True)
    (folder / "task.yaml").write_text(LM_EVAL_TASK.format(prompts=prompts), encoding="utf-8")
    args = f"model=mock,base_url={url}/chat/completions,num_concurrent={concurrency},max_retries=3,tokenized_requests=False"
    command = [str(venv / "bin" / "lm_eval"), "--model", "local-chat-completions", "--model_args", args,
               "--tasks", "medprobe_prompts", "--include_path", str(folder), "--apply_chat_template"]
    return measure(command, url, {"HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"})


def inspect_run(venv: Path, prompts: Path, url: str, concurrency: int, scratch: Path) -> Measured:
    task = scratch / "inspect_task.py"
    task.write_text(INSPECT_TASK, encoding="utf-8")
    logs = scratch / "inspect-logs"
    shutil.rmtree(logs, ignore_errors=True)
    command = [str(venv / "bin" / "inspect"), "eval", task.name, "--model", "openai-api/mock/mock", "--max-connections",
               str(concurrency), "--display", "none", "--log-dir", str(logs), "--max-tokens", "8", "--temperature", "0"]
    env = {"MEDPROBE_BENCH_PROMPTS": str(prompts), "MOCK_BASE_URL": url, "MOCK_API_KEY": "unused"}
    return measure(command, url, env, cwd=scratch)  # inspect takes a task file relative to where it runs


def bare_run(client: str, prompts: Path, url: str, concurrency: int) -> Measured:
    command = [sys.executable, "-m", "benchmarks.throughput", "--bare", client, "--url", url, "--prompts", str(prompts), "--concurrency", str(concurrency)]
    return measure(command, url, cwd=ROOT)


def peer_venv(venv: Path) -> dict[str, str]:
    """Which peers the virtual environment has: name -> '' (usable) or why not. Installs them from
    PyPI with pip into ``venv`` when missing."""
    status = {}
    for peer, packages in PEER_PACKAGES.items():
        entry = venv / "bin" / ("lm_eval" if peer == "lm-eval" else "inspect")
        if not entry.exists():
            if not (venv / "bin" / "python").exists():
                subprocess.run([sys.executable, "-m", "venv", str(venv)], check=False, capture_output=True)
            print(f"installing {peer} into {venv} from PyPI ...", flush=True)
            subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", *packages], check=False, capture_output=True)
        status[peer] = "" if entry.exists() else f"not installable into {venv} (pip install {' '.join(packages)} failed)"
    return status


async def bare_loop(client: str, url: str, prompts: list[str], concurrency: int) -> None:
    """``concurrency`` workers over one queue, each posting a chat completion and decoding the reply."""
    queue = iter(prompts)
    bodies = ({"model": "mock", "messages": [{"role": "user", "content": p}], "max_tokens": 8, "temperature": 0} for p in queue)
    if client == "httpx":
        import httpx

        limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
        async with httpx.AsyncClient(limits=limits, timeout=120) as session:

            async def worker() -> None:
                for body in bodies:
                    (await session.post(f"{url}/chat/completions", json=body)).json()["choices"][0]["message"]["content"]

            await asyncio.gather(*(worker() for _ in range(concurrency)))
        return
    import aiohttp

    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=concurrency)) as session:

        async def worker() -> None:
            for body in bodies:
                async with session.post(f"{url}/chat/completions", json=body) as reply:
                    json.loads(await reply.read())["choices"][0]["message"]["content"]

        await asyncio.gather(*(worker() for _ in range(concurrency)))


def run_bare(args: argparse.Namespace) -> None:
    prompts = [json.loads(line)["input"] for line in Path(args.prompts).read_text(encoding="utf-8").splitlines()]
    asyncio.run(bare_loop(args.bare, args.url, prompts, int(args.concurrency)))


def best_wall(command: list[str], times: int = 5) -> float:
    walls = []
    for _ in range(times):
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        walls.append(time.perf_counter() - started)
    return min(walls)


TOOLS = ("medprobe", "lm-eval", "inspect_ai", "bare httpx", "bare aiohttp")


def _ratio(rates: dict[str, float], tool: str) -> str:
    ours = rates.get("medprobe")
    return f"{ours / rates[tool]:>8.2f}x" if ours and tool in rates else f"{'-':>9}"


def table(results: dict[tuple[str, int, str], list[Measured]], skipped: dict[str, str], concurrencies: list[int], names: list[str]) -> None:
    def median(key: tuple[str, int, str]) -> tuple[float, float] | None:
        runs = results.get(key)
        if not runs:
            return None
        return statistics.median(m.rate() for m in runs), statistics.median(m.peak_mb for m in runs)

    print("\nrequests/s end to end (median), peak memory in MB; ratios are medprobe's rate over the other's")
    print(f"{'work':<22}{'conc':>5}" + "".join(f"{tool:>22}" for tool in TOOLS) + "   medprobe/aiohttp  /lm-eval  /inspect")
    for name in names:
        for concurrency in concurrencies:
            cells, rates = [], {}
            for tool in TOOLS:
                got = median((name, concurrency, tool))
                if got is None:
                    cells.append(f"{'skipped' if tool in skipped else '-':>22}")
                    continue
                rates[tool] = got[0]
                cells.append(f"{got[0]:>11.0f} ({got[1]:>5.0f} MB)")
            ratios = [_ratio(rates, tool) for tool in ("bare aiohttp", "lm-eval", "inspect_ai")]
            print(f"{name:<22}{concurrency:>5}" + "".join(cells) + f"   {ratios[0]:>16}{ratios[1]}{ratios[2]}")
    for peer, why in skipped.items():
        print(f"skipped {peer}: {why}")


def extras(data: Path, url: str, scratch: Path) -> None:
    """Cached re-run, start-up, and the 8,000-knowledge-point random run."""
    home, out = scratch / "cached-home", scratch / "cached-runs"
    work = works(data)[1]
    medprobe_run(work, url, 64, home, out, cache=True)
    rerun = medprobe_run(work, url, 64, home, out, cache=True)
    print(f"\nfully cached re-run of the 7,155 requests: {rerun.wall_s:.2f} s wall, {rerun.requests} requests sent "
          f"(target <= 2 s), peak {rerun.peak_mb:.0f} MB")
    print(f"start-up: python -c pass {best_wall([sys.executable, '-c', 'pass']):.3f} s; "
          f"medprobe --help {best_wall([str(BIN / 'medprobe'), '--help']):.3f} s (best of 5; target <= 0.3 s)")
    # every cell, measured or not: the gated default asks a few hundred common-disease points, not 8,000
    command = [str(BIN / "medprobe"), "run", "multifacet", "--data", "builtin:en", "--limit", "8000", "--include-unmeasured", "--model", "random", "-q",
               "--out", str(scratch / "random-runs")]
    subprocess.run(command, check=True, capture_output=True)  # the first may build the built-in KB (cached after)
    walls = []
    for _ in range(2):
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(process.pid, 0)
        walls.append((time.perf_counter() - started, usage.ru_maxrss / 1024))
    wall, peak = min(walls)
    print(f"run multifacet --data builtin:en --limit 8000 --include-unmeasured --model random: {wall:.1f} s, peak {peak:.0f} MB "
          "(best of 2; targets <= 15 s, <= 400 MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--peers-venv", type=Path, default=Path(tempfile.gettempdir()) / "peers-venv")
    parser.add_argument("--trials", type=int, default=1)
    parser.add_argument("--concurrency", default="16,64")
    parser.add_argument("--delay", type=float, default=0.02, help="seconds the mock server waits before each reply")
    parser.add_argument("--inspect-at-scale", action="store_true", help="run inspect_ai at 7,155 requests too")
    parser.add_argument("--tools", default=",".join(TOOLS), help=f"which of {', '.join(TOOLS)} to run")
    parser.add_argument("--skip-peers", action="store_true")
    parser.add_argument("--skip-extras", action="store_true", help="no cached re-run, start-up or limit-8000 measurement")
    parser.add_argument("--bare", choices=("httpx", "aiohttp"), help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--prompts", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bare:
        run_bare(args)
        return
    if not (args.data / "multifaceteval" / "medqa").is_dir() or not (args.data / "multicogeval" / "medqa").is_dir():
        print(f"skipped: the MultiMedQA release is not under {args.data} (give its folder with --data)")
        return
    concurrencies = [int(c) for c in args.concurrency.split(",")]
    skipped = {"lm-eval": "--skip-peers", "inspect_ai": "--skip-peers"} if args.skip_peers else {
        peer: why for peer, why in peer_venv(args.peers_venv).items() if why}
    results: dict[tuple[str, int, str], list[Measured]] = {}
    with mock_server(args.delay) as url, tempfile.TemporaryDirectory(prefix="medprobe-throughput-") as tmp:
        scratch = Path(tmp)
        for work in works(args.data):
            home, out = scratch / "home", scratch / "runs"
            medprobe_run(work, url, 16, home, out)  # warm-up, and the prompts every tool then asks
            prompts = scratch / f"prompts-{len(results)}.jsonl"
            count = export_prompts(out, prompts)
            print(f"{work.name}: {count} prompts, mock server {url} (reply delay {args.delay * 1000:.0f} ms)", flush=True)
            runners = {
                "medprobe": lambda c, w=work, h=home, o=out: medprobe_run(w, url, c, h, o),
                "lm-eval": lambda c, p=prompts: lm_eval_run(args.peers_venv, p, url, c, scratch),
                "inspect_ai": lambda c, p=prompts: inspect_run(args.peers_venv, p, url, c, scratch),
                "bare httpx": lambda c, p=prompts: bare_run("httpx", p, url, c),
                "bare aiohttp": lambda c, p=prompts: bare_run("aiohttp", p, url, c),
            }
            for _ in range(args.trials):
                for concurrency in concurrencies:
                    for tool, go in runners.items():
                        if tool in skipped or tool not in args.tools.split(",") or (
                                tool == "inspect_ai" and count > 1000 and not args.inspect_at_scale):
                            continue
                        measured = go(concurrency)
                        results.setdefault((work.name, concurrency, tool), []).append(measured)
                        print(f"  {tool:<13} c={concurrency:<3} {measured.rate():7.1f} req/s  {measured.wall_s:6.1f} s  "
                              f"{measured.peak_mb:5.0f} MB  {measured.requests} requests", flush=True)
        table(results, skipped, concurrencies, [w.name for w in works(args.data)])
        if not args.skip_extras:
            extras(args.data, url, scratch)


if __name__ == "__main__":
    main()
