"""The evaluation platform under load: concurrent uploads of full-size submissions to a live
``medprobe serve``, page latency while the worker scores them, scoring throughput, and submissions lost.

The benchmark is release-sized: MultifacetEval on ../shared/data/multifaceteval/medqa (795 knowledge
points, 7,155 probes) where that folder exists, else the same number of probes from the built-in
English knowledge base. Users, tokens and the benchmark are made in the database first; then
``medprobe serve`` (uvicorn and its worker processes) starts on a loopback port, every participant
uploads a complete set of answers (random, in each probe's shape) at once, and a reader fetches
pages and API answers round-robin until every submission is scored. The pages include a model's knowledge
profile (a profile of 20 points on builtin:en is published and answered by the reader, publicly, before
the uploads) and the overview of every leaderboard. Optionally a worker is killed (SIGKILL) during
scoring: serve restarts it and the queue hands its job back.

Prints: upload latency; page latency p50/p95 while scoring runs (per page and overall); scoring
throughput (submissions and answers per second, seconds per submission); submissions lost (sent
but not scored with all their answers: must be 0).

Usage: python -m benchmarks.platform_load [--submissions 8] [--concurrency 8] [--workers 1] [--kill-worker]
       [--db sqlite|postgresql] [--timeout 1800]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

os.environ.setdefault("MEDPROBE_HOME", tempfile.mkdtemp(prefix="medprobe-bench-"))

import httpx  # noqa: E402
from sqlalchemy import select  # noqa: E402

from medprobe.platform.auth import create_user, new_token  # noqa: E402
from medprobe.platform.benchmarks import BenchmarkSpec, publish, publish_profile  # noqa: E402
from medprobe.platform.db import make_engine, sessions  # noqa: E402
from medprobe.platform.models import Submission  # noqa: E402
from medprobe.platform.serve import prepare  # noqa: E402
from testing.platform_helpers import free_port, postgres_cluster  # noqa: E402

RELEASE = Path(__file__).resolve().parents[2] / "shared" / "data" / "multifaceteval" / "medqa"
RELEASE_PROBES = 7155
SLUG = "full"
#: the knowledge profile in the page mix: its benchmarks' prefix, its points, and the model answering it
PROFILE, PROFILE_POINTS, PROFILED = "prof", 20, "profiled"


def spec() -> BenchmarkSpec:
    """The release when present; otherwise the built-in English KB with as many probes (10 per knowledge point)."""
    if RELEASE.is_dir():
        return BenchmarkSpec(SLUG, "MultifacetEval, the MedQA release", "multifacet", str(RELEASE))
    return BenchmarkSpec(SLUG, "MultifacetEval on builtin:en, release-sized", "multifacet", "builtin:en", size=-(-RELEASE_PROBES // 10),
                         include_unmeasured=True)  # release-sized: more points than the measured cells hold


def setup(url: str, participants: int) -> tuple[list[dict[str, Any]], str, list[str], dict[str, list[dict[str, Any]]]]:
    """Schema, the benchmark, a knowledge profile, an admin and one participant per submission (each with a
    token); returns the pack, the admin's token, the participants' tokens and the profile's packs by slug."""
    prepare(url)
    with sessions(make_engine(url))() as session:
        admin = new_token(session, create_user(session, "admin@localhost", "Admin", "admin password", admin=True), "bench")
        started = time.perf_counter()
        benchmark = publish(session, spec(), None)
        print(f"published '{benchmark.title}': {benchmark.probes} probes, pack {len(benchmark.pack_jsonl) / 1e6:.1f} MB "
              f"({time.perf_counter() - started:.1f} s)")
        pack = [json.loads(line) for line in benchmark.pack_jsonl.splitlines()]
        profile = {b.slug: [json.loads(line) for line in b.pack_jsonl.splitlines()]
                   for b in publish_profile(session, PROFILE, "builtin:en", PROFILE_POINTS, 0, None, include_unmeasured=True)}
        tokens = [new_token(session, create_user(session, f"p{i}@example.org", f"P{i}", "a long password", f"Lab {i}"), "bench")
                  for i in range(participants)]
    return pack, admin, tokens, profile


