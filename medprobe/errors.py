"""User-facing errors.

Every error a user can cause (bad file, bad option, unreachable server) is raised as a
:class:`MedprobeError` that says what was wrong, where (file, line, field) and what to do.
The CLI prints it without a traceback and exits with status 2.
"""

from __future__ import annotations

from pathlib import Path


class MedprobeError(Exception):
    """An error caused by input or environment, reported to the user as one clear message."""

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | None = None,
        line: int | None = None,
        field: str | None = None,
        hint: str | None = None,
    ) -> None:
        self.message = message
        self.file = str(file) if file is not None else None
        self.line = line
        self.field = field
        self.hint = hint
        super().__init__(self.render())

    def render(self) -> str:
        where = ""
        if self.file:
            where = self.file + (f":{self.line}" if self.line is not None else "") + ": "
        elif self.line is not None:
            where = f"line {self.line}: "
        field = f"field '{self.field}': " if self.field else ""
        text = f"{where}{field}{self.message}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text
