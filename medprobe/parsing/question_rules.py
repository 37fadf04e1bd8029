"""The reader's rules that need our question: the last ones for an MCQ reply, and a check on a "true" verdict.

Models that answer in prose often never write a letter or an answer phrase. A blind reader still takes an answer from
two kinds of such replies, and so does the reader, with the question at hand:

**The stem completed** (``completes_stem``): a Chinese reply that writes out the end of our stem and finishes it with
one option's whole text ("肺炎链球菌肺炎的典型痰液是铁锈色痰。砖红色胶冻样痰见于…" to "…的典型痰液是"). The words are
our question's own, so the clause answers it, whatever the reply says of the other options afterwards.

**One option named alone** (``named_alone``): "Squamous cell carcinoma of the lung.", "Digoxin toxicity (precipitated
by the verapamil interaction).", "消化性溃疡最常见的并发症是上消化道出血。". This is the loosest of the reader's rules,
so it reads only when everything around the name says "this is my answer" (precision before coverage):

- the reply writes no option letter at all, hedges nowhere, does not send the user to a doctor, and does not loop;
- exactly one option is named, by its whole text or, for "Thiamine (vitamin B1)", by one of its two names (a shorter
  option's text inside a longer one's counts as the longer one);
- it is named in the reply's first sentence, never in a list ("including X, Y and Z", "X、Y和Z"), and no clause
  naming it rules anything out ("not", "rather than", "不", "排除"…) or puts another thing beside it ("or", "或");
- the question does not ask for the exception ("EXCEPT", "不正确的是", "除外"): naming a true fact answers no such
  question;
- the first sentence does not turn ("but", "however", "但") or set a condition ("if", "若"), and a superlative in the
  name's clause is of the question's kind ("most dangerous" does not answer "the most common complication");
- in Chinese, the name stands where an answer does (after 是 / 为 / 见于 / 选…, or alone in its clause), and the reply
  repeats what the question asks for (the stem's last word: "…最常见的部位是" -> 部位), so a
  reply about another thing ("最常见的死亡原因是脑疝" to a question on the site) is not read as an answer to ours.

**A short answer** (``short_answer``): an English reply opening with a sentence of four words at most, every one of them
in one option's text and in no other's ("ERCP." for "Urgent ERCP with biliary decompression"), with the same guards
as a name alone; never for an option joining two things ("Oral antibiotics and discharge").

**An option called what we ask** (``names_as_asked``): a Chinese sentence opening with one option's whole text and
calling it what our stem asks for, in the stem's own words ("大剂量地塞米松抑制试验…，是最有意义的检查" to
"…最有意义的检查是"). The reader sets it against a letter for another option: the reply contradicts itself.

**A letter its explanation contradicts** (``explained_as_another``): a Chinese reply that is a bare letter and one
explaining sentence ("答案：A。甲胎蛋白（AFP）是原发性肝癌最常用的标志物。"), where the sentence says our stem again beside
another option's whole text and never the letter's own, in a clause that neither sets that option aside ("而不是…") nor
moves to another case ("…则换为…"). The reply gives two answers, so it is unread.

**A "true" its explanation denies** (``denies_statement``): "True — most emboli come from the legs, not the upper
extremities." to "Most emboli come from the upper extremities": the reply says "not" (or "rather than", "instead of")
before words of our statement that the statement itself does not negate. It gives both verdicts, so it is unread. One
word of the statement's subject counts only in a sentence that makes the statement's claim ("Flumazenil, not naloxone,
is the antidote …"; not "the disease — not the physician — is the cause of death").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from medprobe.parsing.reading import BOTH_VERDICTS, OPTION_TEXT, UNPARSED, Reading
from medprobe.parsing.reply_text import hedged, sentence_at, stem_of
from medprobe.parsing.strict_letters import (
    CJK,
    NAME_AND_ASIDE,
    NOT_IT,
    STANDALONE_LETTER,
    ZH_CLAUSE,
    asked_superlative,
    asks_for_exception,
    bigrams,
    clean_text,
    superlative,
)

#: what rules out or sets aside an option in the clause that names it
_SET_ASIDE = re.compile(
    NOT_IT + r"|\b(?i:avoid|avoided|contraindicated|no|never|than|vs|versus|other|differential|second|alternative|cannot|improbable"
    r"|least\s+(?:likely|appropriate|useful|helpful|effective|common|probable))\b"
    r"|(?i:n't)\b"
    r"|不(?!良反应|良事件|适(?![宜合用]))|非|未|无|排除|鉴别|而|其次|禁"  # not the 不 of 不良反应, 不适 (but 不适宜, 不良 as "poor")
)
#: a first sentence that turns rather than answers ("… but hyponatremia points elsewhere", "was my first thought"), or
#: whose part before a semicolon sets a condition ("… would be the concern if the x-ray were clear")
_TURNS = re.compile(r"\b(?i:but|however|although|though|whereas|while|thought)\b|但|不过|然而")
_CONDITIONS = re.compile(r"\b(?i:if|unless)\b|如果|若|假如")
#: superlatives of one kind ask the same: how often, how grave, how likely ("most serious" answers "at greatest risk
#: for which complication", not "the most common complication")
_SUPERLATIVE_KINDS = {
    "common": "often", "frequent": "often", "常": "often",
    "serious": "grave", "dangerous": "grave", "severe": "grave", "feared": "grave", "lethal": "grave", "严": "grave", "危": "grave",
}
#: the last characters of the verbs that put an answer after them in a Chinese clause
_ANSWER_VERBS = ("是", "为", "于", "在", "选", "用", "即", "致", "称", "：", ":")
#: "or" in the clause that names it: another thing put beside it ("X or Y"; not "X, which can lead to A or B")
_OR = re.compile(r"\b(?i:or)\b|或")
_CLAUSE_BREAK = re.compile(r"[,，;；:：()（）。！？\n]|[.!?](?:\s|$)|(?<=[\u4e00-\u9fff])[!?]|\s[—–-]\s")
#: a name that is one item of a list: a list word or separator just before it, or just after it (a comma that goes on
#: with "because", "which", "a …", "此外", "然后"…, or with a clause of seven characters or more — "，主要不良反应有…" —
#: ends the answer's clause instead)
_LISTED_BEFORE = re.compile(r"(?:、|,|\b(?i:and|or|includ(?:e|es|ing)|such\s+as|e\.g\.|like)|包括|以及|和|及|与)\s*$")
_LISTED_AFTER = re.compile(
    r"\s*(?:、|,(?!\s*(?:(?i:because|since|as|which|given|due|a|an|the)\b|此外|另外|因为|由于|尽量|然后|再|以|使|从而|可|是|为|[^,，。;；\n、]{7,}))"
    r"|\b(?i:and|or|plus)\b|\+|和|及|与|等)"
)
#: the reply sends the user elsewhere instead of answering ("consult a doctor", "建议咨询医生", "I'm not able to"), or
#: leaves the answer open ("raise two main possibilities", "无法区分"; 无法确定 and its like are hedges already)
_DEFERS = re.compile(
    r"建议|咨询|遵医嘱|无法(?:区分|鉴别)|(?i:\bconsult|\bnot\s+able\b|\bunable\b|\bcannot\s+provide|\bcan't\s+provide"
    r"|\b(?:two|several|both|main|multiple)\s+(?:main\s+|major\s+)?possibilities\b)"
)
#: what ends a Chinese stem after the thing asked for: punctuation, "（ ）", 是 / 为 / 的是, and 应 / 应该 before them
#: (not the 应 of 反应, 效应, 适应)
_STEM_ENDING = re.compile(r"(?:[\s（）()_:：?？。.]|的是|是|为|的|(?<![反效适响供])应(?:该|当)?)+$")
#: a sentence ends at "。" or a line break, at ".", "!", "?" before a space ("0.5 mg" goes on), or at "!" / "?" right
#: after a Chinese character (the reply is folded: "！" / "？" are "!" / "?" there)
_FIRST_SENTENCE = re.compile(r"[。！？\n]|[.!?](?:\s|$)|(?<=[\u4e00-\u9fff])[!?]")
_CLAUSE = re.compile(r"[，,。.;；\n]")


def asked_word(stem: str) -> str:
    """What a Chinese stem asks for: its last two characters, after "是" / "为" / "的是" / "（ ）" ("…最常见的部位是（ ）"
    -> "部位"). An English stem gives "" (English replies seldom repeat "diagnosis" or "next step")."""
    stem = _STEM_ENDING.sub("", stem)
    return stem[-2:] if CJK.search(stem[-2:]) else ""


def _names(option_texts: Mapping[str, str]) -> dict[str, set[str]]:
    """Each option's names: its whole text and, for "Thiamine (vitamin B1)", each of the two names alone, when no other
    option's text holds it."""
    names = {letter: {clean_text(option)} for letter, option in option_texts.items()}
    for letter, option in option_texts.items():
        both = NAME_AND_ASIDE.match(clean_text(option))
        for name in both.groups() if both else ():
            name = name.strip()
            if len(name) >= 4 and not any(name in clean_text(other) for o, other in option_texts.items() if o != letter):
                names[letter].add(name)
    return names


