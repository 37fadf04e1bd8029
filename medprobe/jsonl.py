"""JSON / JSON-lines reading and writing with errors that name file, line and field."""

from __future__ import annotations

import io
import json
import os
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TextIO, TypeVar

from pydantic import BaseModel, ValidationError

from medprobe.errors import MedprobeError
from medprobe.paths import NO_SPACE, NO_SPACE_HINT

T = TypeVar("T", bound=BaseModel)
#: the largest file read as data (it is held in memory whole, with its decoded text beside it)
MAX_FILE_BYTES = 2 * 1024**3


@contextmanager
def space_for(path: str | Path) -> Iterator[None]:
    """A write that fails for want of space as a MedprobeError naming ``path`` (what was written
    before stays: a run resumes from it once there is space again)."""
    try:
        yield
    except OSError as exc:
        if exc.errno not in NO_SPACE:
            raise
        raise MedprobeError(f"no space left to write the file ({exc.strerror or exc})", file=path, hint=NO_SPACE_HINT) from None


def validation_error(exc: ValidationError, file: str | Path, line: int | None) -> MedprobeError:
    """Turn pydantic's first complaint into one located message."""
    first = exc.errors()[0]
    field = ".".join(str(p) for p in first.get("loc", ())) or None
    message = first.get("msg", "invalid value")
    if first.get("type") == "extra_forbidden":
        message = "unknown field"
    elif first.get("type") == "missing":
        message = "missing required field"
    return MedprobeError(message, file=file, line=line, field=field)


def read_text(path: str | Path) -> str:
    """A user's text file, decoded as UTF-8; a missing, unreadable or differently encoded file is a
    MedprobeError naming it (and, for an encoding problem, the line and column of the first bad byte).
    Only a regular file of at most MAX_FILE_BYTES is read: a path to a device, a pipe or a huge file
    would otherwise fill the memory or wait for ever."""
    path = Path(path)
    if not path.exists():
        raise MedprobeError("file not found", file=path)
    if path.is_dir():
        raise MedprobeError("a folder, not a file", file=path)
    if not path.is_file():  # /dev/zero never ends, a FIFO waits for a writer
        raise MedprobeError("not a regular file (a device, pipe or socket); medprobe reads data from regular files only", file=path)
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise MedprobeError(f"{size:,} bytes, more than the {MAX_FILE_BYTES:,} medprobe reads from one file", file=path,
                            hint="split it, or limit what it holds")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise MedprobeError(f"cannot read the file: {exc.strerror or exc}", file=path) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise MedprobeError(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x} at column {column})", file=path, line=line,
            hint="save the file as UTF-8 (e.g. iconv -f latin1 -t utf-8)",
        ) from None


def _loads(text: str) -> Any:
    """json.loads that reports every way a text can fail to be JSON as a JSONDecodeError (Python
    raises ValueError for over-long integers and RecursionError for deep nesting)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except (ValueError, RecursionError) as exc:
        raise json.JSONDecodeError(str(exc).split(";")[0] or type(exc).__name__, text, 0) from None


def iter_json_lines(path: str | Path, *, tolerate_torn_tail: bool = False) -> Iterator[tuple[int, Any]]:
    """Yield (line number, decoded value) for each non-blank line.

    ``tolerate_torn_tail`` skips an undecodable *last* line: an append-only file written by a
    process that was killed mid-write ends that way, and the lost record is simply redone.
    """
    path = Path(path)
    lines = io.StringIO(read_text(path), newline=None).readlines()  # lines end at \n, \r\n or \r, as in a text-mode read
    for index, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            yield index, _loads(raw)
        except json.JSONDecodeError as exc:
            is_last = index == len(lines)
            if tolerate_torn_tail and is_last and not raw.endswith("\n"):
                return
            raise MedprobeError(f"malformed JSON ({exc.msg} at column {exc.colno})", file=path, line=index) from None


def first_record(path: str | Path) -> Any:
    """The decoded first non-blank line of a JSON-lines file, or None when it is not JSON (used
    to recognise what kind of file a user passed)."""
    first = next((line for line in io.StringIO(read_text(path), newline=None) if line.strip()), "")
    try:
        return _loads(first)
    except json.JSONDecodeError:
        return None


def read_records(path: str | Path, model: type[T], *, tolerate_torn_tail: bool = False) -> list[T]:
    """Read a JSONL file of ``model`` records, failing on the first bad line with its location."""
    records = []
    for line, value in iter_json_lines(path, tolerate_torn_tail=tolerate_torn_tail):
        if not isinstance(value, dict):
            raise MedprobeError(f"expected a JSON object, got {type(value).__name__}", file=path, line=line)
        try:
            records.append(model.model_validate(value))
        except ValidationError as exc:
            raise validation_error(exc, path, line) from None
    return records


def read_json(path: str | Path) -> Any:
    text = read_text(path)
    try:
        return _loads(text)
    except json.JSONDecodeError as exc:
        raise MedprobeError(f"malformed JSON ({exc.msg})", file=path, line=exc.lineno) from None


def dumps(record: BaseModel | dict[str, Any]) -> str:
    """One compact JSON line, non-ASCII kept as it is. A record is written by pydantic's own
    serializer, without building its dict first (a run writes every probe, answer and score this
    way); its text equals ``json.dumps`` of the dump but for the spelling of some floats (0.000012
    for 1.2e-05), which read back the same."""
    if isinstance(record, BaseModel):
        return record.model_dump_json()
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


@contextmanager
def replacing(path: str | Path, *, encoding: str = "utf-8", newline: str | None = None) -> Iterator[TextIO]:
    """A text file that takes the place of ``path`` only when the block ends without error, so
    readers (and a resumed run) see the old file or the whole new one, never half of it.

    The temporary file beside it has a name of its own (two writers of one file never share it)
    that starts with a dot and ends in ``.tmp``: what a killed process leaves is recognisably not
    data. An error removes it and keeps the old file."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        with space_for(path), tmp.open("x", encoding=encoding, newline=newline) as handle:
            yield handle
        os.replace(tmp, path)
    except BaseException:
        with suppress(FileNotFoundError):
            tmp.unlink()
        raise


def write_records(path: str | Path, records: Iterable[BaseModel | dict[str, Any]]) -> None:
    """Write a whole JSONL file atomically (see :func:`replacing`)."""
    with replacing(path) as handle:
        for record in records:
            handle.write(dumps(record) + "\n")


def write_json(path: str | Path, value: Any) -> None:
    with replacing(path) as handle:
        handle.write(json.dumps(value, ensure_ascii=False, indent=2) + "\n")


class JsonlAppender:
    """Append-only JSONL writer that flushes every record, so a killed run loses at most the
    record being written."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._repair_torn_tail()
        self._handle = self.path.open("a", encoding="utf-8")

    def _repair_torn_tail(self) -> None:
        if not self.path.exists() or self.path.stat().st_size == 0:
            return
        with self.path.open("rb+") as handle:
            data = handle.read()
            if data.endswith(b"\n"):
                return
            cut = data.rfind(b"\n") + 1
            handle.truncate(cut)

    def write(self, record: BaseModel | dict[str, Any]) -> None:
        with space_for(self.path):
            self._handle.write(dumps(record) + "\n")
            self._handle.flush()

    def close(self) -> None:
        with space_for(self.path):
            self._handle.close()

    def __enter__(self) -> JsonlAppender:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