def answers(pack: list[dict[str, Any]], seed: int) -> bytes:
    """A full submission: every probe and sample answered, in its expected shape."""
    rng = random.Random(seed)
    verdicts = ["true", "false", "correct", f"incorrect, the answer is {rng.choice('ABCD')}"]
    lines = []
    for row in pack:
        options = row["answer_format"]["options"]
        for sample in range(row["samples"]):
            text = rng.choice(options + verdicts) if options else rng.choice(verdicts)
            lines.append(json.dumps({"probe_id": row["id"], "sample": sample, "text": text}))
    return ("\n".join(lines) + "\n").encode()


@contextmanager
def live_server(url: str, workers: int) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "medprobe", "serve", "--db", url, "--host", "127.0.0.1", "--port", str(port),
                             "--workers", str(workers)])
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(base + "/api/benchmarks", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("medprobe serve did not start")
            time.sleep(0.3)
        yield base, proc
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


def upload(base: str, token: str, data: bytes, i: int) -> tuple[int, float, int | None]:
    """(status, seconds, submission id) of one upload."""
    started = time.perf_counter()
    reply = httpx.post(f"{base}/api/benchmarks/{SLUG}/submissions", headers={"authorization": f"Bearer {token}"},
                       files={"file": ("answers.jsonl", data)}, data={"model": f"model-{i}", "organisation": f"Lab {i}", "public": "true"},
                       timeout=600)
    return reply.status_code, time.perf_counter() - started, reply.json().get("id") if reply.status_code == 201 else None


def read_pages(base: str, token: str, stop: threading.Event) -> list[tuple[float, str, float]]:
    """Fetch pages and API answers round-robin until ``stop``: (when, page, seconds) per request."""
    pages = ["/", f"/benchmarks/{SLUG}", f"/benchmarks/{SLUG}/leaderboard", f"/api/benchmarks/{SLUG}", "/api/submissions", "/login",
             f"/models/{PROFILED}", "/leaderboard"]
    seen: list[tuple[float, str, float]] = []
    with httpx.Client(base_url=base, headers={"authorization": f"Bearer {token}"}, timeout=120) as client:
        while not stop.is_set():
            for page in pages:
                started = time.perf_counter()
                reply = client.get(page)
                if reply.status_code != 200:
                    raise SystemExit(f"GET {page}: {reply.status_code} {reply.text[:200]}")
                seen.append((started, page, time.perf_counter() - started))
    return seen


def answer_profile(base: str, token: str, packs: dict[str, list[dict[str, Any]]], admin: str, timeout: float) -> None:
    """The reader answers the profile's four benchmarks (public) and waits until they are scored, so the
    model page has a profile to show (computed at its first view, then stored)."""
    ids = set()
    for seed, (slug, pack) in enumerate(packs.items()):
        reply = httpx.post(f"{base}/api/benchmarks/{slug}/submissions", headers={"authorization": f"Bearer {token}"},
                           files={"file": ("answers.jsonl", answers(pack, seed))}, data={"model": PROFILED, "public": "true"}, timeout=600)
        if reply.status_code != 201:
            raise SystemExit(f"profile upload to {slug}: {reply.status_code} {reply.text[:200]}")
        ids.add(reply.json()["id"])
    deadline = time.monotonic() + timeout
    while any(s["status"] not in ("done", "failed") for s in all_submissions(base, admin) if s["id"] in ids):
        if time.monotonic() > deadline:
            raise SystemExit("the profile's submissions were not scored in time")
        time.sleep(0.25)


def all_submissions(base: str, admin: str) -> list[dict[str, Any]]:
    return httpx.get(f"{base}/api/submissions", headers={"authorization": f"Bearer {admin}"}, timeout=120).json()


def kill_one_worker(serve: subprocess.Popen[bytes]) -> int | None:
    """SIGKILL a worker process of ``serve`` (a child of one of its threads); serve starts it again with
    the same executor id."""
    children = [pid for task in Path(f"/proc/{serve.pid}/task").iterdir() for pid in (task / "children").read_text().split()]
    if not children:
        return None
    os.kill(int(children[0]), signal.SIGKILL)
    return int(children[0])


def scoring_times(url: str, ids: set[int]) -> list[tuple[float, float]]:
    """(started, finished) of each scored submission, as the worker recorded them (epoch seconds)."""
    with sessions(make_engine(url))() as session:
        rows = session.scalars(select(Submission).where(Submission.id.in_(ids), Submission.finished.is_not(None)))
        return [(s.started.timestamp(), s.finished.timestamp()) for s in rows]


def percentiles(values: list[float]) -> str:
    if not values:
        return "no requests"
    cuts = statistics.quantiles(values, n=100, method="inclusive") if len(values) > 1 else values * 99
    return f"p50 {1000 * cuts[49]:7.1f} ms  p95 {1000 * cuts[94]:7.1f} ms  ({len(values)} requests)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--submissions", type=int, default=8)
    parser.add_argument("--concurrency", type=int, default=8, help="uploads at once")
    parser.add_argument("--workers", type=int, default=1, help="scoring worker processes")
    parser.add_argument("--kill-worker", action="store_true", help="SIGKILL a worker once while it scores")
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds to wait for the scoring")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="medprobe-platform-bench-"))
    with postgres_cluster() if args.db == "postgresql" else nullcontext(f"sqlite:///{scratch / 'platform.sqlite'}") as url:
        run(url, args)


