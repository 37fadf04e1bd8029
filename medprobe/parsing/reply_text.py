"""Clean-up of a chat model's reply before any rule reads it: reasoning blocks and markdown.

Reasoning models put their thinking before the answer, in tags such as ``<think>…</think>``. The
thinking mentions every option and both verdicts, so a rule that read it would find whatever it
looked for. Only the text after the block is the answer. When a server's chat template opens the
block in the prompt, the reply holds only the closing tag; everything before it is thinking too.
A block that never closes (the model ran out of tokens while thinking) leaves no answer at all.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from rapidfuzz import fuzz

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
        close = max(closing.finditer(text), key=lambda m: m.start(), default=None)
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


_BOXED = re.compile(r"\\boxed\{([^{}]*)\}")
_LATEX_MATH = re.compile(r"\$+([^$]*)\$+")
_EMPHASIS = re.compile(r"(\*{1,3}|_{2,3}|`+|~~)")
_LINE_LEAD = re.compile(r"^[ \t]*(?:#{1,6}[ \t]+|>[ \t]*|[-*•·][ \t]+)", re.MULTILINE)
#: a new question (or statement to judge) starts here: what follows answers one the model made up or copied
#: from the prompt's solved examples, not ours
_NEW_QUESTION = re.compile(r"(?:^|\n)[ \t]*(?:Question|Q|Statement|问题|题目|陈述)\s*\d*\s*[:：]", re.IGNORECASE)


#: characters that show nothing (zero-width space and joiners, word joiner, byte-order mark, soft hyphen) but
#: would keep "\u200bfalse" from reading as "false"
_INVISIBLE = re.compile("[\u00ad\u200b-\u200d\u2060\ufeff]")


#: chat-template markers a small model writes into its own reply ("Answer: [INST]true", "[INST]Statement: …"): they
#: hide the question head a new made-up question starts with, and are no part of an answer
_TEMPLATE_MARKER = re.compile(
    r"\[/?INST\]|<</?SYS>>|</?s>|<bos>|<eos>|<(?:start|end)_of_turn>(?:user|model)?|<\|im_(?:start|end)\|>(?:system|user|assistant)?"
    r"|<\|(?:eot_id|begin_of_text|end_of_text)\|>|<\|start_header_id\|>\w*<\|end_header_id\|>",
)


def visible(text: str) -> str:
    """The text as a reader sees it: invisible characters removed, full-width forms and non-breaking spaces
    folded (Ａ→A, ：→:, （→( ), nothing else changed."""
    return unicodedata.normalize("NFKC", _INVISIBLE.sub("", text))


def normalise(text: str) -> str:
    """Chat decoration off, meaning kept: invisible characters removed, full-width forms and non-breaking
    spaces folded (Ａ→A, ：→:, （→( ), chat-template markers ([INST], <end_of_turn>) removed, LaTeX
    ``\\boxed{C}`` and ``$C$`` unwrapped, markdown emphasis, headings, quotes and bullets removed, and
    whatever follows a new "Question:" dropped (small models go on to invent the next question)."""
    text = _BOXED.sub(r"\1", _TEMPLATE_MARKER.sub(" ", visible(text)))
    text = _LATEX_MATH.sub(r"\1", text)
    text = _EMPHASIS.sub("", text)
    text = _LINE_LEAD.sub("", text)
    cut = _NEW_QUESTION.search(text, 1)  # a reply that opens by restating our question keeps that first block
    if cut:
        text = text[: cut.start()]
    return text.strip()


_HEDGE = re.compile(
    r"(?i:\b(?:maybe|perhaps|possibly|probably|might|could\s+be|may\s+be|not\s+sure|unsure|uncertain|"
    r"(?:i\s+)?(?:don't|do\s+not)\s+know|cannot\s+(?:be\s+)?determined?|can't\s+(?:be\s+)?determined?|unclear|"
    r"hard\s+to\s+say|it\s+depends|either|partially|partly|somewhat|mostly)\b)"
    r"|(?<!最)(?<!最有)可能(?!性最大)|也许|或许|大概|不确定|不太确定|不能确定|不知道|无法确定|无法判断|不好说|难以确定|部分正确|不完全"
)
_SENTENCE_END = re.compile(r"[.!?。！？\n]")


def sentence_at(text: str, start: int, end: int) -> str:
    """The sentence (or line) holding ``text[start:end]``: a hedge there qualifies the answer."""
    left = max((m.end() for m in _SENTENCE_END.finditer(text, 0, start)), default=0)
    right = _SENTENCE_END.search(text, end)
    return text[left : right.start() if right else len(text)]


def hedged(sentence: str) -> bool:
    """Whether a sentence qualifies its answer ("maybe C", "partially true", "可能是C"); "最可能的诊断是"
    ("the most likely diagnosis is") names the answer and is no hedge."""
    return _HEDGE.search(sentence) is not None


_QUESTION_HEAD = re.compile(r"^(?:Question|Statement|问题|题目|陈述)\s*[:：]", re.IGNORECASE)
_ANSWER_LABEL = re.compile(r"\n\s*(?:Answer|答案)\s*[:：]", re.IGNORECASE)


def restated_question(text: str, question: str) -> tuple[str, bool]:
    """A reply that opens by writing a question ("Statement: …", "陈述：…") answers that question. When it
    is ours, restated, the answer is what follows (returned); when it is another — small models go on
    writing solved examples of their own — its answer is not an answer to ours (``False``)."""
    if not _QUESTION_HEAD.match(text):
        return text, True
    label = _ANSWER_LABEL.search(text)
    asked = text[: label.start()] if label else text
    ours = _ANSWER_LABEL.split(normalise(question))[0]
    return (text[label.start() :].strip() if label else ""), fuzz.ratio(asked.strip(), ours.strip()) >= 90
