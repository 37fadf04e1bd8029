"""What both reader families share: the parse result every reference extractor returns
(``Parsed(value)`` or ``Unparsed(reason)``), and the answer values strict and reference readers both give.

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


#: why a blank reply is unread, whichever reader read it
EMPTY_REPLY = "empty reply"


@dataclass(frozen=True)
class Revision:
    """A rectification answer: ``judge`` True = "Alice is correct"; ``option`` = the letter proposed."""

    judge: bool | None
    option: str | None
