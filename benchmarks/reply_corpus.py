"""Parse rates on the reply corpus (tests/data/reply_corpus.jsonl), per method and language: the share of
replies each reader reads, and the share it reads right (its reading equals the corpus's expected one,
an unreadable reply counting as right when the reader leaves it unparsed).

    .venv/bin/python benchmarks/reply_corpus.py

"reference" is the published scripts' extractors, which strict mode used before it read chat replies
(MultifacetEval, MultiCogEval; SDAK's script is not public, so its column is empty and the "all" rows of
the reference cover the other two methods); "strict" is what medprobe scores with now.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from reply_corpus import has_reference, load, read  # noqa: E402

from medprobe.parsing.answers import jsonable as plain  # noqa: E402
from medprobe.parsing.verdict_letter import Revision  # noqa: E402


def complete(value: object) -> bool:
    """A usable answer: a revision needs both its verdict and its letter."""
    return value is not None and not (isinstance(value, Revision) and (value.judge is None or value.option is None))


def main() -> None:
    # (method, language) -> mode -> [replies, read, misread, missed, answerable]
    rows: dict[tuple[str, str], dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0, 0, 0]))
    for record in load():
        expected = record["expected"]
        for key in ((record["method"], record["language"]), (record["method"], "all"), ("all", "all")):
            for mode in ("reference", "strict") if has_reference(record) else ("strict",):
                value = read(record, mode).value
                read_it = complete(value)
                cell = rows[key][mode]
                cell[0] += 1
                cell[1] += read_it
                cell[2] += read_it and plain(value) != expected
                cell[3] += not read_it and expected is not None
                cell[4] += expected is not None
    print("read = share of replies given an answer; misread = answers that differ from the corpus's reading;")
    print("missed = replies with an answer the reader did not read\n")
    print(f"{'method':<11} {'lang':<4} {'replies':>7} {'answerable':>10} | {'reference: read':>15} {'misread':>7} {'missed':>6} | {'strict: read':>12} {'misread':>7} {'missed':>6}")
    for (method, lang), modes in sorted(rows.items(), key=lambda kv: (kv[0][0] == "all", kv[0])):
        n, answerable = modes["strict"][0], modes["strict"][4]
        cells = [f"{100 * modes[m][1] / modes[m][0]:>{w}.1f}% {modes[m][2]:>7} {modes[m][3]:>6}" if modes[m][0] else f"{'–':>{w + 1}} {'–':>7} {'–':>6}"
                 for m, w in (("reference", 14), ("strict", 11))]
        print(f"{method:<11} {lang:<4} {n:>7} {answerable:>10} | {cells[0]} | {cells[1]}")


if __name__ == "__main__":
    main()
