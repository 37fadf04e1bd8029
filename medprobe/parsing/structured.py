"""Answers given as JSON: ``{"answer": "C"}``, ``{"step_by_step_thinking": "…", "answer_choice": "C. …"}``,
a fenced json block, ``Answer: {"choice": "B"}``.

Models asked for structured output (and some that are not) put the answer in a field of a JSON object
and their reasoning in another. The reasoning field weighs every option, so the rules must not read the
object as text; only the answer fields count. Each answer field's value is then read by the same strict
rules as a reply (so ``"C. Cholesterol embolization"`` must agree with C's text, ``"None of the above"``
stays unread), and all answer fields of the reply must agree. A reasoning field that itself concludes
another answer ({"answer": "True", "explanation": "… so the statement is false."}) commits to neither.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: field names (lower case, spaces and hyphens as "_") that hold the answer itself
ANSWER_FIELDS = frozenset(
    {
        "answer", "answer_choice", "final_answer", "choice", "option", "selected_option", "selected_answer",
        "correct_answer", "correct_option", "answer_option", "verdict", "judgement", "judgment", "prediction",
        "statement_is", "the_statement_is", "is_true", "truth_value", "true_or_false", "statement_verdict", "final_verdict",
        "statement_is_true", "is_correct", "statement_true", "is_statement_true", "statement_evaluation", "evaluation", "assessment",
        "答案", "正确答案", "选项", "最终答案", "结论", "判断",
    }
)
_FENCE = re.compile(r"```(?:json)?\s*|```")


def _objects(text: str) -> list[dict[str, Any]]:
    """Every JSON object written in the text (fences removed), outermost only."""
    text = _FENCE.sub(" ", text)
    decoder, found, i = json.JSONDecoder(), [], text.find("{")
    while i != -1:
        try:
            value, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError:
            i = text.find("{", i + 1)
            continue
        if isinstance(value, dict):
            found.append(value)
        i = text.find("{", end)
    return found


def _as_text(value: Any) -> str | None:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(value)
    if isinstance(value, dict):  # {"answer": {"option": "D", "text": "<its text>"}}: the letter with its text, read as one
        inner = {text for key, v in value.items() if _is_answer_field(key) and (text := _as_text(v)) is not None}
        said = value.get("text")
        return None if len(inner) != 1 else f"{inner.pop()}. {said}" if isinstance(said, str) and said.strip() else inner.pop()
    return None


#: other names of a verdict field: "statement_truth", "truthfulness", "overall_verdict" (not "verdict_explanation",
#: "truth_basis", "rationale" or "statement")
_VERDICT_FIELD = re.compile(r"(?:^|_)(?:truth|truthfulness|verdict)$")
#: a field read only where no answer field is: {"statement_assessment": "false", "reasoning": "…"}
_FALLBACK_FIELDS = ("statement_assessment",)
#: fields read, where no answer field is, only in a reply's one JSON object and when the value is a verdict word
#: ({"statement": "true"}, {"是否正确": "错误"}): "statement" usually holds the statement itself or a finding ({"statement":
#: "Fever"}), and a list of objects judges each option ([{"选项内容": …, "是否正确": true}, …])
_ONE_OBJECT_FIELDS = ("statement", "是否正确", "正确与否", "判断结果")
_VERDICT_WORD = re.compile(r"\s*(?:(?i:true|false|correct|incorrect)|正确|错误|对|错)\s*(?:$|[.。,，:：;；])")


def _is_answer_field(key: str) -> bool:
    name = re.sub(r"[\s-]+", "_", key.strip().lower())
    return name in ANSWER_FIELDS or _VERDICT_FIELD.search(name) is not None


def reasoning_fields(text: str) -> list[str]:
    """The text values of the other fields of the JSON objects in a reply (reasoning, explanation)."""
    return [value for obj in _objects(text) for key, value in obj.items() if not _is_answer_field(key) and isinstance(value, str)]


def answer_fields(text: str) -> list[str] | None:
    """The answer fields' values of the JSON objects in a reply; None when it writes no JSON object
    with an answer field (the rules then read it as text), [] when a field's value is not text."""
    values: list[str] = []
    found = False
    objects = _objects(text)
    for obj in objects:
        for key, value in obj.items():
            if _is_answer_field(key):
                found = True
                as_text = _as_text(value)
                if as_text is None:
                    return []
                values.append(as_text)
    if not found:
        values = [value for obj in objects for key in _FALLBACK_FIELDS if (value := _as_text(obj.get(key))) is not None]
        if len(objects) == 1:
            values += [value for key in _ONE_OBJECT_FIELDS if (value := _as_text(objects[0].get(key))) is not None and _VERDICT_WORD.match(value)]
    return values if found or values else None
