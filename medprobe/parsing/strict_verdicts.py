"""Strict-mode reading of verdicts in chat replies: true/false, yes/no, and a revision (correct, or
incorrect with the right option).

As for option answers (``medprobe.parsing.strict_letters``), every *verdict statement* is collected — the
reply being only a verdict word (``bare``), a verdict word opening the reply (``leading``), a labelled or
stated verdict anywhere ("Answer: False", "The statement is incorrect", "答案：错误", "该说法是正确的")
(``labelled``) — and the reply is read only when all of them agree. A verdict word must end where it
stands ("Correctly", "Correct answer is", "正确答案", "对于" are not verdicts), one followed by "or" / "/"
names both verdicts, and a hedged statement ("partially true", "可能正确") is no verdict. Negations are
read: "not true" is false, "not incorrect" is true. A verdict opening a later line or following " / "
("true\nfalse", "True - … / False - …") is one more verdict statement, so a reply giving both is unread.
A quoted statement is the claim judged, never a verdict: in 'The statement "X is not Y" is false.' only
"is false" is read.

The reference word lists are substring tests (REFERENCE_METHODS §3.1–3.2), under which "Incorrect"
contains "correct" and, with the case-sensitive F-list, reads as *true*; that is why strict mode has
its own rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from medprobe.parsing.base import Revision
from medprobe.parsing.reading import BARE, HEDGED, IMPLIED, LABELLED, LEADING, UNPARSED, Reading
from medprobe.parsing.reply_text import doubted, sentence_at
from medprobe.parsing.strict_letters import (
    CHECK_MARKS,
    CROSS_MARKS,
    Statement,
    after_retraction,
    decide,
    letter_statements,
    says_none_is_right,
)

#: a verdict word ends here: no letter, digit or hyphen follows (Chinese may close it with 的)
_END = r"(?:的)?(?![\w-])"
_NEG = r"(?i:not|isn't|is\s+not)\s+"


@dataclass(frozen=True)
class Vocabulary:
    """The verdict words of one kind of question: True-words and False-words (English and Chinese;
    longer forms first so that "不正确" is not read as "正确")."""

    true: str
    false: str

    def word(self) -> re.Pattern[str]:
        """One verdict word, captured as ``t`` or ``f``; a negated word counts as its opposite."""
        return re.compile(
            rf"(?:{_NEG}(?P<nt>{self.true})|{_NEG}(?P<nf>{self.false})|(?P<f>{self.false})|(?P<t>{self.true})){_END}"
        )


TRUE_FALSE = Vocabulary(
    true=r"(?i:true|correct|right|yes|accurate|valid)|正确|对|是的|是|真",
    false=r"(?i:false|incorrect|wrong|untrue|inaccurate|invalid|no)|不正确|错误|不对|错|否|不是|假",
)
YES_NO = Vocabulary(
    true=r"(?i:yes)|是的|是|有|存在",
    false=r"(?i:no)|不存在|没有|否|无|不是",
)
REVISION = Vocabulary(
    true=r"(?i:correct|right|true|yes)|正确|对|是的",
    false=r"(?i:incorrect|wrong|false|not\s+correct|no)|不正确|错误|不对|错",
)

#: "Absolutely false.": an adverb that only stresses the verdict opening a reply
_ADVERB = r"(?:(?i:absolutely|definitely|clearly|certainly|completely|entirely)\s+)?"
#: "是正确的" / "这是错误的": a Chinese copula before the verdict word at the start of a reply
_COPULA = r"(?:(?:这|它|此)?(?:是|为)(?=不?正确|错误|不?对|错))?"
#: "The first part of the statement is true": a verdict on part of the statement, not on the statement
_PART_OF = re.compile(r"\b(?i:(?:first|second|third|last|latter|former|other|one)\s+(?:part|half|clause|portion)\s+of|(?:part|half|portion)\s+of)\s+$")
#: a dash set off by spaces ends the clause of a verdict: what follows explains the facts, it does not hedge the verdict
_DASH = re.compile(r"\s[—–]\s")
#: where a verdict's sentence goes on to explain it: such a dash, or "because", "since", "as", "因为", "由于"
_EXPLAINS = re.compile(_DASH.pattern + r"|,?\s+\b(?i:because|since|as|given\s+that|due\s+to)\b|[，,]?\s*(?:因为|由于)")
#: what limits a verdict to a case: "true for …", "false in …", "correct about …"
_QUALIFIER = r"(?i:for|in|about|regarding|when|if|with)\b|对于|在"
_NOT_QUALIFIED = re.compile(rf"\s*(?:(?i:not)|不)\s*{_QUALIFIER}")
_ENDS_OR_QUALIFIED = re.compile(rf"\s*(?:$|[.,;!，。；！]|{_QUALIFIER})")
#: the reply leaves the verdict to circumstances: "whether the statement is true or false depends on …", "it depends"
_UNDECIDED = re.compile(
    r"\b(?i:whether\b[^.\n]{0,60}\b(?:true|correct)\s+or\s+(?:false|incorrect)\b[^.\n]{0,40}\bdepends|(?:it|the\s+answer|the\s+verdict)\s+(?:really\s+|all\s+)?depends)\b"
    r"|\b(?i:neither\s+(?:(?:completely|entirely|fully|wholly|totally)\s+)?true\s+nor|cannot\s+be\s+(?:considered|called)\s+(?:completely\s+)?true\s+or\s+(?:completely\s+)?false)\b"
    r"|(?:正确|对)(?:与否|还是错误)[^。\n]{0,20}取决于"
)
#: the statement called partly true (and partly false), an oversimplification, not entirely accurate, or not simply true or
#: false ("can't simply be classified as true or false", "it's not a simple true or false"): no verdict, unless the reply opens with one of its own ("False. The statement is partially true and partially
#: false: …" is false; "This statement is partially correct. …" is none; not the verb of "partially correct the pH")
_PARTLY = re.compile(
    r"\b(?i:partially|partly|half)\s+(?i:true|correct|accurate|right)\b(?!\s+(?i:the|a|an|this|that|it|for)\b)|部分正确"
    r"|\b(?i:(?:can(?:not|'t)|could\s+not|couldn't)\s+(?:simply\s+|really\s+)?be\s+(?:classified|called|labell?ed|judged|answered)\s+"
    r"(?:simply\s+)?as\s+(?:simply\s+)?(?:true|false)\s+or\s+(?:false|true)|(?:statement|it|this)\s+is\s+an\s+oversimplification"
    r"|not\s+a\s+(?:simple|clear[-\s]cut|straightforward)\s+(?:true\s+or\s+false|true/false))\b"
)
#: a view the reply reports as someone else's ("Some sources present it as neither entirely true nor false, but …")
_OTHERS_VIEW = re.compile(
    r"\b(?i:some\s+(?:\w+\s+){0,2}(?:would\s+)?(?:say|argue|claim|call|consider|present|describe|suggest)|others\s+(?:say|argue|claim|call|consider)"
    r"|(?:sources|authors|textbooks)\s+(?:say|state|present|describe|call|argue))\b|有人|有些人|一些人|有观点|(?:有些|一些|(?<!现)有|部分)文献"
)
_ANSWER_WORD = re.compile(r"\b(?i:answer|verdict)\b|答案")
#: "not entirely accurate": against a "true" verdict, the reply takes part of it back; beside "false" it agrees
_NOT_ENTIRELY = re.compile(r"\b(?i:not\s+(?:entirely|completely|fully|wholly|strictly)\s+(?:true|correct|accurate))\b")
_BUT = re.compile(r"\b(?i:but|while|whereas|yet|and)\b|但|而")
_CONDITIONAL = re.compile(r"(?:\b(?i:whether|if)(?:\s+[\w']+){0,3}|(?:是否|如果|若)[^，。,.!?！？]{0,8})\s*$")
_BOTH = re.compile(r"\s*(?:/|(?i:or)\b|与否|还是|或)")
_LABEL = (
    r"(?i:(?:final\s+)?(?:answer|verdict|conclusion|judge?ment|response))\s*(?:(?i:is)\s*)?:?\s*|(?i:statement|assessment|evaluation)\s*:\s*"
    r"|(?:答案|结论|(?:判断|回答)(?:结果)?|答)\s*(?:是|为)?\s*:?\s*"
    r"|(?i:actually|on\s+second\s+thought|correction)\s*[,:]?\s*|(?i:for\s+(?:exam|test|board)\s+purposes)\s*[,:]?\s*"
)
#: a quotation (what is judged) in a reply; it is replaced by ``_QUOTED`` before verdicts are looked for
_QUOTATION = re.compile(r'"([^"\n]+)"|“([^”\n]+)”|「([^」\n]+)」|『([^』\n]+)』|‘([^’\n]+)’|(?<!\w)\'([^\'\n]{12,})\'(?=\s*[-–—:：])')
#: a quotation that is a statement, not a quoted answer word ('Answer: "False"', “正确”): several words, or a
#: Chinese clause of four characters or more
_STATEMENT = re.compile(r"\S+\s+\S+|[\u4e00-\u9fff]{4,}")
_QUOTED = '"…"'
#: a quotation that is itself a verdict on the statement
_QUOTED_VERDICT = re.compile(r"^\s*(?i:(?:this|the)\s+(?:statement|claim)\s+is\s+(?:true|false|correct|incorrect))\W*$|^\s*(?:该|这个|此)?说法(?:是)?(?:正确|错误|不正确)的?\W*$")
_SUBJECT = (
    r'(?i:"…"\s*is\s+|(?:the|this|that)\s+(?:(?:above|given|provided|following)\s+)?(?:statement|claim|sentence|assertion)(?:\s+(?:above|provided|given))?(?:\s*"…"\s*,?|\s*,\s*(?:which|that)\s+(?:says|states|claims)[^,.\n]{1,120},)?\s+is\s+'
    r"(?:(?:completely|entirely|definitely|therefore|thus)\s+)?|(?:this|that|it)(?:\s+one)?(?:'s|\s+is)\s+(?:(?:therefore|thus|still)\s+)?|I(?:\s+would|'d)\s+say\s+(?:it\s+is\s+|that\s+is\s+)?)"
    r'|(?:该|这个|这一|此|上述|以上)?(?:说法|陈述|表述|命题|这句话)\s*(?:"…"\s*)?(?:是|为)?\s*|"…"\s*(?:这(?:个|一)?(?:说法|陈述)?)?(?:是|为)\s*'
    r'|"…"\s*[-–—:：]+\s*'
    r"|(?m:^)[ \t]*(?i:statement|claim)\s+is\s+"
)
#: where another verdict may open a segment of the reply: a new line, or " / " between two verdicts
_SEGMENT = re.compile(r"\n\s*|\s/\s*")


#: a check mark (and its emoji variation selector) before a verdict word
_MARKED = re.compile(rf"(?:[{CHECK_MARKS}]\ufe0f?\s*)?")
#: a line opening with a check mark or a cross
_MARKED_LINE = re.compile(rf"(?m:^)[ \t]*[{CHECK_MARKS}{CROSS_MARKS}]")


def _mask_statement(match: re.Match[str]) -> str:
    quoted = next(group for group in match.groups() if group is not None)
    if _QUOTED_VERDICT.search(quoted):
        return match.group(0)  # "Answer: 'This statement is true' — …": the quotation is the verdict
    return _QUOTED if _STATEMENT.search(quoted) else match.group(0)


def _value(match: re.Match[str]) -> bool:
    return bool(match.group("t") or match.group("nf"))


def verdict_statements(text: str, vocab: Vocabulary, *, subjects: str = _SUBJECT) -> list[Statement]:
    """Every verdict statement in a cleaned reply (see the module docstring)."""
    word = vocab.word()
    text = _QUOTATION.sub(_mask_statement, text)
    found: list[Statement] = []
    start = re.match(_ADVERB + _COPULA + word.pattern, text)
    marked_lines = len(_MARKED_LINE.findall(text)) == 1  # "✔️ TRUE — …" alone, not one of "✅ True — … ❌ False — …" facts
    for segment in _SEGMENT.finditer(text):
        later = word.match(text, _MARKED.match(text, segment.end()).end() if marked_lines else segment.end())
        if later and re.match(rf"\s*(?:$|[.:,;!，。：；！\n\-–—)/{CHECK_MARKS}])", text[later.end() :]):
            found.append(Statement(_value(later), LEADING, sentence_at(text, later.start(), later.end())))
    if start:
        rest = text[start.end() :]
        first_line = text.split("\n", 1)[0]
        if _BOTH.match(rest):
            found.append(Statement(None, LEADING, first_line))
        elif not re.sub(r"[\s.。!！:：;；,，]+", "", rest):
            found.append(Statement(_value(start), BARE, text))
        elif re.match(rf"\s*(?:$|[.:,;!，。：；！\n\-–—){CHECK_MARKS}])|\s+(?i:statement|claim)\b", rest) or (
            not _value(start) and re.match(rf"\s*[{CROSS_MARKS}]", rest)
        ):  # a check mark affirms the verdict ("**True** ✅"), a cross agrees with "False" only (after "True", does it
            # mark the statement or the answer?); its sentence is the one a hedge would qualify ("True. … partly because
            # …" hedges nothing), unless the paragraph doubts the answer in so many words ("True. But I am not sure.")
            sentence = first_line if doubted(first_line) else sentence_at(text, start.start(), start.end())
            found.append(Statement(_value(start), LEADING, sentence))
    # "This statement is both true and false.", "既正确又错误": no verdict of its own (a Chinese word runs on into 又)
    both_en = rf"\b(?i:both)\s+{word.pattern.replace('?P<', '?P<b_')}\s+(?i:and)\s+{word.pattern}"
    both_zh = rf"既\s*(?:是)?(?:(?P<b_f>{vocab.false})|(?P<b_t>{vocab.true}))\s*又\s*(?:是)?{word.pattern}"
    for match in (m for pattern in (both_en, both_zh) for m in re.finditer(pattern, text)):
        if bool(match.group("b_t") or match.groupdict().get("b_nf")) != _value(match):
            found.append(Statement(None, LABELLED, sentence_at(text, match.start(), match.end())))
    for lead in (_LABEL, subjects):
        for match in re.finditer(rf"(?<![\w])(?:{lead})[\"'“「『]?{_MARKED.pattern}" + word.pattern, text):  # "Verdict: ✅ True"
            if _CONDITIONAL.search(text, 0, match.start()) or _PART_OF.search(text, 0, match.start()):
                continue  # "judge whether her answer is right", "the first part of the statement is true": no verdict
            several = _BOTH.match(text, match.end()) is not None or _opposite_follows(text, match, word)
            sentence = _verdict_clause(text, match)  # "… is accurate — HBV is partially …"
            found.append(Statement(None if several else _value(match), LABELLED, sentence))
    closing = None if found else re.search(rf"(?m:^)(?![ \t]*(?:[-*•]|\d))[^\n]*(?<=\D[.!。！])[ \t]+{_MARKED.pattern}(?:{word.pattern})[ \t]*[.!。！]?[ \t]*\Z", text)
    if closing:  # "… correctly describes type I hypersensitivity. True.": the reply's last sentence, its only
        # verdict (not "2. False", nor "- Ferritin is raised by inflammation. True." closing a list of facts)
        found.append(Statement(_value(closing), LEADING, sentence_at(text, closing.end() - 1, closing.end())))
    return found


def _verdict_clause(text: str, match: re.Match[str]) -> str:
    """The verdict's sentence up to where it starts explaining: a dash set off by spaces, or "because" / "since" /
    "因为" after the verdict word ("The claim is false because, although …, probably reflecting …": the explanation's
    "probably" hedges a fact, not the verdict)."""
    sentence = sentence_at(text, match.start(), match.end())
    verdict_end = sentence.find(match.group(0)) + len(match.group(0))
    explains = _EXPLAINS.search(sentence, max(verdict_end, 0))
    return sentence[: explains.start()] if explains else sentence


def _opposite_follows(text: str, match: re.Match[str], word: re.Pattern[str]) -> bool:
    """Whether the verdict's sentence goes on to the opposite verdict after "but" or "and" ("the statement is true for
    the first trimester but false for later pregnancy", "correct about the recessive part but not about the autosomal
    part"): the reply gives both. A verdict word used as an adjective ("rather than true weakness") is none."""
    sentence = sentence_at(text, match.start(), match.end())
    rest = sentence[sentence.find(match.group(0)) + len(match.group(0)) :]
    joined = re.match(r"\s*(?i:and|&)\s*(?=(?i:true|false|correct|incorrect)\b)", rest)  # "… is true and false at the same time"
    if joined and (opposite := word.match(rest, joined.end())) and _value(opposite) != _value(match):
        return True  # (not "true and no antibiotics are needed")
    for turn in _BUT.finditer(rest):
        if _NOT_QUALIFIED.match(rest, turn.end()):
            return True
        if any(_value(m) != _value(match) for m in word.finditer(rest, turn.end()) if _ENDS_OR_QUALIFIED.match(rest, m.end())):
            return True
    return False