#: a capital that is part of a name in an option: "Amphotericin B", "hepatitis B", "vitamin A"
_LETTER_IN_NAME = re.compile(r"[\w-]+\s+[A-E](?![A-Za-z])")


def _without_names(reply: str, option_texts: Mapping[str, str]) -> str:
    """The reply without the names in the options that hold a capital ("Amphotericin B", "vitamin A"), so that capital
    is no letter."""
    for name in {m.group(0) for option in option_texts.values() for m in _LETTER_IN_NAME.finditer(option)}:
        reply = _capitalised_name(name).sub(" ", reply)
    return reply


@functools.lru_cache(maxsize=1024)
def _capitalised_name(name: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])" + re.escape(name) + r"(?![A-Za-z])", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def _name_pattern(name: str) -> re.Pattern[str]:
    """Where a name stands: a Latin name ends where letters and digits do ("ⅱ、ⅲ、avf导联" names "ⅱ、ⅲ、avf"), a Chinese one
    anywhere; a list in it may be written with "and" ("pyrimethamine, sulfadiazine, and leucovorin"), "X plus Y" as
    "X + Y", "X and Y" as "X with Y", "甲、乙、丙" as "甲、乙和丙", a range "24~28" as "24-28". Compiled once per name: option texts recur across replies."""
    listed = (re.escape(name).replace(re.escape(", "), r"(?:,\s*(?:and\s+)?|\s+and\s+)").replace(r"\ plus\ ", r"\s*(?:\+|plus|and)\s*")
              .replace(r"\ and\ ", r"\s+(?:and|with|plus|\+)\s+").replace("、", "[、和及与]").replace(r"\~", r"\s*[~〜–—-]\s*"))
    return re.compile(listed if CJK.search(name) else r"(?<![A-Za-z0-9-])" + listed + r"(?![A-Za-z0-9-])")


