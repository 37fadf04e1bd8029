"""Parse rates on the reply corpus (tests/data/reply_corpus.jsonl), per method and language: the share of
replies each reader reads, and the share it reads right (its reading equals the corpus's expected one,
an unreadable reply counting as right when the reader leaves it unparsed).

    .venv/bin/python -m benchmarks.reply_corpus

"reference" is the published scripts' extractors, which strict mode used before it read chat replies
(MultifacetEval, MultiCogEval; SDAK's authors' rules read a reply by the claim half it answers, which a corpus
record does not carry, so its column is empty and the "all" rows of the reference cover the other two methods); "strict" is what medprobe scores with now.
"""

from __future__ import annotations

from collections import defaultdict

from medprobe.parsing.answers import jsonable as plain
from medprobe.parsing.base import Revision
from testing.reply_corpus import has_reference, load, read


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
    print("read = share of replies given an answer; false reads = answers that differ from the corpus's reading")
    print("(an answer read from a reply that gives none included); misses = replies with an answer the reader")
    print("did not read, and their share of the answerable replies\n")
    head = f"{'method':<11} {'lang':<4} {'replies':>7} {'answerable':>10}"
    print(f"{head} | {'reference: read':>15} {'false':>5} {'misses':>12} | {'strict: read':>12} {'false':>5} {'misses':>12}")
    for (method, lang), modes in sorted(rows.items(), key=lambda kv: (kv[0][0] == "all", kv[0])):
        n, answerable = modes["strict"][0], modes["strict"][4]
        cells = [_cell(modes[m], w) for m, w in (("reference", 14), ("strict", 11))]
        print(f"{method:<11} {lang:<4} {n:>7} {answerable:>10} | {cells[0]} | {cells[1]}")


def _cell(counts: list[int], width: int) -> str:
    """read %, false reads, misses (count and share of the answerable replies) of one reader."""
    n, read_it, false_reads, misses, answerable = counts
    if not n:
        return f"{'–':>{width + 1}} {'–':>5} {'–':>12}"
    missed = f"{misses} ({100 * misses / answerable:.1f}%)" if answerable else f"{misses}"
    return f"{100 * read_it / n:>{width}.1f}% {false_reads:>5} {missed:>12}"

if __name__ == "__main__":
    main()