def read_verdict(text: str, vocab: Vocabulary, what: str = "verdict") -> Reading:
    """A cleaned reply -> True / False with the rule family, or the reason it is unreadable. A verdict taken back
    ("False — … Hmm, actually that's not right. … The statement is true.") gives way to the one after; a reply saying
    that the verdict depends ("whether the statement is true or false depends on …") gives none."""
    found = after_retraction(text, verdict_statements(text, vocab))
    # "False. The statement is partially true and …", "… Therefore, the answer is: False."
    opens = any(s.value is not None and (s.rule in (BARE, LEADING) or _ANSWER_WORD.search(s.sentence)) for s in found)
    # "Some sources present it as neither … nor …, but …", "有些文献指出…取决于": someone else's view
    undecided = next((m for m in _UNDECIDED.finditer(text) if not _reported(text, m.start())), None)
    true_said = any(s.value is True for s in found)
    if (undecided := undecided or (None if opens else _PARTLY.search(text) or (_NOT_ENTIRELY.search(text) if true_said else None))) is not None:
        found.append(Statement(None, LABELLED, sentence_at(text, undecided.start(), undecided.end()), f"{HEDGED}: the verdict depends, says the reply"))
    return decide(found, [], what, text)


def _reported(text: str, at: int) -> bool:
    """Whether the sentence up to ``text[at]`` reports someone else's view ("Some sources present it as …")."""
    before = text[:at]
    return _OTHERS_VIEW.search(before[max(before.rfind(end) for end in ".!?。！？\n") + 1 :]) is not None


