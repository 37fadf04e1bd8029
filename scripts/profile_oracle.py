"""Answers of a model that knows a seeded share of a profile's knowledge points, for replay.

    python scripts/profile_oracle.py --data builtin:zh --limit 40 --known 0.5 -o knows.jsonl [--only-mcq]
    medprobe run profile --data builtin:zh --limit 40 --model replay:knows.jsonl

The second command draws the same points (same --data, --limit and --seed), and its profile must
find exactly the points this script lists on standard error as known (with --only-mcq: known only by
the MCQ, and the other ways' illusions). A check of the profile end to end, on any KB.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from medprobe.contract import get_method
from medprobe.jsonl import write_records
from medprobe.profile.oracle import oracle_responses
from medprobe.profile.points import profile_builds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", required=True)
    parser.add_argument("--limit", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--known", type=float, default=0.5, help="share of the points the model knows")
    parser.add_argument("--only-mcq", action="store_true", help="it knows them only when asked by an MCQ")
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args()
    points, builds = profile_builds(args.data, limit=args.limit, seed=args.seed)
    known = set(random.Random(args.seed).sample(points.ids, round(args.known * len(points.ids))))
    probe_sets = [get_method(method).build(options) for method, options in builds]
    write_records(args.output, oracle_responses(probe_sets, points, known, only_mcq=args.only_mcq))
    print(f"{len(known)} of {len(points.ids)} points known" + (" (MCQ only)" if args.only_mcq else "") + ":", file=sys.stderr)
    for point in sorted(known):
        print(f"  {point}", file=sys.stderr)
    print(args.output)


if __name__ == "__main__":
    main()