def run(url: str, args: argparse.Namespace) -> None:
    pack, admin, tokens, profile = setup(url, args.submissions + 1)
    reader = tokens.pop()
    expected = sum(row["samples"] for row in pack)
    bodies = [answers(pack, seed) for seed in range(args.submissions)]
    print(f"{args.submissions} submissions of {expected} answers ({len(bodies[0]) / 1e6:.2f} MB each), {args.concurrency} "
          f"uploads at once, {args.workers} worker(s), database {url.split(':')[0]}")
    killed = None
    with live_server(url, args.workers) as (base, serve), ThreadPoolExecutor(1) as background:
        answer_profile(base, reader, profile, admin, args.timeout)
        stop = threading.Event()
        pages = background.submit(read_pages, base, reader, stop)
        time.sleep(2)  # a few idle requests first, for scale
        began = time.perf_counter()
        with ThreadPoolExecutor(args.concurrency) as pool:
            uploads = list(pool.map(lambda i: upload(base, tokens[i], bodies[i], i), range(args.submissions)))
        uploaded = time.perf_counter()
        ids = {sid for _, _, sid in uploads if sid is not None}
        deadline = time.monotonic() + args.timeout
        while True:
            rows = [s for s in all_submissions(base, admin) if s["id"] in ids]
            if args.kill_worker and killed is None and any(s["status"] == "scoring" for s in rows):
                killed = kill_one_worker(serve)
            if all(s["status"] in ("done", "failed") for s in rows) or time.monotonic() > deadline:
                break
            time.sleep(0.25)
        finished = time.perf_counter()
        stop.set()
        requests = pages.result()
    times = scoring_times(url, ids)
    scored = [s for s in rows if s["status"] == "done" and s["answers"] == expected and s["summary"]["run"]["probes"] == len(pack)]
    print(f"uploads: {sum(1 for st, _, _ in uploads if st == 201)}/{args.submissions} accepted, "
          f"{percentiles([seconds for _, seconds, _ in uploads])}, all sent in {uploaded - began:.1f} s")
    print("page latency (each page and API answer round-robin):")
    for label, low, high in (("idle, before uploads", 0, began), ("during uploads", began, uploaded), ("while scoring runs", uploaded, finished)):
        print(f"  {label:24} {percentiles([s for when, _, s in requests if low <= when < high])}")
    for page in dict.fromkeys(p for _, p, _ in requests):
        print(f"    {page:34} {percentiles([s for when, p, s in requests if p == page and uploaded <= when < finished])}")
    if times:
        span = max(f for _, f in times) - min(s for s, _ in times)
        each = [f - s for s, f in times]
        print(f"scoring: {len(times)} submissions in {span:.1f} s from the first start to the last finish: {len(times) / span:.2f} "
              f"submissions/s, {len(times) * expected / span:,.0f} answers/s; {statistics.mean(each):.1f} s each "
              f"(last one's wait from upload to done: {finished - began:.1f} s)")
    if killed:
        print(f"killed worker process {killed} (SIGKILL) while it scored; serve restarted it")
    lost = args.submissions - len(scored)
    print(f"submissions lost: {lost} (sent {args.submissions}, scored with all {expected} answers {len(scored)}, "
          f"failed {sum(1 for s in rows if s['status'] == 'failed')})")
    if lost:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