def _named(text: str, option_texts: Mapping[str, str]) -> dict[str, list[tuple[int, int]]]:
    """Where each option is named in the (folded, lower-case) reply; a name inside a longer option's name, where
    that one is named, is not named itself ("贫血" in "缺铁性贫血")."""
    spans: dict[str, list[tuple[int, int]]] = {}
    for letter, names in _names(option_texts).items():
        for name in (n for n in names if len(n) >= 2):
            spans.setdefault(letter, []).extend((m.start(), m.end()) for m in _name_pattern(name).finditer(text))
    spans = {letter: sorted(found) for letter, found in spans.items()}
    inside = {
        letter: [(a, b) for a, b in found if not any(o != letter and c <= a and b <= d and d - c > b - a for o in spans for c, d in spans[o])]
        for letter, found in spans.items()
    }
    return {letter: found for letter, found in inside.items() if found}


def _loops(text: str) -> bool:
    """A clause written twice: the reply loops, and a loop commits to nothing."""
    clauses = [c.strip() for c in _CLAUSE.split(text) if len(c.strip()) > 3]
    return len(clauses) != len(set(clauses))


def named_by_question(reply: str, option_texts: Mapping[str, str], question: str) -> Reading | None:
    """The option a cleaned reply in which no other rule found one gives by our question: the stem completed
    (``completes_stem``), else one option named alone (``named_alone``, also with the reply's short bracketed asides
    left out: "耳毒性（前庭和耳蜗损害）和肾毒性"), else a short answer; never in a reply that loops."""
    text = reply.lower()  # the reply is folded already (``reply_text.normalise``)
    if _loops(text):
        return None
    if not _commits_in_prose(reply, option_texts, question):
        return completes_stem(text, option_texts, question)
    bare = _without_asides(reply, option_texts)
    return (
        completes_stem(text, option_texts, question) or named_alone(reply, option_texts, question) or short_answer(reply, option_texts, question)
        or (named_alone(bare, option_texts, question) if bare != reply else None)
    )


#: a short aside in brackets inside a name: "耳毒性（前庭和耳蜗损害）和肾毒性", "消化性溃疡（十二指肠溃疡）急性穿孔"
_SHORT_ASIDE = re.compile(r"[（(](?!\s*[A-E]\s*[)）])[^（）()\n]{1,20}[)）]")  # never a bracketed letter


def _without_asides(reply: str, option_texts: Mapping[str, str]) -> str:
    """The reply without its short bracketed asides that name no option and offer nothing beside ("(or amiodarone)",
    "（或奥曲肽）" stay: another answer)."""
    return _SHORT_ASIDE.sub(lambda aside: aside.group(0) if _named(aside.group(0).lower(), option_texts) or _OR.search(aside.group(0)) else "", reply)


def _commits_in_prose(reply: str, option_texts: Mapping[str, str], question: str) -> bool:
    """Whether a reply may give its answer by an option's words alone: it writes no option letter, hedges nowhere (nor
    by a 可能 of effect in its first sentence: "…，因为急性胰腺炎可能引起类似表现" weighs a diagnosis), does not send the user to a doctor, and answers a question that does not ask for the exception (naming a true fact answers
    no "EXCEPT" question)."""
    return not (
        STANDALONE_LETTER.search(_without_names(reply, option_texts)) or hedged(reply) or "可能" in _FIRST_SENTENCE.split(reply, 1)[0] or _DEFERS.search(reply)
        or asks_for_exception(question)
    )


