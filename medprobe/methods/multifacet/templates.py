"""Prompt wording for MultifacetEval, written for medprobe (en and zh).

Structure follows the paper and the released data: an instruction line, five solved examples
("<question>\\nAnswer: <answer>\\n\\n"), then the question with an open "Answer: ". The answer
words themselves (a letter; "A,C"; true/false; "correct" / "incorrect, the correct answer is X")
are the format the parsers read, so they match the reference format exactly; the sentences
around them are ours. Chinese questions use the same layout with Chinese words.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from medprobe.aspects import get_aspect


@dataclass(frozen=True)
class Wording:
    instruction_ao: str
    instruction_cot: str
    answer_label: str
    therefore: str
    true: str
    false: str
    correct: str
    incorrect: str
    question: str
    options: str
    mcq: str
    mcq_negated: str
    maq: str
    maq_negated: str
    revision: str
    statement: str
    statement_negated: str
    tfq: str


EN = Wording(
    instruction_ao="Answer the medical questions below. Follow the solved examples and reply with the answer only.\n\n",
    instruction_cot=(
        "Answer the medical questions below. As in the solved examples, reason step by step first, "
        "then finish with the answer in the same format.\n\n"
    ),
    answer_label="Answer:",
    therefore=" Therefore, the answer is: ",
    true="true",
    false="false",
    correct="correct",
    incorrect="incorrect, the correct answer is {}",
    question="Question: ",
    options="Options: ",
    mcq="Which of the following belongs to the {aspect} of {disease}?",
    mcq_negated="Which of the following does NOT belong to the {aspect} of {disease}?",
    maq="Which of the following belong to the {aspect} of {disease}? One or more options may be right.",
    maq_negated="Which of the following do NOT belong to the {aspect} of {disease}? One or more options may be right.",
    revision="{question}\nThe given answer is {given}. Judge whether it is right; if it is wrong, name the right option.",
    statement='"{value} belongs to the {aspect} of {disease}."',
    statement_negated='"{value} does not belong to the {aspect} of {disease}."',
    tfq="Statement: {statement} Is this statement true or false? Reply true or false.",
)

ZH = Wording(
    instruction_ao="请回答下面的医学题目。参照已解答的例题，只输出答案。\n\n",
    instruction_cot="请回答下面的医学题目。参照已解答的例题，先逐步推理，最后按相同格式给出答案。\n\n",
    answer_label="答案：",
    therefore=" 因此，答案是：",
    true="正确",
    false="错误",
    correct="正确",
    incorrect="错误，正确答案是{}",
    question="问题：",
    options="选项：",
    mcq="以下哪一项属于{disease}的{aspect}？",
    mcq_negated="以下哪一项不属于{disease}的{aspect}？",
    maq="以下哪些属于{disease}的{aspect}？可能有一个或多个正确选项。",
    maq_negated="以下哪些不属于{disease}的{aspect}？可能有一个或多个正确选项。",
    revision="{question}\n给出的答案是{given}。请判断它是否正确；如果错误，请给出正确选项。",
    statement="“{value}属于{disease}的{aspect}。”",
    statement_negated="“{value}不属于{disease}的{aspect}。”",
    tfq="陈述：{statement}该陈述正确还是错误？请回答正确或错误。",
)

WORDING = {"en": EN, "zh": ZH}


def wording(language: str) -> Wording:
    return WORDING[language]


def aspect_name(key: str, language: str) -> str:
    return get_aspect(key).name(language)


def answer_text(kind: str, gold: object, language: str) -> str:
    """How a solved example writes its answer: the exact strings the parsers read."""
    w = wording(language)
    if kind == "option_letter":
        return str(gold)
    if kind == "letter_set":
        return ",".join(sorted(gold))  # type: ignore[arg-type]
    if kind == "true_false":
        return w.true if gold else w.false
    judge, letter = gold  # type: ignore[misc]
    return w.correct if judge else w.incorrect.format(letter)


def demo_block(question: str, answer: str, language: str, rationale: str | None = None) -> str:
    w = wording(language)
    if rationale is None:
        return f"{question}\n{w.answer_label} {answer}\n\n"
    rationale = rationale.strip()
    if not rationale.endswith("."):
        rationale += "."
    return f"{question}\n{w.answer_label} {rationale}{w.therefore}{answer}\n\n"


def query_block(question: str, language: str) -> str:
    return f"{question}\n{wording(language).answer_label} "


def template_hash() -> str:
    """Changes whenever any wording changes; recorded in config.json."""
    return hashlib.sha256(repr(sorted(WORDING.items())).encode()).hexdigest()[:12]
