"""Parse rates on the reply corpus (tests/data/reply_corpus.jsonl), per method and language: the share of
replies each reader reads, and the share it reads right (its reading equals the corpus's expected one,
an unreadable reply counting as right when the reader leaves it unparsed).

    .venv/bin/python benchmarks/reply_corpus.py

"reference" is the published scripts' extractors, which strict mode used before it read chat replies;
"strict" is what medprobe scores with now.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from reply_corpus import load, plain, read  # noqa: E402

from medprobe.parsing.verdict_letter import Revision  # noqa: E402


def complete(value: object) -> bool:
    """A usable answer: a revision needs both its verdict and its letter."""
    return value is not None and not (isinstance(value, Revision) and (value.judge is None or value.option is None))


def main() -> None:
    rows: dict[tuple[str, str], dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0, 0]))
    for record in load():
        for key in ((record["method"], record["language"]), (record["method"], "all"), ("all", "all")):
            for mode in ("reference", "strict"):
                value = read(record, mode).value
                cell = rows[key][mode]
                cell[0] += 1
                cell[1] += complete(value)
                cell[2] += plain(value if complete(value) else None) == record["expected"]
                cell[3] += record["expected"] is not None
    print(f"{'method':<11} {'lang':<4} {'replies':>7} {'answerable':>10} | {'read: reference':>15} {'strict':>7} | {'right: reference':>16} {'strict':>7}")
    for (method, lang), modes in sorted(rows.items(), key=lambda kv: (kv[0][0] == "all", kv[0])):
        n, _, _, answerable = modes["strict"]
        read_ref, read_strict = (100 * modes[m][1] / n for m in ("reference", "strict"))
        right_ref, right_strict = (100 * modes[m][2] / n for m in ("reference", "strict"))
        print(f"{method:<11} {lang:<4} {n:>7} {answerable:>10} | {read_ref:>14.1f}% {read_strict:>6.1f}% | {right_ref:>15.1f}% {right_strict:>6.1f}%")


if __name__ == "__main__":
    main()