def named_alone(reply: str, option_texts: Mapping[str, str], question: str) -> Reading | None:
    """The option a cleaned reply that does not loop names alone by its text (see the module docstring), or None."""
    if not _commits_in_prose(reply, option_texts, question):
        return None
    text = reply.lower()
    asked = asked_word(stem_of(question))
    named = _named(text, option_texts)
    if len(named) != 1 or (asked and asked not in text and not _both_first_choice(stem_of(question), text, next(iter(named.values()))[0][0])
                           and not (asked == "诊断" and _NAMES_THE_CASE.match(text)) and not _opens_with_stem_superlative(text, stem_of(question))):
        return None
    ((letter, spans),) = named.items()
    first = _FIRST_SENTENCE.search(text)
    first_end = first.start() if first else len(text)
    if spans[0][0] >= first_end or _TURNS.search(text[:first_end]) or _CONDITIONS.search(re.split(r"[;；]", text[:first_end])[0]):
        return None
    ours = _SUPERLATIVE_KINDS.get(asked_superlative(question) or "")
    if ours and any(_SUPERLATIVE_KINDS.get(superlative(_clause(text, start, end)) or "", ours) != ours for start, end in spans):
        return None  # "Perforation is the most dangerous complication" to a question on the commonest
    if asked and not any(_in_answer_place(text, start, end) for start, end in spans):
        return None  # "子宫肌瘤红色变性多见于妊娠期" describes an option, it does not give it
    if _another_subject(text[: spans[0][0]], asked, stem_of(question)):
        return None  # "二甲双胍的主要作用机制是…" to a question on 磺酰脲类
    if _SOMEONE_ELSE.search(text[:first_end]) or _CALLED_WRONG.search(text, spans[0][1], first_end):
        return None  # "有人认为…是砖红色胶冻样痰，这种说法是错误的"
    return None if any(_set_aside(text, start, end) for start, end in spans) else Reading(letter, OPTION_TEXT)


#: a reply opening with a Chinese superlative and 的是 / 的为, nothing between: "最常见的是前脱位"
_SUPERLATIVE_OPENING = re.compile(r"\s*(最[\u4e00-\u9fff]{1,5}?)的(?:是|为)")


def _opens_with_stem_superlative(text: str, stem: str) -> bool:
    """Whether the reply opens by calling what follows the stem's own superlative, with no noun of its own ("最常见的是
    前脱位" to "肩关节脱位最常见的类型是"): it leaves out what the stem asks for, so it cannot be about another thing."""
    opening = _SUPERLATIVE_OPENING.match(text)
    return opening is not None and opening.group(1) + "的" in stem


#: a first sentence giving someone else's belief, or calling the name wrong after it
_SOMEONE_ELSE = re.compile(r"有人|有同学|误以为|很多人|一些人|(?i:\bsome\s+(?:people|students|sources)\s+(?:think|believe|say))")
_CALLED_WRONG = re.compile(r"说法(?:是)?(?:错误|不对|不正确)|是错误的|并不正确|(?i:\bis\s+(?:a\s+)?(?:wrong|incorrect|a\s+misconception))")


#: words of a subject that our stem need not hold: one pointing back or naming the case ("该病", "本例", "患者", "这是典型的")
_GENERIC_SUBJECT = re.compile(r"该|本|此|这|其|患者|病人|典型|主要|的|是|为")


def _another_subject(before: str, asked: str, stem: str) -> bool:
    """Whether the Chinese clause naming an option restates what our stem asks for (its asked word) of another subject:
    a third or more of the character pairs before the asked word, two at least (words pointing back aside), that the
    stem lacks ("二甲双胍的主要作用机制是" to "磺酰脲类降糖药的主要作用机制是", "周围性面瘫的特点是" to "中枢性面瘫的特点是"),
    or another superlative ("…最早升高的标志物是" to "…特异性最高的…标志物是")."""
    clause = ZH_CLAUSE.split(before)[-1]
    if asked not in clause:
        return False
    head = clause[: clause.find(asked)]
    subject = _GENERIC_SUBJECT.sub(" ", head)
    pairs = {subject[i : i + 2] for i in range(len(subject) - 1) if CJK.search(subject[i]) and CJK.search(subject[i + 1])}
    foreign = pairs - {stem[i : i + 2] for i in range(len(stem) - 1)}
    tops = {m.group(0) for m in re.finditer("最.", head)}
    return (len(foreign) >= 2 and len(foreign) >= len(pairs) / 3) or bool(tops and not tops & {m.group(0) for m in re.finditer("最.", stem)})


_LATIN_WORD = re.compile(r"[a-z0-9]+")
#: words a short answer may leave out of its option's text
_SMALL_WORDS = frozenset({"the", "a", "an", "of", "with", "and", "or", "to", "in", "for"})
#: an option of two things ("Oral antibiotics and discharge"): a short answer naming one of them names no option
_JOINED = re.compile(r"\b(?i:and|plus|then|or|followed\s+by)\b|[+/,]")
#: a short first sentence: up to four words, the first with a letter in it, and a full stop (a line without one is a
#: heading: "Management")
_SHORT_LINE = re.compile(r"\s*((?=[\w+/-]*[A-Za-z])[A-Za-z0-9][\w+/-]*(?:[ \t]+[\w+/-]+){0,3})[ \t]*(?:[.!](?:\s|$)|\s*$)")


