"""The MultifacetEval release format (MultiMedQA): ``{MCQ,RQ,MAQ,TFQ}/{test,dev,dev_cot}.json``.

Layouts (REFERENCE_METHODS §1.2), one JSON list per file, items in the same id order:
  MCQ [id, q, gold]                          RQ  [id, q_T, q_F, ["T", gold], ["F", gold]]
  MAQ [id, q_pos, q_neg, gold_pos, gold_neg] TFQ [id, s1, s2, s3, s4, l1, l2, l3, l4]
with s2/s4 the negations of s1/s3. dev.json holds the five fixed demos; dev_cot.json the same
with rationales. ``entry_questions`` is shared with the importer of the reference scripts'
result files, whose lines are these items followed by the model's replies.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from medprobe.errors import MedprobeError
from medprobe.jsonl import read_json
from medprobe.methods.multifacet.questions import TASKS, Demo, Question
from medprobe.parsing.reference_option_letter import maq_options, mcq_options, rq_options
from medprobe.records import AnswerFormat
from medprobe.sources.checks import same_ids, unique_ids

LETTERS = ["A", "B", "C", "D", "E"]
#: fields of a test item before any replies
ITEM_FIELDS = {"MCQ": 3, "RQ": 5, "MAQ": 5, "TFQ": 9}
_GIVEN = re.compile(r"Alice's answer: ([A-E])\.")


def _bad(path: Path, index: int, what: str, field: str | None = None) -> MedprobeError:
    return MedprobeError(f"item {index}: {what}", file=path, field=field or f"[{index}]")


def _letter(value: Any, path: Path, index: int, field: str) -> str:
    if value not in LETTERS:
        raise _bad(path, index, f"expected an option letter A-E, got {value!r}", field)
    return value


def _tf(value: Any, path: Path, index: int, field: str) -> bool:
    if value not in ("T", "F"):
        raise _bad(path, index, f"expected 'T' or 'F', got {value!r}", field)
    return value == "T"


def _text(value: Any, path: Path, index: int, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _bad(path, index, "expected question text", field)
    return value


def _letters(value: Any, path: Path, index: int, field: str) -> list[str]:
    if not isinstance(value, list) or not value:
        raise _bad(path, index, "expected a non-empty list of letters", field)
    return sorted({_letter(v, path, index, field) for v in value})


def entry_questions(task: str, entry: list[Any], path: Path, index: int) -> list[Question]:
    """The questions of one test item (extra trailing fields, e.g. replies, are ignored)."""
    if not isinstance(entry, list) or len(entry) < ITEM_FIELDS[task]:
        raise _bad(path, index, f"a {task} item is a list of at least {ITEM_FIELDS[task]} fields")
    if isinstance(entry[0], bool) or not isinstance(entry[0], int | str):
        raise _bad(path, index, f"expected an id (integer or string), got {entry[0]!r}", f"[{index}][0]")
    kp = f"medqa-{entry[0]}"
    f = lambda k: f"[{index}][{k}]"  # noqa: E731 - field path for messages
    if task == "MCQ":
        text = _text(entry[1], path, index, f(1))
        fmt = AnswerFormat(kind="option_letter", options=LETTERS, option_texts=mcq_options(text))
        return [Question(kp, "MCQ", "base", False, text, _letter(entry[2], path, index, f(2)), fmt)]
    if task == "RQ":
        out = []
        for slot, variant, judge_field in ((1, "given_right", 3), (2, "given_wrong", 4)):
            text = _text(entry[slot], path, index, f(slot))
            label = entry[judge_field]
            if not (isinstance(label, list) and len(label) == 2):
                raise _bad(path, index, "expected [verdict, gold letter]", f(judge_field))
            given = _GIVEN.search(text)
            if given is None:
                raise _bad(path, index, "no \"Alice's answer: X.\" in the revision question", f(slot))
            gold = [_tf(label[0], path, index, f(judge_field)), _letter(label[1], path, index, f(judge_field))]
            fmt = AnswerFormat(kind="verdict_letter", options=LETTERS, option_texts=rq_options(text), given=given[1])
            out.append(Question(kp, "RQ", variant, False, text, gold, fmt))
        return out
    if task == "MAQ":
        out = []
        for slot, variant, gold_field, negated in ((1, "pos", 3, False), (2, "neg", 4, True)):
            text = _text(entry[slot], path, index, f(slot))
            letters = _letters(entry[gold_field], path, index, f(gold_field))
            fmt = AnswerFormat(kind="letter_set", options=LETTERS, option_texts=maq_options(text))
            out.append(Question(kp, "MAQ", variant, negated, text, letters, fmt))
        return out
    out = []
    for s in range(1, 5):
        text = _text(entry[s], path, index, f(s))
        label = _tf(entry[4 + s], path, index, f(4 + s))
        out.append(Question(kp, "TFQ", f"s{s}", s in (2, 4), text, label, AnswerFormat(kind="true_false")))
    return out


def _task_file(folder: Path, task: str, name: str) -> list[Any]:
    path = folder / task / name
    if not path.exists():
        raise MedprobeError(
            "missing file of the MultifacetEval release",
            file=path,
            hint="--data must be a folder with MCQ/, RQ/, MAQ/, TFQ/ each holding test.json and dev.json",
        )
    data = read_json(path)
    if not isinstance(data, list):
        raise MedprobeError("expected a JSON list of items", file=path)
    return data


def load_release(folder: Path) -> list[Question]:
    """All test questions, checked item by item; each file lists every id once, and the four files
    list the same ids."""
    questions: list[Question] = []
    ids: list[Any] | None = None
    for task in TASKS:
        path = folder / task / "test.json"
        items = _task_file(folder, task, "test.json")
        for index, item in enumerate(items):
            questions.extend(entry_questions(task, item, path, index))
        task_ids = [item[0] for item in items]
        unique_ids(task_ids, path)
        if ids is not None:
            same_ids(task_ids, ids, path, "MCQ/test.json")
        ids = task_ids
    return questions


def load_demos(folder: Path, cot: bool, k: int = 5) -> dict[tuple[str, bool], list[Demo]]:
    """The first ``k`` dev items as fixed demos, per task and polarity (REFERENCE_METHODS §1.2, §2.2)."""
    name = "dev_cot.json" if cot else "dev.json"
    demos: dict[tuple[str, bool], list[Demo]] = {}
    for task in TASKS:
        path = folder / task / name
        for index, one in enumerate(_task_file(folder, task, name)[:k]):
            for negated, demo in _dev_demos(task, one, cot, path, index):
                demos.setdefault((task, negated), []).append(demo)
    return demos


#: fields of a dev item, and how many rationales follow them in dev_cot.json
DEV_FIELDS = {"MCQ": (3, 1), "RQ": (3, 1), "MAQ": (5, 2), "TFQ": (5, 2)}


def _dev_demos(task: str, one: Any, cot: bool, path: Path, index: int) -> list[tuple[bool, Demo]]:
    """The demos of one dev item: MCQ [id, q, gold], RQ [id, q, [verdict, gold]], MAQ [id, q_pos, q_neg,
    gold_pos, gold_neg], TFQ [id, s_pos, s_neg, label_pos, label_neg]; in dev_cot.json each followed by
    the rationale of each question."""
    fields, rationales = DEV_FIELDS[task]
    width = fields + (rationales if cot else 0)
    if not isinstance(one, list) or len(one) < width:
        raise _bad(path, index, f"does not have the {task} {'dev_cot' if cot else 'dev'} layout (a list of at least {width} fields)")
    f = lambda k: f"[{index}][{k}]"  # noqa: E731 - field path for messages
    text = lambda k: _text(one[k], path, index, f(k))  # noqa: E731
    rationale = lambda k: text(fields + k) if cot else None  # noqa: E731
    if task == "MCQ":
        return [(False, Demo(text(1), _letter(one[2], path, index, f(2)), rationale(0)))]
    if task == "RQ":
        label = one[2]
        if not (isinstance(label, list) and len(label) == 2):
            raise _bad(path, index, "expected [verdict, gold letter]", f(2))
        gold = [_tf(label[0], path, index, f(2)), _letter(label[1], path, index, f(2))]
        return [(False, Demo(text(1), gold, rationale(0)))]
    if task == "MAQ":
        return [
            (False, Demo(text(1), _letters(one[3], path, index, f(3)), rationale(0))),
            (True, Demo(text(2), _letters(one[4], path, index, f(4)), rationale(1))),
        ]
    return [
        (False, Demo(text(1), _tf(one[3], path, index, f(3)), rationale(0))),
        (True, Demo(text(2), _tf(one[4], path, index, f(4)), rationale(1))),
    ]
