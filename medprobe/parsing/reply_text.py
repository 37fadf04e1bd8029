"""Clean-up of a chat model's reply before any rule reads it: reasoning blocks and markdown.

Reasoning models put their thinking before the answer, in tags such as ``<think>…</think>``. The
thinking mentions every option and both verdicts, so a rule that read it would find whatever it
looked for. Only the text after the block is the answer. When a server's chat template opens the
block in the prompt, the reply holds only the closing tag; everything before it is thinking too.
A block that never closes (the model ran out of tokens while thinking) leaves no answer at all.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
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


#: a hyphen or en dash inside a word: "hormone–related" is "hormone-related", "C5–C9" is "C5-C9" (not after a capital
#: standing alone before another capital: "A–Electrocardiogram" is an option and its text; "A–a gradient" is a word)
WORD_DASH = re.compile(r"(?:(?<=[a-z0-9\u4e00-\u9fff])|(?<=\w[A-Z]))[\u2010-\u2013](?=\w)|(?<=[A-Z])[\u2010-\u2013](?=[a-z0-9])")


def visible(text: str) -> str:
    """The text as a reader sees it: invisible characters removed, full-width forms, non-breaking spaces and dashes
    inside words folded (Ａ→A, ：→:, （→(, – → -), nothing else changed."""
    return WORD_DASH.sub("-", unicodedata.normalize("NFKC", _INVISIBLE.sub("", text)))


def normalise(text: str, *, cut: bool = True) -> str:
    """Chat decoration off, meaning kept: invisible characters removed, full-width forms and non-breaking
    spaces folded (Ａ→A, ：→:, （→( ), chat-template markers ([INST], <end_of_turn>) removed, LaTeX
    ``\\boxed{C}`` and ``$C$`` unwrapped, markdown emphasis, headings, quotes and bullets removed, and
    (``cut``) whatever follows a new "Question:" dropped (small models go on to invent the next question)."""
    folded = undecorated(text)
    return (cut_at_new_question(folded) if cut else folded).strip()


def undecorated(text: str) -> str:
    """``normalise`` without the cut and the final strip: for a caller that needs the text both cut and whole."""
    text = _BOXED.sub(r"\1", _TEMPLATE_MARKER.sub(" ", visible(text)))
    text = _LATEX_MATH.sub(r"\1", text)
    text = _EMPHASIS.sub("", text)
    return _LINE_LEAD.sub("", text)


def cut_at_new_question(text: str) -> str:
    """An undecorated reply up to a new "Question:" (a reply that opens by restating our question keeps that first
    block: the search starts after the first character)."""
    found = _NEW_QUESTION.search(text, 1)
    return text[: found.start()] if found else text


#: Chinese words doubting an answer (a hedge of any answer, and doubt of a verdict wherever it stands); 可能 before a
#: verb of effect states a fact ("甚至可能加重发作"), it does not hedge
_ZH_DOUBT = r"不确定|不知道|无法确定|难以确定|不好说|很难说(?![明服清])|说不准(?!确)"
_HEDGE = re.compile(
    r"(?i:\b(?:maybe|perhaps|possibly|probably|might|could\s+be|may\s+be|not\s+sure|unsure|uncertain|"
    r"(?:i\s+)?(?:don't|do\s+not)\s+know|cannot\s+(?:be\s+)?determined?|can't\s+(?:be\s+)?determined?|unclear|"
    r"hard\s+to\s+say|it\s+depends|either|in\s+(?:a|that|this|one|some)\s+sense|in\s+some\s+cases|partially|partly|somewhat|mostly|not\s+certain|"
    r"(?:can't|cannot|can\s+not)\s+(?:confirm|say|tell|be\s+sure)\s+(?:whether|if))\b)"
    r"|(?<!最)(?<!最有)可能(?!性最大)(?!会?(?:加重|引起|导致|出现|发生|造成|诱发|掩盖|影响|延误|增加|降低|升高|减少|损害|抑制))|也许|或许|(?<!最)大概(?!率)|不太确定|不能确定|无法判断|" + _ZH_DOUBT + r"|部分正确|不完全(?:正确|对|准确|确定|肯定|同意|清楚)"
)
_SENTENCE_END = re.compile(r"[.!?。！？\n]")


def sentence_at(text: str, start: int, end: int) -> str:
    """The sentence (or line) holding ``text[start:end]``: a hedge there qualifies the answer."""
    left = max((m.end() for m in _SENTENCE_END.finditer(text, 0, start)), default=0)
    right = _SENTENCE_END.search(text, end)
    return text[left : right.start() if right else len(text)]


#: doubt about the answer itself, wherever it stands near the answer ("True. But I am not sure."), unlike the words
#: of ``_HEDGE`` that an explanation also uses about facts ("partly because …", "could be due to …")
_DOUBT = re.compile(
    r"(?i:\b(?:not\s+(?:completely\s+|entirely\s+|fully\s+|totally\s+)?(?:sure|certain)|unsure|(?:I(?:'m|\s+am)\s+(?:\w+\s+){0,3}|I\s+remain\s+|(?:this|it|that|the\s+answer|the\s+evidence(?:\s+here)?)\s+(?:is|remains)\s+)uncertain|uncertain\s+(?:whether|if)|I\s+(?:might|could|may)\s+be\s+wrong|(?:don't|do\s+not)\s+know|(?:can't|cannot)\s+be\s+sure|hard\s+to\s+say|it\s+(?:really\s+|all\s+)?depends)\b)"
    r"|" + _ZH_DOUBT
)


def doubted(text: str) -> bool:
    """Whether the text doubts its answer in so many words ("not sure", "it depends", "不确定")."""
    return _DOUBT.search(text) is not None


def hedged(sentence: str) -> bool:
    """Whether a sentence qualifies its answer ("maybe C", "partially true", "可能是C"); "最可能的诊断是"
    ("the most likely diagnosis is") names the answer and is no hedge."""
    return _HEDGE.search(sentence) is not None


_QUESTION_HEAD = re.compile(r"^(?:Question|Statement|问题|题目|陈述)\s*[:：]", re.IGNORECASE)
_ANSWER_LABEL = re.compile(r"\n\s*(?:Answer|答案)\s*[:：]", re.IGNORECASE)


def _asked(block: str) -> str:
    """A question block up to its answer label ("Answer:", "答案：")."""
    label = _ANSWER_LABEL.search(block)
    return (block[: label.start()] if label else block).strip()


_LETTER = re.compile(r"(?<![A-Za-z])[A-J](?![A-Za-z])")


#: where the option list starts in our question
_OPTION_LIST = re.compile(r"\n\s*(?:(?i:options|choices)|选项)\s*[:：]|(?:^|\n)\s*[(\[]?A[)\].:：、]\s*\S")


@functools.lru_cache(maxsize=1024)
def stem_of(question: str) -> str:
    """Our question without its option list and answer label: what is asked (once per question: every rule that needs
    the question asks for it)."""
    question = _asked(normalise(question))
    options = _OPTION_LIST.search(question)
    return _QUESTION_HEAD.sub("", question[: options.start()] if options else question).strip()


def _same_question(asked: str, ours: str) -> bool:
    """Our question written out again: nearly the same words (a copy may drop a character: 以下哪项 for
    以下哪一项) and the same letters (a revision question with another given answer is another question)."""
    return fuzz.ratio(asked, ours) >= 90 and Counter(_LETTER.findall(asked)) == Counter(_LETTER.findall(ours))


def _instructions_only(preamble: str) -> bool:
    """Nothing before the restated question, or only a line of instructions copied from the prompt's head ("Answer
    the medical questions below. …"): no answer label, no line break, under 200 characters."""
    preamble = preamble.strip()
    return not preamble or (len(preamble) < 200 and "\n" not in preamble and not _ANSWER_LABEL.search("\n" + preamble))


def restatements(text: str, question: str) -> list[str] | None:
    """The answers of a reply that opens by writing out our question, each time it writes it out (None when
    it does not open so). Small models loop: our question and an answer, then our question again with
    another answer. Each answer is the text from its block's "Answer:" on ("" when the block has none, or
    none after it). A block cut off at the very end of the reply is left out: the model ran out of tokens,
    it did not decline. (Our question written out later, after examples the model copied, is no answer
    a blind reader takes: the reply is an echo of the prompt.)"""
    heads = [m.start() for m in _NEW_QUESTION.finditer(text)]
    if not heads or not _instructions_only(text[: heads[0]]):
        return None
    ours = _asked(normalise(question))
    blocks = [text[start:end].strip() for start, end in zip(heads, [*heads[1:], len(text)], strict=False)]
    if not _same_question(_asked(blocks[0]), ours):
        return None
    answers = []
    for n, block in enumerate(blocks):
        if not _same_question(_asked(block), ours):
            continue
        label = _ANSWER_LABEL.search(block)
        answer = block[label.start() :].strip() if label and block[label.end() :].strip() else ""
        if answer or n < len(blocks) - 1:
            answers.append(answer)
    return answers or None


def restated_question(text: str, question: str) -> tuple[str, bool]:
    """A reply that opens by writing a question ("Statement: …", "陈述：…") answers that question. When it
    is ours, restated, the answer is what follows (returned); when it is another — small models go on
    writing solved examples of their own — its answer is not an answer to ours (``False``)."""
    if not _QUESTION_HEAD.match(text):
        return text, True
    ours = _ANSWER_LABEL.split(normalise(question))[0]
    answer = _ANSWER_LABEL.search(text)
    judged = None if answer else _JUDGED_AFTER_QUOTE.match(text)
    if judged:  # 'Statement: "…" - True.': the verdict follows the quoted statement on its line
        return text[judged.end() :].strip(), _restates(text[: judged.start(1)], ours)
    label = answer or _PARAGRAPH.search(text)
    asked = text[: label.start()] if label else text
    if _restates(asked, ours):
        return (text[label.start() :].strip() if label else ""), True
    # 'Statement: "…"' on a line or paragraph of its own, then an analysis and "Answer: True", or "Verdict: ✅ True"
    for head in (_PARAGRAPH.split(asked, 1)[0], asked.split("\n", 1)[0]):
        if head != asked and _restates(head, ours):
            return (text[answer.start() :] if answer else text[len(head) :]).strip(), True
    return (text[label.start() :].strip() if label else ""), False


#: without an "Answer:" label, a restated question ends with its paragraph
_JUDGED_AFTER_QUOTE = re.compile(r"^[^\n]*[\"”」』’']([ \t]*[-–—:：]+[ \t]*)(?![^\n]{0,20}[?？]|(?i:true\s+or\s+false)|对还是错|是否)(?=\S)")
_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_QUOTES = re.compile(r"[\"“”'‘’「」『』]")


def _plain(text: str) -> str:
    """Text for comparing a restated statement with our question: no quotes, single spaces, lower case."""
    return _TRAILING_STOP.sub("", " ".join(_QUOTES.sub("", text).split()).lower())


_TRAILING_STOP = re.compile(r"[\s.。!！?？:：;；,，]+$")


def _restates(asked: str, ours: str) -> bool:
    """Our question written out again: nearly the same words, or a statement quoted from our question, whole or with
    words left out but none added ('Statement: "X."' when we asked whether X is true) — a model heading its verdict
    with the claim it judges."""
    if fuzz.ratio(asked.strip(), ours.strip()) >= 90:
        return True
    quoted, their = _plain(_QUESTION_HEAD.sub("", asked.strip())), _plain(ours)
    # quoted with words left out, none added ("an eGFR below 30" for "an estimated … rate (eGFR) below 30"), never a "not"
    return len(quoted) >= 12 and (quoted in their or (len(_WORDS.findall(quoted)) >= 5 and _ours_in_fewer_words(quoted, set(_WORDS.findall(their)))))


#: the words that turn a statement into its opposite: a restatement may not leave them out
_NEGATIONS = frozenset({"not", "no", "never", "without", "cannot", "none", "neither", "nor"})


_WORDS = re.compile(r"\w+(?:[./]\w+)*")


_STATEMENT_THAT = re.compile(r"\b(?i:statement|claim|assertion)\s+that\s+")
_IS_AFTER = re.compile(r"\s+(?i:is|was)\b")


def _ours_in_fewer_words(clause: str, ours: set[str]) -> bool:
    """Whether a clause is our statement (its words ``ours``) in fewer words: every word of it is ours and it says "not"
    just where ours does ("the statement that TIBC is decreased" for "TIBC is decreased in iron deficiency"; not "the
    statement that vitamin K reverses warfarin" for "Vitamin K reverses heparin")."""
    words = set(_WORDS.findall(clause))
    return words <= ours and (words & _NEGATIONS) == (ours & _NEGATIONS)


def quote_our_statement(text: str, question: str) -> str:
    """"The statement that <our statement> is not accurate": our statement written out after "statement that"
    is put in quotes, so that the verdict reads as one on "…" (the longest clause before "is" that our
    question holds, or says in fewer words; a clause of the reply's own, "the statement that the test is accurate", stays
    as it is). The quotes are curly ones, so that a reply written as JSON stays JSON."""
    ours = _plain(question)
    our_words = set(_WORDS.findall(ours))
    for match in reversed(list(_STATEMENT_THAT.finditer(text))):
        sentence_end = _SENTENCE_END.search(text, match.end())
        rest = text[match.end() : sentence_end.start() if sentence_end else len(text)]
        for cut in reversed([m.start() for m in _IS_AFTER.finditer(rest)]):
            clause = _plain(rest[:cut])
            if len(clause) >= 12 and len(clause.split()) >= 3 and (clause in ours or _ours_in_fewer_words(clause, our_words)):  # a clause, not one word
                text = text[: match.end() - len("that ")].rstrip() + f" “{rest[:cut]}”" + text[match.end() + cut :]
                break
    return text
