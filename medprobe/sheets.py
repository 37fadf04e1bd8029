"""Review sheets: CSV files that clinicians open in a spreadsheet, fill in and hand back.

Written in UTF-8 with a byte-order mark, because Excel decodes a CSV without one in the local code page
and garbles Chinese; read back with or without it. A sheet may open with comment rows (first cell
starting with "#", e.g. instructions) before its header row; they are skipped when read. Errors name the
file, the line a row starts on and the column.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from medprobe.errors import MedprobeError
from medprobe.jsonl import replacing

HINT = "keep the header row of the written sheet and save as comma-separated 'CSV UTF-8'"


def write_sheet(path: str | Path, columns: Sequence[str], rows: Iterable[Mapping[str, Any]], *, comments: Sequence[str] = ()) -> None:
    """Write ``rows`` (missing cells empty) under a header of ``columns``, after ``comments`` rows, atomically."""
    with replacing(path, encoding="utf-8-sig", newline="") as handle:
        writer = csv.writer(handle)
        for comment in comments:
            writer.writerow([f"# {comment}"])
        writer.writerow(columns)
        for row in rows:
            writer.writerow([cell(row.get(column)) for column in columns])


def cell(value: Any) -> str:
    """A cell's text; floats as ``repr`` so that they round-trip exactly."""
    if value is None:
        return ""
    return repr(value) if isinstance(value, float) else str(value)


def read_sheet(path: str | Path, required: Sequence[str]) -> Iterator[tuple[int, dict[str, str]]]:
    """(line the row starts on, {column: text}) for every row after the header; the header must hold
    ``required``. Columns a reviewer added are kept; missing cells read as empty."""
    path = Path(path)
    if not path.exists():
        raise MedprobeError("file not found", file=path)
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            reader = csv.reader(handle)
            header: list[str] | None = None
            start = 1
            for raw in reader:
                if header is None:
                    if raw and raw[0].lstrip().startswith("#"):
                        start = reader.line_num + 1
                        continue
                    header = [name.strip() for name in raw]
                    missing = [c for c in required if c not in header]
                    if missing:
                        raise MedprobeError("missing column", file=path, line=start, field=missing[0], hint=HINT)
                elif any(text.strip() for text in raw):
                    yield start, {name: (raw[i] if i < len(raw) else "") for i, name in enumerate(header)}
                start = reader.line_num + 1
    except UnicodeDecodeError:
        raise MedprobeError("not UTF-8 text", file=path, hint="in Excel, save with 'CSV UTF-8 (Comma delimited)'") from None
    except csv.Error as exc:
        raise MedprobeError(f"malformed CSV ({exc})", file=path, line=start) from None
    if header is None:
        raise MedprobeError("no header row", file=path, hint=HINT)
