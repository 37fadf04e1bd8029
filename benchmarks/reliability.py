"""Reliability: runs against a misbehaving server, and commands fed broken input files.

    .venv/bin/python -m benchmarks.reliability [--inputs N] [--rates 0.1,0.3,0.6] [--skip-faults] [--skip-inputs]

Faults: every fault kind of testing/fault_server.py at each rate (a seeded share of attempts), on the tiny
MultifacetEval release (27 requests), with 12 retries: whether the run finished, how many answers were
lost (requests left without the server's true answer, or with another text), how many attempts were
faulted. Inputs: N broken versions of each reader's valid input (testing/input_samples.py; random bytes,
mutated bytes, mutated JSON, drawn by hypothesis), each through every command that reads it: how many
ended in an answer, a clear error (exit 2 with its message) or anything else (a traceback).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

os.environ.setdefault("MEDPROBE_HOME", tempfile.mkdtemp(prefix="medprobe-bench-"))

from hypothesis import HealthCheck, given, settings  # noqa: E402

from medprobe.contract import BuildOptions  # noqa: E402
from medprobe.engine.pipeline import RunPlan, run  # noqa: E402
from medprobe.errors import MedprobeError  # noqa: E402
from testing.fault_server import FAULTS, HARMLESS, FaultyOpenAI, prompt_of  # noqa: E402
from testing.fixtures import deterministic_reply, write_tiny_release  # noqa: E402
from testing.input_samples import READERS, Reader, broken_inputs, is_clear, try_broken  # noqa: E402
from testing.mock_server import serve_in_thread  # noqa: E402


def fault_row(fault: str, rate: float, release: Path, out: Path) -> dict[str, Any]:
    mock = FaultyOpenAI(reply=deterministic_reply, fault=fault, rate=rate, seed=7, keep_bodies=True)
    try:
        with serve_in_thread(mock) as url:
            outcome = run(RunPlan(
                method="multifacet", build=BuildOptions(data=str(release)), model=f"openai:bench@{url}", out=out, progress=False,
                use_cache=False, model_options={"retries": "12", "timeout": "1", "concurrency": "8"},
            ))
    except MedprobeError as exc:
        return {"finished": f"no: {exc.message[:60]}", "lost": "?", "faulted": mock.injected, "attempts": mock.posts}
    truth = {prompt_of(body): deterministic_reply(body) for body in mock.bodies}
    lines = [json.loads(line) for line in (outcome.path / "responses.jsonl").read_text().splitlines()]
    answered = sorted(line["text"] for line in lines if line["error"] is None)
    lost = outcome.summary["run"]["requests"] - sum((Counter(answered) & Counter(truth.values())).values())
    return {"finished": outcome.summary["status"], "lost": lost, "faulted": mock.injected, "attempts": mock.posts}


def faults(rates: list[float]) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        release = write_tiny_release(Path(scratch) / "medqa")
        print("| fault kind | " + " | ".join(f"rate {r:.0%}: answers lost (faulted attempts)" for r in rates) + " |")
        print("|---|" + "---|" * len(rates))
        for fault in FAULTS:
            cells = []
            for rate in rates:
                row = fault_row(fault, rate, release, Path(scratch) / f"runs-{fault}-{rate}")
                ok = row["finished"] == "complete" or (fault in HARMLESS and row["lost"] == 0)
                cells.append(f"{row['lost']} ({row['faulted']}/{row['attempts']})" + ("" if ok else f" {row['finished']}"))
            print(f"| {fault} | " + " | ".join(cells) + " |", flush=True)


def reader_outcomes(reader: Reader, n: int) -> tuple[Counter[str], list[str]]:
    """How ``n`` broken inputs of one reader ended: "answer", "error" (clear) or "other"; and the others."""
    tally: Counter[str] = Counter()
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as scratch:
        template = Path(scratch)
        target = reader.write(template)

        @settings(max_examples=n, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
        @given(broken=broken_inputs(target))
        def trial(broken: tuple[str, Any]) -> None:
            results = try_broken(reader, template, target, broken)
            bad = [(argv, r) for argv, r in results if not is_clear(r)]
            if bad:
                argv, r = bad[0]
                failures.append(f"{argv[:2]} exit {r.exit_code} {r.exception!r}")
            tally["other" if bad else "error" if any(r.exit_code == 2 for _, r in results) else "answer"] += 1

        trial()
    return tally, failures


def inputs(n: int) -> None:
    print("\n| reader | inputs tried | answered (exit 0/3) | clear error (exit 2) | traceback or other |")
    print("|---|---|---|---|---|")
    totals: Counter[str] = Counter()
    for reader in READERS:
        tally, failures = reader_outcomes(reader, n)
        totals.update(tally)
        print(f"| {reader.name} | {sum(tally.values())} | {tally['answer']} | {tally['error']} | {tally['other']} |", flush=True)
        for failure in failures[:3]:
            print(f"|   ↳ {failure[:150]} | | | | |")
    print(f"| **all** | {sum(totals.values())} | {totals['answer']} | {totals['error']} | {totals['other']} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=200, help="broken inputs per reader")
    parser.add_argument("--rates", default="0.1,0.3,0.6")
    parser.add_argument("--skip-faults", action="store_true")
    parser.add_argument("--skip-inputs", action="store_true")
    args = parser.parse_args()
    if not args.skip_faults:
        faults([float(r) for r in args.rates.split(",")])
    if not args.skip_inputs:
        inputs(args.inputs)


if __name__ == "__main__":
    main()