def read_true_false(text: str) -> Reading:
    """A statement-validation reply ("True.", "The statement is false", "答案：错误") -> True / False."""
    return read_verdict(text, TRUE_FALSE)


#: a statement naming an option as the answer ("The answer is D", "答案：B"), not merely as a choice
_AN_ANSWER = re.compile(r"(?i:\banswer\b)|答案")
_NONE_AMONG = re.compile(
    r"(?i:^none\.?$|\bnone\s+of\s+(?:the\s+)?(?:options|choices|above|them)|\bno\s+(?:correct|right)\s+(?:answer|option)|"
    r"(?:answer|option)\s+is\s+not\s+(?:among|listed|present|in)\b)"
    r"|(?:都|均)?不(?:正确|对)的选项|没有正确(?:答案|选项)|正确答案不在"
)


def read_answer_existence(text: str, option_texts: Mapping[str, str], options: Sequence[str]) -> Reading:
    """"Is the right answer among the options?" -> True (yes) / False (no). Beside yes/no, a reply that
    says none of the options is right means no, and one that names an option as the answer ("the
    correct answer is B", "答案：B") means yes (``implied``), whichever option it names; an option letter
    alone is an answer to another question."""
    found = verdict_statements(text, YES_NO, subjects=r"(?!)")
    none = _NONE_AMONG.search(text)
    if none:
        found.append(Statement(False, IMPLIED, sentence_at(text, none.start(), none.end())))
    elif (says_none := says_none_is_right(text, option_texts)) is not None:
        found.append(Statement(False, IMPLIED, says_none.sentence))
    if not found:
        named = [s for s in letter_statements(text, option_texts) if s.value is not None and s.rule == LABELLED and _AN_ANSWER.search(s.sentence)]
        if named:  # whichever option it names, the reply says the right answer is among them
            found.append(Statement(True, IMPLIED, named[0].sentence))
    return decide(found, [], "yes/no answer", text)


