"""Reading a participant's answers (JSONL or CSV) with one error per bad line.

A line answers one probe of the pack: ``{"probe_id": "q…", "sample": 0, "text": "…"}`` (``sample``
may be left out when the pack asks for one sample). CSV files have the header
``probe_id,sample,text``. Every line is checked — UTF-8, JSON object, known probe id, sample in
range, text a string, no answer given twice — and all problems come back together, each with its
line number, so one upload shows everything to fix. Probes without an answer are allowed: they
count as unanswered (wrong) and the summary says how many.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Container
from dataclasses import dataclass, field
from typing import Any

ALLOWED = ("probe_id", "sample", "text")
MAX_TEXT = 100_000
#: errors listed in full; the count of the rest is given
MAX_LISTED = 100


@dataclass
class Answers:
    """Valid answers, normalised (sorted by probe id and sample), or the errors per line."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)

    def jsonl(self) -> str:
        return "".join(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n" for row in self.rows)

    def sha256(self) -> str:
        return hashlib.sha256(self.jsonl().encode("utf-8")).hexdigest()


def _records(text: str, as_csv: bool) -> list[tuple[int, Any]]:
    """(line number, decoded record or an error string) per non-blank line."""
    if as_csv:
        reader = csv.DictReader(io.StringIO(text, newline=""))
        if reader.fieldnames is None or set(reader.fieldnames) - set(ALLOWED) or not {"probe_id", "text"} <= set(reader.fieldnames):
            return [(1, f"the CSV header must be {','.join(ALLOWED)} (got {','.join(reader.fieldnames or [])})")]
        return [(reader.line_num, {k: v for k, v in row.items() if v is not None}) for row in reader]
    out: list[tuple[int, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append((number, json.loads(line)))
        except (ValueError, RecursionError) as exc:
            out.append((number, f"not JSON: {str(exc).split(';')[0][:120]}"))
    return out


def _check(record: Any, known: Container[str], samples: int) -> str | tuple[str, int, str]:
    """The answer as (probe id, sample, text), or what is wrong with it."""
    if isinstance(record, str):
        return record
    if not isinstance(record, dict):
        return "expected an object with probe_id, sample and text"
    unknown = sorted(set(record) - set(ALLOWED))
    if unknown:
        return f"unknown field(s) {', '.join(map(repr, unknown))[:200]}; allowed: {', '.join(ALLOWED)}"
    probe_id, text, sample = record.get("probe_id"), record.get("text"), record.get("sample", 0)
    if not isinstance(probe_id, str):
        return "probe_id is missing or not a string"
    if probe_id not in known:
        return f"unknown probe_id {probe_id[:40]!r} (not in this benchmark's pack)"
    if isinstance(sample, str) and sample.strip().isdigit():  # CSV cells are text
        sample = int(sample)
    if isinstance(sample, bool) or not isinstance(sample, int) or not 0 <= sample < samples:
        return f"sample must be a whole number from 0 to {samples - 1}"
    if not isinstance(text, str):
        return "text is missing or not a string"
    if len(text) > MAX_TEXT:
        return f"text is longer than {MAX_TEXT} characters"
    return probe_id, sample, text


def read_answers(data: bytes, known: Container[str], samples: int, *, filename: str = "") -> Answers:
    """Validate an uploaded file against a benchmark's public probe ids and samples per probe."""
    result = Answers()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        result.errors.append({"line": line, "error": f"not UTF-8 text (byte 0x{data[exc.start]:02x}); save the file as UTF-8"})
        return result
    as_csv = filename.lower().endswith(".csv") or (text.lstrip()[:1] not in ("{", "[", "") and text.startswith("probe_id"))
    first_line: dict[tuple[str, int], int] = {}
    for number, record in _records(text, as_csv):
        checked = _check(record, known, samples)
        if isinstance(checked, str):
            result.errors.append({"line": number, "error": checked})
            continue
        probe_id, sample, answer = checked
        if (probe_id, sample) in first_line:
            result.errors.append({"line": number, "error": f"{probe_id} sample {sample} is answered already on line {first_line[probe_id, sample]}"})
            continue
        first_line[probe_id, sample] = number
        result.rows.append({"probe_id": probe_id, "sample": sample, "text": answer})
    if not result.rows and not result.errors:
        result.errors.append({"line": 0, "error": "the file holds no answers"})
    result.rows.sort(key=lambda row: (row["probe_id"], row["sample"]))
    return result