def _singular(word: str) -> str:
    """A word without its plural "s" ("contraceptives" → "contraceptive"), for comparing a short answer with an option."""
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def short_answer(reply: str, option_texts: Mapping[str, str], question: str) -> Reading | None:
    """An English reply whose first sentence is short (four words at most) all of whose words are in one option's
    text, and only that one's ("ERCP." for "Urgent ERCP with biliary decompression", "Oligoclonal bands." for
    "Oligoclonal IgG bands not present in serum"), when the reply writes no letter, names no other option and rules
    nothing out in that sentence: a short answer, as a blind reader takes it."""
    line = _SHORT_LINE.match(reply)
    if line is None or not _commits_in_prose(reply, option_texts, question):
        return None
    words = {_singular(w) for w in _LATIN_WORD.findall(line.group(1).lower()) if w not in _SMALL_WORDS}
    if not words or re.search(NOT_IT, line.group(1)):
        return None
    holding = [letter for letter, option in option_texts.items() if words <= {_singular(w) for w in _LATIN_WORD.findall(clean_text(option))}]
    if len(holding) != 1 or _JOINED.search(option_texts[holding[0]]) or set(_named(reply.lower(), option_texts)) - set(holding):
        return None
    return Reading(holding[0], OPTION_TEXT)


#: a reply opening by naming the case, which answers a question asking for the diagnosis: "这是典型的强迫障碍", "本例为…"
_NAMES_THE_CASE = re.compile(r"\s*(?:这|此|本例|该患者|该病例)(?:是|为|应诊断为|诊断为)(?![^。！？?!\n]*[吗？?])")  # not "这是X吗？不是。"


def _both_first_choice(stem: str, text: str, start: int) -> bool:
    """Whether the stem asks for the first choice (首选) and the reply opens by naming one by it, the name at ``start`` in
    the same first clause ("首选α受体阻滞剂酚苄明" to "术前准备首选的药物是"; not "…首选的治疗方法是…；若…，首选ERCP取石"):
    the reply repeats what the question asks for in the question's own word."""
    first = _CLAUSE_BREAK.search(text)
    clause = text[: first.start() if first else len(text)]
    return "首选" in stem and "首选" in clause[:start] and start < len(clause)


def _in_answer_place(text: str, start: int, end: int) -> bool:
    """Whether a name in a Chinese reply stands where an answer does: right after a verb that gives one ("是", "为",
    "见于", "选", "用", "即", "又称", "："), ending a clause such a verb opened ("…是上消化道出血"), or alone in its clause
    ("耳毒性和肾毒性，此外…")."""
    before = text[_clause_bounds(text, start, end)[0] : start].rstrip(" *“\"'‘「")
    ends_clause = bool(_CLAUSE_BREAK.match(text, end) or end == len(text) or re.match(r"\s*(?:[(（*”\"'’」]|$)", text[end:]))
    if before.strip() and not CJK.search(before):
        return True  # "HIV mainly infects CD4+ T淋巴细胞": an English clause has its own grammar
    gives = any(verb in before for verb in _ANSWER_VERBS)  # "…是上消化道出血", "…是黑线姬鼠和褐家鼠等鼠类"
    return before.endswith(_ANSWER_VERBS) or (ends_clause and (gives or not before.strip()))


def _set_aside(text: str, start: int, end: int) -> bool:
    """Whether the name at ``text[start:end]`` is ruled out or put beside another thing in its clause, or is one item
    of a list."""
    return bool(
        _SET_ASIDE.search(clause := _clause(text, start, end)) or _OR.search(clause)
        or _LISTED_BEFORE.search(text[max(0, start - 12) : start]) or _LISTED_AFTER.match(text, end)
    )


def _clause(text: str, start: int, end: int) -> str:
    """The clause around ``text[start:end]``: between commas, brackets, colons, set-off dashes or sentence ends."""
    left, right = _clause_bounds(text, start, end)
    return text[left:right]


def _clause_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    left = max((m.end() for m in _CLAUSE_BREAK.finditer(text, 0, start)), default=0)
    right = _CLAUSE_BREAK.search(text, end)
    return left, right.start() if right else len(text)


#: a subject that points back to the question's: "该病", "本病", "此药", "其"
_POINTS_BACK = re.compile(r"\s*(?:该|本|此|这|其)")
_ZH_SENTENCE_END = re.compile(r"[。；;！？!?\n]")
#: before a completed stem, in its sentence: someone else's belief or a condition, not the reply's answer
_NOT_OURS = re.compile(r"误以为|以为|认为|如果|若|假如|有人")
#: after it: the completion called wrong ("…是砖红色胶冻样痰，那就错了")
_DENIED_AFTER = re.compile(r"(?:那|这)?(?:就|是|种说法)?(?:错|不对|误)")
#: the end of a Chinese stem that a reply must write out to complete it: its last five characters, the verb included
_STEM_TAIL = 5
_TAIL_PUNCTUATION = re.compile(r"[\s（）()_:：?？。.]+$")


def _opens_sentence(subject: str, clause_start: int, sentence_start: int, stem: str) -> bool:
    """Whether a completion of our stem opens its sentence with the stem's subject written (or the whole stem, when it is
    no longer than its end: "吗啡禁用于…"), not after a clause that frames it ("2010年版指南，胸外按压的频率是…")."""
    return clause_start == sentence_start and (bool(subject.strip()) or len(stem) <= _STEM_TAIL)