#: what a revision reply says about the given answer: "Alice's answer is …", "Alice is …", "给出的答案…"
_GIVEN_SUBJECT = (
    r"(?i:(?:alice's|alices|her|the\s+given|the\s+provided)\s+(?:answer|choice|option)(?:\s*\(?[A-E]\)?)?\s+(?:is|was)\s+"
    r"|alice\s+(?:is|was)\s+)"
    r"|(?:爱丽丝|给出|提供)的?(?:答案|选择|回答|选项)?\s*(?:是|为)?\s*"
)
_GIVEN_BEFORE = re.compile(r"(?i:alice'?s?|her|the\s+given|given|provided)\s*$|(?:爱丽丝|给出|提供)的?\s*$")
_CORRECTION = re.compile(
    r"(?i:should\s+(?:have\s+)?be(?:en)?|instead\s+(?:it\s+is|of)|rather)\s*:?\s*" + r"[(\[]?([A-E])[)\]]?(?![A-Za-z0-9])"
    r"|(?:应为|应该是|应选|应该选)\s*(?:选项)?\s*([A-E])"
)


#: a reply that states which option is right ("the correct answer is C") implies its verdict on Alice's
_RIGHT_OPTION = re.compile(r"(?i:\b(?:correct|right)\s+(?:answer|option|choice)\b|should\s+(?:have\s+)?be)|正确(?:答案|选项)|应为|应该是|应选")


