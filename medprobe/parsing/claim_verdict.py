"""Verdict-first replies to a fact-checking prompt (SDAK, paper 004 §4.2).

The prompt asks for "correct" or "incorrect" (正确 / 错误) *first*, then the reason. Whether the
verdict comes first is itself measured (the instruction-following rate), so this parser only looks
at the start of the reply and never searches the reason for a verdict. What it decides:

* Leading decoration is skipped: whitespace, markdown (``**``, ``#``, ``>``, ``-``, bullets),
  quotes and opening brackets, then one short label such as "Answer:", "Verdict:", "Output:"
  (the few-shot layout's own label), "The correct answer is", "回答：", "答：", "答案：", then decoration
  again.
  A definite subject may precede the verdict: "The claim is incorrect", "这个说法是正确的".
* Supported: correct, true, yes; 正确, 对, 是 (是的). Refuted: incorrect, wrong, false, untrue,
  no, "not correct/true" (also "not entirely correct": the claim as stated is rejected, the
  "Safety" answers of the paper's Table 10); 不正确, 不完全正确, 错误, 错, 不对, 不是, 否.
  Refutations are tried first, so "不正确" is never read as "正确" and "Incorrect. The correct
  statement is …" is a refutation.
* A verdict word must end there: a letter, digit or hyphen right after it means another word
  ("Correctly, …", "正确答案是…", "对于…", "是否…", "Right-sided…"); in Chinese one 的 may follow
  ("是正确的。"), but not as the start of a noun phrase ("正确的说法是…").
* Hedges are not verdicts: "I think it is correct", "It depends", "Partially correct",
  "The claim is probably correct", "可能正确" — the instruction asks for the verdict first.
* A verdict word followed directly by "or" / "/" / 与否 / 还是 / 或 ("Correct or incorrect: …",
  "正确/错误") names both verdicts and is not one.
* A quoted verdict word must end its clause: "“正确”，因为…" and '"Correct"\n…' are verdicts,
  but '"正确" is a phrase that means…' and '“正确” - This should be…' talk about the word (small
  models do this) and are not.
* Chinese prompts also accept English verdicts: small and English-centric models often answer
  Chinese prompts in English, and the words are unambiguous. English prompts accept English only.

The published evaluation script searched the first 3–10 characters for substrings such as
"正确" or "不是"; this parser is stricter about position and laxer about markdown and labels.

``read_verdict`` is what scorers call: it drops a leading reasoning block (``<think>…</think>``)
first, and names the form that was read — "verdict first", "labelled" ("Answer: correct") or
"claim is …" ("The claim is incorrect") — or, for no verdict, "unparsed" and the reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from medprobe.parsing.base import Parsed, ParseResult, Unparsed
from medprobe.parsing.option_letter import EMPTY_REPLY, for_language
from medprobe.parsing.reading import LABELLED, UNPARSED, Reading
from medprobe.parsing.reply_text import strip_reasoning

NO_VERDICT = "the reply does not begin with a verdict"
BOTH_VERDICTS = "the reply names both verdicts instead of giving one"
MENTIONED = "the reply quotes a verdict word inside a sentence instead of giving it"
ONLY_REASONING = "the reply is a reasoning block that never ends"
#: rule families of a verdict that was read (besides ``reading.LABELLED``)
VERDICT_FIRST = "verdict first"
CLAIM_IS = "claim is …"

_DECORATION = re.compile(r"^[\s*#>\-–—•·_\"'“”‘’「」『』`【\[（(]+")
#: after a verdict word: the word ends here (an optional Chinese 的 may close it)
_END = r"(?:的)?(?![\w-])"
_CONNECTIVE = re.compile(r"^\s*(?:/|or\b|与否|还是|或)", re.IGNORECASE)
#: a closing quote, then more words of the same sentence: the verdict word is being mentioned
_MENTION = re.compile(r"^[\"”’』」]+[ \t]*(?:[-–—][ \t]*)?\w")


@dataclass(frozen=True)
class _Vocabulary:
    """The words of one language: a leading label, a definite subject, and the verdicts."""

    label: re.Pattern[str]
    subject: re.Pattern[str]
    refute: re.Pattern[str]
    support: re.Pattern[str]


_EN = _Vocabulary(
    label=re.compile(
        r"^(?:(?:answer|verdict|output|response|reply|judge?ment|conclusion)\s*[:：]|(?:the\s+)?(?:correct\s+)?answer\s+is\s*:?)",
        re.IGNORECASE,
    ),
    subject=re.compile(r"^(?:the|this) (?:claim|statement)(?: above)? is\s+", re.IGNORECASE),
    refute=re.compile(
        r"^(?:not (?:entirely |completely |fully |quite )?(?:correct|true)|incorrect|untrue|wrong|false|no)" + _END,
        re.IGNORECASE,
    ),
    support=re.compile(r"^(?:correct|true|yes)" + _END, re.IGNORECASE),
)
_ZH = _Vocabulary(
    label=re.compile(r"^(?:回答|答案|答|判断|结论|输出|回复)\s*[:：]"),
    subject=re.compile(r"^(?:这个|这一|这种|该|此|上述|以上)?(?:说法|陈述|观点|论述)(?:是|为)?\s*"),
    refute=re.compile(r"^(?:不完全正确|不正确|错误|不对|不是|错|否)" + _END),
    support=re.compile(r"^(?:正确|对|是)" + _END),
)
_VOCABULARIES: dict[str, tuple[_Vocabulary, ...]] = {"en": (_EN,), "zh": (_ZH, _EN)}


def _strip_lead(text: str, vocabularies: tuple[_Vocabulary, ...]) -> tuple[str, bool]:
    """Drop decoration, one label, and decoration again; say whether a label was dropped."""
    text = _DECORATION.sub("", text)
    for vocab in vocabularies:
        labelled = vocab.label.match(text)
        if labelled:
            return _DECORATION.sub("", text[labelled.end() :]), True
    return text, False


def _read(text: str, vocabularies: tuple[_Vocabulary, ...]) -> Reading:
    text, labelled = _strip_lead(text, vocabularies)
    if not text:
        return Reading(None, UNPARSED, EMPTY_REPLY)
    for vocab in vocabularies:
        subject = vocab.subject.match(text)
        body = text[subject.end() :] if subject else text
        for supported, pattern in ((False, vocab.refute), (True, vocab.support)):
            found = pattern.match(body)
            if found:
                rest = body[found.end() :]
                if _CONNECTIVE.match(rest):
                    return Reading(None, UNPARSED, BOTH_VERDICTS)
                if _MENTION.match(rest):
                    return Reading(None, UNPARSED, MENTIONED)
                return Reading(supported, LABELLED if labelled else CLAIM_IS if subject else VERDICT_FIRST)
    return Reading(None, UNPARSED, NO_VERDICT)


def read_verdict(reply: str, language: str) -> Reading:
    """A reply to "is this claim correct?" read after its reasoning block: value ``True``
    (supported), ``False`` (refuted) or ``None`` when it does not begin with exactly one verdict,
    with the rule family that read it and, when nothing did, the reason.

    >>> read_verdict("**Incorrect.** In fact, …", "en")
    Reading(value=False, rule='verdict first', reason='')
    >>> read_verdict("答：这个说法是正确的。", "zh").rule
    'labelled'
    """
    vocabularies = for_language(_VOCABULARIES, language)
    cleaned = strip_reasoning(reply)
    if cleaned.unfinished:
        return Reading(None, UNPARSED, ONLY_REASONING)
    return _read(cleaned.text, vocabularies)


def parse_claim_verdict(reply: str, language: str) -> ParseResult[bool]:
    """``read_verdict`` as a parse result: ``Parsed(True/False)`` or ``Unparsed(reason)``.

    >>> parse_claim_verdict("答：这个说法是正确的。", "zh")
    Parsed(value=True)
    """
    reading = read_verdict(reply, language)
    return Unparsed(reading.reason) if reading.value is None else Parsed(reading.value)