def _same_subject(before: str, stem: str) -> bool:
    """Whether what the reply writes before the stem's end may be the stem's own subject: nothing, a word pointing back
    ("该病的", "其"), or words more than a third of whose character pairs are the stem's ("胆固醇合成的" for "合成胆固醇的",
    "大叶性肺炎的" for "肺炎链球菌肺炎的"; not "普鲁卡因" for a stem on 利多卡因)."""
    pairs = {before[i : i + 2] for i in range(len(before) - 1) if CJK.search(before[i : i + 2])}
    return not pairs or _POINTS_BACK.match(before) is not None or sum(pair in stem for pair in pairs) > len(pairs) / 3


def completes_stem(text: str, option_texts: Mapping[str, str], question: str, *, with_subject: bool = False) -> Reading | None:
    """The option whose whole text finishes a clause that writes out the end of our Chinese stem ("…的典型痰液是" ->
    "肺炎链球菌肺炎的典型痰液是铁锈色痰。"); None when no clause does, clauses finish it with different options, the
    option heads a list of options' texts. ``text`` is the cleaned reply, lower-cased. ``with_subject``: only sentences that open by writing the
    stem's subject too ("吗啡禁用于…", not "首选药物是…" after "如果患者对青霉素过敏，"), as a check against a letter needs."""
    stem = _TAIL_PUNCTUATION.sub("", stem_of(question)).lower()
    tail = stem[-_STEM_TAIL:]
    if len(tail) < _STEM_TAIL or not CJK.search(tail) or tail not in text:
        return None
    texts = {letter: name for letter, option in option_texts.items() if (name := clean_text(option))}
    asked = asked_superlative(question) or None
    found = set()
    for written in re.finditer(re.escape(tail), text):
        at = written.end()
        clause_start = max((m.end() for m in ZH_CLAUSE.finditer(text, 0, written.start())), default=0)
        sentence_start = max((m.end() for m in _ZH_SENTENCE_END.finditer(text, 0, written.start())), default=0)
        subject = text[clause_start : written.start()]
        if superlative(subject) not in (None, asked):
            continue  # "伤寒最常见的并发症是肠出血" does not complete "伤寒最严重的并发症是"
        if _NOT_OURS.search(text, sentence_start, written.start()) or not _same_subject(subject, stem) or (with_subject and not _opens_sentence(subject, clause_start, sentence_start, stem)):
            continue  # "很多人误以为…的典型痰液是砖红色胶冻样痰", "如果说…是…，那就错了", "普鲁卡因一次限量为…" to a stem on 利多卡因
        end = ZH_CLAUSE.search(text, at)
        completion = text[at : end.start() if end else len(text)].strip()
        following = ZH_CLAUSE.search(text, end.end()) if end else None
        then = text[end.end() : following.start() if following else len(text)].strip() if end else ""
        listed = then in texts.values() or _DENIED_AFTER.match(then) is not None
        found |= {letter for letter, name in texts.items() if completion == name and not listed}  # not "…是明显水肿，高脂血症，…"
    return Reading(found.pop(), OPTION_TEXT) if len(found) == 1 else None


#: a Chinese superlative of three characters or more: "最有意义", "最常见"
_ZH_TOP = re.compile(r"最[\u4e00-\u9fff]{2}")


def names_as_asked(text: str, option_texts: Mapping[str, str], question: str) -> str | None:
    """The option whose whole text opens a Chinese sentence that calls it what our stem asks for, in the stem's own
    words from its superlative to what it asks ("大剂量地塞米松抑制试验可以鉴别…，是最有意义的检查" to "…最有意义的检查是";
    not "室间隔缺损是最常见的先天性心脏病" to "最常见的青紫型先天性心脏病是"), or ranks first by its superlative ("以大肠埃希菌
    最为常见"); None when no option or several are so named, or the sentence denies it."""
    stem = clean_text(stem_of(question))
    top, asked = _ZH_TOP.search(stem), asked_word(stem)
    if top is None or not asked or stem.rfind(asked) < top.start():
        return None
    called = re.compile(r"[是为]\s*" + re.escape(stem[top.start() : stem.rfind(asked) + len(asked)]))  # "是最有意义的检查"
    found = set()
    for sentence in _ZH_SENTENCE_END.split(text):
        said = clean_text(sentence)
        # "…，其中以大肠埃希菌最为常见" to "…最常见的致病菌是": the option the reply ranks first by the stem's superlative
        found |= {letter for letter, option in option_texts.items()  # (not beside a turn: "…，但本题患者…应考虑…")
                  if len(name := clean_text(option)) >= 2 and re.search("以" + re.escape(name) + "最为?" + re.escape(top.group(0)[1:]), said)
                  and not re.search("但|而|然而|不过|不是|并非|则", said)}
        predicate = called.search(said)
        if predicate is None or re.search("不|非|但|而|问|虽|尽管", said[: predicate.start()]) or re.match(r"[^，,；;]*之一", said[predicate.end() :]):
            continue  # "…，但题目问的是最早出现的标志物", "虽是最有价值的检查，但…", "也是最常见的病原体之一"
        found |= {letter for letter, option in option_texts.items() if len(name := clean_text(option)) >= 2 and said.startswith(name)}
    return found.pop() if len(found) == 1 else None


