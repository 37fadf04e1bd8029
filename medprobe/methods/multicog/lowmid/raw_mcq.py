"""Raw multiple-choice questions: MedQA and MedMCQA JSON lines, or the same rows from the Hugging Face hub.

Accepted rows (one JSON object per line):
  MedQA    ``question``, ``options`` {"A": …, "B": …}, ``answer_idx`` (the gold letter)
  MedMCQA  ``question``, ``choices`` ["A. …", …] and ``answer`` (0-based), or the hub's ``opa``..``opd``
           and ``cop``; rows whose ``choice_type`` is "multi" (several right answers) are dropped, as the
           paper did (Appendix A.1)
An item's id is its 0-based row position in the source (dropped rows keep their numbers), so ids do not
move when a filter changes. The question text is laid out as in the release ("Question: …\\nOptions: A: …"
with TAB-separated options), which reproduces every MCQ of the MultiCogEval release byte for byte.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from medprobe.errors import MedprobeError

LETTERS = "ABCDE"
_CHOICE_PREFIX = re.compile(r"^([A-E])[.)]\s*")
_HUB_OPTIONS = ("opa", "opb", "opc", "opd")

Rows = Iterable[tuple[int, Any]]


@dataclass(frozen=True)
class RawMCQ:
    id: int
    question: str
    options: dict[str, str]
    gold: str

    @property
    def text(self) -> str:
        return mcq_text(self.question, self.options)

    def others(self) -> list[str]:
        """The wrong letters."""
        return [letter for letter in self.options if letter != self.gold]


def mcq_text(question: str, options: dict[str, str]) -> str:
    return f"Question: {question}\nOptions: " + "\t".join(f"{letter}: {text}" for letter, text in options.items())


def raw_kind(row: Any) -> str | None:
    """"medqa", "medmcqa" or None, judged from the fields of a row."""
    if not isinstance(row, dict):
        return None
    if "options" in row and "answer_idx" in row:
        return "medqa"
    if "choices" in row or "opa" in row:
        return "medmcqa"
    return None


def _fail(what: str, file: str | Path, line: int, field: str) -> MedprobeError:
    return MedprobeError(what, file=file, line=line, field=field)


def _text(row: dict[str, Any], key: str, file: str | Path, line: int) -> str:
    if key not in row:
        raise _fail("missing field", file, line, key)
    value = row[key]
    if not isinstance(value, str) or not value.strip():
        raise _fail("expected non-empty text", file, line, key)
    return value


def _medqa(row: dict[str, Any], index: int, file: str | Path, line: int) -> RawMCQ:
    question = _text(row, "question", file, line)
    options = row.get("options")
    if not isinstance(options, dict) or len(options) < 2:
        raise _fail("expected an object of at least two options {\"A\": …, \"B\": …}", file, line, "options")
    if list(options) != list(LETTERS[: len(options)]):
        raise _fail(f"expected option letters {LETTERS[: len(options)]} in order, got {''.join(map(str, options))}", file, line, "options")
    for letter in options:
        _text(options, letter, file, line)
    gold = row.get("answer_idx")
    if not isinstance(gold, str) or gold not in options:
        raise _fail(f"bad gold: expected one of {''.join(options)}, got {gold!r}", file, line, "answer_idx")
    return RawMCQ(index, question, dict(options), gold)


def _medmcqa(row: dict[str, Any], index: int, file: str | Path, line: int) -> RawMCQ:
    question = _text(row, "question", file, line)
    if "choices" in row:
        choices, answer_key = row["choices"], "answer"
        if not isinstance(choices, list) or not 2 <= len(choices) <= len(LETTERS):
            raise _fail("expected a list of 2 to 5 choices", file, line, "choices")
        texts = [_choice(choice, i, file, line) for i, choice in enumerate(choices)]
    else:
        answer_key = "cop"
        texts = [_text(row, key, file, line) for key in _HUB_OPTIONS]
    answer = row.get(answer_key)
    if isinstance(answer, bool) or not isinstance(answer, int) or not 0 <= answer < len(texts):
        raise _fail(f"bad gold: expected an option number 0-{len(texts) - 1}, got {answer!r}", file, line, answer_key)
    return RawMCQ(index, question, dict(zip(LETTERS, texts, strict=False)), LETTERS[answer])


def _choice(choice: Any, position: int, file: str | Path, line: int) -> str:
    """A choice text without its "A. " label (kept when the label does not name this position)."""
    if not isinstance(choice, str) or not choice.strip():
        raise _fail("expected non-empty text", file, line, f"choices[{position}]")
    label = _CHOICE_PREFIX.match(choice)
    return choice[label.end() :] if label and label.group(1) == LETTERS[position] else choice


def read_raw(rows: Rows, kind: str, file: str | Path) -> tuple[list[RawMCQ], int]:
    """The MCQs of ``rows`` ((line number, row) pairs) and how many several-answer rows were dropped."""
    mcqs: list[RawMCQ] = []
    dropped = 0
    for index, (line, row) in enumerate(rows):
        if not isinstance(row, dict):
            raise MedprobeError("expected one JSON object per line", file=file, line=line)
        if kind == "medmcqa" and row.get("choice_type") == "multi":
            dropped += 1
            continue
        mcqs.append((_medqa if kind == "medqa" else _medmcqa)(row, index, file, line))
    if not mcqs:
        raise MedprobeError("no usable questions", file=file)
    return mcqs, dropped


def hub_rows(spec: str) -> tuple[str, list[tuple[int, Any]]]:
    """Rows of a Hugging Face hub dataset named ``hf:NAME[@SPLIT]`` (or ``owner/name[@SPLIT]``; split
    "test" by default), through the ``datasets`` package when it is installed."""
    name, _, split = spec.removeprefix("hf:").partition("@")
    split = split or "test"
    try:
        import datasets  # type: ignore[import-not-found]
    except ImportError:
        raise MedprobeError(
            f"'{spec}' names a Hugging Face hub dataset, but the 'datasets' package is not installed",
            field="--data",
            hint="pip install datasets (it downloads the data), or pass a downloaded MedQA/MedMCQA JSONL file",
        ) from None
    try:
        data = datasets.load_dataset(name, split=split)
    except Exception as exc:  # the hub client raises many kinds (network, auth, unknown split, …)
        raise MedprobeError(f"could not load '{name}' (split '{split}') from the hub: {exc}", field="--data") from None
    return f"hf:{name}@{split}", list(enumerate((dict(row) for row in data), start=1))
