"""Clean-up of a chat model's reply before any rule reads it: reasoning blocks and markdown.

Reasoning models put their thinking before the answer, in tags such as ``<think>…</think>``. The
thinking mentions every option and both verdicts, so a rule that read it would find whatever it
looked for. Only the text after the block is the answer. When a server's chat template opens the
block in the prompt, the reply holds only the closing tag; everything before it is thinking too.
A block that never closes (the model ran out of tokens while thinking) leaves no answer at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TAGS = ("think", "thinking", "thought", "reasoning", "reflection", "scratchpad")
_TAG = "|".join(_TAGS)
_BLOCK = re.compile(rf"<\s*({_TAG})\s*>.*?<\s*/\s*\1\s*>", re.IGNORECASE | re.DOTALL)
_OPEN = re.compile(rf"<\s*(?:{_TAG})\s*>", re.IGNORECASE)
_CLOSE = re.compile(rf"<\s*/\s*(?:{_TAG})\s*>", re.IGNORECASE)
# Marker pairs some models use instead of XML-like tags.
_MARKERS = (
    (re.compile(r"<\|begin_of_thought\|>", re.I), re.compile(r"<\|end_of_thought\|>", re.I)),
    (re.compile(r"◁think▷"), re.compile(r"◁/think▷")),
)
_MARKER_OPEN = re.compile(r"<\|begin_of_solution\|>|<\|end_of_solution\|>", re.I)


@dataclass(frozen=True)
class Cleaned:
    """The reply's answer part; ``reasoning`` tells whether a reasoning block was removed and
    ``unfinished`` whether the reply was all reasoning (no answer after it)."""

    text: str
    reasoning: bool = False
    unfinished: bool = False


def strip_reasoning(reply: str) -> Cleaned:
    """Remove reasoning blocks; ``"<think>A or B?</think>\\nB"`` -> ``Cleaned("B", reasoning=True)``."""
    text, n = _BLOCK.subn("", reply)
    found = n > 0
    for opening, closing in _MARKERS:
        close = None
        for close in closing.finditer(text):
            pass
        if close is not None:
            text, found = text[close.end() :], True
        elif opening.search(text):
            return Cleaned("", True, True)
    text = _MARKER_OPEN.sub("", text)
    closes = list(_CLOSE.finditer(text))
    if closes:  # the opening tag was in the prompt: everything up to the last closing tag is thinking
        text, found = text[closes[-1].end() :], True
    elif _OPEN.search(text):
        return Cleaned("", True, True)
    return Cleaned(text.strip(), found)
