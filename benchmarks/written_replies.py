"""How the strict reader does on replies written and labelled by people who never saw it.

``python -m benchmarks.written_replies`` (from the repository root) reads every set under
``benchmarks/data/written_replies/`` and prints, per set: replies, answerable (the writer's label is an answer),
read, false reads (an answer read that differs from the label, or read from a reply labelled ``none``) and
misses (an answerable reply left unread).

Each set is 160 replies to 40 medical questions (English: 25 MCQs and 15 true/false statements; Chinese: 40
MCQs of five options), four replies per question in the manners of different chat models (reasoning first or
last, option-by-option analyses, Markdown, JSON, full-width forms, the answer given by its text), about one in
five committing to no single answer; each was written and labelled by a helper given only a writing
instruction, never the reader. The sets came in rounds (one English and one Chinese set in round 0, two of each in
rounds 1–9, three or four of each from round 10): the
reader's rules were changed after reading the misses of each round, so a set measures the reader honestly only
until its misses were looked at. ``UNSEEN`` names the latest round's sets, whose errors were not looked at; the
last lines pool them (and, apart, the seen ones).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from medprobe.parsing.answers import read_strict
from medprobe.records import AnswerFormat
from testing.mcq import option_format, question, statement_question

SETS = Path(__file__).parent / "data" / "written_replies"
#: the latest round: sets measured as written, whose errors nobody has read yet (every other set was read while the
#: rules changed); a new round replaces these names
UNSEEN = frozenset({"en-92", "en-93", "en-94", "en-95", "zh-94", "zh-95", "zh-96", "zh-97"})


def probe(row: dict, language: str) -> tuple[AnswerFormat, str, object]:
    """The answer format and question a row was asked with (as medprobe's prompts and the reader's tests ask it), and
    its label as the reader writes answers."""
    label = row["label"].strip()
    if row.get("kind", "mcq") == "tf":
        fmt = AnswerFormat(kind="true_false", language=language)
        return fmt, statement_question(row["question"]), None if label == "none" else label.lower() == "true"
    options = row["options"]
    return option_format(options, language), question(row["question"], options, language), None if label.lower() == "none" else label.upper()


def set_name(path: Path) -> tuple[str, int]:
    """A set's language and number: "zh-12.jsonl" -> ("zh", 12)."""
    language, number = path.stem.split("-")
    return language, int(number)


def rows(path: Path) -> list[dict]:
    """A set's replies, one JSON object per line."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def measure(path: Path) -> Counter[str]:
    language, _ = set_name(path)
    counts: Counter[str] = Counter()
    for row in rows(path):
        fmt, question, label = probe(row, language)
        value = read_strict(row["reply"], fmt, question).value
        kind = row.get("kind", "mcq")
        counts[f"{kind} replies"] += 1
        counts[f"{kind} answerable"] += label is not None
        counts[f"{kind} read"] += value is not None
        counts[f"{kind} false reads"] += value is not None and value != label
        counts[f"{kind} misses"] += label is not None and value is None
    return counts


def _row(name: str, kind: str, seen: str, counts: Counter[str]) -> str:
    answerable, misses = counts[f"{kind} answerable"], counts[f"{kind} misses"]
    return (f"{name:6} {kind:4} {seen:5} {counts[f'{kind} replies']:7} {answerable:10} {counts[f'{kind} read']:5} "
            f"{counts[f'{kind} false reads']:11} {misses:5} ({100 * misses / max(answerable, 1):4.1f}%)")


def main() -> None:
    print(f"{'set':6} {'kind':4} {'seen':5} {'replies':>7} {'answerable':>10} {'read':>5} {'false reads':>11} {'misses':>13}")
    pooled: dict[tuple[str, str], Counter[str]] = {}
    for path in sorted(SETS.glob("*.jsonl"), key=set_name):
        counts = measure(path)
        seen = "no" if path.stem in UNSEEN else "yes"
        pooled.setdefault((set_name(path)[0], seen), Counter()).update(counts)
        for kind in sorted({key.split()[0] for key in counts}):
            print(_row(path.stem, kind, seen, counts))
    print("pooled:")
    for (language, seen), counts in sorted(pooled.items()):
        for kind in sorted({key.split()[0] for key in counts}):
            print(_row(language, kind, seen, counts))


if __name__ == "__main__":
    main()
