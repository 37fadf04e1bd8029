"""Verdict-first replies to a fact-checking prompt (SDAK, paper 004 §4.2).

The prompt asks for "correct" or "incorrect" (正确 / 错误) *first*, then the reason. Whether the
verdict comes first is itself measured (the instruction-following rate), so this parser only looks
at the start of the reply and never searches the reason for a verdict. What it decides:

* Invisible characters (zero-width spaces, soft hyphens, a byte-order mark: Unicode format
  characters) are dropped first: they change nothing a reader sees.
* Leading decoration is skipped: whitespace, markdown (``**``, ``#``, ``>``, ``-``, bullets),
  quotes and opening brackets, then one short label such as "Answer:", "Verdict:", "Output:"
  (the few-shot layout's own label), "The correct answer is", "回答：", "答：", "答案：", then decoration
  again.
  A definite subject may precede the verdict: "The claim is incorrect", "This statement is
  accurate", "That is correct", "这个说法是正确的", a bare copula "是正确的。", and a quoted claim:
  'The statement "X is not Y" is false.', '"X is not Y" is false.', "“X不是Y”这一说法是错误的". The
  quoted words are the claim, never read: a negation inside them does not turn the verdict.
* Supported: correct, true, accurate, yes; 正确, 对, 是 (是的). Refuted: incorrect, wrong, false,
  untrue, inaccurate, no, "not correct/true/accurate" (also "not entirely correct": the claim as
  stated is rejected, the "Safety" answers of the paper's Table 10); 不正确, 不完全正确, 错误, 错,
  不对, 不是, 否. An intensifier may lead: "Absolutely correct", "完全正确", "确实正确", "完全错误".
  Refutations are tried first, so "不正确" is never read as "正确" and "Incorrect. The correct
  statement is …" is a refutation.
* A verdict word must end there: a letter, digit or hyphen right after it means another word
  ("Correctly, …", "正确答案是…", "对于…", "是否…", "Right-sided…"); in Chinese one 的 may follow
  ("是正确的。"), or 的 and a word for the claim when the clause ends there ("错误的观点，……",
  "不正确的说法。"), but not a noun phrase that goes on ("正确的说法是…").
* Hedges are not verdicts: "I think it is correct", "It depends", "Partially correct",
  "The claim is probably correct", "可能正确" — the instruction asks for the verdict first.
* Both verdicts are not one: a verdict word followed directly by "or" / "/" / 与否 / 还是 / 或
  ("Correct or incorrect: …", "正确/错误"), or a later line or "/"-separated part that opens with
  the other verdict and nothing else ("true\nfalse\ntrue", "True - X / False - Y", "正确\n错误").
* A quoted verdict word must end its clause: "“正确”，因为…" and '"Correct"\n…' are verdicts,
  but '"正确" is a phrase that means…' and '“正确” - This should be…' talk about the word (small
  models do this) and are not.
* Chinese prompts also accept English verdicts: small and English-centric models often answer
  Chinese prompts in English, and the words are unambiguous. English prompts accept English only.

The published evaluation script searched the first 3–10 characters for substrings such as
"正确" or "不是" (``medprobe.methods.sdak.reference_verdict`` applies it as written for reference-compatible
scoring); this parser is stricter about position and laxer about markdown and labels.

``read_verdict`` is what scorers call: it drops a leading reasoning block (``<think>…</think>``)
first, and names the form that was read — "verdict first", "labelled" ("Answer: correct") or
"claim is …" ("The claim is incorrect") — or, for no verdict, "unparsed" and the reason.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from medprobe.parsing.base import EMPTY_REPLY, Parsed, ParseResult, Unparsed
from medprobe.parsing.reading import LABELLED, UNPARSED, Reading
from medprobe.parsing.reference_option_letter import for_language
from medprobe.parsing.reply_text import strip_reasoning

NO_VERDICT = "the reply does not begin with a verdict"
BOTH_VERDICTS = "the reply names both verdicts instead of giving one"
MENTIONED = "the reply quotes a verdict word inside a sentence instead of giving it"
ONLY_REASONING = "the reply is a reasoning block that never ends"
#: rule families of a verdict that was read (besides ``reading.LABELLED``)
VERDICT_FIRST = "verdict first"
CLAIM_IS = "claim is …"

_DECORATION = re.compile(r"^[\s*#>\-–—•·_\"'“”‘’「」『』`【\[（(]+")
#: decoration that leaves quotes alone, before a quoted claim
_MARKUP = re.compile(r"^[\s*#>\-–—•·_`]+")
#: a quoted claim (the words a reply repeats before judging them); English apostrophes are no quotes
_QUOTE = r"(?:\"[^\"\n]{2,}\"|“[^”\n]{2,}”|「[^」\n]{2,}」|『[^』\n]{2,}』)"
_QUOTED_CLAIM = re.compile(r"^" + _QUOTE)
_ANY_QUOTE = re.compile(_QUOTE)
#: quoted words that open or close with a verdict are a verdict being discussed, not a claim
#: ('The statement "It is correct" is incorrect')
_QUOTED_VERDICT = re.compile(
    r"^\W*(?:correct|incorrect|true|false|wrong|untrue|accurate|inaccurate|正确|不正确|错误|对|错|不对)\b"
    r"|\b(?:correct|incorrect|true|false|wrong|untrue|accurate|inaccurate)\W*$|(?:正确|错误|对|错)\W*$",
    re.IGNORECASE,
)
#: after a verdict word: the word ends here (an optional Chinese 的 may close it, with a word for the claim
#: when the clause ends there: "错误的观点，", but not "正确的说法是…")
_END = r"(?:的(?:说法|观点|陈述|论述|表述)?)?(?![\w-])"
_CONNECTIVE = re.compile(r"^\s*(?:/|or\b|与否|还是|或)", re.IGNORECASE)
#: a closing quote, then more words of the same sentence: the verdict word is being mentioned
_MENTION = re.compile(r"^[\"”’』」]+[ \t]*(?:[-–—][ \t]*)?\w")
#: where a reply lists another verdict: a new line or a "/"
_PART = re.compile(r"\n|/")
#: a verdict that is all its part says before punctuation ("false", "False - stopping …", "错误。")
_BARE_END = re.compile(r"^\s*(?:$|[.。,，;；!！\-–—)）])")
_EN_INTENSIFIER = r"(?:(?:absolutely|completely|entirely|totally|perfectly|definitely|indeed)\s+)?"
_ZH_INTENSIFIER = r"(?:完全|确实|的确|绝对)?"


@dataclass(frozen=True)
class _Vocabulary:
    """The words of one language: a leading label, a definite subject, what may follow a quoted
    claim, and the verdicts."""

    label: re.Pattern[str]
    subject: re.Pattern[str]
    after_quote: re.Pattern[str]
    refute: re.Pattern[str]
    support: re.Pattern[str]


_EN = _Vocabulary(
    label=re.compile(
        r"^(?:(?:answer|verdict|output|response|reply|judge?ment|conclusion)\s*[:：]|(?:the\s+)?(?:correct\s+)?answer\s+is\s*:?)",
        re.IGNORECASE,
    ),
    subject=re.compile(
        r"^(?:(?:the|this) (?:claim|statement)(?: above)?(?:\s*:?\s*(?:that\s+)?" + _QUOTE + r"\s*,?)?\s+is\s+|(?:that|this) is\s+|that's\s+)",
        re.IGNORECASE,
    ),
    after_quote=re.compile(r"^\s*,?\s*is\s+", re.IGNORECASE),
    refute=re.compile(
        r"^(?:not (?:entirely |completely |fully |quite )?(?:correct|true|accurate)|" + _EN_INTENSIFIER
        + r"(?:incorrect|inaccurate|untrue|wrong|false)|no)" + _END,
        re.IGNORECASE,
    ),
    support=re.compile(r"^(?:" + _EN_INTENSIFIER + r"(?:correct|true|accurate)|yes)" + _END, re.IGNORECASE),
)
_ZH = _Vocabulary(
    label=re.compile(r"^(?:回答|答案|答|判断|结论|输出|回复)\s*[:：]"),
    subject=re.compile(
        r"^(?:(?:这个|这一|这种|该|此|上述|以上)?(?:说法|陈述|观点|论述)(?:是|为)?\s*|是(?=" + _ZH_INTENSIFIER + r"不?(?:正确|错误|对|错)))"
    ),
    after_quote=re.compile(r"^\s*[，,]?\s*(?:(?:这个|这一|这种|该|此)?(?:说法|陈述|观点|论述))?(?:是|为)?\s*"),
    refute=re.compile(r"^(?:" + _ZH_INTENSIFIER + r"(?:不正确|错误|不对|错)|不完全正确|不是|否)" + _END),
    support=re.compile(r"^(?:" + _ZH_INTENSIFIER + r"(?:正确|对)|是)" + _END),
)
_VOCABULARIES: dict[str, tuple[_Vocabulary, ...]] = {"en": (_EN,), "zh": (_ZH, _EN)}


def drop_invisible(text: str) -> str:
    """The text without Unicode format characters (zero-width space and joiners, soft hyphen,
    byte-order mark, direction marks): a reader sees none of them, so a verdict behind one is
    still the first word."""
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")


def _strip_lead(text: str, vocabularies: tuple[_Vocabulary, ...]) -> tuple[str, bool]:
    """Drop decoration, one label, and decoration again; say whether a label was dropped."""
    text = _DECORATION.sub("", text)
    for vocab in vocabularies:
        labelled = vocab.label.match(text)
        if labelled:
            return _DECORATION.sub("", text[labelled.end() :]), True
    return text, False


def _leading(body: str, vocab: _Vocabulary) -> tuple[bool, str] | None:
    """The verdict a text opens with, and the text after it; ``None`` when it opens with none."""
    for supported, pattern in ((False, vocab.refute), (True, vocab.support)):
        found = pattern.match(body)
        if found:
            return supported, body[found.end() :]
    return None


def _lists_other_verdict(rest: str, supported: bool, vocabularies: tuple[_Vocabulary, ...]) -> bool:
    """Whether a later line or "/"-part of the reply is the other verdict alone ("true\\nfalse")."""
    for part in _PART.split(rest)[1:]:
        part = _DECORATION.sub("", part)
        for vocab in vocabularies:
            found = _leading(part, vocab)
            if found and found[0] != supported and _BARE_END.match(found[1]):
                return True
    return False


def _quotes_verdict(subject: str) -> bool:
    """Whether a subject quotes a verdict rather than a claim."""
    found = _ANY_QUOTE.search(subject)
    return found is not None and _QUOTED_VERDICT.search(found.group()[1:-1]) is not None


def _verdict(text: str, vocabularies: tuple[_Vocabulary, ...], labelled: bool = False, quoted: bool = False) -> Reading:
    """The verdict ``text`` opens with, after a subject (``quoted``: what follows a quoted claim)."""
    for vocab in vocabularies:
        subject = (vocab.after_quote if quoted else vocab.subject).match(text)
        if subject and _quotes_verdict(subject.group()):
            return Reading(None, UNPARSED, MENTIONED)
        body = text[subject.end() :] if subject else text
        found = _leading(body, vocab)
        if found is None:
            continue
        supported, rest = found
        if _CONNECTIVE.match(rest) or _lists_other_verdict(rest, supported, vocabularies):
            return Reading(None, UNPARSED, BOTH_VERDICTS)
        if _MENTION.match(rest):
            return Reading(None, UNPARSED, MENTIONED)
        return Reading(supported, LABELLED if labelled else CLAIM_IS if subject or quoted else VERDICT_FIRST)
    return Reading(None, UNPARSED, NO_VERDICT)


def _read(text: str, vocabularies: tuple[_Vocabulary, ...]) -> Reading:
    text = drop_invisible(text)
    plain = _MARKUP.sub("", text)
    quoted = _QUOTED_CLAIM.match(plain)
    if quoted and not _quotes_verdict(quoted.group()):  # '"X is not Y" is false.': the quote is the subject
        reading = _verdict(plain[quoted.end() :], vocabularies, quoted=True)
        if reading.read:
            return reading
    text, labelled = _strip_lead(text, vocabularies)
    if not text:
        return Reading(None, UNPARSED, EMPTY_REPLY)
    return _verdict(text, vocabularies, labelled)


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
