"""Hand-written reply forms for the reply corpus (tests/data/reply_corpus.jsonl), each with the reading a
careful reader takes from it.

Every form below was written by hand, with its expected reading, for one kind of reply that chat models
write: the answer alone, labelled, in JSON, behind invisible characters, after an option-by-option
analysis, in Chinese conclusion forms; and the replies that must stay unread (both verdicts, several
options, a letter with another option's text, none of the above, answers to other questions, hedges).
Each form is put to several questions (option sets and statements), for MultifacetEval and MultiCogEval
low/mid, in English and Chinese, so that a rule that only works for one wording or one option shows.

    .venv/bin/python scripts/reply_forms.py > /tmp/forms.jsonl   # records with ids form-0000 …

The corpus keeps the records; this script says where they came from and regenerates them in the same
order (the ids depend on it).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

#: a form: the reply for (X = the answer letter, Y, Z = two other letters, the option texts) and its reading
Form = tuple[str, Any]


@dataclass(frozen=True)
class Question:
    texts: dict[str, str]
    x: str
    y: str
    z: str

    def t(self, letter: str) -> str:
        return self.texts[letter]


EN_QUESTIONS = (
    Question({"A": "Fever", "B": "Bradycardia", "C": "Ovarian cancer", "D": "Hair loss", "E": "Night sweats"}, "C", "A", "E"),
    Question({"A": "Hemolytic transfusion reaction", "B": "Riboflavin", "C": "Cholesterol embolization", "D": "Dabigatran", "E": "Iron deficiency anemia"}, "D", "B", "A"),
    Question({"A": "Metformin", "B": "Insulin glargine", "C": "Sitagliptin", "D": "Glipizide"}, "A", "D", "B"),
    Question({"A": "Aortic dissection", "B": "Pulmonary embolism", "C": "Myocardial infarction", "D": "Pericarditis", "E": "Pneumothorax"}, "B", "C", "D"),
)
ZH_QUESTIONS = (
    Question({"A": "缺铁性贫血", "B": "巨幼细胞贫血", "C": "再生障碍性贫血", "D": "溶血性贫血", "E": "地中海贫血"}, "A", "C", "D"),
    Question({"A": "胸部X线", "B": "胸部CT", "C": "支气管镜", "D": "肺功能检查", "E": "痰培养"}, "B", "E", "A"),
    Question({"A": "药物治疗", "B": "放射治疗", "C": "手术治疗", "D": "化学治疗"}, "C", "A", "D"),
    Question({"A": "低血钾", "B": "高血钾", "C": "低血钠", "D": "高血钙", "E": "低血糖"}, "E", "B", "C"),
)
#: statements judged true/false: (the statement, with a negation in it)
EN_STATEMENTS = ("Aspirin is not indicated in Kawasaki disease", "Metformin does not cause lactic acidosis")
ZH_STATEMENTS = ("糖尿病不是遗传病", "阿司匹林不能用于川崎病")

_FULL = {c: chr(ord(c) + 0xFEE0) for c in "ABCDE"}


def _walk(q: Question, verdict: Callable[[str], str]) -> str:
    return "\n".join(f"{letter}. {text} - {verdict(letter)}" for letter, text in q.texts.items())


def en_letter(q: Question) -> Iterator[Form]:
    x, y, z, tx, ty, tz = q.x, q.y, q.z, q.t(q.x), q.t(q.y), q.t(q.z)
    yield from [
        (x, x), (f"{x}.", x), (f"**{x}**", x), (f"({x})", x), (f"Answer: {x}", x), (f"The answer is {x}.", x),
        (f"The correct answer is {x}: {tx}.", x), (f"{x}. {tx}", x), (f"{x}) {tx} - it explains every finding.", x),
        (f"I would choose {x}.", x), (f"Final answer: {x}", x), (f"**Answer: {x}**", x), (f"\\boxed{{{x}}}", x),
        (f"<think>{y} or {x}? {ty} does not fit.</think>\n{x}", x),
        # invisible characters
        (f"\u200b{x}", x), (f"\ufeff{x}", x), (f"\u00a0{x}", x), (f"Answer:\u00a0{x}", x), (f"The answer is \u200b{x}.", x),
        # structured answers
        (f'{{"answer": "{x}"}}', x), (f'{{"step_by_step_thinking": "{ty} does not fit; {tx} does.", "answer_choice": "{x}. {tx}"}}', x),
        (f'```json\n{{"answer": "{x}"}}\n```', x), (f'Answer: {{"choice": "{x}"}}', x), (f'{{"answer": "{tx}"}}', x),
        (f'{{"Final Answer": "{x}"}}', x),
        # text, and an enumerated restatement before it
        (f"The answer is {tx}.", x), (tx, x), (f"The most likely diagnosis is {x}: {tx}.", x),
        ("The options are " + " ".join(f"{i}) {t}" for i, t in enumerate(q.texts.values(), 1)) + f". The answer is {tx}.", x),
        ("\n".join(f"{i}) {t}" for i, t in enumerate(q.texts.values(), 1)) + f"\nThe answer is {tx}.", x),
        # options judged while reasoning, then a commitment
        (f"Option {y} is incorrect because it does not explain the findings. Option {x} is correct. The answer is {x}.", x),
        (f"Option {y}) {ty} seems to match what we need. However, on reflection, the final answer is {x}.", x),
        (f"Let's analyse each option:\n{_walk(q, lambda letter: 'fits' if letter == x else 'unlikely')}\nTherefore, the answer is {x}.", x),
        (f"so option {y} is incorrect. Option {z} is also correct in part. The answer is {x}.", x),
        # unread
        (f"{x} or {y}", None), (f"{x} / {y}", None), (f"- {tx}\n- {ty}\n- {tz}", None),
        (f"The correct answer is {x}: {ty}.", None), (f"The answer is {ty} ({x}).", None), (f"{x}. {ty}", None),
        ("The answer is none of the above.", None), ("None of the options is correct.", None),
        ('{"answer_choice": "None of the above"}', None),
        (f"I apologize for my previous response. Here are the answers:\n1. {x}\n2. {y}\n3. {z}", None),
        (f"Let's analyse each option:\n{_walk(q, lambda letter: 'possible')}", None),
        (f"Maybe {x}.", None), (f'{{"answer": "{x}", "final_answer": "{y}"}}', None),
        (f"Option {x} is correct. Option {y} is correct too.", None),
        (f"Answer: {x}\n\nQuestion: Which drug is first line?\nAnswer: {y}", x),
        (f"{x} is the answer. {y} is wrong.", x), (f"The right choice here is {tx} ({x}).", x),
        (f"I'm not sure, but I think it's {x}.", None), (f"The first option is {y}: {ty}, which is unlikely here.", None),
        (f"1. {y} is wrong because it does not fit\n2. {x} fits\nThe answer is {x}.", x), (f"The diagnosis is not {ty}.", None),
        (f"The answer is not {y}; it is {x}.", x), (f"Final answer: {y}\nWait, let me reconsider. Final answer: {x}", x),
        (f"The best answer is {x}, not {y}.", x),
        (f"{tx} ({x}) is the most likely diagnosis.", x), (f"{ty} ({x}) is the most likely diagnosis.", None), (f"[ANSWER] {x}", x),
        (f"{tx} is first line here; answer {x}.", x), (f"I'm going with {x}.", x),
        (f"This is {tx.lower()}.", x), (f"{tx} is the diagnosis.", x), (f"Most likely: {x}", x), (f"Final: {x}", x), (f"{tx} fits best. ({x})", x), (f"{tx} fits, making {x} the answer.", x), (f"The patient most likely has {x}.", x),
        (f"Findings → {tx.lower()} → {x}", x), (f"This is {tx.lower()}, not {ty.lower()}.", None), (f"{x} ({tx})", x), (f"Answer: {x}, because {ty} ({y}) does not fit.", x), ("\n".join(f"{k}) {t}" for k, t in q.texts.items()), None),
    ]


def zh_letter(q: Question) -> Iterator[Form]:
    x, y, z, tx, ty, tz = q.x, q.y, q.z, q.t(q.x), q.t(q.y), q.t(q.z)
    yield from [
        (x, x), (f"答案：{x}", x), (f"答案是{x}", x), (f"故选{x}", x), (f"综上，选 {x} 项", x), (f"正确答案为（{x}）", x),
        (f"选{x}。", x), (f"答案为：{x}", x), (f"正确选项：{x}、{tx}", x), (f"{x}项", x), (_FULL[x], x), (f"（{x}）", x),
        (f"答案：{_FULL[x]}", x), (f"{_FULL[x]}项", x), (f"最终答案：{x}", x), (f"应选{x}。", x), (f"答案：{x}（{tx}）", x),
        (f"综上，我认为最好的选择是{x}：{tx}。", x), (f"根据以上分析，最符合的表现是{x}：{tx}。", x),
        (f"该患者应首选的治疗是{x}：{tx}。", x), (f"……因此最可能的诊断是{tx}。", x), (f"综上所述，答案是{tx}。", x),
        (f"选项{y}：{ty}不符合。选项{z}：{tz}也不符合。选项{x}：{tx}是正确的叙述。所以，正确答案是{x}。", x),
        (f"选项{y}：……是正确的叙述。选项{z}：……也正确。……综上所述，选项{x}是错误的叙述。所以，正确答案是{x}。", x),
        (f'{{"答案": "{x}"}}', x), (f'{{"分析": "{ty}不符合", "answer": "{x}"}}', x), (f"\u200b答案：{x}", x),
        # unread
        (f"{x}、{y}都是正确的", None), (f"{x}、{y}、{z}都是正确的", None), (f"答案是{x}：{ty}", None),
        ("以上选项都不正确", None), ("没有正确选项", None), ("以上都不对", None), (f"可能是{x}", None),
        (f"{tx}\n{ty}\n{tz}", None), (f"{tx} {ty} {tx} {ty} {tx} {ty}", None), (f"1. {x}\n2. {y}\n3. {z}", None),
        (f"{x}或{y}", None), (f"选项{x}：{tx}……选项{y}：{ty}……", None),
        (f"答：{x}", x), (f"可以排除的是{y}：{ty}。", None), (f"鉴别诊断为{ty}。", None), (f"根据以上分析，最不常见的表现是{x}：{tx}。", x),
        (f"{y}项：正确。{x}项：错误。{z}项：错误。", None), (f"选项{y}说法正确，但本题问的是错误的，故选{x}。", x),
        (f"{x}项正确。", x), (f"{x}（{tx}）", x), (f"诊断考虑{tx}（{x}）。", x), (f"此患者为{tx}。", x), (f"正解：{x}", x), (f"选：{x}", x), (f"不考虑{ty}。", None), (f"答案是{x}（{ty}）", None), (f"{y}项正确，{x}项错误。", None),
        (f"应该是{x}。", x), (f"我觉得应该是{x}吧，但不太确定。", None), (f"{y}应该是错的，应该是{x}。", x), (f"{x}。解析：其余选项均不符合题意。", x), (f"正确答案是{x}，因为其余选项都不正确。", x),
    ]


def en_tf(statement: str) -> Iterator[Form]:
    yield from [
        ("True", True), ("False.", False), ("**False**", False), ("\u200bfalse", False), ("\u00adtrue", True), ("\ufeffFalse", False),
        ("\u00a0True", True), ("This statement is accurate.", True), ("That is correct.", True), ("The claim is untrue.", False),
        (f'The statement "{statement}" is false.', False), (f'The statement "{statement}" is true.', True),
        (f'"{statement}" is false.', False), (f'The claim "it is true that {statement.lower()}" is false.', False), (f"The statement “{statement}” is true.", True),
        ('{"answer": "false"}', False), ('{"answer": true}', True), ('{"verdict": "True", "explanation": "It is not false."}', True),
        ("Answer: False", False), ("The statement is incorrect.", False), ("False - the evidence shows otherwise.", False),
        ("True. The guideline supports it.", True), ("I'd say false.", False), ("That's wrong.", False), ("Statement: false.", False), ("Absolutely false.", False), ("Incorrect statement.", False), ("The above statement is False", False), ("No, this is not correct.", False),
        # unread
        ("True / False", None), ("true\nfalse\ntrue", None), ("True - it is often so / False - not always", None),
        ("It might be true.", None), ("1. True\n2. False", None), ("Partially true.", None), ('{"answer": "true", "verdict": "false"}', None),
    ]


def zh_tf(statement: str) -> Iterator[Form]:
    yield from [
        ("正确", True), ("错误。", False), ("该说法错误", False), ("这个说法是对的", True), ("这个说法不对", False),
        ("答案：错误", False), ("答案：正确", True), (f"该说法“{statement}”是错误的。", False), (f"“{statement}”这一说法是正确的。", True),
        ("正确。理由：指南支持这一点。", True), ("这句话是错的。", False), ("判断：正确", True), ("判断结果：错误", False), ("不正确。", False), ("错误，因为证据不支持。", False), ('{"答案": "错误"}', False), ("\u200b错误", False),
        # unread
        ("正确/错误", None), ("正确\n错误", None), ("可能正确", None),
    ]


def en_set(q: Question) -> Iterator[Form]:
    x, y, tx, ty = q.x, q.y, q.t(q.x), q.t(q.y)
    both = sorted({x, y})
    yield from [
        (f"{both[0]}, {both[1]}", both), (f"{both[0]} and {both[1]}", both), (f"Answer: {both[0]}, {both[1]}", both),
        (f"The correct answers are {both[0]} and {both[1]}.", both), (f'{{"answer": ["{both[0]}", "{both[1]}"]}}', both),
        (f'{{"answer": "{both[0]}, {both[1]}"}}', both), (f"\u200b{both[0]}, {both[1]}", both), (f"{tx} and {ty}", both),
        (f"{both[0]}, {both[1]}\n\n1. {tx} is typical.\n2. {ty} is typical too.\n3. The others are not.", both),
        (f"{both[0]} and {both[1]} are correct.", both),
        ("None of the above.", None), (f"{x} or {y}", None),
    ]


def zh_set(q: Question) -> Iterator[Form]:
    x, y = q.x, q.y
    both = sorted({x, y})
    yield from [
        ("".join(both), both), ("、".join(both), both), ("答案：" + "、".join(both), both), (f"正确答案是{both[0]}和{both[1]}", both),
        (f'{{"答案": "{both[0]}、{both[1]}"}}', both), ("答案：" + "".join(both), both), ("、".join(both) + "都正确", both), ("选" + "".join(both), both), ("以上都不对", None), (f"{x}或{y}", None),
    ]


def en_yes_no(q: Question) -> Iterator[Form]:
    x = q.x
    yield from [
        ("Yes", True), ("No.", False), ("Yes, the correct answer is among the options.", True), ("None of the options is correct.", False),
        ('{"answer": "yes"}', True), ("\u200bNo", False), (f"The correct answer is {x}.", True),
        ("Yes / No", None), ("yes\nno", None),
    ]


def zh_yes_no(q: Question) -> Iterator[Form]:
    yield from [("是", True), ("否", False), ("答案：是", True), ("没有正确选项", False), ("以上选项都不正确", False), ("不存在正确答案。", False), ('{"答案": "否"}', False), ("是/否", None)]


def en_revision(q: Question, given: str) -> Iterator[Form]:
    x, tx, ty = q.x, q.t(q.x), q.t(q.y)
    yield from [
        ("Correct.", [True, given]), (f"Incorrect, the correct answer is {x}.", [False, x]),
        (f"Incorrect. The correct answer is {x}: {tx}.", [False, x]), (f"Alice's answer is wrong; it should be {x}.", [False, x]),
        (f'{{"verdict": "incorrect", "answer": "{x}"}}', [False, x]), (f"\u200bIncorrect, the correct answer is {x}.", [False, x]),
        (f"Incorrect, the correct answer is {x}: {ty}.", None), ("Incorrect. None of the options is correct.", None),
        ("Correct / Incorrect", None),
    ]


def zh_revision(q: Question, given: str) -> Iterator[Form]:
    x, ty = q.x, q.t(q.y)
    yield from [
        ("正确", [True, given]), ("爱丽丝的回答是正确的。", [True, given]), (f"错误，正确答案是{x}", [False, x]), (f"错误。正确答案为（{x}）", [False, x]),
        (f"爱丽丝的答案不对，应选{x}", [False, x]), (f"错误，正确答案是{x}：{ty}", None), ("正确/错误", None), ("错误，以上都不对", None),
    ]


_TASKS = {  # method -> (kind, task)
    "multifacet": (("option_letter", "MCQ"), ("letter_set", "MAQ"), ("true_false", "TFQ"), ("verdict_letter", "RQ")),
    "multicog": (("option_letter", "MCQ"), ("yes_no", "AE"), ("true_false", "SV"), ("verdict_letter", "MR")),
}


def _forms(kind: str, language: str) -> Iterator[tuple[dict[str, Any], Form]]:
    """(answer format, form) for every question of one answer format and language."""
    questions = EN_QUESTIONS if language == "en" else ZH_QUESTIONS
    zh = {} if language == "en" else {"language": "zh"}
    if kind == "true_false":
        for statement in EN_STATEMENTS if language == "en" else ZH_STATEMENTS:
            for form in (en_tf if language == "en" else zh_tf)(statement):
                yield {"kind": kind, "options": [], "option_texts": {}, **zh}, form
        return
    makers = {
        "option_letter": (en_letter, zh_letter), "letter_set": (en_set, zh_set), "yes_no": (en_yes_no, zh_yes_no),
    }
    for q in questions:
        fmt = {"kind": kind, "options": list(q.texts), "option_texts": q.texts, **zh}
        if kind == "verdict_letter":
            given = q.z
            for form in (en_revision if language == "en" else zh_revision)(q, given):
                yield {**fmt, "given": given}, form
            continue
        for form in makers[kind][language == "zh"](q):
            yield fmt, form


def records() -> Iterator[dict[str, Any]]:
    n = 0
    for method, tasks in _TASKS.items():
        for kind, task in tasks:
            for language in ("en", "zh"):
                for fmt, (reply, expected) in _forms(kind, language):
                    yield {"id": f"form-{n:04d}", "method": method, "task": task, "language": language, "style": "hand-written form",
                           "source": "hand-written", "format": fmt, "reply": reply, "expected": expected}
                    n += 1


if __name__ == "__main__":
    for record in records():
        sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
