"""Strict-mode reading of option answers in chat replies: one letter (MCQ) or a set (multiple-answer).

The reference extractors were written for base-model completions that begin with the letter. Chat
models write "The answer is C.", "**C**", "(C) Ovarian cancer — because …", "答案：C", or the option's
text. This module reads those and refuses to guess:

* every *answer statement* in the reply is collected — the reply itself when it is only an answer
  (``bare``), an answer opening the reply (``leading``), an answer label or phrase anywhere
  (``labelled``), an option named by its text (``option text``) — and the reply is read only when
  they all give the same answer;
* a statement naming two options ("A or C") or hedged ("maybe C") makes the reply unreadable, and so does
  a letter given with another option's text ("D: <text of E>", "riboflavin (C)" when riboflavin is B),
  a reply saying that no option is right ("none of the above", "以上都不对"), and one listing several
  options' texts without a pick;
* a reply that repeats the option list ("A: … B: … C: …", also numbered "1) … 2) …") has no leading answer;
* a reply answering several numbered questions ("1. B  2. C") answers other questions, not ours;
* a letter that is not one of the question's options is not an answer.

Mentions of options inside an explanation ("Option A is wrong because …", "each option:\nA. …") are
not answer statements; a reply that judges options while reasoning ("option C is correct", "C是正确的")
and then commits to one ("The answer is B") is read by its commitment (``final statement``).
English and Chinese forms are both always tried: models answer Chinese questions in English, and the
words of the two languages cannot be confused.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from medprobe.parsing.reading import (
    BARE,
    BOTH_VERDICTS,
    CONFLICT,
    DIFFERENT,
    FINAL,
    HEDGED,
    IMPLIED,
    LABELLED,
    LEADING,
    NONE_RIGHT,
    OPTION_TEXT,
    OTHER_QUESTION,
    SEVERAL,
    UNPARSED,
    Reading,
)
from medprobe.parsing.reply_text import WORD_DASH, hedged, sentence_at, stem_of

_OPTION_WORD = r"(?:(?i:option|choice)\s*|选项\s*)?"
#: after a capital, what makes it a genus: "B. cereus", "C. difficile" (a lower-case name, not a word of a sentence)
_SPECIES = re.compile(r"\.\s?(?!(?:because|since|as|the|this|it|its|and|or|but|is|which|that|for|with|not)\b)([a-z]{4,})\b")
_ITEM = _OPTION_WORD + r"[(\[]?([A-E])[)\]]?(?![A-Za-z0-9]|-[A-Za-z0-9\u4e00-\u9fff]|[组型族群]|超(?!声))"  # not "D-dimer", "D-二聚体", "A组链球菌", "B超"
_LEFT = r"(?<![A-Za-z0-9'-])"
#: what the question asks, named by its superlative, as the subject of "is": "the most likely diagnosis is",
#: "the most appropriate initial imaging study would be", "the most characteristic serum marker is"
#: "Most likely diagnosis", "Final diagnosis" heading an answer (not "Least likely diagnosis", "Differential diagnosis")
_DIAGNOSIS_LABEL = r"(?<![Ll]east\s)(?<![Ll]ess\s)\b(?i:(?:most\s+)?likely|final|probable)\s+(?i:diagnosis)\s*"


def _asked_is(most: Sequence[str], alone: Sequence[str]) -> str:
    """A superlative ("most" + one of ``most``, or one of ``alone``) heading up to eight words, then "is" / "would be"
    ("the most appropriate next step in management for this patient would be …")."""
    return (
        r"\b(?i:most\s+(?:" + "|".join(most) + r")|" + "|".join(alone) + r")\s+"
        r"(?:(?!(?i:not|exclude|excluded|rule|ruled|avoid|avoided|contraindicated|wrong|incorrect|if|unless(?!\s+proven\s+otherwise)|were|assuming)\b)[\w-]+\s+){0,8}?"
        r"(?i:is|would\s+be|will\s+be)\s*:?\s*"
    )


_MOST_ASKED = ("likely", "appropriate", "characteristic", "specific", "sensitive", "effective", "important")
_ASKED_IS = _asked_is(_MOST_ASKED, ("best", "correct"))
#: "the most characteristic serum marker is CA 19-9 (option B)": an option's text (or its own words for it: "the most
#: appropriate next step is the Epley maneuver (B)") and its letter, as what is asked; with the letter there, any
#: superlative may ask it ("the most serious adverse effect … is lactic acidosis (option B)")
_ASKED_TEXT_LETTER = re.compile(
    r"(?:" + _asked_is((*_MOST_ASKED, "serious", "common", "frequent", "dangerous", "useful", "accurate"), ("best", "safest", "preferred", "correct"))
    + r"|\b(?i:I(?:\s+would|'d)?\s+recommend)\s+|" + _DIAGNOSIS_LABEL + r":\s*|\b(?i:most\s+appropriate|best|first-line)\s+(?i:(?:next\s+)?(?:step|treatment|therapy|pharmacotherapy|management|drug|medication|agent|test|investigation|choice))\s*:\s*|\b(?i:the\s+(?:correct\s+|best\s+|final\s+)?answer\s+is)\s+|\b(?i:the\s+diagnosis\s+is\s+most\s+likely)\s+)(?i:(?:the|an?)\s+)?((?:[^\n.;!?()]|\.(?=\d))+?)\s*(?<![A-Za-z0-9])\(\s*(?:(?i:option|choice)\s*)?([A-E])\s*\)"
)
#: words that bring in more options than the one bracketed: another letter, "both", "either"
_NAMES_OTHERS = re.compile(r"(?<![A-Za-z])[A-E](?![A-Za-z])|\b(?i:both|either)\b")
#: "最有意义的鉴别点是：回纳疝块后压住深环，增加腹压疝块是否再突出（D项）": the letter's own whole text, commas and all
_ASKED_OWN_TEXT_ZH = re.compile(r"最[^\n。；;!?！？]{0,20}?(?:是|为)\s*:?\s*([^\n。;；（()）]{1,60}?)\s*[（(]\s*([A-E])\s*项?\s*[)）]")
#: "最可靠的指标是血清铁蛋白（C）": what the question asks, named by its superlative, then a text and its letter in
#: brackets (the text may be shortened; when it is another option's whole text, the two disagree)
_ASKED_TEXT_LETTER_ZH = re.compile(r"最[^\n。；;!?！？]{0,20}?(?:是|为)\s*([^\n。;；，,（()）]{1,30}?)\s*[（(]\s*([A-E])\s*[)）]")
#: words that rule an option out in the sentence that names it
NOT_IT = r"\b(?i:not|unlikely|rule|ruled|exclude|excluded|rather\s+than|instead\s+of|wrong|incorrect|less\s+likely)\b"
#: a letter ends its sentence: the end, ";", "!", or a full stop not followed by more of a name ("E. coli")
_SENTENCE_ENDS = r"(?=\s*(?:$|[;!,]|\.(?:\s*$|\s+[A-Z*(]|\s*\n)))"
#: a reply correcting itself ("Actually, A"): one more answer statement, which must agree with the others
_SELF_CORRECTION = r"\b(?i:actually|on\s+second\s+thought|correction|instead|rather)\s*[,:]?\s*"
#: "E (glaucoma)": a leading letter glossed in brackets, in another language or words (no other letter, no "or")
_GLOSS = re.compile(r"[ \t]*\((?![^()\n]*(?:(?<![A-Za-z])[A-E](?![A-Za-z])|\b(?i:or|maybe|possibly|not)\b))[^()\n]{1,60}\)[ \t]*(?:$|[.。](?:\s|$)|\n)")
#: what may follow a leading answer: the end, punctuation, a line break
#: check marks and crosses a reply judges options with
CHECK_MARKS = "✅✔✓√☑"
CROSS_MARKS = "❌✗✘×✖"
_AFTER_LEADING = re.compile(r"\s*(?:$|[.:)\],;!，。：；、！\n\-–—" + CHECK_MARKS + "])")
_TRAILING = re.compile(r"[\s.。!！:：;；,，]+$")
#: "a, b, and c" is the list "a, b, c" (and "甲、乙和丙" / "甲、乙及丙" / "甲、乙与丙" the list "甲、乙、丙")
_LIST_AND = re.compile(r",\s*and\s+")
_LIST_ZH_AND = re.compile(r"(、[^、，,。]*?)[和及与]")
#: a dash or tilde between two numbers: one range ("24-28", "24～28", "24~28")
_RANGE_DASH = re.compile(r"(?<=\d)\s*[~〜–—-]\s*(?=\d)")

#: before "option:" / "option is" these words announce a walk through the options, not an answer
#: ("each option:\nA. …", "the first option is A: …", "Option by option:\nA. …")
_WALK_THROUGH = re.compile(
    r"(?i:\b(?:each|every|all|the\s+following|these|remaining|other|another|next|first|second|third|fourth|fifth)\s+(?:of\s+the\s+)?(?:answer\s+)?|\boption\s+by\s+)$"
)
_LABELLED_LETTER = tuple(
    re.compile(p)
    for p in (
        _LEFT + r"(?i:answer|option|choice|response|selection|final|conclusion)\s*(?::|\n|[-–—](?=\s))\s*" + _ITEM,
        _SELF_CORRECTION + r"(?i:only\s+|it'?s\s+|it\s+is\s+)?" + _ITEM,
        # "Most likely diagnosis: C. <text>" (not "Differential diagnosis: …", "Least likely diagnosis: …")
        _DIAGNOSIS_LABEL + r"(?::|\n)\s*" + _ITEM,
        _LEFT + r"(?i:answer|option|choice)\s+(?i:is|would\s+be|should\s+be|will\s+be|=)\s*:?\s*" + _ITEM,
        r"\b(?i:I(?:\s+would|'d|\s+will|'m|\s+am)?\s+(?:choose|select|pick|go(?:ing)?\s+with|recommend|suggest))\s+" + _ITEM,
        # "I would say A or B" (not "I would say D is unlikely")
        r"\b(?i:I(?:\s+would|'d)\s+say)\s+" + _ITEM + r"(?=\s*(?:$|[.,;!]|\s(?i:or|and)\b))",
        _LEFT + _ITEM + r"\s+(?i:is\s+(?:the\s+)?(?:(?:correct|right|best|most\s+(?:appropriate|likely))\s+)?(?:answer|option|choice|diagnosis)\b)",
        r"\b(?i:most\s+consistent\s+with|best\s+explained\s+by)\s+" + _ITEM,
        # "… a CT pulmonary angiography (E) would be preferred": another option put forward
        r"[(\[]\s*(?:(?i:option|choice)\s*)?([A-E])\s*[)\]]\s+(?i:would\s+be|is)\s+(?i:preferred|preferable|better|the\s+better\s+choice|more\s+appropriate)\b",
        # "That leaves B, increased serum methylmalonic acid", "That combination matches option D."
        r"\b(?i:that|which|this)\s+leaves\s+(?i:us\s+with\s+|only\s+)?" + _ITEM + r"(?=\s*(?:$|[.,;:!]))",
        r"(?:^|(?<=[.!?:]\s)|(?<=\n))[ \t]*(?i:this|that|which|it)(?:\s+[\w-]+){0,2}?\s+(?i:matches|fits|corresponds\s+to)\s+(?i:option|choice)\s+" + _ITEM,
        # "…placenta previa（前置胎盘）, i.e. option D.", "即选项D": the letter of the text just named
        r"\b(?i:i\.?\s?e\.?|that\s+is)\s*,?\s*(?i:option|choice)\s+" + _ITEM,
        r"(?<![(（])即(?:为|是)?\s*选项\s*" + _ITEM + r"(?=\s*(?:$|[。.！!，,)）]))",
        # "Options A, B, and D are all correct": several options named together (read as several)
        r"\b(?i:options|choices)\s+" + _ITEM + r"(?=(?:\s*(?:,|and|or|&)\s*(?:(?i:and|or)\s+)?[A-E](?![A-Za-z]))+\s+(?i:are|could|may|might|would|can)\s+"
        r"(?:(?i:all|both|each)\s+)?(?i:be\s+)?(?i:correct|right|true|acceptable|possible|reasonable|valid)(?![\w-]))",
        # "Therefore, A is correct.": a conclusion judging one option right
        r"\b(?i:therefore|thus|hence|so|in\s+conclusion|overall)\b,?\s+" + _ITEM + r"\s+(?i:is\s+(?:the\s+)?(?:correct|right|best))\b",
        r"\b(?i:most\s+likely)\s*:\s*" + _ITEM,
        # "Therefore the most likely diagnosis is E.", "the most appropriate next step would be D) <text>": what the
        # question asks, named by a letter ending the sentence or heading its text ("the most likely cause is
        # E. coli" names a germ, not option E)
        _ASKED_IS + _ITEM + r"(?:" + _SENTENCE_ENDS + r"|(?=\s*[:)\-–—])|(?=,\s*\S))",
        # "Conclusion: The right coronary artery (option C) is …": a conclusion naming the option in brackets
        # (never an option ruled out: "So aortic dissection (option A) is unlikely", "Thus not X (option A) but …")
        r"(?m:^)[ \t]*(?i:conclusion|in\s+conclusion|therefore|thus|so)\b(?:(?!" + NOT_IT + r"|\(\s*(?:(?i:option|choice)\s+)?[A-E]\s*\)|\b(?i:both|either)\b)[^\n.!?])*?"
        r"\(\s*(?:(?i:option|choice)\s+)?([A-E])\s*\)(?![^\n.!?]*(?:" + NOT_IT + r"|\(\s*(?:(?i:option|choice)\s+)?[A-E]\s*\)))",
        # "So the expected picture is <text> — option B.": a sentence ending by naming its option after a dash
        # (never one ruling the option out: "Aortic dissection is unlikely — option A.")
        r"(?m:^)(?:(?!" + NOT_IT + r")[^\n.!?])*?(?:\s-|\s?[–—])\s*(?i:option|choice)\s+([A-E])\s*(?:[.!](?=\s|$)|[ \t]*$)",
        # "This is papillary thyroid carcinoma (E).": the reply's diagnosis with its letter in brackets
        r"\b(?i:this|it)\s+is\s+(?:(?!" + NOT_IT + r")[^\n.!?()])*?\(\s*([A-E])\s*\)\s*(?:[.!]|$)",
        r"\b(?i:most\s+likely\s+(?:has|is))\s+" + _ITEM + r"(?=\s*(?:$|[.!;]))",
        r"(?:→|=>|->)\s*" + _ITEM + r"\s*[.!。]?\s*$",
        r"(?:^|(?<=[.!?:]\s))[(\[]([A-E])[)\]]\s*$",
        # "… So the best drug is nitroprusside. B": a letter closing the reply (not one after "Now the options.", which
        # a reply cut off while listing them ends with)
        r"(?<=[.!?]\s)(?<![Oo]ptions\.\s)(?<![Cc]hoices\.\s)(?<!one\.\s)([A-E])\s*[.!]?\s*$",
        r"(?<=[。！？])[ \t]*([A-E])[ \t]*[。.!！]?\s*$",  # "…最有价值的方法。D" (not a walk's next line cut off: "…不符合。\n\nB.")
        r"\b(?i:the\s+(?:next|first|initial|best)\s+(?:step|test|action|drug|treatment)(?:\s+[\w-]+){0,3}?\s+(?:is|would\s+be))\s*:?\s*" + _ITEM + _SENTENCE_ENDS,
        r"\b(?i:making|makes)\s+" + _ITEM + r"\s+(?i:the\s+(?:(?:correct|best|right)\s+)?answer)\b",
        r"\[\s*(?i:(?:final\s+)?answer)\s*\]\s*:?\s*" + _ITEM,
        r"(?:^|(?<=[;,.:]))\s*(?i:answer)\s+" + _ITEM + r"(?=\s*(?:$|[.!;]))",
        # (not "so A, D, and E are incorrect": a list of options judged together)
        r"\b(?i:it(?:'s|\s+is)|therefore[,:]?|thus[,:]?|so,?)\s+" + _ITEM + r"(?=\s*(?:$|[.;!。；]|[,，](?!\s*(?:(?i:and|or)\s+)?[A-E](?![A-Za-z0-9]))))",
        r"(?:(?:正确|最佳|最终|标准|参考)?答案|正解|(?:正确|最佳|最终|标准)选项)\s*[】\]]?\s*(?:是|为|应为|应该是|应选|选)?\s*:?\s*" + _ITEM,
        r"(?:^|(?<=[。！？\n\s]))答\s*:\s*" + _ITEM + r"(?=\s*(?:[。.!！]|$))",  # "…常见于右心衰竭。答：B" (not "答：A是氨基糖苷类")
        r"(?:^|(?<=[，,。：:\s]))(?:我(?:认为|觉得)|本题|此题)?(?:应该|应当|应)(?:是|为)\s*" + _ITEM,
        r"(?:^|\n)\s*(?:答|结论)\s*:\s*" + _ITEM,
        r"(?:^|\n)\s*(?:最终)?诊断\s*:\s*" + _ITEM + r"(?=\s*[.．、:：)）])",  # "诊断：E. 霍乱" (not "诊断：B细胞来源的…")
        # "首选地西泮静注，故答C项。", "…对应选项 D。", "故首先应给予A。": a conclusion's verb before the letter
        r"(?:故|所以|因此)(?:应)?答\s*" + _ITEM,
        r"对应(?:的)?\s*选项\s*" + _ITEM + r"(?=\s*(?:$|[。.！!，,]))(?![，,]\s*(?:因此|所以|故)?\s*不选)",  # not "对应选项A，因此不选"
        r"(?:故|所以|因此)(?:(?![不未无禁勿])[^\n。；;，,]){0,8}?(?:给予|使用|采用)\s*" + _ITEM + r"(?=\s*(?:$|[。.！!]))",
        # "选项：" heads the option list in our own prompts: a letter after it that is followed by ":" or on the
        # next line is a copy of that list, not an answer
        r"(?<!其他)(?<!其余)(?<!其它)选项[ \t]*(?:是|为|应为|应该是|:)[ \t]*" + _ITEM + r"(?![ \t]*:)",
        r"(?<![不未误])(?:应|应该|我|故|则)?选(?:择)?[ \t]*(?:是|为)?[ \t]*:?[ \t]*" + _ITEM,  # not "容易误选A", nor "非首选\nB …"
        r"(?:最好|最佳|正确|合适|恰当)的?(?:选择|选项|答案)\s*(?:是|为|应为)\s*" + _ITEM,
        # "最常见的部位是E选项": a letter named as an option by the sentence's verb (never "不是E选项", nor the 为 of
        # "误认为A选项正确", nor "有人认为是A项")
        r"(?<![不非认因以作成称为])(?:是|为)\s*([A-E])\s*(?:选项|项)(?![的中])",
        # "最可能的诊断：D. 右侧自发性气胸": what the question asks, by its superlative, as a label
        r"最[^\n。；;，,:]{0,12}?(?:诊断|病因|原因|治疗|检查|措施|选择|表现|部位|药物|病原体)\s*(?:是|为)?\s*:\s*" + _ITEM + r"(?=\s*(?:$|[.:)、。]))",
        # a sentence ending the reply that names a letter as what the question asks: "……特异性最高的是C。"
        r"的(?:是|为)\s*" + _ITEM + r"\s*[。.！!]?\s*$",
        r"最[^\n。；;，,]{0,12}?的(?:应该|应当|应)(?:是|为)\s*" + _ITEM + r"(?=\s*(?:$|[。.！!，,；;]))",
        # a conclusion whose verb names a letter ending its clause: "所以特异性最高的是C。", "综上，最有意义的鉴别点是D。"
        r"(?:所以|因此|故|综上所述|综上|由此可见)[，,]?[^\n。；;!?！？]{0,24}?(?<![不非])(?:是|为|对应)\s*" + _ITEM + r"(?=\s*(?:$|[。.！!；;，,]))",
        # "…需要查心肌酶谱后才能确定，所以A或B。": a conclusion giving two letters (read as several)
        r"(?:所以|因此|故|综上)[，,]?\s*" + _ITEM + r"(?=\s*(?:或者?|/)\s*[A-E]\s*[。.!！]?\s*$)",
        # "本题选项中只有C是禁忌证": the one option that fits
        r"只有\s*" + _ITEM + r"\s*(?:项|选项)?\s*(?:是|为|符合|正确|对)",
        # "答案可能是A", "the answer could be C": a letter given with a hedge (the hedge leaves it unread)
        r"(?:答案|选)(?:可能|也许|或许|大概)(?:是|为)?\s*" + _ITEM,
        _LEFT + r"(?i:answer|option|choice)\s+(?i:could|might|may)\s+be\s*:?\s*" + _ITEM,
        # "Hence, (C) is the most likely.": a conclusion calling one option the answer
        r"\b(?i:hence|thus|therefore|so)\s*,?\s*(?:(?i:option|choice)\s+)?" + _ITEM + r"(?=\s+(?i:is|would\s+be)\s+(?i:the\s+)?(?i:most\s+likely|best|correct|right|answer)\b)",
        _LEFT + _ITEM + r"(?:\s*[(（][^()（）\n]{1,30}[)）])?\s*(?:是|为)?\s*(?:正确|最佳)(?:答案|选项)",
        # "本题答案为AB", "the answer is AC": several letters written together after the label (read as several)
        r"(?:答案|正确选项|(?i:answer\s+is))\s*[】\]]?\s*(?:是|为|应为|应该是|应选|选)?\s*:?\s*([A-E])(?=[A-E]{1,4}(?![A-Za-z0-9]))",
        # "A和B都可以", "A、B均正确", "A和D都有可能", "A和E都是…": several options accepted together (read as several, never as the first;
        # not the last two of "A、B、C都是使曲线左移的因素", the others explained)
        _LEFT + r"(?<![A-E][、,，和与及])(?<![A-E]\s[、,，和与及])" + _ITEM + r"(?=\s*(?:和|与|及|、|或|,|，)\s*[A-E]\s*(?:我觉得|我认为|应该)?\s*(?:都|均|皆)(?:可以|可|对|正确|行|是正确的|有可能|可能|是(?!错|不)))",
        # "B、C、D均为甲状腺危象的治疗药物" opening a line or a conclusion: two or three options put together (four are "the others":
        # "A、B、C、E均为其适应证"; after an answer, "…，A、C、D均为辅助治疗" explains the others)
        r"(?:(?m:^)|(?<=因此)|(?<=所以)|(?<=故))[ \t]*([A-E])(?=(?:\s*[、,，和与及]\s*[A-E]){1,2}\s*(?:都|均|皆)为(?!错|不|其))",
        # "Both A and E are correct", "A or C could both be correct": several options accepted together
        r"\b(?i:both)\s+" + _ITEM + r"(?=(?:\s*\([^()\n]{1,40}\))?\s*(?i:and|or|&)\s*[A-E](?:\s*\([^()\n]{1,40}\))?\s+(?i:are|could|may|might|would|seem|can)\b)",
        r"\b(?i:be|is|are)\s+(?i:both)\s+" + _ITEM + r"(?=\s*(?i:and|&)\s*[A-E](?![A-Za-z0-9]))",
        r"\b(?i:either)\s+" + _ITEM + r"(?=\s*(?i:or)\s*[A-E](?![A-Za-z0-9]))",
        _LEFT + _ITEM + r"(?=\s*(?i:and|or|/)\s*[A-E]\s+(?i:(?:could|may|might|would)\s+(?:both|each|all|be)|both(?!\s+(?:have|has|had|show|shows|cause|causes|lack|lacks|describe|describes|involve|involves)\b)|are\s+(?:both|correct|right)"
        r"|are\s+(?:all|each)\s+(?:correct|right|true|acceptable|possible|reasonable|valid)(?![\w-])))",
    )
)
#: statements that judge one option while the reply reasons ("option C is correct", "C是正确的"): answers only
#: when the reply commits to nothing else
_JUDGING_LETTER = tuple(
    re.compile(p)
    for p in (
        r"\b(?i:option)\s+[(\[]?([A-E])[)\]]?\s+(?i:is\s+(?:the\s+)?correct)\b",
        _LEFT + r"[(\[]?([A-E])[)\]]?\s+(?i:is\s+(?:the\s+)?(?:correct|right))\b(?!\s+(?i:answer|option|choice))",
        _LEFT + _ITEM + r"(?:\s*项)?(?:\s*[(（][^()（）\n]{1,30}[)）])?\s*(?:是|为)?\s*正确(?:的)?(?![答选])",
        # "…约为660 ml/min（即选项D）": the option a fact is, an answer only where nothing else is
        r"(?<=[(（])即(?:为|是)?\s*选项\s*" + _ITEM + r"(?=\s*[)）])",
    )
)
#: an answer letter that the sentence's verb names, followed by an option text ("最好的选择是B：胸部CT", "最常见的是 D 基底节区",
#: "the most likely diagnosis is C: Cholesterol embolization"): read when the text is the letter's own
_IS_LETTER_TEXT = re.compile(r"(?:(?:是|为|即|(?<![不禁])(?:应|宜)选用|——|—)[ \t]*|(?:\b(?i:is|be|by)|\b(?i:points?|pointing|leads?|led)\s+(?i:to|towards?)|\b(?i:fits|matches)(?=[ \t]))\s*)" + _OPTION_WORD + r"[(\[]?([A-E])[)\]]?(?:\s*[:.)\-–—]\s*|\s+|(?=[\u4e00-\u9fff]))(?=\S)")
#: "the drug responsible is amiodarone (B)", "suggestive of psoriasis vulgaris (option D)", "功能是主运化（E）": a verb (or
#: the start of a line that holds nothing else, or an explanation after a dash: "Aortic stenosis (E)", "N-acetylcysteine
#: (Option A) — restores glutathione"), then words ending with an option's text, then a
#: letter in brackets (read when the text is the letter's own)
_TEXT_THEN_OWN_LETTER = re.compile(
    r"(?:\b(?i:is|are|be|of|with|as|has)\s+|(?:是|为)\s*|(?:→|=>|->)\s*|(?m:^)[ \t]*(?=[^\n()]*\(\s*(?:(?i:option|choice)\s*)?[A-E]\s*\)[ \t]*(?:[.!]?[ \t]*(?:\n|$)|[—–-][ \t])))(?:(?i:the|an?)\s+)?([^\n.;:!?()]{1,80}?)\s*\(\s*(?:(?i:option|choice)\s*|选项\s*)?([A-E])\s*\)"
)
#: "…this points to hypertrophic cardiomyopathy, option C.": a sentence ending with an option's text and its letter
_TEXT_COMMA_OPTION = re.compile(r"(?<![^\n.;:!?])([^\n.;:!?]+?),\s*(?i:option|choice)\s+([A-E])\s*(?=[.!]?\s*$|[.!]\s)", re.MULTILINE)
#: what follows a letter before the option text that may accompany it: "D: text", "C (text)", "C. text", "C - text"
_LETTER_TEXT_JOIN = re.compile(r"[ \t]*(?:[:.)\-–—(]|,)?[ \t]*")
_SENTENCE_BREAK = re.compile(r"[.!?。！？\n]")
#: where the clause after an answer letter ends: a line break, "。", "，", "；", ";", "!", "?", a comma not before a
#: digit (not the "," of "1,000"), or "." before a space (not the "." of "7.0")
_CLAUSE_END = re.compile(r"\n|[。，；;!?！？]|,(?!\d)|(?<=[^\s.])\.(?=\s)")
#: the sentence (or list item) after a letter, where a named option text must be the letter's own
_UNTIL_SENTENCE_END = re.compile(r"(?:\([^()\n]*\)|[^\n。;；!?！？])*")
#: the next item of a list that an answer's text opens ("X是残气量增加，肺总量增加"): another option named with it
_NEXT_IN_LIST = re.compile(r"[ \t]*(?:[,，、]|(?i:and|or)\b|和|及|或)[ \t]*([^\n。;；，,]+)")
#: "riboflavin (C)": an option text followed by a letter in brackets
_TEXT_THEN_LETTER = re.compile(r"(?<![A-Za-z0-9])\(\s*([A-E])\s*\)")  # not the "(D)" of "Rho(D)"
#: a sentence that opens with a condition: what follows holds in that case only
_CONDITION = re.compile(r"\s*(?:(?:所以|因此|那么|(?i:so|then))[，,]?\s*)?(?:(?i:if|when|unless|in\s+case)\b|如果|若|假如|一旦)")
#: a letter in brackets, maybe with "option": "(C)", "(option C)", "（选项C）"
_BRACKETED_LETTER = re.compile(r"(?<![A-Za-z0-9])[(（]\s*(?:(?i:option|choice)\s*|选项\s*)?([A-E])\s*[)）]")
#: the reply says that no option is right: an answer that names none (never when an option says so itself)
_NONE_OF_THEM = re.compile(
    r"(?i:\bnone\s+of\s+(?:the\s+)?(?:above|(?:given\s+|listed\s+|provided\s+)?(?:options|choices|answers)(?:\s+(?:given|listed|provided))?)\s+(?:is|are)\s+(?:the\s+)?(?:correct|right|(?:most\s+|best\s+)?appropriate|best)(?!\s+(?:on\s+its\s+own|alone|by\s+itself|except))"
    r"|\b(?:answer|option|choice|answer_choice)\b[\"']?\s*(?:is|:)\s*[\"']?none\s+of\s+(?:the\s+)?(?:above|options|choices)"
    r"|^\s*none(?:\s+of\s+(?:the\s+)?(?:above|options|choices|them))?\s*[.!]?\s*$"
    r"|\bno\s+(?:correct|right)\s+(?:answer|option)\s+(?:is\s+)?(?:among|listed|given|provided|here)"
    r"|(?:correct\s+)?answer\s+is\s+not\s+(?:among|listed|one\s+of))"
    r"|以上(?:选项|答案|各项)?(?:都|均|全)不(?:正确|对|是)|(?:没有|不存在|无)(?:一个)?正确(?:的)?(?:答案|选项)|(?<!其余)(?<!其他)(?<!其它)(?:选项|答案)(?:都|均)不正确|正确答案不在"
)
#: an answer the reply first thought of, and then left, to the end of its clause: "我一开始想到的是C", "我最初想选A",
#: "My first thought was B" (blanked before reading, so that the answer after it in the same sentence stands)
_FIRST_THOUGHT = re.compile(
    r"(?:一开始|最初|起初|开始时|初看|乍一看|乍看)(?:之下)?(?:我)?(?:想|考虑|可能会|容易|会)[^，,。；;\n]*|(?:很多人|有人|不少人|一些人)(?:可能)?(?:会|容易)?(?:误)?选[^，,。；;\n但而]*|(?:常见|易犯的)?(?:误区|错误)(?:是|为)(?:误)?选[^，,。；;:：\n]*"
    r"|\b(?i:my\s+(?:first|initial)\s+(?:thought|instinct|guess)\s+(?:was|is)|at\s+first\s+I\s+thought)\b[^,.;\n]*"
)
#: a caveat after the answer: "需注意：肝硬化最常见的死亡原因是肝性脑病", "Note that …": facts beside the question, no answer
_NOTE = re.compile(r"^\s*(?:但|不过)?(?:需要|需|值得|应|要)?注意(?:的是)?\s*[:，,]?|^\s*(?i:note(?:\s+that)?|N\.B\.)\s*[:,]?")
#: the reply says that it gives no single answer: "两个答案都可以接受", "无法确定唯一答案", "both answers are acceptable"
_NO_SINGLE_ANSWER = re.compile(
    r"两者都有(?:一定)?道理|无法(?:确定|判断|区分)[^。\n]{0,8}还是|也可以(?:是|考虑|选)|无法确定(?:唯一|正确)?(?:的)?答案|没有唯一(?:的)?(?:正确)?答案|取决于出题|(?:答案|这道题|本题)[^。\n]{0,6}取决于|[A-E]\s*也(?:可以|可)(?:认为)?(?:是)?正确(?!地)(?![^。！？?\n]*[吗？?])"
    r"|\b(?i:both\s+(?:interpretations|readings)\s+(?:are|could\s+be)\s+(?:\w+\s+)?(?:valid|acceptable|correct|defensible|used|possible)|both\s+answers\s+(?:are|would\s+be)\s+acceptable|there\s+is\s+no\s+single\s+(?:best\s+|correct\s+)?answer|cannot\s+(?:choose|pick)\s+(?:one|a\s+single))\b"
)
#: two answers (or three letters) accepted, unless the reply goes on to pick one: "所以A、B两个答案均有道理。", "两种药物都可以考虑
#:使用", "故A、B、E均可。" (not "两者都可出现上腹痛", a fact of two)
_BOTH_ACCEPTED = re.compile(
    r"(?<!认为)(?<!觉得)[A-E]\s*(?:、|或|和)\s*[A-E]\s*(?:两个答案|两项|两者)?\s*(?:均|都)有道理"
    r"|(?<=[A-E])[^。\n]{0,12}?(?:均|都)可以?选(?!择|用)|(?:两种|两者|两个|两项)[\u4e00-\u9fff]{0,4}(?:均|都)可以?(?:考虑|选择|选用|使用|接受|认为|作为|算|视为)|(?:两个答案|两者|两项)(?:均|都)可以?(?:接受)?(?=[。，,！!；;]|$)"
    r"|(?<![A-E][、,，和与及])[A-E](?:\s*(?:和|与|及|、|或|,|，)\s*[A-E]){2,}\s*(?:都|均|皆)(?:可以|可|对|正确|行|有可能|可能)(?=[。，,！!；;]|$)"
)
#: one numbered answer per line ("1. B", "2) Answer: C"): the reply answers a list of questions
_NUMBERED_ANSWER = re.compile(r"^[ \t]*(?:(?i:question|q)[ \t]*)?\d{1,2}[ \t]*[.):：][ \t]*(?:(?i:answer)[ \t]*:?[ \t]*)?[(\[]?[A-E][)\]]?[ \t]*[.)]?[ \t]*$", re.MULTILINE)
#: before "is C: <text>" or "诊断是<text>": the sentence names what is ruled out or wrong, not the answer
_RULED_OUT = re.compile(
    r"(?i:\b(?:not|unlikely|incorrect|wrong|excluded|ruled\s+out|first(?![-\s]line)|second(?![-\s]line)|third|next(?!\s+(?:best\s+)?step)|another|other|differential)\b)"
    r"|排除|不符合|不考虑|不选|不正确|错误|不对|不是|鉴别(?!方法|要点|点|的意义)|其次|另一|不应|不宜|避免|慎用"
)
#: right after an answer letter, more letters written on to it ("答案为AB")
_MORE_LETTERS = re.compile(r"[A-E]{1,4}(?![A-Za-z0-9])")
#: right after an answer letter: another letter joined by "or", "and", "/" … — several options named
_SEVERAL = re.compile(r"\s*(?:,|/|、|\+|(?i:or|and)\b|或者?|和|及)\s*" + _ITEM)
#: an option's text in brackets after its letter: "C (duodenal atresia)", "C（十二指肠闭锁）"
_ASIDE = re.compile(r"\s*[(（][^()（）\n]{1,80}[)）]")
#: a label of the option list repeated in the reply, by letter or (when the model renumbers) by number
_ECHO = re.compile(r"(?:^|[\t\n]|\s{2,}|\s(?=\d\)))([A-E1-5])\s*[:.)]\s*\S")
_OPTION_LINE = re.compile(r"\s*(?:" + _OPTION_WORD + r"[A-E1-5]\s*项?\s*[:.)]|[(\[][A-E][)\]]|(?i:option|choice)\s*[A-E]\s*[,\-–—])\s*\S")
#: a line opening with an option's letter and its (maybe shortened) text: "A 艾滋病：乙类", "B. Spectrin — …" (not the
#: article of "A patient …"); three such lines go through the options
_LETTER_LINE = re.compile(r"^[ \t]*(?:(?i:option|choice)[ \t]*|选项[ \t]*)?[(\[]?([A-E])[)\]]?(?:[ \t]*[:.)、]|[ \t]+(?![a-z])|[ \t]*项)[ \t]*\S", re.MULTILINE)
#: the next line that holds something
_NEXT_LINE = re.compile(r"[^\n]*\n\s*([^\n]+)")
#: "Ａ项7.25～7.35为酸血症；Ｂ项…": options named "X项" one after another
_LETTER_ITEM = re.compile(r"(?<![A-Za-z])([A-E])\s*项")
#: "A 肾结石——多伴绞痛 ×；B 膀胱癌——√": an option and a mark in one item of an inline list
_MARKED_INLINE = re.compile(r"(?:^|(?<=[；;\n]))\s*([A-E])(?![A-Za-z0-9])[^；;\n]{0,40}?[" + CHECK_MARKS + CROSS_MARKS + "]")
#: marks a reply puts on what it judges: a check on the option it picks, crosses on the rest (and a check after a
#: verdict word affirms it, a cross after "False" agrees with it)
#: "(A) Central retinal vein occlusion – … Incorrect.", "Option A, propranolol: …": a line that heads the
#: analysis of one option (two such lines for different options walk through the options)
_LINE_HEAD = re.compile(r"^[ \t]*(?:(?i:option|choice)[ \t]*([A-E])[ \t]*[,:.)\-–—]|[(\[]([A-E])[)\]])[ \t]*\S", re.MULTILINE)
#: "Let's go through the options:", "Evaluating each choice:": the lines after it analyse options, they do not answer
_WALK_ANNOUNCED = re.compile(
    r"(?i:\b(?:go(?:ing)?|look(?:ing)?|walk(?:ing)?|run(?:ning)?)\s+(?:through|over|at)\s+(?:each\s+of\s+|all\s+(?:of\s+)?)?(?:the\s+|each\s+)?(?:answer\s+)?(?:options?|choices?)\b"
    r"|\b(?:evaluat|analy[sz]|consider|review|examin)\w*\s+(?:each|every|all|the)\s+(?:of\s+the\s+)?(?:answer\s+)?(?:options?|choices?)\b"
    r"|(?:逐一|逐个|依次|分别)?(?:分析|看|评价|讨论)(?:一下)?(?:各|每个|每一?个|所有)?选项|逐项(?:进行)?(?:分析|看|评价|讨论))[^\n]*[:：][ \t]*$",
    re.MULTILINE,
)
#: "Option A: …  Option B: …", "选项A：…。选项B：…", "A项：…", "A项正确，B项错误": the reply goes through the
#: options one by one
_OPTION_HEAD = re.compile(
    r"(?:^|(?<=[\s.;。；，,]))(?:(?:(?i:option|choice)\s*|选项\s*)([A-E])\s*[:)]|([A-E])\s*项\s*(?:[:)]|(?:是|为)?\s*(?:不?正确|错误|不?对|错)))"
)
#: a final (or opening) statement whose whole object is one option's text ("This is <text>.", "<text> is the diagnosis.",
#: "此患者为<text>。"): read only when the object is exactly that text, nothing more
_EXACT_TEXT_SPANS = (
    re.compile(r"\b(?i:this|it)\s+is\s+(?i:most\s+likely\s+)?([^\n.;:!?]+)[.!]?\s*$"),
    # "This is classic Hodgkin lymphoma.", "This is a typical case of <text>."
    re.compile(r"\b(?i:this|it)\s+is\s+(?i:(?:an?\s+)?(?:classic|typical)\s+(?:case\s+of\s+)?)([^\n.;:!?]+?)\s*[.!](?:\s|$)"),
    # the reply opening with it: "This is <text> (formerly called …). The combination of …"
    re.compile(r"^\s*(?i:this|it)\s+is\s+(?i:most\s+likely\s+)?([^\n.;:!?()]+?)\s*(?:\([^()\n]*\))?\s*[.!](?:\s|$)"),
    re.compile(r"(?:^|[.!?;:]\s*)([^\n.!?;:]+?)\s+(?i:is\s+the\s+(?:most\s+likely\s+|most\s+common\s+|commonest\s+|leading\s+)?(?:diagnosis|answer|cause))\b"),
    # a conclusion ending the reply: "The right coronary artery is the most likely culprit vessel."
    re.compile(r"(?:^|[.!?;:]\s*)(?i:the\s+)?([^\n.!?;:]+?)\s+(?i:is\s+the\s+most\s+likely)(?:\s+[\w-]+){1,2}\s*[.!]?\s*$"),
    # "Long-term oxygen therapy is the intervention most likely to reduce …", "<text> is the drug of choice", "<text> is
    # the first-line vasopressor", "<text> should be given first"
    re.compile(r"(?:^|[.!?;:]\s*)(?i:the\s+)?([^\n.!?;:]+?)\s+(?i:is\s+the\s+(?:[\w-]+\s+){1,3}?(?:most\s+likely|of\s+choice)|is\s+the\s+(?:best|most\s+appropriate)\s+[\w-]+"
               r"|is\s+the\s+(?:first-line|first\s+line|preferred|recommended)\b|should\s+be\s+(?:given|started|used|administered)(?:\s+first)?\b)"),
    re.compile(r"(?:患者|该病|本病|此病)(?:应)?(?:为|是)\s*([^\n。;；，,]+)"),
)
#: where a sentence that may be one option's whole text ends: a line break, "。", a full stop before a space (not
#: the "." of "E. coli" or "1.5"), a dash set off by spaces ("45,X — this is Turner syndrome")
_TEXT_SENTENCE_BREAK = re.compile(r"\n|。|(?<=[^\s.])\.(?=\s)|\s[—–-]\s")
#: a letter in brackets after a name: "oral clindamycin (b)"
_LETTER_ASIDE = re.compile(r"\s*[(（]\s*(?:option\s*)?[a-e]\s*[)）]$")
#: an aside inside an option's text (not at its end): "Dual-energy x-ray absorptiometry (DXA) of the hip"
_INNER_ASIDE = re.compile(r"\s*\([^()]{1,20}\)(?=\s+\S)")
#: an article opening a (lower-cased) sentence
_ARTICLE = re.compile(r"^(?:the|an?)\s+")
#: "vitamin b6 (pyridoxine)": a name and another name for it in brackets
NAME_AND_ASIDE = re.compile(r"^([^()（）]+?)\s*[(（]([^()（）]+)[)）]$")
#: a Chinese clause, and the last characters of the verbs that may put an option's text at its end ("是", "为",
#: "累及", "见于", "用", "选"): any other character may be part of a longer name ("缺铁性贫血" is not "贫血")
ZH_CLAUSE = re.compile(r"[\n。;；，,!?！？]")
_ZH_VERB_ENDS = "是为于及用选"
#: the reply takes back what it said: "wait, actually that is not correct", "Hmm, I made a mistake", "不对，更正一下"
#: ("Wait, let me reconsider." takes back only where an answer follows: ``_RECONSIDERED``)
_RETRACTION = re.compile(
    r"\b(?i:wait|actually|hmm+|oops|sorry)\b[,.!\s—–-]*(?i:no\b[,.!\s]*)?(?i:that(?:'s|\s+is|\s+was)\s+(?:not\s+(?:correct|right)|wrong|incorrect)"
    r"|I\s+(?:made\s+a\s+mistake|was\s+wrong))\b"
    r"|\b(?i:looking\s+again|on\s+(?:a\s+)?(?:closer|second)\s+look)\b"
    r"|\b(?i:I\s+apologi[sz]e\s+for\s+(?:the|my|that)\s+(?:earlier\s+|previous\s+)?(?:error|mistake))(?=\s*[.!,;:—–-])"  # not "the error in my reasoning"
    r"|(?:^|(?<=[.!?\n]))[ \t]*\**(?i:(?:actually|hmm+)[,.]?\s*)?(?i:wait)\**[ \t]*[—–-]"
    r"|(?<!若)(?<!如果)(?:上面|前面|之前|刚才)的(?:回答|答案)(?:可能)?(?:有误|不对|错了)|(?:答案|选)\s*(?:是|为)?\s*[:：]?\s*[A-E][。.]?\s*(?:…+|\.{2,})\s*不对[，,!！]|不对[，,]\s*(?:我|让我)?(?:更正|纠正|重新考虑|重新想|再想一想|再想想)(?:一下)?|(?:…+|\.{2,}|^|(?<=[。！？\n]))\s*(?:等一下|等等)[，,!！]|我(?:刚才)?(?:说|搞|弄|看|算)错了|我(?:前面|之前|刚才)的(?:答案|回答)(?:有误|错了|不对)|(?:等一下|等等)[，,]\s*(?:我)?(?:需要|要)?(?:更正|纠正|再想|重新考虑|重新想)|(?:但|不过)?(?:再)?仔细想想"
)
#: a weaker turn that takes back what came before only when an answer follows it and the reply does not keep its first
#: one: "Wait, let me reconsider. … The correct answer is D." (not "Let me reconsider option D. … My answer remains B."),
#: and so do a final answer opening its sentence after others ("…选C。不过……因此最终答案是B。"; not "One could argue the
#: final answer is A", "旧版题库给出的最终答案是D"), and 更正一下：
_RECONSIDERED = re.compile(
    r"\b(?i:let\s+me\s+(?:reconsider|re-?think|correct\s+myself))\s*(?:this|that)?\s*[.!:—–-]|\b(?i:actually|wait)[,.]?\s*(?i:correction)\s*:"
    r"|(?:(?:^|(?<=[.!?]\s)|(?<=\n))[ \t]*(?:(?i:so|thus|therefore|hence)[,:]?\s+)?|(?<=,\s)(?i:so|thus|therefore|hence)[,:]?\s+)"
    r"(?i:the\s+final\s+answer\s+is)\b|\b(?i:my\s+final\s+answer\s+is)\b|\b(?i:(?:so|thus|therefore|hence)[,:]?\s+my\s+final\s+answer\s+would\s+be)\b"
    r"|(?m:^)[ \t]*(?i:final\s+answer)\s*:"
    r"|(?:^|(?<=[，,。！？\n:：]))\s*(?:(?:因此|所以|故|综上(?:所述)?)[，,]?\s*)?(?:我的|本题(?:的)?|这道题(?:的)?|此题(?:的)?)?最终(?:的)?(?:答案|选择)"
    r"|(?:^|(?<=[\n。，,]))\s*(?:因此|所以)?(?:更正|纠正|修正)(?:一下)?\s*[:：]"
)
#: words one of ``_RECONSIDERED`` needs, looked for first: most replies have none, and the full patterns are slow to try
_MAY_RECONSIDER = re.compile(r"(?i:reconsider|re-?think|correct|final)|最终|更正|纠正|修正")
_KEPT = re.compile(
    r"\b(?i:(?:my|the)\s+answer\s+(?:stands|remains|is\s+still)|I(?:'ll|\s+will)\s+(?:stick|stay)\s+with|still\s+(?:the\s+)?(?:best|correct))\b"
    r"|仍然?(?:选|是)|答案不变|维持(?:原来的|原)?答案"
)
#: "A: no. B: yes.": an option judged in a word, inline
_JUDGED_INLINE = re.compile(r"(?:^|(?<=[\s.;,]))([A-E])\s*[:)]\s*(?i:yes|no|correct|incorrect|true|false|wrong|right|unlikely|likely)\b")
#: an answer given as text: "the answer is <text>", "the most likely diagnosis is <text>", "答案是<text>",
#: "最可能的诊断是<text>", "首选的治疗是<text>"
_TEXT_SPANS = (
    re.compile(r"\b(?i:answer|option|choice|diagnosis|cause|treatment|therapy|management|step|finding|organism|pathogen|drug|medication|mechanism|vessel|test|antidote|defect|vasopressor|agent|enzyme|gene|nerve|artery|structure|complication)(?:\s+(?i:here|then|(?:for|of|in)\s+[^\n.;:,!?]{1,40}?))?[ \t]*(?i:is|would\s+be|should\s+be|:)[ \t]*:?[ \t]*(?i:in\s+)?(?i:(?:the|an?)\s+)?([^\n.。;；]+)"),
    # "The most appropriate next step is to start oral doxycycline" (not "The usual next step for GI bleeding is to perform …")
    re.compile(r"\b(?i:step|treatment|management|therapy)[ \t]+(?i:is|would\s+be)[ \t]+(?i:to\s+(?:start|give|begin|administer|prescribe))[ \t]+(?i:(?:the|an?)\s+)?([^\n.。;；]+)"),
    re.compile(r"答案[ \t]*[】\]]?[ \t]*(?:是|为|应为|应该是|应是)?[ \t]*:?[ \t]*([^\n。;；]+)"),
    # "答：染色体核型分析。", "主要是Na+内流。", "所以选择出血。"
    re.compile(r"(?:^|\n)[ \t]*答[ \t]*:[ \t]*([^\n。;；]+)"),
    re.compile(r"^[ \t]*(?:主要|应该|应当|应)?(?:是|为|取决于)[ \t]*([^\n。;；，,]+)"),
    re.compile(r"(?<![不未])选择(?!性)[ \t]*([^\n。;；，,]+)"),
    re.compile(r"(?<![不未禁慎])选用[ \t]*([^\n。;；，,]+)"),
    # "华法林过量导致出血时，应使用维生素K进行拮抗"
    re.compile(r"(?<![不未无毋勿禁])(?:应|应该|应当|需|需要)(?:使用|给予|应用)[ \t]*([^\n。;；，,]+)"),
    # "灵敏度是指<text>": what the question asks about, defined by an option's text
    re.compile(r"(?:是指|指的是)[ \t]*([^\n。;；，,]+)"),
    # "会引起灰婴综合征的是氯霉素。": the question restated as "…的是", then the text (not "需要注意的是…")
    re.compile(r"(?:^|(?<=[。；;!！\n]))[ \t]*(?:(?!注意|指出|强调|一提|不同|相同|遗憾|肯定|重要|不|没有)[^\n。;；，,!！])+的是[ \t]*([^\n。;；，,]+)"),
    re.compile(r"(?:诊断|病因|原因|治疗|措施|药物|检查|表现|选择|处理|方法|疾病|抗体|正常值|正常范围|浓度|频率|剂量)[ \t]*(?:(?:应|主要)?(?:是|为)[ \t]*:?|:)[ \t]*([^\n。;；，,]+)"),
    # what the question asks, named by its superlative: "最典型的症状是<text>", "最常见的是<text>"
    re.compile(r"最[^\n。;；，,是为、]{1,10}(?:是|为)[ \t]*([^\n。;；，,]+)"),
    re.compile(r"(?<![不未])(?:首选|应选用|应选)(?:的)?(?:是|为)?[ \t]*([^\n。;；，,]+)"),
    # "麦氏点位于<text>", "麦氏点即<text>": the thing asked about, located or defined by an option's text (not
    # the adverbs 立即, 随即, 即使, 即可: "不宜立即手术治疗" names no answer)
    re.compile(r"(?<![不未立随旋当亦])(?:位于|即为|即是|即)(?![使便刻将可时])[ \t]*((?:\([^()\n]*\)|[^\n。;；，,])+)"),
    # "硫酸镁是子痫治疗的首选解痉药物": an option's text as the subject of the question's superlative (after a heading
    # such as "【解析】" or "解析：", or "，而" / "，但", too)
    re.compile(r"(?:^|(?<=[。；;!！\n])|(?<=[，,]而)|(?<=[，,]但)|(?<=其中[，,]))[ \t]*(?:(?:【[^】\n]{1,6}】|(?:解析|分析|说明|理由)[ \t]*:)[ \t]*)?([^\n。;；，,!！【:]{1,30}?)[ \t]*(?:是|为)[^\n。;；，,]{0,20}?(?:首选|最)"),
    re.compile(r"(?<![不未])(?:诊断)?考虑(?:为|是)?[ \t]*([^\n。;；，,]+)"),
    # "…形成冠状动脉瘤，这是最严重的并发症": the text, then "this is" the question's superlative
    re.compile(r"(?:^|(?<=[\n。;；，,!！]))[ \t]*(?:形成|导致|引起|出现|发生)?([^\n。;；，,!！]{1,30}?)[ \t]*[，,][ \t]*这(?:是|为|也是)[^\n。;；，,]{0,10}?最"),
    # "本例符合十二指肠溃疡的特点"
    re.compile(r"(?:本例|该患者|此例|患者)(?:最)?符合[ \t]*([^\n。;；，,的]+)(?=的(?:特点|诊断|表现))"),
    re.compile(r"\b(?i:I(?:\s+would|'d|\s+will|'m|\s+am)?\s+(?:choose|select|pick|go(?:ing)?\s+with|recommend))\s+([^\n.。;；]+)"),
    re.compile(r"(?:^|[.!?;:]\s*)([^\n.!?;:]+?)\s+(?i:is\s+the\s+(?:right|correct|best)\s+(?:answer|choice|option))"),
    # "the most likely deficient enzyme in this patient is <text>": what the question asks, by its superlative
    re.compile(_ASKED_IS + r"(?i:(?:the|an?|to)\s+)?([^\n.;:!?]+)"),
    # "This patient has cardiac tamponade, as evidenced by …"
    re.compile(r"\b(?i:this|the)\s+patient\s+(?i:most\s+likely\s+)?has\s+(?i:(?:an?|the)\s+)?([^\n.;:!?,]+)"),
    # "this patient most likely has the <text>", "a classic presentation of <text>", "highly suggestive of <text>"
    re.compile(r"\b(?i:most\s+likely\s+(?:has|have|is)|(?:classic|typical)\s+(?:presentation|case|picture|constellation)\s+of"
               r"|(?:highly|strongly)\s+suggestive\s+of|diagnostic\s+of|most\s+consistent\s+with)\s+(?i:(?:the|an?)\s+)?([^\n.;:!?]+)"),
)

# Sets of letters (multiple-answer questions)
_SET_ITEM = r"[(\[]?([A-E])[)\]]?"
_SET_JOIN = r"\s*(?:,|，|、|;|；|&|\+|和|及|与|(?i:and))\s*(?:(?i:and)\s+)?"
_SET = _OPTION_WORD + _SET_ITEM + r"(?:" + _SET_JOIN + _OPTION_WORD + _SET_ITEM + r")*(?![A-Za-z0-9])"
_SET_LETTER = re.compile(r"[A-E]")
#: an option whose text is letters ("c", "bc": which of the statements a–e are right): a reply's letter reads as it too
_LETTERS_ONLY = re.compile(r"[a-e]+")
_LABELLED_SET = tuple(
    re.compile(p)
    for p in (
        _LEFT + r"(?i:answers?|options?|choices?)\s*:\s*(" + _SET + ")",
        _LEFT + r"(?i:answers?|options?|choices?)\s+(?i:are|is|would\s+be|should\s+be)\s*:?\s*(" + _SET + ")",
        r"\b(?i:options?)\s+(" + _SET + r")\s+(?i:are|is)\s+(?i:(?:the\s+)?(?:correct|right|true))",
        r"(?:正确|最终)?答案\s*(?:是|为|应为)?\s*:?\s*(" + _SET + ")",
        r"(?:(?:正确|最终)?答案\s*(?:是|为|应为)?\s*:?|(?<![不未])选(?:择)?\s*:?|" + _LEFT + r"(?i:answers?)\s*:)\s*([A-E]{2,5})(?![A-Za-z0-9])",
        _SELF_CORRECTION + r"(?i:only\s+)?(" + _SET + ")",
        r"(?:应|应该|我)?选(?:择)?\s*(" + _SET + ")",
    )
)
_LIST_GOES_ON = re.compile(r"[ \t]*[,，、;；][ \t]*[^\s,，、;；]")
_SET_OR = re.compile(r"\s*(?:/|(?i:or)\b|或)\s*" + _SET_ITEM)
_ALL_OPTIONS = re.compile(
    r"\b(?i:all\s+(?:of\s+)?(?:the\s+)?(?:above|options|choices|of\s+them)(?:\s+(?:are|is)\s+correct)?)\b|以上(?:都|全)(?:是|对|正确)|(?:全部|所有)(?:选项)?(?:都)?(?:正确|对)"
)
_CONCATENATED = re.compile(r"[A-E]{2,5}")


@dataclass(frozen=True)
class Statement:
    """One answer statement: its value (None when it names several answers), the rule family, and the
    sentence it stands in (where a hedge would qualify it)."""

    value: object
    rule: str
    sentence: str
    #: for a statement that gives no answer (value None), why: "several options" unless said
    why: str = ""


@functools.lru_cache(maxsize=4096)
def clean_text(text: str) -> str:
    """Lower-cased text without surrounding whitespace and trailing punctuation, in one width (NFKC: the reply is
    read folded, "（储存铁）" and "Na⁺" as "(储存铁)" and "Na+", so an option's text is compared folded too)."""
    folded = _TRAILING.sub("", unicodedata.normalize("NFKC", text).strip()).strip().lower()
    folded = _RANGE_DASH.sub("~", WORD_DASH.sub("-", folded))  # "孕24-28周" as "孕24～28周"
    return _LIST_ZH_AND.sub(r"\1、", _LIST_AND.sub(", ", folded)).replace(" together with ", " and ")


def echoes_options(text: str, *, numbered: bool = False) -> bool:
    """The reply repeats the option list (three or more "X:" / "X." labels), so it has no leading answer.
    With ``numbered``, labels "1)" … "5)" count too (a model renumbering the options); a list of reasons is
    numbered the same way, so only a one-answer reply, whose answer must still be stated, counts them."""
    labels = {m.group(1) for m in _ECHO.finditer(text)}
    return len(labels if numbered else labels - set("12345")) >= 3


#: words that may follow a Chinese option's text without making it another name: "首选丙硫氧嘧啶治疗", "HBeAg阳性",
#: "肺炎链球菌感染", "选用丙硫氧嘧啶进行抗甲状腺治疗"
_ZH_SUFFIX = re.compile(r"(?:治疗|疗法|阳性|感染|反应)(?![\u4e00-\u9fff])|进行")


def option_by_text(span: str, option_texts: Mapping[str, str]) -> str | None:
    """The option whose text the span is, or opens with (the longest such text wins); None when the
    span names no option, or another option's text too."""
    clean = clean_text(span).strip("\"'“”‘’「」『』 ")  # "正确答案是“骨髓小粒可染铁消失”"
    texts = {letter: t for letter, option in option_texts.items() if (t := clean_text(option))}
    found = [letter for letter, t in texts.items()  # (not a list the span goes on with: "腹痛、寒战高热、黄疸、休克…")
             if clean == t or (clean.startswith(t) and clean[len(t)] != "、" and (not clean[len(t)].isalnum() or _ZH_SUFFIX.match(clean, len(t))))]
    if not clean or not found:
        return None
    letter = max(found, key=lambda f: len(texts[f]))
    rest = clean.replace(texts[letter], " ", 1)
    return None if any(t in rest for other, t in texts.items() if other != letter) else letter


def _names_a_genus(text: str, end: int, letter: str, option_texts: Mapping[str, str]) -> bool:
    """Whether the capital ending at ``end`` abbreviates a genus ("B. cereus", "C. difficile"): a lower-case name
    follows its full stop, and the letter's own option text does not open with that name ("B. hypercalcemia")."""
    genus = _SPECIES.match(text, end)
    return genus is not None and not clean_text(option_texts.get(letter, "")).startswith(genus.group(1))


#: after an option's text: it is judged wrong ("是错误的", "不正确", " is incorrect")
_JUDGED_WRONG_AFTER = re.compile(r"\s*[(（]?[^，,。.;；]{0,3}?(?:是|为)?\s*(?:错误|不正确|不对|错的|\b(?i:is\s+(?:incorrect|wrong)))")




#: several options called wrong together: "C、D均错误", "C and D are both incorrect"
_SEVERAL_WRONG = re.compile(r"[A-E](?:\s*[、,，和与及]\s*[A-E])+\s*(?:都|均|皆)(?:是|为)?(?:错误|不正确|错)|\b[A-E]\s+(?i:and)\s+[A-E]\s+(?i:are\s+both\s+(?:incorrect|wrong))")


#: a question asking for the option that is not so: "all of the following EXCEPT", "下列…，错误的是", "不属于"
_EXCEPTION_ASKED = re.compile(
    r"\b(?i:except|not|least|false|incorrect|untrue|wrong)\b|除外|错误|并非|而非|最不"
    r"|不(?:是|属|包括|正确|对|符合|宜|应|能|会|可|常|需|用|出现|引起|见|适合|支持)"  # not 不良反应, 心功能不全
)
_ASK_BREAK = re.compile(r"(?<=[.?!])\s+|(?<=[。？！])")


@functools.lru_cache(maxsize=1024)
def asks_for_exception(question: str | None) -> bool:
    """Whether our question asks for the option that is not so, in its stem's last sentence, the one that asks (the
    vignette before it may say "does not radiate")."""
    if not question:
        return False
    sentences = [part for part in _ASK_BREAK.split(stem_of(question)) if part.strip()]
    return bool(sentences) and _EXCEPTION_ASKED.search(sentences[-1]) is not None


def _start(text: str, option_texts: Mapping[str, str], *, wrong_asked: bool = False) -> Statement | None:
    """An answer letter at the very start: the whole reply (``bare``), or followed by punctuation or by
    the option's own text (``leading``). "C项" is the letter too."""
    match = re.match(r"\s*(?:(?i:definitely|clearly|certainly)[,:]?\s+)?" + _ITEM + r"(?:\s*项)?", text)  # "Definitely E — …"
    if not match:
        return None
    letter, rest = match.group(1), text[match.end() :]
    if _names_a_genus(text, match.end(1), letter, option_texts):
        return None  # "B. cereus spores survive cooking."
    if letter == "A" and re.match(r" (?!(?:or|and|is|was|vs|because|since|as)\b)[a-z]", rest):
        return None  # the article: "A direct inguinal hernia occurs when …"
    own = clean_text(option_texts.get(letter, ""))
    rest_clean = clean_text(rest.lstrip(".:)]，。：,-–— \t"))
    if rest_clean.startswith("(") and rest_clean.endswith(")"):
        rest_clean = rest_clean[1:-1].strip()  # "C (Doxycycline)", "C（多西环素）"
    first_line = text.split("\n", 1)[0]
    if not rest_clean or (own and rest_clean == own):
        return Statement(letter, BARE, text)
    if len(own.split()) >= 3 and rest_clean.split()[:3] == own.split()[:3] and not any(
        clean_text(t).split()[:3] == own.split()[:3] for other, t in option_texts.items() if other != letter
    ):
        return Statement(letter, LEADING, first_line)  # "A. Emergent coronary angiography with PCI — …": its own text, shortened
    if re.match(r"\s*[和与及、,，]\s*[A-E]\s*(?:都|均)(?:属于|位于|作用于)", rest):
        return None  # "D和E都属于髓袢，但…选E": the two described, neither given
    # "D. 下肢深静脉血栓" when 下肢深静脉 is B, "B. ACE inhibitors decrease the degradation of bradykinin" when that is D
    named = _text_after(text, match.end(), letter, option_texts) or _explained_as_other(text, match.end(), letter, option_texts)
    if named is not None and named != letter:
        if letter == "A" and re.match(r" (?![AEIOUaeiou])[A-Za-z]", rest) and _TRAILING.sub("", clean_text(rest.split("\n", 1)[0])) != clean_text(option_texts[named]):
            return None  # the article again: "A CT scan of the abdomen … The answer is E." (not "A Emergency laparotomy", "A Metformin.")
        return Statement(None, LEADING, first_line, f"{CONFLICT}: {letter} with the text of {named}")
    if _SEVERAL.match(text, match.end()):
        return Statement(None, LEADING, first_line)  # "A or C"
    if not wrong_asked and own and clean_text(rest).startswith(own) and _JUDGED_WRONG_AFTER.match(clean_text(rest)[len(own) :]):
        return None  # "C肥皂水灌肠是错误的，…": the option judged wrong, not given (unless the question asks for that one)
    if (_AFTER_LEADING.match(rest) or (own and clean_text(rest).startswith(own)) or _GLOSS.match(rest) or _own_aside(rest, own)
            or _own_in_other_words_zh(rest, letter, option_texts)):
        return Statement(letter, LEADING, first_line)
    return None


def _own_aside(rest: str, own: str) -> bool:
    """Whether the line after a leading letter is the other name its option gives in brackets ("C) BiPAP" for
    "Noninvasive positive-pressure ventilation (BiPAP)")."""
    both = NAME_AND_ASIDE.match(own)
    return both is not None and clean_text(rest.split("\n", 1)[0]).strip() == both.group(2).strip()


#: what judges an option in a line rather than names it: punctuation of a clause, a mark, a negation, "also", "fine"
_JUDGED_ZH = re.compile(r"[:：,，;；。()（）" + CHECK_MARKS + CROSS_MARKS + r"]|不|非|错|误|否|也|可以|行|但")


def _own_tail(rest: str, letter: str, option_texts: Mapping[str, str]) -> bool:
    """Whether the words after a letter are the end (or the start) of its own Chinese option's text and of no other's
    ("即选项A布地奈德" for 吸入布地奈德, "是C.麻疹黏膜斑" for 麻疹黏膜斑（Koplik斑）)."""
    said = clean_text(rest).strip()
    own = clean_text(option_texts.get(letter, ""))
    return (len(said) >= 2 and bool(CJK.search(said)) and (own.endswith(said) or own.startswith(said))
            and not any(said in clean_text(t) for other, t in option_texts.items() if other != letter))


#: what an aside after a name may not say: a limit, another option, a doubt
_ASIDE_OFFERS = re.compile(r"只|仅|或|还是|把握|存疑|(?<![A-Za-z])[A-E](?![A-Za-z])")


def _own_in_other_words_zh(rest: str, letter: str, option_texts: Mapping[str, str]) -> bool:
    """Whether the line after a leading letter says its Chinese option in other words ("B 肌注东莨菪碱" for 肌内注射东莨菪碱):
    a third of the option's character pairs (two at least, and most of the name's), and none that only another option
    has, in a short line that is only a name and maybe (in a reply of one sentence) a short aside after a comma that
    limits nothing and names no other option ("A 立位腹平片，看膈下游离气体", "（C）麻疹黏膜斑——具有早期诊断价值"; no
    clause of a walk, "选项A（结核性腹膜炎）：…与本例不符", nor a judgement: "A 阿托品不行", "C 地西泮 ✗", "A 阿托品，也可以")."""
    line = rest.split("\n", 1)[0].strip(" \t.。")
    name, _, aside = re.sub(r"\s*(?:[，,]|——|—)\s*", "，", line).partition("，")
    own = bigrams(option_texts.get(letter, ""))
    said = bigrams(name)
    if aside and (_ASIDE_OFFERS.search(aside) or re.search(r"[\n。！？!?]", rest.strip().rstrip("。.！!"))):
        return False  # "A 立位腹平片，只能发现穿孔\nE …", "A 立位腹平片，或者E": a walk, a doubt, another option
    if (not own or _JUDGED_ZH.search(name) or _JUDGED_ZH.search(aside) or len(aside) > 20 or len(name) > len(option_texts[letter]) + 6
            or len(own & said) < max(2, len(own) / 3, 0.6 * len(said))):
        return False
    return not any((bigrams(t) - own) & bigrams(line) for other, t in option_texts.items() if other != letter)


def _by_bare_text(span: str, option_texts: Mapping[str, str]) -> str | None:
    """The one option whose text the span is once spaces, commas and 且 are left out ("PaO2<60mmHg 且 PaCO2>50mmHg" for
    "PaO2<60 mmHg，且PaCO2>50 mmHg")."""
    bare = _COMMAS.sub("", clean_text(span)).replace("且", "")
    found = {letter for letter, t in option_texts.items() if bare and _COMMAS.sub("", clean_text(t)).replace("且", "") == bare}
    return found.pop() if len(found) == 1 else None


def _text_after(text: str, end: int, letter: str, option_texts: Mapping[str, str]) -> str | None:
    """The option whose text follows a letter ("D: <text>", "C (text)"), when it is another option's:
    the letter and the text then disagree."""
    join = _LETTER_TEXT_JOIN.match(text, end)
    rest = _UNTIL_SENTENCE_END.match(text, join.end() if join else end)
    span = rest.group(0).strip() if rest else ""
    span = span[:-1] if span.endswith(")") and span.count(")") > span.count("(") else span  # "C (text)": not the text's own ")"
    if re.fullmatch(r"\([^()]+\)", span):
        span = span[1:-1]  # "Answer: B (common fibular nerve)" when that nerve is E
    named = (option_by_text(span, option_texts) or _by_bare_text(span, option_texts) or _whole_text(span, option_texts)) if span else None
    if named is None and span:
        named = _other_text_in(_first_clause(span), letter, option_texts, rest=span)
    return named if named is not None and named != letter else None


#: a short name after an answer letter: one to three words with a long one among them, or a few Chinese characters
_SHORT_CLAUSE = re.compile(r"(?=.*[a-z\u4e00-\u9fff]{5})[\w\u4e00-\u9fff-]+(?: [\w-]+){0,2}|[\w\u4e00-\u9fff-]*[\u4e00-\u9fff]{2,}[\w\u4e00-\u9fff-]*")
#: a clause of a few Chinese characters ("肝脏"): a one-character option's text in it ("肝") is the name it gives
_SHORT_NAME = re.compile(r"[\u4e00-\u9fff]{1,3}")


def _first_clause(text: str) -> str:
    """The text up to the end of its first clause (``_CLAUSE_END``), bracketed parts kept whole ("t(9;22)易位…")."""
    masked = re.sub(r"\([^()\n]*\)", lambda m: "(" + "_" * (len(m.group(0)) - 2) + ")", text)
    end = _CLAUSE_END.search(masked)
    return text[: end.start()] if end else text


def _other_text_in(clause: str, letter: str, option_texts: Mapping[str, str], rest: str) -> str | None:
    """The one other option whose whole text the clause after a letter holds, without the letter's own text
    ("答案是D：空腹血糖≥7.0 mmol/L" when ≥7.0 mmol/L is C): the letter and its text disagree. None when the clause
    holds the letter's own text, rules something out ("D, not aspirin alone"), or holds several options' texts."""
    clause = clean_text(clause)
    own = clean_text(option_texts.get(letter, ""))
    if not clause or (own and own in clause) or _SETS_ASIDE.search(clause):
        return None
    opening = [other for other, option in option_texts.items() if other != letter and len(t := clean_text(option)) >= 4 and CJK.search(t) and clause.startswith(t)]
    named = [other for other, option in option_texts.items() if len(t := clean_text(option)) >= 2 and t in clause]
    if len(opening) == 1 and named == opening and not re.search("不|非|错", clause) and own not in clean_text(rest):
        return opening[0]  # "正确答案是D，肉芽组织转变为瘢痕组织属于…" when that is E: the clause is about another option
    if re.search(r"是|为|见于|\b(?:is|are|was|were)\b", clause):
        return None  # a sentence of the explanation ("风湿小体是…由纤维素样坏死…组成"), not a name given with the letter
    found = [other for other, option in option_texts.items() if other != letter and (len(t := clean_text(option)) >= 2 or _SHORT_NAME.fullmatch(clause))
             and not _LETTERS_ONLY.fullmatch(t) and _holds(clause, t)]
    if not found and _SHORT_CLAUSE.fullmatch(clause) and not _holds(own, clause):
        # "The answer is B, carboprost." when E is "Carboprost tromethamine"; "答案是D，Koplik斑" when C is "麻疹黏膜斑（Koplik斑）"
        found = [other for other, option in option_texts.items() if other != letter and _holds(clean_text(option), clause)]
    return found[0] if len(found) == 1 else None


def _options_ending(words: str, option_texts: Mapping[str, str]) -> list[str]:
    """The options whose whole text ends the (cleaned) words: "the drug responsible is amiodarone" ends with B's."""
    return [other for other, option in option_texts.items()
            if (t := clean_text(option)) and words.endswith(t) and _whole_words(t).match(words, len(words) - len(t))]


def _holds(text: str, name: str) -> bool:
    """Whether ``text`` holds ``name`` as whole words ("carboprost" in "carboprost tromethamine")."""
    return bool(text) and name in text and _whole_words(name).search(text) is not None


@functools.lru_cache(maxsize=4096)
def _whole_words(name: str) -> re.Pattern[str]:
    """A pattern for ``name`` as whole words, compiled once per name (option texts recur across replies)."""
    return re.compile(rf"(?<![a-z0-9]){re.escape(name)}(?![a-z0-9])")


#: "…b→c1→c→aa3→o2，即选项B": the words that give the letter of the text just before them
_SAID_BEFORE = re.compile(r"[ \t]*[,，(（]?[ \t]*(?:即|也就是|(?i:i\.?e\.?,?|that\s+is,?))[ \t]*(?:选项|(?i:option|choice))?[ \t]*$")


def _text_before(text: str, start: int, letter: str, option_texts: Mapping[str, str]) -> str | None:
    """The option whose text stands right before a bracketed letter ("<text> (E) is the most likely
    diagnosis") or before "即选项B" / "（即选项B）" / "i.e. option B", when it is another option's."""
    said = _SAID_BEFORE.search(text, 0, start)
    if said is None and (start == 0 or text[start - 1] not in "(["):
        return None
    before = (text[: said.start()] if said else text[: start - 1]).rstrip(" ,，").lower()
    named = [other for other, t in option_texts.items() if t and before.endswith(clean_text(t))]
    return next((other for other in named if other != letter), None) if named and letter not in named else None


def _list_follows(text: str, match: re.Match[str]) -> bool:
    """Whether the letter opens a line and the next line opens with another letter ("本题的答案是：\nA. …\nB. …"): a
    list of options under the label, not one answer."""
    line_start = text.rfind("\n", 0, match.start(1)) + 1
    if text[line_start : match.start(1)].strip(" \t*([（"):
        return False
    next_line = _NEXT_LINE.search(text, match.end())
    return next_line is not None and (other := _LETTER_LINE.match(next_line.group(1))) is not None and other.group(1) != match.group(1)


def _own_text_end(text: str, end: int, own: str) -> int | None:
    """Where the letter's own text ends, when it follows the letter ("A. Non-contrast CT of the head")."""
    join = _LETTER_TEXT_JOIN.match(text, end)
    start = join.end() if join else end
    return start + len(own) if own and text[start : start + len(own)].lower() == own.lower() else None


_AND_LETTER = re.compile(r"\s*(?:(?i:and|or)\b|和|或|及)\s*[(\[]?([A-E])[)\]]?(?![A-Za-z0-9])")


def _another_with_text(text: str, end: int, option_texts: Mapping[str, str]) -> bool:
    """After a letter and its own text: "and" / "or" and another letter with its own text, or ending the clause
    ("A. Non-contrast CT of the head and B. Lumbar puncture"; not "B. Adenocarcinoma and D is less likely")."""
    joined = _AND_LETTER.match(text, end)
    if joined is None:
        return False
    other = joined.group(1)
    return _own_text_end(text, joined.end(), option_texts.get(other, "")) is not None or re.match(r"\s*(?:$|[.,;。，；!])", text[joined.end() :]) is not None


#: a condition right after a letter: "the answer would be A if the question asks about screening"
#: (not "C if I had to choose": one answer, picked; "assuming …" only where the other case follows: "D assuming she is
#: pregnant; if she is not, A", not "B assuming there are no contraindications", a routine caveat)
_IF_AFTER = re.compile(r"\s*(?:(?i:assuming)\b(?=[^.]*(?:[.;]\s*(?i:if|but\s+if)\b|\b(?<!proven\s)(?i:otherwise|if\s+not)\b))|(?i:if|unless)\b(?!\s+(?i:I|we)\s+(?i:had|have|must)\s+to\s+(?i:choose|pick|select)\b)|如果|若|假如)")


def _letter_statement(text: str, match: re.Match[str], option_texts: Mapping[str, str], rule: str) -> Statement:
    """One answer letter found by a pattern: several options when another letter is joined to it, a
    conflict when another option's text follows it (or stands right before it, the letter in brackets)."""
    letter, sentence = match.group(1), sentence_at(text, match.start(), match.end())
    aside = _ASIDE.match(text, match.end())  # "C (duodenal atresia) or B (…)": the second letter after the first's text
    own = _own_text_end(text, match.end(), option_texts.get(letter, ""))  # "A. Non-contrast CT of the head and B. …"
    if (_SEVERAL.match(text, match.end()) or _MORE_LETTERS.match(text, match.end()) or (aside and _SEVERAL.match(text, aside.end()))
            or (own is not None and _another_with_text(text, own, option_texts)) or _list_follows(text, match)):
        return Statement(None, rule, sentence)
    other = (
        _text_after(text, match.end(), letter, option_texts) or _text_before(text, match.start(1), letter, option_texts)
        or _explained_as_other(text, match.end(), letter, option_texts)
    )
    if other is not None:
        return Statement(None, rule, sentence, f"{CONFLICT}: {letter} with the text of {other}")
    return Statement(letter, rule, sentence)


CJK = re.compile(r"[\u4e00-\u9fff]")
#: Chinese words that set an option aside: "而不是…", "并非…", "不同于…", "其余选项（…）都是…"
_ZH_SET_ASIDE = r"而非|不是|并非|排除|不同于|而不|不如|其余|其他选项|其它选项"
#: what sets an option's text aside in the words near a letter ("unlike", "although", "而非"…); "while" too after it
_SETS_ASIDE = re.compile(NOT_IT + r"|\b(?i:unlike|whereas|although|avoid|avoided|contraindicated)\b|" + _ZH_SET_ASIDE)
_SETS_ASIDE_WHILE = re.compile(NOT_IT + r"|\b(?i:unlike|whereas|while|although)\b|" + _ZH_SET_ASIDE)
#: an option put aside in its own clause: "and platelet transfusion is avoided"
_AVOIDED_CLAUSE = re.compile(r"\b(?i:avoid|avoided|contraindicated|withheld)\b")
#: English words too common to tell options apart
_COMMON_WORDS = frozenset(["with", "without", "from", "that", "this", "which", "their", "there", "than", "into", "about", "after", "before", "other", "also", "only", "more", "less", "most", "acute", "chronic", "patient", "patients", "disease", "syndrome"])


#: the words a letter is glossed with, after a colon or dash, up to the end of the sentence: "E: HIDA scan."
_GLOSSED = re.compile(r"\s*(?:[:：]|\s[-–—])\s*([^\n.;!?]+)")
#: words that go on from an answer to what comes with or after it
_GOES_ON = re.compile(r"\b(?i:followed\s+by|then|afterwards|after\s+that|adjunct)\b")


@functools.lru_cache(maxsize=4096)
def _stems(text: str) -> frozenset[str]:
    """The content words of an English text, cut to six letters ("decreased", "decrease" -> "decrea")."""
    return frozenset(w[:6] for w in re.findall(r"[a-z][a-z0-9-]{3,}|\d+(?:\.\d+)?%?", text.lower()) if w not in _COMMON_WORDS)


def _explained_as_other(text: str, end: int, letter: str, option_texts: Mapping[str, str]) -> str | None:
    """The option that the sentence after an English answer letter explains in its own words when the letter is another
    ("The answer is B. ACE inhibitors decrease the degradation of bradykinin" when B is "Increased aldosterone
    secretion" and D "Decreased degradation of bradykinin"): every content word of that option and not all of the
    letter's own. Nothing when the sentence sets the option aside ("unlike …") or fits several options."""
    window = " ".join(_TEXT_SENTENCE_BREAK.split(text[end:], 2)[:2])  # the letter's own paragraph: a blank line ends it
    if _SETS_ASIDE_WHILE.search(window):
        return None
    if CJK.search(option_texts.get(letter, "")):
        return _explained_as_other_zh(re.split(r"[。\n]", text[end:], maxsplit=1)[0], letter, option_texts)
    said = _stems(window)
    own = _stems(option_texts.get(letter, ""))
    fits = [other for other, t in option_texts.items() if other != letter and len(stems := _stems(t)) >= 2 and stems <= said]
    if fits:  # several fit: the one whose words hold all the others' ("Normal PaO2, decreased … content, left shift" holds
        # "Decreased PaO2, normal … content, no shift": the gloss says the first); two apart ("… from A and D") name none
        widest = [other for other in fits if all(_stems(option_texts[f]) <= _stems(option_texts[other]) for f in fits)]
        return widest[0] if len(widest) == 1 and not own <= said and not _avoided(window, option_texts[widest[0]]) else None
    # another's words in other words: a third of the words only it has (three at least, two in the letter's own gloss:
    # "The answer is E: HIDA scan" when A is "Hepatobiliary iminodiacetic acid (HIDA) scan"), and none that only the
    # letter's has ("The answer is A: Release of inflammatory cytokines from dying spirochetes" when B is "Release of
    # lipoproteins from lysed spirochetes triggering cytokine release")
    goes_on = _GOES_ON.search(window)  # "C – followed by insulin with glucose": what comes next is not what C is
    said = _stems(window[: goes_on.start()]) if goes_on else said
    gloss = _GLOSSED.match(text, end)
    least = 2 if gloss else 3
    said = _stems(_GOES_ON.split(gloss.group(1))[0]) if gloss else said
    shares = {}
    for other, t in option_texts.items():
        only_other = _stems(t) - own
        if other != letter and len(only_other & said) >= max(least, len(only_other) / 3) and not (own - _stems(t)) & said:
            shares[other] = len(only_other & said)
    best = [other for other, n in shares.items() if n == max(shares.values(), default=0)]
    return best[0] if len(best) == 1 and not _avoided(window, option_texts[best[0]]) else None


def _avoided(window: str, option: str) -> bool:
    """Whether the clause of the window that says an option's words puts it aside ("…, and platelet transfusion is
    avoided"; not "Start IV acyclovir and avoid waiting for the PCR": the avoiding is another clause's)."""
    words = _stems(option)
    return any(_AVOIDED_CLAUSE.search(clause) and len(_stems(clause) & words) >= min(2, len(words)) for clause in re.split(r"[,;]|\band\b", window))


@functools.lru_cache(maxsize=4096)
def bigrams(text: str) -> frozenset[str]:
    """The pairs of neighbouring characters of a Chinese text, its own words' stand-in ("立位腹平片" → 立位, 位腹, 腹平, 平片)."""
    folded = re.sub(r"\s+", "", clean_text(text))
    return frozenset(folded[i : i + 2] for i in range(len(folded) - 1) if CJK.search(folded[i : i + 2]))


def _explained_as_other_zh(clause: str, letter: str, option_texts: Mapping[str, str]) -> str | None:
    """The option that the clause after a Chinese answer letter says in other words when the letter is another
    ("答案：E，立位腹平片可以发现膈下游离气体" when E is 腹部B超 and B 立位腹部X线平片见膈下游离气体): enough of its
    character pairs (two fifths, three at least; the option saying most of its own when several say enough) and under a
    third of the letter's own, or enough of its own pairs that the letter's text lacks and none that only the letter's
    has. Nothing when the clause sets it aside."""
    if re.search(_ZH_SET_ASIDE, clause):
        return None
    said = bigrams(clause)
    own = bigrams(option_texts.get(letter, ""))
    fits = {other: len(pairs & said) / len(pairs) for other, t in option_texts.items()
            if other != letter and len(pairs := bigrams(t)) >= 3 and len(pairs & said) >= max(3, 0.4 * len(pairs))}
    best = [other for other, share in fits.items() if share == max(fits.values(), default=0)]
    if len(best) != 1:
        return None
    other = bigrams(option_texts[best[0]])
    # "正确答案是B，新月体主要是由肾小球囊壁层上皮细胞增生形成的" when A is 肾小球球囊壁层… and B 肾小球脏层…: the words the
    # two share say nothing; what is A's own (囊壁, 壁层) is said, and nothing of B's own (脏层)
    told_apart = len((other - own) & said) >= 2 and not (own - other) & said
    return best[0] if len(own & said) < len(own) / 3 or told_apart else None


def _labelled(
    text: str, option_texts: Mapping[str, str], exclude_before: re.Pattern[str] | None, patterns: Sequence[re.Pattern[str]] = _LABELLED_LETTER
) -> Iterator[Statement]:
    for pattern in patterns:
        for match in pattern.finditer(text):
            before = text[: match.start()]
            if exclude_before is not None and exclude_before.search(before):
                continue
            if _WALK_THROUGH.search(before):
                continue  # "let's look at each option:\nA. …"
            if _names_a_genus(text, match.end(1), match.group(1), option_texts):
                continue  # "the most likely cause is B. cereus"
            if _IF_AFTER.match(text, match.end()):
                continue  # "the answer would be A if the question asks about screening": an answer for one case
            yield _letter_statement(text, match, option_texts, LABELLED)


def _letter_with_text(text: str, option_texts: Mapping[str, str]) -> Iterator[Statement]:
    """"…是B：胸部CT", "… is C: <text>": a letter named by the sentence's verb with its own option text; "the most
    characteristic marker is CA 19-9 (option B)", "最可靠的指标是血清铁蛋白（C）", "I would recommend <text> (option A)": an
    option's text (or, after a superlative or a recommendation, its own words for it) with its letter in brackets, as
    what the question asks; "…points to hypertrophic cardiomyopathy, option C.": a sentence ending with a text and its
    letter. A letter given with another option's text names neither."""
    for match in _ASKED_TEXT_LETTER.finditer(text):
        letter, named = match.group(2), option_by_text(match.group(1), option_texts)
        sentence = sentence_at(text, match.start(), match.end())
        head = text[match.start() : match.start(1)]
        before = sentence[: max(sentence.find(match.group(0)), 0)]
        if (re.search(NOT_IT, head + " " + " ".join(match.group(1).split()[:3])) or re.search(r"\b(?i:if|unless|avoid|avoided)\b", head)
                or re.search(r"\b(?i:if|unless)\b", before)):
            continue  # "The answer is not amiodarone (option A)", "First-line if unstable: cardioversion (C)", "If he had …, the diagnosis is …"
        if named == letter or (named is None and not _NAMES_OTHERS.search(match.group(1))
                               and {m.group(1) for m in _BRACKETED_LETTER.finditer(sentence)} == {letter}):
            yield Statement(letter, LABELLED, sentence)  # "the most appropriate next step is IV sodium bicarbonate (D)"
        elif named is not None:
            yield Statement(None, LABELLED, sentence, f"{CONFLICT}: {letter} with the text of {named}")
    for match in _ASKED_OWN_TEXT_ZH.finditer(text):
        if option_by_text(match.group(1), option_texts) == match.group(2) and not _RULED_OUT.search(sentence_at(text, match.start(), match.end())):
            yield Statement(match.group(2), LABELLED, sentence_at(text, match.start(), match.end()))
    for match in _ASKED_TEXT_LETTER_ZH.finditer(text):
        letter, named = match.group(2), option_by_text(match.group(1), option_texts)
        sentence = sentence_at(text, match.start(), match.end())
        if _RULED_OUT.search(sentence):
            continue
        why = f"{CONFLICT}: {letter} with the text of {named}" if named not in (None, letter) else ""
        yield Statement(None if why else letter, LABELLED, sentence, why)
    for match in _TEXT_COMMA_OPTION.finditer(text):
        pair = _text_and_letter(text, match)
        if pair is None:
            continue
        letter, words, sentence = pair
        ends = _options_ending(words, option_texts)
        if not ends and not any(_holds(words, clean_text(option)) for other, option in option_texts.items() if other != letter):
            ends = [letter]  # "The answer is glaucoma, option E.": a shortened name, no other option's text
        if ends:
            why = _disagree(letter, ends)
            yield Statement(None if why else letter, LABELLED, sentence, why)
    for match in _IS_LETTER_TEXT.finditer(text):
        letter = match.group(1)
        if _RULED_OUT.search(_sentence_before(text, match.start())):
            continue  # "可以排除的是A：HBV", "the first option is A: Fever"
        rest = _UNTIL_SENTENCE_END.match(text, match.end())
        named = option_by_text(rest.group(0) if rest else "", option_texts)
        if named == letter or (named is None and _own_tail(rest.group(0) if rest else "", letter, option_texts)):
            yield Statement(letter, LABELLED, sentence_at(text, match.start(), match.end()))


#: a line heading the answer: "Diagnosis", "Final answer:", "Most likely diagnosis", "答案", "诊断："
_ANSWER_HEADING = re.compile(r"^\s*(?:(?i:(?:final\s+|most\s+likely\s+)?(?:answer|diagnosis|conclusion|impression))|答案|诊断|结论|最可能的诊断)\s*[:：]?\s*$")


def _under_an_answer_heading(text: str, match: re.Match[str]) -> bool:
    """Whether a text and letter found with no verb before them, alone on their line ("Aortic stenosis (E)"), open the
    reply or stand under an answer heading ("Diagnosis"), not under "Key differential:" (True when a verb led them)."""
    line_start = text.rfind("\n", 0, match.start(1)) + 1
    if text[line_start : match.start(1)].strip():
        return True
    before = [line for line in text[:line_start].split("\n") if line.strip()]
    return not before or _ANSWER_HEADING.match(before[-1]) is not None


def _text_and_letter(text: str, match: re.Match[str]) -> tuple[str, str, str] | None:
    """A text (group 1) and the letter (group 2) it is given with: the letter, the cleaned words and their sentence;
    None when the sentence rules something out ("not", "unlikely", "排除")."""
    sentence = sentence_at(text, match.start(), match.end())
    if _RULED_OUT.search(sentence) or re.search(NOT_IT, sentence):
        return None
    return match.group(2), clean_text(match.group(1)), sentence


def _disagree(letter: str, ends: Sequence[str]) -> str:
    """The reason a letter goes unread beside the options whose text its words end with ("" when its own is among them)."""
    return "" if letter in ends else f"{CONFLICT}: {letter} with the text of {ends[0]}"


def _text_letter_pairs(text: str, option_texts: Mapping[str, str]) -> Iterator[Statement]:
    """"the drug responsible is amiodarone (B)", "highly suggestive of psoriasis vulgaris (option D)", "功能是主运化（E）":
    an option's text after a verb, with its letter in brackets. Reasoning names options so too ("the definitive
    treatment is emergent hemodialysis (D). However, …"), so these answer only a reply that commits to nothing else;
    a sentence naming two options so names several, and a letter after another option's text names neither; a reply that
    brackets the letters of several options here and there ("ultrasonography (A) … a pertechnetate scan (C) is used to
    …") picks none of them."""
    pairs = list(_pairs(text, option_texts))
    paired = {s.value for s in pairs}
    beside = {m.group(1) for m in _BRACKETED_LETTER.finditer(text) if m.group(1) not in paired
              and not _WEIGHS.search(said := sentence_at(text, m.start(), m.end())) and not _RULED_OUT.search(said)}
    if pairs and all(s.value is not None for s in pairs) and beside:
        return  # another option bracketed in a sentence that does not set it aside: no pick
    yield from pairs


def _pairs(text: str, option_texts: Mapping[str, str]) -> Iterator[Statement]:
    """Each text-and-letter pair of ``_text_letter_pairs``, read as it stands."""
    for match in _TEXT_THEN_OWN_LETTER.finditer(text):
        pair = _text_and_letter(text, match)
        if pair is None or _CONDITION.match(pair[2]) or not _under_an_answer_heading(text, match):
            continue  # also "If there are signs of perforation → emergency laparotomy (B)": one case, not the answer
        letter, words, sentence = pair
        ends = _options_ending(words, option_texts)
        if not ends:
            continue
        others = {m.group(1) for m in _BRACKETED_LETTER.finditer(sentence)} - {letter}
        why = f"{SEVERAL} named with their letters: {letter}, {', '.join(sorted(others))}" if others else _disagree(letter, ends)
        yield Statement(None if why else letter, OPTION_TEXT, sentence, why)


def _sentence_before(text: str, start: int) -> str:
    """The part of the sentence (or line) that comes before ``text[start]``."""
    left = max((m.end() for m in _SENTENCE_BREAK.finditer(text, 0, start)), default=0)
    return text[left:start]


def _ruled_out_before(text: str, start: int) -> bool:
    """Whether the words before a text in its clause rule it out, or its sentence sets a condition ("If the headache had
    not improved, …", "Should MAP stay below 65 despite fluids, …"); a "not" of an earlier clause ("Since the headache
    has not improved, the next step would be <text>") rules nothing out."""
    before = _sentence_before(text, start)
    clause = re.split(r"[,;，；]", before)[-1]
    return bool(_RULED_OUT.search(clause) or (_CONDITION.match(before) and _RULED_OUT.search(before)) or _IF.match(before))


#: a sentence opening with a condition that the answer depends on ("If …", "Should MAP stay below 65, …", "Were the
#: patient stable, …"; not "When a patient presents so, the diagnosis is …")
_IF = re.compile(r"\s*(?:(?i:if|unless|in\s+case)\b|如果|若|假如|(?i:should|were|had)\s+(?!(?i:be|have)\b)\w+)")
#: words before an answer noun that weigh another case ("could suggest cystic fibrosis, where the gene is CFTR", "In cystic
#: fibrosis, by contrast, the affected gene is CFTR")
_WEIGHED_BEFORE = re.compile(r"\b(?i:could|might|suggests?|by\s+contrast|in\s+contrast|whereas|unlike|where|for\s+comparison)\b")


def _named_by_text(text: str, option_texts: Mapping[str, str]) -> Iterator[Statement]:
    """Options named by their text: a line or Chinese sentence that is an option's text (several such list
    options without a pick), an opening sentence that is one (``_opening_text``), a Chinese superlative clause ending
    with one (``_superlative_clauses``), a text after "the answer is" / "最可能的诊断是" and the other ``_TEXT_SPANS``
    (with a bracketed letter, it must be that option's), and a statement whose whole object is one
    (``_EXACT_TEXT_SPANS``)."""
    texts = {clean_text(t) for t in option_texts.values()}
    lines = {option_by_text(line, option_texts) for line in re.split(r"[\n。]", text) if clean_text(line) in texts}
    lines.discard(None)
    if len(lines) > 1:
        yield Statement(None, OPTION_TEXT, text, f"{SEVERAL} listed without a pick: " + ", ".join(sorted(str(x) for x in lines)))
        return
    opening = _opening_text(text, option_texts)
    if opening:
        yield opening
    yield from _superlative_clauses(text, option_texts)
    for pattern in _TEXT_SPANS:
        for match in pattern.finditer(text):
            letter = option_by_text(match.group(1), option_texts) or _with_commas(text, match.start(1), option_texts)
            if not letter or _ruled_out_before(text, match.start(1)) or _WEIGHED_BEFORE.search(re.split(r"[;；]", _sentence_before(text, match.start()))[-1]):
                continue
            sentence = sentence_at(text, match.start(), match.end())
            bracketed = _TEXT_THEN_LETTER.search(match.group(1))
            listed = _NEXT_IN_LIST.match(text, match.end())
            if listed and option_by_text(listed.group(1), option_texts) not in (None, letter):
                yield Statement(None, OPTION_TEXT, sentence, f"{SEVERAL} named in a row")  # "…是残气量增加，肺总量增加，…"
            elif bracketed and bracketed.group(1) != letter:
                yield Statement(None, OPTION_TEXT, sentence, f"{CONFLICT}: the text of {letter} with {bracketed.group(1)}")
            else:
                yield Statement(letter, OPTION_TEXT, sentence)
    for pattern in _EXACT_TEXT_SPANS:
        for match in pattern.finditer(text):
            letter = _whole_text(match.group(1), option_texts)  # "Ursodeoxycholic acid (ursodiol) is the first-line …"
            if letter:
                yield Statement(letter, OPTION_TEXT, sentence_at(text, match.start(1), match.end(1)))


_COMMAS = re.compile(r"[,，、\s]")


def _with_commas(text: str, start: int, option_texts: Mapping[str, str]) -> str | None:
    """The option whose text, commas included, the rest of the sentence from ``start`` opens with ("…最有意义的是"回纳疝块
    后压住深环，增加腹压时疝块是否再突出"", when that whole text is one option's): only options whose text holds a comma."""
    rest = re.match(r"[^\n。;；]*", text[start:])
    with_commas = {letter: t for letter, t in option_texts.items() if re.search("[,，、]", t)}
    if not rest or not with_commas:
        return None
    found = option_by_text(rest.group(0), option_texts) if option_by_text(rest.group(0), with_commas) else None
    # "回纳疝块后压住深环，增加腹压，观察疝块是否突出" for "回纳疝块后压住深环，增加腹压观察疝块是否突出": commas aside
    bare = {letter: _COMMAS.sub("", t) for letter, t in with_commas.items()}
    said = _COMMAS.sub("", rest.group(0))
    return found or next((letter for letter, t in bare.items() if clean_text(said) == clean_text(t)), None)


def _opening_text(text: str, option_texts: Mapping[str, str]) -> Statement | None:
    """A reply whose first sentence is one option's whole text ("Right coronary artery. Inferior leads …",
    "45,X — this is Turner syndrome", "Vitamin B6 (pyridoxine).") names its answer — unless that sentence rules
    it out ("<text> — incorrect") or another sentence is another option's text too (options discussed one by one
    without letters)."""
    sentences = _TEXT_SENTENCE_BREAK.split(text)
    letter = _whole_text(sentences[0], option_texts)
    if letter is None or re.search(NOT_IT, sentence_at(text, 0, len(sentences[0]))):
        return None
    others = {_whole_text(s, option_texts) for s in sentences[1:]}
    return Statement(letter, OPTION_TEXT, sentences[0]) if others <= {letter, None} else None


def _whole_text(sentence: str, option_texts: Mapping[str, str]) -> str | None:
    """The option whose whole text the sentence is, alone or with another name for it in brackets ("Vitamin B6
    (pyridoxine)", "Pyridoxine (vitamin B6)"); None when it is no option's, or the two names are two options'."""
    texts = {clean_text(t): letter for letter, t in option_texts.items() if clean_text(t)}
    for text, letter in list(texts.items()):  # "Dual-energy x-ray absorptiometry (DXA) of the hip" named without "(DXA)"
        if (inner := _INNER_ASIDE.sub(" ", text)) != text:
            texts.setdefault(" ".join(inner.split()), letter)
    # an option "Breslow thickness (depth of invasion)" is named by its names swapped, or by its first name when no
    # other option starts with it ("Vitamin B12 (oral)" and "Vitamin B12 (intramuscular)" share theirs)
    for text, letter in list(texts.items()):
        named = NAME_AND_ASIDE.match(text)
        if named is None or re.search(NOT_IT + r"|\b(?i:or|and|vs)\b", text):
            continue
        texts.setdefault(f"{named.group(2)} ({named.group(1)})", letter)
        if sum(other.startswith(named.group(1)) for other in texts) == 1:
            texts.setdefault(named.group(1), letter)
    whole = _LETTER_ASIDE.sub("", clean_text(sentence))  # "Oral clindamycin (B) is …": the letter is no other name
    whole = _ARTICLE.sub("", whole) if whole not in texts else whole  # "The substantia nigra pars compacta — …"
    if whole not in texts and (suffix := re.search(_ZH_SUFFIX.pattern + "$", whole)):
        whole = whole[: suffix.start()]  # "HBeAg阳性。"
    if whole not in texts:  # "Glucose-6-phosphatase deficiency (von Gierke disease)" names the enzyme
        whole = re.sub(r"\s+deficiency(?=\s*(?:\(|$))", "", whole)
    if whole not in texts and (reordered := _same_words(whole, texts)):
        return reordered  # "Methotrexate (intramuscular)." for "Intramuscular methotrexate"
    aside = NAME_AND_ASIDE.match(whole)
    if whole in texts or not aside:
        return texts.get(whole)
    names = {clean_text(aside.group(1)), clean_text(aside.group(2))}
    letters = {texts[name] for name in names if name in texts}
    if len(letters) != 1:
        return None
    letter = letters.pop()
    others = "|".join(re.escape(t) for t, other in texts.items() if other != letter)
    for name in names - set(texts):  # the other name: no other option in it, nothing ruled out, no "or"
        if (others and re.search(rf"(?<![\w.])(?:{others})(?![\w])", name)) or re.search(NOT_IT + r"|\b(?i:or|and|vs)\b", name):
            return None
    return letter


_WORD = re.compile(r"[\w-]+")


#: words a reordered name may add or leave out: "posterior dislocation of the hip" for "Posterior hip dislocation"
_SMALL = frozenset({"of", "the"})


def _same_words(sentence: str, texts: Mapping[str, str]) -> str | None:
    """The one option whose text has the sentence's words in another order, brackets aside (two words or more)."""
    words = sorted(w for w in _WORD.findall(sentence) if w not in _SMALL)
    same = {letter for text, letter in texts.items() if len(words) > 1 and sorted(w for w in _WORD.findall(text) if w not in _SMALL) == words}
    return same.pop() if len(same) == 1 else None


def _superlative_clauses(text: str, option_texts: Mapping[str, str]) -> Iterator[Statement]:
    """A Chinese clause that asks the question's superlative and ends with one option's whole text after a verb
    ("类风湿关节炎最常累及<text>", "最常见于<text>"): it names that option (never in a clause that rules it out)."""
    texts = {letter: t for letter, option in option_texts.items() if len(t := clean_text(option)) >= 2}
    for raw in ZH_CLAUSE.split(text):
        clause = clean_text(raw)
        top = clause.find("最")
        if top < 0 or _RULED_OUT.search(clause):
            continue
        ends = [
            letter for letter, t in texts.items()
            if clause.endswith(t) and len(clause) - len(t) > top + 1 and clause[-len(t) - 1] in _ZH_VERB_ENDS
            and not re.search("[不非未无]", clause[: -len(t)])  # "最不常累及<text>"
        ]
        if ends:
            yield Statement(max(ends, key=lambda letter: len(texts[letter])), OPTION_TEXT, raw)


def says_none_is_right(text: str, option_texts: Mapping[str, str]) -> Statement | None:
    """"None of the above", "以上都不对": the reply answers that no option is right — unless an option
    itself says that, in which case it is that option's text and read as such."""
    match = _NONE_OF_THEM.search(text)
    if match is None or any(_NONE_OF_THEM.search(t) or clean_text(t).startswith("none of") or "以上都" in t for t in option_texts.values()):
        return None
    return Statement(None, LABELLED, sentence_at(text, match.start(), match.end()), f"{NONE_RIGHT} is right, says the reply")


def without_option_list(text: str, option_texts: Mapping[str, str]) -> str:
    """The reply without any copy of the whole option list (every option in a row, each with its own text:
    "A: 面瘫\tB: 面部潮红\t…"). A model that echoes the question writes the list after "Options:" /
    "选项：", which read as an answer label ("选项：A") without this; a reply listing *some* options with
    their texts ("A: Fever\nC: Rash") is answering, and is left alone. A model looping on the list is cut off
    by the token limit inside a copy: once a whole copy was found, the list's first options that end the reply (a last
    letter without its text too, or a new copy's first letter alone) go as well, and so do the list's last options
    when they open the reply (a loop caught mid-list)."""
    texts = {letter: t for letter, option in option_texts.items() if (t := option.strip())}
    if len(texts) < 2 or not all(t in text for t in texts.values()):
        return text  # no copy of the list can be there: the pattern is built only for replies that may hold one
    items = [rf"[(\[]?{re.escape(letter)}[)\]]?(?:\s*[:.)、]\s*|\s+){re.escape(t)}" for letter, t in texts.items()]
    text, copies = re.subn(r"[\s;,，；]*".join(items), "\n", text)
    if copies:  # the cut-off copy: its first options, maybe a last letter without its text, end the reply
        letters = list(texts)
        for n in range(len(items) - 1, 0, -1):
            tail = rf"(?:[\s;,，；]*[(\[]?{re.escape(letters[n])}[)\]]?[:.)、]?[ \t]*[^\s;,，；]*)?"  # "… D.18" cut in "18天"
            text, cut = re.subn(r"[\s;,，；]*".join(items[:n]) + tail + r"[\s;,，；]*$", "\n", text)
            if cut:
                break
        # a new copy cut off after its first letter, or inside its text ("…本题的答案是：\nA.", "答案：\nA. 实际无病者"): no answer
        cut_copy = re.search(rf"\n[ \t]*[(\[]?{re.escape(letters[0])}[)\]]?[:.)、]?[ \t]*([^\n]*)$", text)
        if cut_copy and texts[letters[0]].startswith(cut_copy.group(1).strip()):
            text = text[: cut_copy.start()] + "\n"
        for n in range(1, len(items)):  # a loop caught mid-list: the list's last options open the reply
            text, cut = re.subn(r"^[\s;,，；]*" + r"[\s;,，；]*".join(items[n:]) + r"[\s;,，；]*", "\n", text)
            if cut:
                break
    return text


def walks_through_options(text: str) -> bool:
    """The reply repeats the option list or judges the options one by one ("选项A：…。选项B：…", "A: no. B: yes.",
    "A 艾滋病：乙类\nB 流行性感冒：丙类\nC …")."""
    heads = {m.group(1) or m.group(2) for m in _OPTION_HEAD.finditer(text)}
    line_heads = {m.group(1) or m.group(2) for m in _LINE_HEAD.finditer(text)}
    return (
        echoes_options(text, numbered=True) or len(heads) >= 2 or len(line_heads) >= 2 or len(set(_JUDGED_INLINE.findall(text))) >= 2
        or len(set(_LETTER_LINE.findall(text))) >= 3 or len(set(_LETTER_ITEM.findall(text))) >= 3
        or len({m.group(1) for m in _MARKED_INLINE.finditer(text)}) >= 2 or len(set(_SEGMENT_HEAD.findall(text))) >= 3
    )


_NUMBERED_LINE = re.compile(r"\s*[1-5]\s*[).:]")
#: a segment of an inline walk through the options, opened by its letter(s) and text: "；D 幻触——少见"
_SEGMENT_HEAD = re.compile(r"(?:^|[；;])\s*([A-E])(?:[、,]\s*[A-E])*[ \t]+[^\s；;]")


def _bare_line(line: str, option_texts: Mapping[str, str]) -> str | None:
    """The letter of a line that is only a letter and its own option's text ("B. Hypercalcemia")."""
    match = re.match(r"\s*[(\[]?([A-E])[)\]]?[ \t]*[:.)、]?[ \t]*", line)
    own = clean_text(option_texts.get(match.group(1), "")) if match else ""
    return match.group(1) if own and clean_text(line[match.end() :]) == own else None


def _heads_alone(lines: Sequence[str], option_texts: Mapping[str, str]) -> bool:
    """The reply opens with a line that is only a letter and its option's text, and no other line is one: the
    answer, before an explanation that goes through the other options ("**B. Hypercalcemia**\n\n… Why not the
    others?\n- A. Hypocalcemia – …")."""
    return (
        _bare_line(lines[0], option_texts) is not None and not any(_bare_line(line, option_texts) for line in lines[1:])
        and len({line.strip()[:1] for line in lines if _renumbered(line, option_texts)}) < 2  # not an option list renumbered
    )


def _renumbered(line: str, option_texts: Mapping[str, str]) -> bool:
    """Whether a line is an option's text under a number ("2) Warfarin"), not a numbered step ("1. **Induction** …")."""
    number = _NUMBERED_LINE.match(line)
    return number is not None and option_by_text(line[number.end() :], option_texts) is not None


#: a line of a walk ending with its option judged right, or wrong, in words
_JUDGED_RIGHT = re.compile(r"(?<![不])(?:正确|\b(?i:correct))\s*[。.!！]?\s*$")
_JUDGED_WRONG = re.compile(r"(?:错误|不\w{0,2}正确|\b(?i:incorrect|wrong|not\s+(?:\w+\s+)?correct))\s*[。.!！]?\s*$")


def _marked_pick(text: str) -> Statement | None:
    """Options gone through one per line, each marked: the one line with a check mark (or ending "正确" / "correct")
    is the pick when no other line is ("A 抗菌治疗：仅为辅助 ❌ … D 及时足量补液：治疗关键 ✅", "…E. 科萨科夫综合征：…，正确。")."""
    checked, crossed, lines = set(), set(), {}
    for match in _LETTER_LINE.finditer(text):
        line = lines[match.group(1)] = text[match.start() : text.find("\n", match.start()) % (len(text) + 1)]
        checked |= {match.group(1)} if re.search(f"[{CHECK_MARKS}]", line) or _JUDGED_RIGHT.search(line) else set()
        crossed |= {match.group(1)} if re.search(f"[{CROSS_MARKS}]", line) or _JUDGED_WRONG.search(line) else set()
    picks = checked - crossed
    if len(picks) != 1 or len(checked) != 1:
        return None
    pick = picks.pop()
    return Statement(pick, FINAL, lines[pick])


_LOOP_CLAUSE = re.compile(r"[\n。；;，,.!?！？]")
_WORDLIKE = re.compile(r"[a-z0-9]|[\u4e00-\u9fff]")
#: an answer label or a letter around an option's text in a clause ("answer: b. adenocarcinoma", "产热增加超过散热 b")
_LETTERED = re.compile(r"^\s*(?:(?:final\s+)?answer|so|答案|故选|选)?\s*[:：]?\s*(?:[a-e](?![a-z0-9])\s*)?|\s+[a-e]\s*$")


def _loops_over_options(text: str, option_texts: Mapping[str, str]) -> bool:
    """Clauses naming two different options each written three times or more, a clause written so that names an option
    in other words than its own text ("肝内血行转移至肺" ×5), or a reply that is mostly options' texts, one of them
    three times or more (``_mostly_names``), in a reply naming two options' texts or more: a model
    looping (cut off by the token limit) commits to nothing ("A. 产热增加超过散热 B. 散热障碍 A. 产热增加超过散热 B. …";
    not "Incorrect." closing each option of an analysis, nor an answer restated: "Answer: B. Adenocarcinoma … So: B.
    Adenocarcinoma … Final answer: B. Adenocarcinoma")."""
    clauses = [clean_text(c) for c in _LOOP_CLAUSE.split(text) if len(c.strip()) >= 4]
    names = {letter: name for letter, t in option_texts.items() if (name := clean_text(t))}
    repeated = {c: {letter for letter, name in names.items() if name in c} for c in set(clauses) if clauses.count(c) >= 3}
    looped = set().union(*repeated.values()) if repeated else set()
    garbled = any(letters and _LETTERED.sub("", c).strip() not in names.values() for c, letters in repeated.items())
    folded = clean_text(text)
    # "心肌有自律性，心肌是功能合胞体，" ×6: a cycle of clauses, one an option's, making up most of the reply
    cycle = len(repeated) >= 2 and bool(looped) and sum(clauses.count(c) for c in repeated) >= 0.8 * len(clauses)
    return cycle or (len(looped) >= 2 or garbled or _mostly_names(folded, list(names.values()))) and sum(1 for name in names.values() if name in folded) >= 2


def _mostly_names(folded: str, names: Sequence[str]) -> bool:
    """A reply that is mostly options' texts, one of them three times or more ("答案是B 血肌酐250μmol/L 血钾6.8mmol/L
    血钾5.6mmol/L 血钾6.8mmol/L 血钾6.8mmol/L …"): a loop written without punctuation."""
    if not any(folded.count(name) >= 3 for name in names):
        return False
    rest = folded
    for name in sorted(names, key=len, reverse=True):
        rest = rest.replace(name, " ")
    words = _WORDLIKE.findall(folded)
    return bool(words) and len(_WORDLIKE.findall(rest)) <= len(words) * 0.4


def answers_other_questions(text: str) -> bool:
    """One numbered answer per line ("1. B\\n2. C"): the reply answers a list of questions, not ours."""
    return len(_NUMBERED_ANSWER.findall(text)) >= 2


#: the sentence after an answer letter: up to "。", a full stop before a space, or a line break
_NEXT_SENTENCE = re.compile(r"\s*[。.]?\s*([^\n。]+?)\s*(?:[。]|\.(?:\s|$)|\n|$)")


#: "阿托品不能缓解的是肌肉震颤，所以选C", "…指不拒绝实际上不成立的H₀，答案A", "…= 18%，所以选C", "子痫抽搐首选硫酸镁，答案为A": the question
#: restated and answered by a text, then a letter in the same sentence
_TEXT_THEN_CHOICE = re.compile(
    r"(?:(?:(?<![不非才也还都又])是|指|即|=)\s*([^\n。;；，,=]+?)\s*[，,]\s*(?:(?:所以|因此|故)\s*(?:选|答案(?:是|为)?)|答案(?:是|为)?)"
    r"|首选\s*([^\n。;；，,]+?)\s*[，,]\s*(?:所以|因此|故)?\s*(?:选|答案(?:是|为)?))\s*:?\s*([A-E])(?![A-Za-z0-9])"
)


#: a question asking for what to avoid: "禁用的药物是", "Which should be avoided"
_AVOID_ASKED = re.compile(r"禁用|禁忌|禁止|避免|慎用|\b(?i:avoid(?:ed)?|contraindicated)\b")


def _text_then_choice(text: str, option_texts: Mapping[str, str], question: str | None) -> list[Statement]:
    """A letter chosen right after the reply names another option's whole text as the answer in the same sentence (not
    after 首选 when the question asks for what is not first: "…孕期禁用；孕期降压首选拉贝洛尔，故答案为D" to "…禁用的药物是")."""
    not_first = asks_for_exception(question) or (question is not None and _AVOID_ASKED.search(re.split(r"[，,。；;]", stem_of(question).strip(" ：:（）()"))[-1]) is not None)
    found = []
    for match in _TEXT_THEN_CHOICE.finditer(text):
        if not_first and match.group(2):
            continue
        span = match.group(1) or match.group(2)
        named, letter = option_by_text(span, option_texts) or _by_bare_text(span, option_texts), match.group(3)
        clause = re.split(r"[，,]", text[: match.start()])[-1]
        if asks_for_exception(question) and not re.search("不|非|除|错|没有|无|答案", clause + match.group(0)):
            continue  # "…最后一期是溶解消散期，故选E" to "下列哪项不是…": a true item, listed, not the answer
        own = clean_text(option_texts.get(letter, "")) or "\0"
        if any(own in clean_text(part) and not re.search("只|仅|不|非|无|没", part) for part in re.split(r"[，,]", sentence_at(text, match.start(), match.end()))):
            continue  # "…最先出现血清铁降低，然后才是血红蛋白降低，故选A": a clause gives the letter's own text too (not "地西泮只能镇静")
        if named not in (None, letter) and not (_RULED_OUT.search(clause) or re.search("误|容易|除外|排除|鉴别", clause)):
            found.append(Statement(None, LABELLED, sentence_at(text, match.start(), match.end()), f"{CONFLICT}: {letter} with the text of {named}"))
    return found


def _other_text_next(text: str, found: Sequence[Statement], option_texts: Mapping[str, str]) -> list[Statement]:
    """The letter's sentence followed by one that is only another option's whole text ("答案：B。系统性红斑狼疮。" when
    that is D): the letter and the text disagree, so the reply commits to neither."""
    letters = {s.value for s in found if s.value is not None}
    if len(letters) != 1:
        return []
    (letter,) = letters
    last = max((at + len(s.sentence) for s in found if s.value is not None and (at := text.rfind(s.sentence)) >= 0), default=-1)
    after = _NEXT_SENTENCE.match(text, last) if last >= 0 else None
    other = _whole_text(after.group(1), option_texts) if after else None
    return [Statement(None, LABELLED, after.group(1), f"{CONFLICT}: {letter} with the text of {other}")] if other not in (None, letter) else []


#: a sentence that weighs an option against others rather than judging it right: "本例需与急性胆囊炎（即选项B）鉴别"
_WEIGHED_ZH = re.compile(r"鉴别|排除|不考虑|不符合|除外")
#: a line that opens with several letters ("A、B、C 均为…"), bullet aside
_LETTERS_OPEN = re.compile(r"[\s\-*•]*[A-E](?:\s*[、,，和与及]\s*[A-E])+(?![A-Za-z0-9])")


def letter_statements(
    text: str, option_texts: Mapping[str, str], *, exclude_before: re.Pattern[str] | None = None, question: str | None = None
) -> list[Statement]:
    """Every statement of one option in a cleaned reply. ``exclude_before`` skips labelled letters
    whose preceding text matches it (a revision reply quoting "Alice's answer is D").

    Besides the opening, a later line that starts with an option ("D", "C: text") is an answer
    statement too — unless the reply labels its answer somewhere, in which case such lines are taken
    for the explanation of the options. Statements that judge an option while reasoning ("option C is
    correct") count only when the reply commits to nothing else; when it does, its commitments are read
    as its ``final statement``. With our ``question``, an option named after the letter by another superlative than
    the question's is a fact beside it ("答案：B … 肝性脑病是肝硬化最严重的并发症" to "…最常见的并发症是"), not another answer."""
    text = _FIRST_THOUGHT.sub(lambda thought: " " * len(thought.group(0)), without_option_list(text, option_texts))
    if answers_other_questions(text):
        return [Statement(None, LABELLED, text, f"{OTHER_QUESTION}: numbered answers to several questions")]
    if _loops_over_options(text, option_texts):
        return [Statement(None, LABELLED, text, f"{SEVERAL}: the reply loops over them")]
    wrong_asked = asks_for_exception(question)
    if wrong_asked and (both_wrong := _SEVERAL_WRONG.search(text)):  # "下列…错误的是" → "故C、D均错误"
        return [Statement(None, LABELLED, sentence_at(text, both_wrong.start(), both_wrong.end()), f"{SEVERAL} called wrong")]
    labelled = [*_labelled(text, option_texts, exclude_before), *_letter_with_text(text, option_texts), *_closing_bracket(text, option_texts),
                *_closing_dash(text, option_texts), *_closing_option(text, option_texts), *_which_is_option(text, option_texts),
                *_glossed_answer(text, option_texts), *_closing_comma_letter(text, option_texts),
                *([] if wrong_asked else _closing_verdict(text, option_texts))]
    if not labelled:  # "Best next diagnostic step: A. Blood cultures" beside "Answer: D" is a step on the way, not the answer
        labelled = _headed_answer(text, option_texts)
    beside = [s for s in labelled if s.value is not None and str(s.value) in option_texts and not re.search(r"答案|选|(?i:answer)", _clause_of(s.sentence, str(s.value)))
              and _asks_another_thing(s, question, option_texts, chinese_only=True, text=text)]
    if beside and len(beside) < sum(s.value is not None for s in labelled):  # "最易嵌顿的是股疝（D），最常见的是腹股沟斜疝（A）。…选D"
        labelled = [s for s in labelled if s not in beside]
    answered_at = min((text.find(s.sentence) for s in labelled if s.value is not None and re.search("答案|选", s.sentence)), default=-1)
    if answered_at >= 0:  # "答案：C …\nA、B均为被动转运": after the answer, a line grouping other options describes them
        labelled = [s for s in labelled if s.value is not None or not _LETTERS_OPEN.match(s.sentence) or text.find(s.sentence) < answered_at
                    or re.search("正确|答案|对|可以|可选", s.sentence)]
    judging = [s for s in _labelled(text, option_texts, exclude_before, _JUDGING_LETTER) if not _WEIGHED_ZH.search(s.sentence)]
    walk = walks_through_options(text)
    if labelled and (judging or walk):
        if walk and any(s.value for s in labelled):  # "逐项分析：\n- A、B、C 均为腹膜炎的体征 … 最终答案：D": a line of the walk
            answer_at = max(text.rfind(s.sentence) for s in labelled if s.value)  # (not "答案：A\n\nA、C 均为正确答案")
            labelled = [s for s in labelled if s.value is not None or not _LETTERS_OPEN.match(s.sentence) or text.rfind(s.sentence) > answer_at]
        labelled = [Statement(s.value, FINAL, s.sentence, s.why) for s in labelled]
    elif not walk:
        labelled += judging  # "E项正确。" alone; "A项正确，B项错误" judges options and answers nothing
    lines = text.split("\n")
    found = []
    for i in range(1 if labelled else len(lines)):
        if walk and (_OPTION_LINE.match(lines[i]) or _LETTER_LINE.match(lines[i])) and not (i == 0 and _heads_alone(lines, option_texts)):
            continue  # a line of the repeated option list, not an answer
        if labelled and _OPTION_HEAD.match(lines[i]):
            continue
        if i and (_WALK_ANNOUNCED.search("\n".join(lines[:i])) or re.search(r"[:：]\s*$", lines[i])):
            # "Let's go through the options:\n\nA. <text> — …" analyses one option; a line ending with ":" heads
            # what follows ("A. 眼外肌：" in a reply cut off there): neither answers
            continue
        start = _start("\n".join(lines[i:]) if i == 0 else lines[i], option_texts, wrong_asked=wrong_asked)
        found += [start] if start else []
    found += labelled
    if walk and not found:
        found += [pick] if (pick := _marked_pick(text)) else []
    if not any(s.value for s in found):
        found += _text_letter_pairs(text, option_texts)
    if not any(s.value for s in found):
        found += [s for s in _named_by_text(text, option_texts)
                  if not (s.value and (_NOTE.search(s.sentence) or _asks_another_thing(s, question, option_texts, chinese_only=True, text=text)))]
    elif not walk:  # a letter, then (in its sentence or after it) an answer named by another option's text: no commitment
        # ("【答案】A …首选丙硫氧嘧啶", "答案是B，即18%"); reasoning before the letter weighs the options and may name
        # others ("肝性脑病是…最严重的并发症 … 答案：B")
        letters = {s.value for s in found}
        last = max(text.rfind(s.sentence) for s in found)
        named = [s for s in _named_by_text(text, option_texts) if s.value is not None and _named_after(text, s, last, letters, option_texts)
                 and not _LETTERS_ONLY.fullmatch(clean_text(option_texts[str(s.value)])) and not _NOTE.search(s.sentence)
                 and not _asks_another_thing(s, question, option_texts, text=text)]
        if not any(s.value in letters for s in named):
            found += [s for s in named if s.value not in letters]
        found += _other_text_next(text, found, option_texts) + _text_then_choice(text, option_texts, question)
    found = after_retraction(text, found)
    found += _computed_against(text, found, option_texts)
    accepted = _BOTH_ACCEPTED.search(text)
    answered_before = wrong_asked and any(s.value is not None and text.find(s.sentence) < accepted.start() for s in found) if accepted else False
    if accepted is not None and not answered_before and not any(s.value is not None and _stands_after(text, s, accepted.end()) for s in found):
        found.append(Statement(None, LABELLED, sentence_at(text, accepted.start(), accepted.end()), f"{HEDGED}: no single answer, says the reply"))
    if (declined := _NO_SINGLE_ANSWER.search(text)) is not None:
        found.append(Statement(None, LABELLED, sentence_at(text, declined.start(), declined.end()), f"{HEDGED}: no single answer, says the reply"))
    none = says_none_is_right(text, option_texts)
    return found + [none] if none else found


#: a line that is one calculation and its result: "Specificity = TN / (TN + FP) = 270 / 300 = 90%" (no commas, no list)
_CALCULATION_LINE = re.compile(r"^[ \t]*[^\s,;:，；：\-*•\n][^,;:，；：\n]*=[ \t]*([^=,;:，；：()（）\n]{1,20}?)[ \t]*[.。]?[ \t]*$")


def _computed_against(text: str, found: Sequence[Statement], option_texts: Mapping[str, str]) -> list[Statement]:
    """The calculation on the line just before the answer, when its result is another option's text ("Specificity =
    270 / 300 = 90%\n\nThe answer is C." when 90% is D): the reply computed one answer and named another, so it
    commits to neither (a line of several results "for reference" is no such calculation)."""
    letters = {s.value for s in found}
    if len(letters) != 1 or None in letters:
        return []
    answer = min(start for s in found if (start := text.rfind(s.sentence)) >= 0) if found else -1
    lines = [line for line in text[: max(answer, 0)].split("\n") if line.strip()]
    result = _CALCULATION_LINE.match(lines[-1]) if lines else None
    computed = option_by_text(result.group(1), option_texts) if result else None
    if computed is None or computed in letters:
        return []
    return [Statement(None, OPTION_TEXT, lines[-1], f"{CONFLICT}: the calculation gives {computed}")]


#: a superlative, by its first word: 最常见 / 最常累及 -> "常", 首选, "most likely" -> "likely", "commonest", "first-line"
_SUPERLATIVE = re.compile(r"最\s*([\u4e00-\u9fff])|(首选)|\b(?i:most|least)\s+([a-z]+)|\b(?i:(commonest|leading|first[-\s]line|best))\b")
#: superlatives that ask the same: 最多见 is 最常见, 最佳 and 最适合 are 最好, "commonest" and "leading" are "most common",
#: 首选 is "first-line"
_SAME_SUPERLATIVE = {"多": "常", "佳": "好", "适": "好", "容": "易", "commonest": "common", "leading": "common", "first line": "first-line", "首选": "first-line"}
_CLAUSE_OF_TEXT = re.compile(r"[，,；;]")


def superlative(text: str) -> str | None:
    """The first superlative in a text, in one spelling ("…最常见的并发症是" -> "常"), or None."""
    found = _SUPERLATIVE.search(text)
    if found is None:
        return None
    word = _SAME_SUPERLATIVE.get(word := next(group for group in found.groups() if group).lower(), word)
    if word == "易":  # "最易嵌顿" and "最容易复发" ask different things: the next character says which
        after = re.match(r"(?:容易|易)\s*([\u4e00-\u9fff])", text[found.start(1) :])
        return "易" + after.group(1) if after else word
    return word


@functools.lru_cache(maxsize=1024)
def asked_superlative(question: str | None) -> str | None:
    """The superlative our question asks by ("" when it asks by none), or None when the question is unknown."""
    return None if question is None else superlative(stem_of(question)) or ""


def _asks_another_thing(
    statement: Statement, question: str | None, option_texts: Mapping[str, str], *, chinese_only: bool = False, text: str = ""
) -> bool:
    """Whether the clauses naming the statement's option ask by other superlatives than our question, never by its own
    ("肝性脑病是肝硬化最严重的并发症" when we asked for the commonest): a fact beside our question. ``chinese_only``
    counts only Chinese superlatives (最 + one character is a reliable mark; English ones vary too much to compare where
    no letter was given). The commonest answers a question on the likeliest, unless its whole sentence in ``text`` turns
    ("急腹症中最常见的是急性阑尾炎，但本例…": a statement of a clause holds only "急腹症中最常见的是急性阑尾炎")."""
    asked = asked_superlative(question)
    if asked is None:
        return False
    sentence, name = clean_text(statement.sentence), clean_text(option_texts[str(statement.value)])
    said = {superlative(clause) for clause in _CLAUSE_OF_TEXT.split(sentence) if name in clause} - {None}
    whole = _zh_sentence_of(text, statement.sentence) if text else statement.sentence
    if asked == "可" and not re.search("但|然而|不过|(?<![因从进])而(?!且)", whole):
        said.discard("常")  # "最常见的病理类型为…" answers "最可能的病理类型是" (not "…最常见的是X，但本例…")
    if chinese_only:  # and only against a question that asks by a superlative itself
        said = {word for word in said if word and CJK.search(word)} if asked else set()
    return bool(said) and asked not in said


def _zh_sentence_of(text: str, part: str) -> str:
    """The whole sentence (to "。", "！", "？" or a line break, not a decimal point) of ``text`` that holds ``part``."""
    at = text.find(part)
    if at < 0:
        return part
    start = max((m.end() for m in re.finditer(r"[。！？!?\n]", text[:at])), default=0)
    end = re.search(r"[。！？!?\n]", text[at + len(part) :])
    return text[start : at + len(part) + (end.start() if end else len(text))]


def _clause_of(sentence: str, letter: str) -> str:
    """The clause of a sentence that holds a letter ("腹外疝中最常见的是腹股沟斜疝（A）" of "…（A），但最易嵌顿的是股疝，选D")."""
    return next((c for c in _CLAUSE_OF_TEXT.split(sentence) if re.search(r"(?<![A-Za-z])" + letter + r"(?![A-Za-z])", c)), sentence)


#: a bracketed letter closing the reply's last sentence, a short one: "Wernicke encephalopathy. Give thiamine first (A)."
_CLOSING_BRACKET = re.compile(r"(?:^|(?<=[.!?]\s)|(?<=\n))[ \t]*((?:[^\s.!?()]+[ \t]+){0,4}[^\s.!?()]+)[ \t]*[(\[]([A-E])[)\]]\s*[.!]?\s*$")
_ENDS_IN_BRACKET = re.compile(r"[)\]]\s*[.!]?\s*$")
_BRACKETED = re.compile(r"[(\[]([A-E])[)\]]")
#: a sentence that weighs rather than answers: "Aortic dissection would need a tearing pain (E)."
_WEIGHS = re.compile(NOT_IT + r"|\b(?i:would|could|might|if|unless|need|needs|consider|than)\b")
#: an option letter standing alone (not the B of "HLA-B27", "B12" or "D-dimer")
STANDALONE_LETTER = re.compile(r"(?<![A-Za-z0-9-])[A-E](?![A-Za-z0-9-])")


#: "… the most common malignant testicular tumor of young children — E." (or "— option E."): a dash and a letter closing the reply's last
#: sentence (never one ruling out: "Aortic dissection is unlikely — E.")
_DASH_BEFORE_LETTER = r"(?:\s-|\s?[–—→])\s*(?:(?i:option|choice|answer)\s+)?"
_ENDS_IN_DASH_LETTER = re.compile(_DASH_BEFORE_LETTER + r"[A-E]\s*[.!]?\s*$")
_CLOSING_DASH = re.compile(r"(?:^|(?<=[.!?]\s)|(?<=\n))(?:(?!" + NOT_IT + r")[^\n.!?])*?" + _DASH_BEFORE_LETTER + r"([A-E])\s*[.!]?\s*$")


def _closing_dash(text: str, option_texts: Mapping[str, str]) -> list[Statement]:
    """The letter after a dash closing the reply (the pattern runs only on replies that end so: it is slow elsewhere)."""
    match = _CLOSING_DASH.search(text) if _ENDS_IN_DASH_LETTER.search(text) else None
    return [_letter_statement(text, match, option_texts, LABELLED)] if match else []


#: a line that only calls one option right: "E is correct.", "Correct: B", "Option C is the right answer."
_VERDICT_LINES = (
    r"(?i:correct|right)\s*:\s*(?:(?i:option)\s+)?[(\[]?([A-E])[)\]]?",
    r"(?:(?i:option)\s+)?[(\[]?([A-E])[)\]]?\s+(?i:is\s+(?:the\s+)?(?:correct|right)(?:\s+(?:answer|option|choice))?)",
)
#: such a line, anywhere in the reply (the one closing it is the answer)
_VERDICT_LINE = tuple(re.compile(r"^[ \t]*" + p + r"[ \t]*[.!]?[ \t]*$", re.MULTILINE) for p in _VERDICT_LINES)


#: "…——奇脉。选项C。": "option C" alone, closing the reply
_CLOSING_OPTION = re.compile(r"(?:^|(?<=[。！？\n]))\s*选项\s*" + _ITEM + r"\s*[。.]?\s*$")


def _closing_option(text: str, option_texts: Mapping[str, str]) -> list[Statement]:
    """The option a reply's last sentence names alone ("选项C。"), when the reply names no other by "选项" (not the last
    of a list: "需鉴别：\n选项A\n选项C")."""
    match = _CLOSING_OPTION.search(text)
    if match is None or len(set(re.findall(r"选项\s*([A-E])", text))) != 1:
        return []
    return [_letter_statement(text, match, option_texts, LABELLED)]


#: a reply ending with a comma and a letter: "幼年时甲状腺激素缺乏会导致侏儒症，A。"
_CLOSING_COMMA_LETTER = re.compile(r"[，,][ \t]*([A-E])[ \t]*[。.!！]?\s*$")


def _closing_comma_letter(text: str, option_texts: Mapping[str, str]) -> list[Statement]:
    """The letter closing a reply after a comma, with the clause before it naming options' texts: its own alone (read),
    or another's (the two disagree); nothing when the clause names none, or negates, sets aside or offers another."""
    tail = len(text) - 12
    match = _CLOSING_COMMA_LETTER.search(text, max(0, tail))  # only the reply's last characters can hold it
    if match is None:
        return []
    cut = max(text.rfind(mark, 0, match.start()) for mark in "\n。，,；;")
    clause, letter = clean_text(text[cut + 1 : match.start()]), match.group(1)
    if re.search("不|非|排除|鉴别|误|或", clause):
        return []  # "…不是侏儒症，A。": the clause weighs, it does not name the answer
    named = {other for other, t in option_texts.items() if len(name := clean_text(t)) >= 2 and name in clause}
    named -= {other for other in named if any(clean_text(option_texts[other]) in clean_text(option_texts[o]) for o in named if o != other)}
    if not named:
        return []
    sentence = sentence_at(text, match.start(1), match.end(1))
    return [Statement(letter, LABELLED, sentence) if named == {letter} else Statement(None, LABELLED, sentence, f"{CONFLICT}: {letter} with the text of {min(named)}")]


#: "…, which is option A.": the letter of what the sentence just named
_WHICH_IS_OPTION = re.compile(r"\b(?i:which|this|that)\s+(?i:is|corresponds\s+to)\s+(?i:option|choice|answer)\s+" + _ITEM + _SENTENCE_ENDS)
#: a sentence that weighs or sets aside what it names ("argues against myasthenia, which is option A", "would suggest
#: botulism, which is option C"), or one the next sentence turns from ("However, …")
_WEIGHS_NAMED = re.compile(NOT_IT + r"|\b(?i:against|would|could|might|suggests?|jump|tempting|trap|distractor)\b")
_TURNS_NEXT = re.compile(r"\s*(?i:however|but|yet|though|still)\b")


def _which_is_option(text: str, option_texts: Mapping[str, str]) -> list[Statement]:
    """"…, so the diagnosis is Guillain-Barré syndrome, which is option B.": the letter of what the sentence named, when
    the sentence neither weighs it nor sets it aside and the next one does not turn from it."""
    found = []
    for match in _WHICH_IS_OPTION.finditer(text):
        sentence = sentence_at(text, match.start(), match.end())
        after = text[text.find(sentence) + len(sentence) :].lstrip(".;!? \n")
        if not _WEIGHS_NAMED.search(sentence) and not _TURNS_NEXT.match(after):
            found.append(_letter_statement(text, match, option_texts, LABELLED))
    return found


#: "The most appropriate test is B (胃镜+活检).": what the question asks, a letter and a gloss in brackets (checked)
_ASKED_GLOSSED = re.compile(_ASKED_IS + _ITEM + r"\s*[(（]([^()（）\n]{1,40})[)）]")
#: what a gloss may not hold: another option or a hedge
_GLOSS_OFFERS_MORE = re.compile(r"\b(?i:or|maybe|possibly|not|vs)\b|(?<![A-Za-z])[A-E](?![A-Za-z])|或|还是|也|可能")


def _glossed_answer(text: str, option_texts: Mapping[str, str]) -> list[Statement]:
    """The letter of what the question asks, glossed in brackets by words of its own option ("The most appropriate test is
    B (胃镜+活检)" for 胃镜检查及活检): two of its Chinese character pairs, or one of its longer English words (not "is
    E (HEV)" for hepatitis E, nor "Child-Pugh class is C (score 14)": a letter that is a name, glossed by other words)."""
    found = []
    for m in _ASKED_GLOSSED.finditer(text):
        gloss, own = m.group(2), option_texts.get(m.group(1), "")
        words = {w for w in re.findall(r"[a-z]{4,}", clean_text(gloss))} & {w for w in re.findall(r"[a-z]{4,}", clean_text(own))}
        if not _GLOSS_OFFERS_MORE.search(gloss) and (len(bigrams(gloss) & bigrams(own)) >= 2 or words) and not _IF_AFTER.match(text, m.end()):
            found.append(_letter_statement(text, m, option_texts, LABELLED))
    return found


#: "Treatment: E. Ventriculoperitoneal shunt": a heading of what is asked, a letter and (checked) its own text
_HEADED = re.compile(r"(?:^|(?<=\n))[ \t]*(?i:treatment|management|therapy|(?:best\s+)?next\s+(?:best\s+)?(?:diagnostic\s+|management\s+)?step|intervention)\s*:\s*" + _ITEM + r"[.:)][ \t]+([^\n]+)")


def _headed_answer(text: str, option_texts: Mapping[str, str]) -> list[Statement]:
    """The letter under a heading of what is asked when its own option's text follows it, not ruled out ("Treatment: E.
    Ventriculoperitoneal shunt"; not "Management: A. Secure the airway", the ABC of a trauma survey; not "Next diagnostic
    step: A. Blood cultures — not needed"); read only where no other rule found a labelled answer."""
    return [_letter_statement(text, m, option_texts, LABELLED) for m in _HEADED.finditer(text)
            if clean_text(m.group(2)).startswith(clean_text(option_texts.get(m.group(1), "")) or "\0") and not re.search(NOT_IT, m.group(2))]


def _closing_verdict(text: str, option_texts: Mapping[str, str]) -> list[Statement]:
    """The option a last line calls right, alone on it ("…\n\nE is correct."): after a walk through the options, the
    reply's conclusion, not one more judged option."""
    lines = [m for pattern in _VERDICT_LINE for m in pattern.finditer(text)]
    found = [_letter_statement(text, m, option_texts, LABELLED) for m in lines if not text[m.end() :].strip()]
    judged = {m.group(1) for pattern in _JUDGING_LETTER for m in pattern.finditer(text)} | {m.group(1) for m in lines}
    return found if len(judged | {s.value for s in found}) == 1 else []  # not "A is correct.\nD is correct."


def _closing_bracket(text: str, option_texts: Mapping[str, str]) -> list[Statement]:
    """"Give thiamine first (A).", "Uric acid (B).": a bracketed letter closing the reply's last sentence, a plain one of
    five words at most, when it is the one letter the reply writes (never in a sentence that rules out or weighs: "… is
    unlikely (B).", "Aortic dissection would need a tearing pain (E).")."""
    match = _CLOSING_BRACKET.search(text) if _ENDS_IN_BRACKET.search(text) else None
    if match is None or _WEIGHS.search(match.group(1)) or len(set(STANDALONE_LETTER.findall(text))) != 1:
        return []
    bracket = _BRACKETED.match(text, match.start(2) - 1)
    return [_letter_statement(text, bracket, option_texts, LABELLED)] if bracket else []


def _named_after(text: str, named: Statement, last: int, letters: set[object], option_texts: Mapping[str, str]) -> bool:
    """Whether an option named by its text stands after the reply's last answer letter: in a later sentence, or in the
    letter's own sentence after the letter ("答案是B，即18%"; not "IgM是分子量最大的…，所以选B")."""
    start = text.find(named.sentence)
    if start > last:
        return True
    if start < last:
        return False
    said = named.sentence.find(option_texts[str(named.value)])
    return said < 0 or all(said > named.sentence.rfind(str(letter)) for letter in letters)


def after_retraction(text: str, found: list[Statement]) -> list[Statement]:
    """A reply that takes back what it said ("The answer is A. … wait, actually that is not correct. … So the
    correct answer is B.") answers with what follows the last retraction; what came before is given up, also
    when nothing follows (then there is no answer). "Wait, let me reconsider." takes back only when an answer follows it
    and the reply does not keep its first ("my answer stands")."""
    last = max((m.end() for m in _RETRACTION.finditer(text)), default=-1)
    weak = max((m.end() for m in _RECONSIDERED.finditer(text)), default=-1) if _MAY_RECONSIDER.search(text) else -1
    if weak > last and not _KEPT.search(text, weak) and any(s.value is not None and _stands_after(text, s, weak) for s in found):
        last = weak
    return [s for s in found if _stands_after(text, s, last)]


def _stands_after(text: str, statement: Statement, last: int) -> bool:
    """Whether a statement stands after ``text[last]``: its sentence starts there, or (one sentence holding the
    retraction and the new answer: "不对，更正一下：正确答案是B") its answer is named after it."""
    start = text.find(statement.sentence)
    end = start + len(statement.sentence)
    if start >= last:
        return True
    return end > last and (statement.value is None or all(letter in text[last:end] for letter in _letters(statement.value)))


def nothing_found(what: str) -> str:
    """What ``decide`` says of a reply in which no rule found an answer of its kind ("no option found")."""
    return f"no {what} found"


#: ``decide``'s reason for an MCQ reply in which no rule found an option
NO_OPTION_FOUND = nothing_found("option")
#: words of degree that hedge a verdict ("partially true") but describe a fact beside a letter ("C. HBV has a partially
#: double-stranded DNA genome")
_DEGREE = re.compile(r"\b(?i:partially|partly|mostly|somewhat)\b(?!\s+(?i:sure|certain|confident|convinced))")
#: what ``decide`` reads when the answer is a verdict: two different ones are both verdicts
_VERDICTS = ("verdict", "yes/no answer")


#: a conclusion after an explaining clause: "When ACE is inhibited, bradykinin accumulates …, so the answer is D" answers
#: for the case at hand (not "If …, the answer is C")
_WHEN_CONCLUDES = re.compile(r"\s*(?i:when)\b[^.!?\n]*?,\s*(?i:so|therefore|thus|hence)\s+(?:the\s+)?(?i:answer|correct\s+answer)\b")


def decide(statements: Sequence[Statement], options: Sequence[str], what: str = "option", text: str = "") -> Reading:
    """One reading from the answer statements of ``text``, or the reason there is none (its first words
    one of ``medprobe.parsing.reading.UNREAD_KINDS`` where it is one of those). The strongest rule that
    found the answer names the family (bare > leading > labelled > final statement > option text > implied)."""
    if not statements:
        return Reading(None, UNPARSED, f"{HEDGED}, no committed answer" if hedged(text[:300]) else nothing_found(what))
    unread = [s for s in statements if s.value is None]
    if unread:
        why = next((s.why for s in unread if s.why), "")
        several = BOTH_VERDICTS if what in _VERDICTS else SEVERAL
        return Reading(None, UNPARSED, why or f"{several} in one answer")
    if any(hedged(_DEGREE.sub("", s.sentence) if what == "option" else s.sentence) or (_CONDITION.match(s.sentence) and not _WHEN_CONCLUDES.match(s.sentence))
           for s in statements):
        return Reading(None, UNPARSED, f"{HEDGED} answer")  # also "如果考的是…，则应选B": an answer for one case
    values = {s.value for s in statements}
    if len(values) > 1:
        kind = BOTH_VERDICTS if what in _VERDICTS else DIFFERENT
        return Reading(None, UNPARSED, f"{kind}: " + "; ".join(sorted(_show(v) for v in values)))
    (value,) = values
    if options and not set(_letters(value)) <= set(options):
        return Reading(None, UNPARSED, f"{_show(value)} is not among the options")
    order = (BARE, LEADING, LABELLED, FINAL, OPTION_TEXT, IMPLIED)
    return Reading(value, min((s.rule for s in statements), key=order.index))


def _letters(value: object) -> list[str]:
    return sorted(value) if isinstance(value, frozenset) else [str(value)]


def _show(value: object) -> str:
    return ",".join(_letters(value))


#: a lower-case letter after an answer label: "Answer: (c)" ending its line (not "The correct answer is a", cut off), or
#: after 答案 anywhere ("综上，正确答案是 c。", "【答案】c")
_LOWER_CASE_ANSWER = re.compile(
    r"(?m:^)([ \t]*(?i:(?:final\s+|correct\s+)?answer)[ \t]*:[ \t]*[(\[]?)([a-e])(?=[)\]]?[ \t]*[.]?[ \t]*(?m:$))"
    r"|((?:正确|最终)?答案[ \t]*[】\]]?[ \t]*(?:是|为|应为|选)?[ \t]*[:：]?[ \t]*[(（]?)([a-e])(?=[ \t]*(?:$|[)）。.，,;；!！\s]))"
)


def read_option_letter(text: str, option_texts: Mapping[str, str], options: Sequence[str], question: str | None = None) -> Reading:
    """A cleaned chat reply to a one-answer MCQ -> its letter (see the module docstring); with our ``question``, an
    option named after the answer by another superlative than the question's is no other answer. A lower-case letter
    is read only after an answer label (``_LOWER_CASE_ANSWER``): elsewhere "a" is a word."""
    text = _LOWER_CASE_ANSWER.sub(lambda m: (m.group(1) or m.group(3)) + (m.group(2) or m.group(4)).upper(), text)
    return decide(letter_statements(text, option_texts, question=question), options, text=text)


# --- sets -------------------------------------------------------------------------------------------------


def _set_of(chunk: str) -> frozenset[str]:
    return frozenset(_SET_LETTER.findall(re.sub(r"(?i:option|choice)s?", "", chunk)))


def _set_statement(text: str, match: re.Match[str], group: int, rule: str) -> Statement:
    several = _SET_OR.match(text, match.end(group)) is not None
    return Statement(None if several else _set_of(match.group(group)), rule, sentence_at(text, match.start(), match.end()))


def _set_start(text: str, option_texts: Mapping[str, str]) -> Statement | None:
    """A set of letters at the start of the reply, the whole reply ("A, C", "AC"), or one letter (and
    its option text) per line."""
    bare = _TRAILING.sub("", text.strip())
    if _CONCATENATED.fullmatch(bare):
        return Statement(frozenset(bare), BARE, text)
    lines = [line for line in text.split("\n") if line.strip()]
    if len(lines) > 1:
        per_line = [_start(line, option_texts) for line in lines]
        if all(s is not None and s.rule == BARE for s in per_line):
            return Statement(frozenset(str(s.value) for s in per_line if s), BARE, text)
    match = re.match(r"\s*(" + _SET + ")", text)
    if not match:
        return None
    rest = text[match.end() :]
    if not clean_text(rest):
        return _set_statement(text, match, 1, BARE)
    if _LIST_GOES_ON.match(rest):
        return Statement(None, LEADING, text.split("\n", 1)[0])  # "D, FALLS": the list names something that is no option
    correct = r"\s+(?i:are|is)\s+(?:the\s+)?(?i:correct|right|true)|\s*(?:都|均)?(?:是)?(?:正确|对)"
    if _AFTER_LEADING.match(rest) or re.match(correct, rest) or _SET_OR.match(rest):
        return _set_statement(text, match, 1, LEADING)
    return None


def _set_by_text(text: str, option_texts: Mapping[str, str]) -> Statement | None:
    """The whole reply (or a labelled span) lists option texts: "Fever, rash and cough"."""
    for span in [text, *(m.group(1) for p in _TEXT_SPANS for m in p.finditer(text))]:
        pieces = [p for p in re.split(r"\s*(?:,|，|、|;|；|\band\b|和|及)\s*", clean_text(span)) if p]
        letters = [option_by_text(piece, option_texts) for piece in pieces]
        if pieces and all(letters) and "\n" not in span.strip():
            return Statement(frozenset(str(x) for x in letters), OPTION_TEXT, span)
    return None


def read_letter_set(text: str, option_texts: Mapping[str, str], options: Sequence[str]) -> Reading:
    """A cleaned chat reply to a multiple-answer question -> its set of letters. "All of the above" is
    every option (``implied``); "A or C" and hedges are unreadable."""
    echoed = echoes_options(text)
    text = without_option_list(text, option_texts)
    found = [] if echoed else [s for s in [_set_start(text, option_texts)] if s]
    for pattern in _LABELLED_SET:
        found += [_set_statement(text, m, 1, LABELLED) for m in pattern.finditer(text)]
    everything = _ALL_OPTIONS.search(text)
    if everything:
        found.append(Statement(frozenset(options or option_texts), IMPLIED, sentence_at(text, everything.start(), everything.end())))
    if not any(s.value for s in found):
        by_text = _set_by_text(text, option_texts)
        found += [by_text] if by_text else []
    none = says_none_is_right(text, option_texts)
    return decide(found + [none] if none else found, options, "option set", text)