def _corrected_letter(text: str, option_texts: Mapping[str, str], options: Sequence[str], given: str = "") -> Reading:
    """The option the reply says is right. Its rule is ``implied`` when a statement says so in words
    ("the correct answer is C", "should be C", "正确答案是C"): only such a statement implies a verdict.
    A line opening with Alice's letter ``given`` restates the question ("A. Judge whether her answer…")."""
    statements = [
        s for s in letter_statements(text, option_texts, exclude_before=_GIVEN_BEFORE)
        if not (s.rule in (BARE, LEADING) and s.value == given)
    ]
    for match in _CORRECTION.finditer(text):
        statements.append(Statement(match.group(1) or match.group(2), LABELLED, sentence_at(text, match.start(), match.end())))
    # a letter alone, or opening a line, answers the question rather than saying which option is right;
    # it names no corrected option, but it does contradict one named elsewhere
    if all(s.rule in (BARE, LEADING) for s in statements):
        return Reading(None, UNPARSED, "no option found")
    reading = decide(statements, options)
    if reading.read and any(_RIGHT_OPTION.search(s.sentence) for s in statements):
        return Reading(reading.value, IMPLIED)
    return reading


def _after_verdict_letter(text: str) -> str | None:
    """"Incorrect, C." / "错误，C": the letter right after a leading False verdict."""
    match = re.match(rf"\s*(?:{REVISION.false}){_END}\s*[,.:;，。：；\-–—]?\s*[(\[]?([A-E])[)\]]?\s*(?:$|[.,;。，\n)])", text)
    return match.group(1) if match else None


