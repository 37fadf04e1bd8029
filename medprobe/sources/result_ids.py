"""Item ids of an imported result file, checked against the items it should answer.

The reference scripts write one line per test item, and nothing stops a line from being written
twice or not at all: the released med42-70B MCQ file of MultifacetEval repeats item 5 where item 186
belongs. Taken as it is, such a file scores one item twice and drops the other from the
denominator. The importers therefore keep the first line of a repeated id (later lines answer the
same question again, so they cannot replace it without choosing between answers), count every
expected id without a line as unanswered, and say which file and which ids — in the run's notes, and
so in report.md and on the terminal.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medprobe.errors import MedprobeError

#: ids listed in a note before "… and N more" (config.json keeps them all)
SHOWN = 20


@dataclass
class IdCheck:
    """The ids read from one result file, in file order, with the line each came from."""

    path: Path
    lines: dict[Any, list[int]] = field(default_factory=lambda: defaultdict(list))

    def first(self, item: Any, line: int) -> bool:
        """Record ``item`` on ``line``; ``True`` when it is the first line with this id (the one kept)."""
        self.lines[item].append(line)
        return len(self.lines[item]) == 1

    @property
    def duplicates(self) -> dict[Any, list[int]]:
        return {item: lines for item, lines in self.lines.items() if len(lines) > 1}

    def missing(self, expected: Iterable[Any]) -> list[Any]:
        return [item for item in expected if item not in self.lines]

    def record(self, expected: Sequence[Any]) -> dict[str, Any]:
        """What config.json keeps: every missing and repeated id."""
        return {"file": str(self.path), "missing": self.missing(expected), "duplicates": {str(k): v for k, v in self.duplicates.items()}}

    def note(self, expected: Sequence[Any]) -> str | None:
        """One line for the run's notes, or ``None`` when the file answers each expected id once."""
        parts = []
        missing = self.missing(expected)
        if missing:
            parts.append(f"{len(missing)} item(s) missing, counted as unanswered: id {_listed(missing)}")
        for item, lines in self.duplicates.items():
            parts.append(f"id {item} repeated on lines {', '.join(map(str, lines))} (line {lines[0]} kept)")
        return f"{self.path}: " + "; ".join(parts) if parts else None


def _listed(ids: Sequence[Any]) -> str:
    shown = ", ".join(str(i) for i in ids[:SHOWN])
    return shown + (f" … and {len(ids) - SHOWN} more" if len(ids) > SHOWN else "")


def union(checks: Iterable[IdCheck]) -> list[Any]:
    """Every id any of the files has, in order of first appearance: what each of a model's parallel
    result files should answer when the release itself is not given (a release lists the same ids in
    every task file)."""
    seen: dict[Any, None] = {}
    for check in checks:
        seen.update(dict.fromkeys(check.lines))
    return list(seen)


def not_answerable(check: IdCheck, missing: Sequence[Any], release: str) -> MedprobeError:
    """The error for ids a file lacks when no release is given to build their questions from."""
    return MedprobeError(
        f"{len(missing)} item(s) that the model's other result files answer are missing here: id {_listed(missing)}",
        file=check.path, field="--data",
        hint=f"give the release the results answer with --data ({release}) so that missing items count as unanswered",
    )