#: a bare Chinese answer letter: "答案：A", "选B", "C项" (with bold marks)
_BARE_ANSWER = r"\**(?:(?:正确|最终)?答案|答|选)?\s*(?:是|为)?\s*[:：]?\s*\**([A-E])(?:项|选项)?\**"
#: a reply opening with one ("答案：A。<explanation>"), or one sentence closed by one ("<explanation>。答案是A。")
_OPENS_BARE = re.compile(r"\s*" + _BARE_ANSWER + r"\s*[。.]\s*([^。\n]*)")
_CLOSES_BARE = re.compile(r"\s*([^。\n]+)。\s*" + _BARE_ANSWER + r"\s*[。.]?\s*$")
#: words that set an option aside or move to another case in a clause: it answers nothing of ours
_ASIDE_OR_ELSEWHERE = re.compile(r"不是|并非|排除|不同于|不如|则|换|改|若|如果|但|而")
#: the share of our stem's character pairs that a clause must say again to answer it, and the fewest pairs
_STEM_SHARE, _STEM_PAIRS = 0.3, 3


def explained_as_another(text: str, option_texts: Mapping[str, str], question: str) -> str | None:
    """The option a Chinese reply's one explaining sentence answers our stem with, when the bare letter it gives is
    another's ("答案：A。甲胎蛋白（AFP）是原发性肝癌最常用的标志物。" to "原发性肝癌最常用…的血清肿瘤标志物是" when AFP is B):
    a clause of that sentence says a third of the stem's character pairs again beside exactly one option's whole text,
    and the reply never writes the letter's own text. Options whose text lies inside another's are never counted
    ("PPI+铋剂" inside "PPI+铋剂+两种抗生素"). Over the replies we wrote, no reply so explained gives the letter's option."""
    found = _OPENS_BARE.match(text) or _CLOSES_BARE.match(text)
    if found is None:
        return None
    letter, sentence = (found.group(1), found.group(2)) if found.re is _OPENS_BARE else (found.group(2), found.group(1))
    texts = {key: name for key, option in option_texts.items() if len(name := clean_text(option)) >= 2}
    if letter not in texts or texts[letter] in clean_text(text):
        return None
    alone = {key: name for key, name in texts.items() if not any(name != other and name in other for other in texts.values())}
    stem = bigrams(stem_of(question))
    if not stem:
        return None  # an English stem: the check says our stem again in Chinese character pairs
    named = set()
    for clause in re.split(r"[，,；;：:]", clean_text(sentence)):
        said = [key for key, name in alone.items() if name in clause]
        if len(said) != 1 or said[0] == letter or _ASIDE_OR_ELSEWHERE.search(clause):
            continue  # "…首选PTU而不是甲巯咪唑", "…后首选的药物则换为甲巯咪唑": the other option set aside, or for another case
        shared = len(bigrams(clause.replace(alone[said[0]], "")) & stem)
        if shared >= _STEM_PAIRS and shared >= _STEM_SHARE * len(stem):
            named.add(said[0])
    return named.pop() if len(named) == 1 else None


#: "not" and the words it denies: "not the upper extremities", "rather than in liver failure"
_DENIED = re.compile(r"\b(?i:not|rather\s+than|instead\s+of)\s+(?:(?i:the|a|an|in|of|on|at|by|from|for|with|to)\s+)?((?:[\w-]+\s+){0,5}[\w-]+)")
#: words a denial must not end with: "not recommended for …" denies nothing of the statement's "recommended for"
_FUNCTION_WORDS = frozenset({"for", "of", "in", "to", "the", "a", "an", "with", "by", "on", "at", "and", "or", "from", "who", "that", "which"})
#: the statement negates or contrasts something before the words already ("is not the result of …", "isn't caused by
#: …", "unlike valproate, which is cleared by the liver"): the reply's "not" may agree with it
_NEGATED_BEFORE = re.compile(r"\b(?:not|no|never|unlike|rather\s+than|instead\s+of)\b|n't\b")
_STATEMENT = re.compile(r'(?i:statement)\s*[:：]\s*"?(?:(?i:statement)\s*[:：]\s*)?(.*?)"?\s*(?i:is\s+this\s+statement)', re.DOTALL)


def statement_of(question: str) -> str:
    """The statement our true/false question asks about ('Statement: "X" Is this statement true or false?' -> X)."""
    found = _STATEMENT.search(question)
    return found.group(1) if found else stem_of(question)