def read_revision(text: str, option_texts: Mapping[str, str], options: Sequence[str], given: str) -> Reading:
    """A reply judging Alice's answer ``given`` -> ``Revision(True, given)`` or ``Revision(False, X)``.

    The verdict comes from verdict statements ("Correct.", "Incorrect, the correct answer is C",
    "Alice's answer is wrong"); the corrected option from answer statements that are not Alice's own
    ("the correct answer is C", "should be C", "正确答案是C") or a letter right after the verdict. A reply
    that gives only "The correct answer is C" implies the verdict (C = Alice's letter: correct). A
    verdict contradicted by the option ("Correct, the answer is C" when Alice said D), or "incorrect"
    without the right option, is not a complete answer and stays unread.
    """
    verdicts = verdict_statements(text, REVISION, subjects=_GIVEN_SUBJECT)
    verdict = decide(verdicts, [], "verdict") if verdicts else None
    if verdict is not None and not verdict.read:
        return verdict
    quick = _after_verdict_letter(text) if verdict is not None and verdict.value is False else None
    letter = Reading(quick, verdict.rule) if quick else _corrected_letter(text, option_texts, options, given)
    if verdict is None:
        if not letter.read or letter.rule != IMPLIED:
            return Reading(None, UNPARSED, "no verdict, and no statement of the right option")
        return Reading(Revision(letter.value == given, letter.value), IMPLIED)
    if verdict.value is True:
        if letter.read and letter.value != given:
            return Reading(None, UNPARSED, f"says correct but names {letter.value}, not {given}")
        return Reading(Revision(True, given), verdict.rule)
    if not letter.read:
        return Reading(None, UNPARSED, "incorrect, but " + ("no corrected option" if "no option" in letter.reason else letter.reason))
    if letter.value == given:
        return Reading(None, UNPARSED, f"says incorrect but names Alice's answer {given}")
    return Reading(Revision(False, letter.value), verdict.rule)
