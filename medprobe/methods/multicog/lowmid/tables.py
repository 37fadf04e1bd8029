"""The in-memory MultiCogEval tables every source is turned into, and the questions they hold.

One table per task and dataset, one row per MCQ item, in the release layouts (REFERENCE_METHODS.md §1.1):

    MCQ [id, question, gold letter]
    SV  [id, true statement, false statement, "T", "F"]
    AE  [id, question with the gold option, question with it replaced by a distractor, 1, 0]
    MR  [id, question with Alice right, question with Alice wrong, ["T", gold], ["F", gold]]

The release's MedMCQA AE labels "T"/"F" are read by their meaning and stored as 1/0 (its MedQA file
already uses ints), so no later step can trip over the type difference (§4.4 item 2). Rows are checked
when read (``check_row``), with the file, line or list index and field of the first problem.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medprobe.errors import MedprobeError
from medprobe.gating import Gate
from medprobe.methods.multicog.lowmid.metrics import LEVEL_OF
from medprobe.methods.multifacet.templates import wording
from medprobe.parsing.reference_option_letter import mcq_options, rq_options
from medprobe.records import AnswerFormat, Probe

METHOD = "multicog"
#: fields of a row before any model replies (result files append the replies)
ITEM_FIELDS = {"MCQ": 3, "SV": 5, "AE": 5, "MR": 5}
#: the two questions of a row, in row order; the first is the "positive" one (polarity 0 in demos)
VARIANTS = {"MCQ": ("base",), "SV": ("true", "false"), "AE": ("present", "replaced"), "MR": ("given_right", "given_wrong")}
YES_NO = {"en": ("yes", "no"), "zh": ("是", "否")}
# An option label: "Options: A: ", "选项：A: " or a TAB before "B: ". Counting labels rather than reading
# option texts keeps the last option of 41 real MedQA items whose text runs into '\n"' (the reference's
# text regex misses it there).
_OPTION_LABEL = re.compile(r"(?:\t|[:：]\s?)([A-E]): ")
_ALICE = (re.compile(r"Alice's answer: ([A-E])"), re.compile(r"爱丽丝的答案[:：]\s*([A-E])"))


@dataclass
class Dataset:
    """One dataset's tables. ``tested`` holds the ids that are asked (None = all); the other rows are
    there to be drawn as demos."""

    name: str
    kind: str
    source: str
    language: str = "en"
    tables: dict[str, list[list[Any]]] = field(default_factory=dict)
    tested: set[Any] | None = None
    info: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    #: items of a task that could not be built (a generator's failed replies): ``unbuilt_record``s
    unbuilt: list[dict[str, Any]] = field(default_factory=list)
    #: the aspects a knowledge base's dataset asks (medprobe.gating); None for other sources
    gate: Gate | None = None

    @property
    def n_options(self) -> int | None:
        """The usual number of options of the dataset's questions (MedQA 5, MedMCQA 4), which sets the MCQ
        and MR baselines and the MR weight; None when no table has options (SV only)."""
        for task in ("MCQ", "MR", "AE"):
            counts = Counter(len(option_letters(row[1])) for row in self.tables.get(task, []))
            if counts:
                return counts.most_common(1)[0][0]
        return None


@dataclass(frozen=True)
class Question:
    """One question of one row; ``gold`` is a letter (MCQ), a bool (SV, AE) or [Alice right?, gold] (MR)."""

    dataset: str
    item: Any
    task: str
    variant: str
    text: str
    gold: Any
    fmt: AnswerFormat


@dataclass(frozen=True)
class Where:
    """Where a row came from, for error messages: a JSON list file (``index``) or a JSON-lines file (``line``)."""

    file: str | Path
    index: int | None = None
    line: int | None = None

    def error(self, what: str, slot: int | None = None) -> MedprobeError:
        prefix = f"[{self.index}]" if self.index is not None else ""
        where = f"item {self.index}: " if self.index is not None else ""
        return MedprobeError(where + what, file=self.file, line=self.line, field=f"{prefix}[{slot}]" if slot is not None else prefix or None)


def option_letters(question: str) -> list[str]:
    """The option letters of a question, A.. up to the first letter without a label."""
    found = set(_OPTION_LABEL.findall(question))
    letters: list[str] = []
    for letter in "ABCDE":
        if letter not in found:
            break
        letters.append(letter)
    return letters


def alice_letter(question: str) -> str | None:
    """The answer Alice proposes in an MR question (English or Chinese wording)."""
    for pattern in _ALICE:
        match = pattern.search(question)
        if match:
            return match.group(1)
    return None


def _text(row: list[Any], slot: int, where: Where) -> str:
    value = row[slot]
    if not isinstance(value, str) or not value.strip():
        raise where.error("expected question text", slot)
    return value


def _letter_in(question: str, value: Any, slot: int, where: Where) -> str:
    letters = option_letters(question)
    if not letters:
        raise where.error("no options ('A: …' after 'Options:' or a TAB) in the question", 1)
    if value not in letters:
        raise where.error(f"bad gold: expected one of the question's letters {''.join(letters)}, got {value!r}", slot)
    return value


def check_row(task: str, row: Any, where: Where) -> list[Any]:
    """A valid row of ``task`` (AE labels as 1/0; any fields after the layout are dropped)."""
    if not isinstance(row, list) or len(row) < ITEM_FIELDS[task]:
        raise where.error(f"a {task} row is a list of at least {ITEM_FIELDS[task]} fields (missing field)")
    if isinstance(row[0], bool) or not isinstance(row[0], int | str):
        raise where.error(f"expected an id (integer or string), got {row[0]!r}", 0)
    if task == "MCQ":
        question = _text(row, 1, where)
        return [row[0], question, _letter_in(question, row[2], 2, where)]
    first, second = _text(row, 1, where), _text(row, 2, where)
    labels = (row[3], row[4])
    if task == "SV":
        if labels != ("T", "F"):
            raise where.error(f'bad gold: expected labels "T", "F" (true statement first), got {list(labels)!r}', 3)
        return [row[0], first, second, "T", "F"]
    if task == "AE":
        if labels not in ((1, 0), ("T", "F")) or isinstance(labels[0], bool):
            raise where.error(f'bad gold: expected labels 1, 0 or "T", "F" (gold option present first), got {list(labels)!r}', 3)
        return [row[0], first, second, 1, 0]
    return [row[0], first, second, *_mr_labels(row, first, second, where)]


def _mr_labels(row: list[Any], right: str, wrong: str, where: Where) -> list[list[str]]:
    right_label, wrong_label = row[3], row[4]
    if not (isinstance(right_label, list) and isinstance(wrong_label, list) and len(right_label) == len(wrong_label) == 2):
        raise where.error('bad gold: expected ["T", gold] and ["F", gold]', 3)
    if right_label[0] != "T" or wrong_label[0] != "F" or right_label[1] != wrong_label[1]:
        raise where.error(f'bad gold: expected ["T", gold], ["F", gold], got {right_label!r}, {wrong_label!r}', 3)
    gold = _letter_in(right, right_label[1], 3, where)
    for slot, text, should_match in ((1, right, True), (2, wrong, False)):
        given = alice_letter(text)
        if given is None:
            raise where.error("no \"Alice's answer: X\" in the question", slot)
        if (given == gold) != should_match:
            raise where.error(f"Alice's answer {given} should {'' if should_match else 'not '}be the gold {gold}", slot)
    return [["T", gold], ["F", gold]]


def row_questions(task: str, row: list[Any], dataset: str, language: str) -> list[Question]:
    """The questions of a checked row, with their gold answers and answer formats."""
    item, texts = row[0], row[1 : len(VARIANTS[task]) + 1]
    if task == "MCQ":
        fmt = AnswerFormat(kind="option_letter", options=option_letters(texts[0]), option_texts=mcq_options(texts[0]), language=language)
        return [Question(dataset, item, task, "base", texts[0], row[2], fmt)]
    if task in ("SV", "AE"):
        fmt = AnswerFormat(kind="true_false" if task == "SV" else "yes_no", language=language)
        return [Question(dataset, item, task, v, t, i == 0, fmt) for i, (v, t) in enumerate(zip(VARIANTS[task], texts, strict=True))]
    gold = row[3][1]
    return [
        Question(
            dataset, item, task, variant, text, [i == 0, gold],
            AnswerFormat(kind="verdict_letter", options=option_letters(text), option_texts=rq_options(text), given=alice_letter(text), language=language),
        )
        for i, (variant, text) in enumerate(zip(VARIANTS[task], texts, strict=True))
    ]


def answer_text(question: Question) -> str:
    """A demo's answer, written as the reference writes it (§2.1): the letter; true/false; yes/no;
    "correct" / "incorrect, the correct answer is X" (Chinese: the project's Chinese words)."""
    w, gold = wording(question.fmt.language), question.gold
    if question.task == "MCQ":
        return str(gold)
    if question.task == "SV":
        return w.true if gold else w.false
    if question.task == "AE":
        yes, no = YES_NO[question.fmt.language]
        return yes if gold else no
    return w.correct if gold[0] else w.incorrect.format(gold[1])


def answer_label(language: str) -> str:
    return wording(language).answer_label


def question_probe(q: Question, prompt: str, repeat: int, n_options: int | None, demos: int) -> Probe:
    """The probe of one question in one repeat (each repeat has its own demos, hence its own probe)."""
    return Probe(
        id=f"{METHOD}/{q.dataset}/{q.task}/{q.item}/{q.variant}/r{repeat}",
        method=METHOD,
        knowledge_point=f"{q.dataset}:{q.item}",
        facet=q.task,
        variant=q.variant,
        language=q.fmt.language,
        prompt=prompt,
        gold=q.gold,
        answer_format=q.fmt,
        meta={"dataset": q.dataset, "repeat": repeat, "level": LEVEL_OF[q.task], "n_options": n_options, "demos": demos},
    )