#: a denial inside the clause that describes the thing set against ours: "Unlike warfarin, which is not safe …, heparin …"
_CONTRAST_WORDS = r"\b(?i:by\s+contrast|in\s+contrast|unlike|as\s+opposed\s+to)\b"
_RELATIVE_AFTER_CONTRAST = re.compile(_CONTRAST_WORDS + r"[^,.;]*,\s*(?i:which|who|that)\b[^,.;]*$")
#: a statement that its subject be avoided: a reply naming something "instead of" that subject agrees
_AVOIDED = re.compile(r"\b(?:avoid|avoided|contraindicated|not|never)\b")
#: a sentence about another subject, set against the statement's: "by contrast", "unlike"
_CONTRASTED = re.compile(_CONTRAST_WORDS)


def _names_subject(sentence: str, statement: str) -> bool:
    """Whether a sentence names every longer word of the statement's subject, or its first longer word where no common
    verb marks the subject's end ("Unlike heparin, warfarin is not safe …" to "Warfarin is safe …"; not "Folate
    deficiency, by contrast, …" to "Vitamin B12 deficiency …")."""
    longer = re.findall(r"[a-z][a-z0-9-]{3,}", statement)
    subject = set(re.findall(r"[a-z][a-z0-9-]{3,}", statement[: _predicate_start(statement)])) or set(longer[:1])
    return bool(subject) and subject <= set(re.findall(r"[a-z][a-z0-9-]{3,}", sentence.lower()))


#: the first verb of a statement, where what it claims begins ("A physician | is ethically obligated …")
FIRST_VERB = re.compile(r"\b(?:is|are|was|were|has|have|had|causes?|caused|results?|leads?|lies|lie|presents?|occurs?|should|must|can|may|will|does|do)\b")


def _predicate_start(statement: str) -> int:
    """Where the statement's claim begins: at its first verb (0 when it has none of the common ones)."""
    verb = FIRST_VERB.search(statement)
    return verb.start() if verb else 0


def _claims_alike(segment: str, claim: str, least: int) -> bool:
    """Whether a part of a reply's sentence makes the statement's claim: ``least`` of its longer words are the claim's
    ("The antidote is flumazenil, not naloxone" to "Naloxone is the antidote …"; not "because the underlying disease —
    not the physician — is the cause of death" to "A physician must honour a request …"; a short denied word needs two:
    "IgG, not IgM, is the only class that crosses the placenta", not "in a secondary response it is IgG, not IgM")."""
    words = {w for w in re.findall(r"[a-z-]{5,}", claim)}
    return len(words & set(re.findall(r"[a-z-]{5,}", segment.lower()))) >= least


#: what splits a sentence into the parts a denial belongs to: a semicolon, a colon, "because", "since", "while"
_SEGMENT_BREAK = re.compile(r"[;:]|\b(?:because|since|while|whereas)\b", re.IGNORECASE)


def _segment_at(reply: str, at: int) -> str:
    """The part of its sentence that holds ``reply[at]``."""
    sentence = sentence_at(reply, at, at)
    start = reply.rfind(sentence, 0, at + 1)
    cut = at - start
    left = max((m.end() for m in _SEGMENT_BREAK.finditer(sentence, 0, cut)), default=0)
    right = _SEGMENT_BREAK.search(sentence, cut)
    return sentence[left : right.start() if right else len(sentence)]


def denies_statement(reply: str, question: str) -> Reading | None:
    """A "true" verdict whose reply denies words of our statement ("… not the upper extremities" when the statement
    says the upper extremities): unread, as both verdicts (None when the reply denies nothing the statement says)."""
    statement = " " + " ".join(statement_of(question).lower().split())
    claim = _predicate_start(statement)
    subject_avoided = _AVOIDED.search(statement[claim:]) is not None
    for denied in _DENIED.finditer(reply):
        sentence = sentence_at(reply, denied.start(), denied.end())
        if _CONTRASTED.search(sentence) and (not _names_subject(sentence, statement) or _RELATIVE_AFTER_CONTRAST.search(reply[: denied.start()])):
            continue  # "Folate deficiency, by contrast, elevates homocysteine but not methylmalonic acid": another subject
        words = denied.group(1).lower().split()
        for n in range(len(words), 0, -1):
            if n == 1 and (len(words) > 1 or (len(words[0]) < 8 and not re.match(r"[,.;]", reply[denied.end() :]))):
                break  # one word says little unless it is all that is denied ("not hypercalcemia, because …", "IgG, not IgM, is …")
            if words[n - 1] in _FUNCTION_WORDS:
                continue  # "not recommended for …" denies nothing the statement's "recommended for" says
            at = statement.find(" " + " ".join(words[:n]) + " ")
            at = at if at >= 0 else statement.find(" " + " ".join(words[:n]) + ".")
            if n == 1 and 0 <= at < claim and (subject_avoided or not _claims_alike(
                _segment_at(reply, denied.start()), statement[claim:], 1 if len(words[0]) >= 8 else 2
            )):
                break  # "… instead of aspirin" to "Aspirin should be avoided …": the reply agrees; "the disease — not the
                # physician — is the cause of death": the subject denied of another claim
            if at >= 0 and not _NEGATED_BEFORE.search(statement[: at + 1]):
                return Reading(None, UNPARSED, f"{BOTH_VERDICTS}: true, yet the reply denies \"{' '.join(words[:n])}\"")
            if at >= 0:
                break
    return None
