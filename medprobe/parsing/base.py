"""Parse results: every extractor returns ``Parsed(value)`` or ``Unparsed(reason)``.

Nothing is silently guessed here; random filling of unparsed answers (the published scripts'
behaviour) is a scoring mode applied later, with an explicit seed, and always reported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Parsed(Generic[T]):
    value: T


@dataclass(frozen=True)
class Unparsed:
    reason: str


ParseResult = Parsed[T] | Unparsed
