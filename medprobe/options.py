"""Typed reading of ``key=value`` options (``-O`` for backends, ``-X`` for methods).

Options arrive as text. Reading one with ``int()`` where it is used turns ``n_ctx=abc`` into a
traceback, and accepts values that make a run fail far from the cause (``max_concurrency=0`` shows
up as "cannot reach the model endpoint", ``timeout=0`` as a timeout on every request). Each option
is therefore read once, up front, by a parser that says what it expects.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from medprobe.errors import MedprobeError

#: reads an option's text; raises ValueError saying what was expected
Parser = Callable[[str], Any]


def whole(minimum: int) -> Parser:
    """A whole number of at least ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"expected a whole number, got '{text}'") from None
        if value < minimum:
            raise ValueError(f"must be at least {minimum}, got {value}")
        return value

    return parse


def seconds(text: str) -> float:
    """A finite number of seconds, more than 0."""
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"expected a number of seconds, got '{text}'") from None
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"must be more than 0 (and finite), got {text}")
    return value


def name(text: str) -> str:
    """A non-empty name."""
    if not text:
        raise ValueError("expected a name, got nothing")
    return text


def one_of(*choices: str) -> Parser:
    """One of ``choices``."""

    def parse(text: str) -> str:
        if text not in choices:
            raise ValueError(f"expected one of {', '.join(choices)}, got '{text}'")
        return text

    return parse


def read_options(options: Mapping[str, str], parsers: Mapping[str, Parser], flag: str) -> dict[str, Any]:
    """Each option read by its parser (options without one are left to the caller to refuse); a
    bad value is a MedprobeError naming the option."""
    values: dict[str, Any] = {}
    for key, text in options.items():
        if key not in parsers:
            continue
        try:
            values[key] = parsers[key](text)
        except ValueError as exc:
            raise MedprobeError(str(exc), field=f"{flag} {key}") from None
    return values
