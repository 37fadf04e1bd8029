"""Replies that are nothing but the answer, written exactly as the solved examples write answers.

A few-shot prompt teaches one answer form ("C", "A,C", "true", "incorrect, the correct answer is C",
"正确"), and most replies of a model that follows it are that form and nothing else. The strict rules
(``strict_letters``, ``strict_verdicts``) read such a reply too, but only after tens of microseconds of
pattern matching per reply (more the more forms they know), which made reading a quarter of an 80,000-question run; :func:`exact_answer` recognises
the form by comparison and gives the same reading at once. Any other reply, even one character
off ("c", "C.", "True"), or one that is also an option's text, goes to the rules. ``tests/test_exact_answers.py`` checks that both
readings agree for every exact answer, whatever the options' texts and the question.
"""

from __future__ import annotations

from medprobe.parsing.base import Revision
from medprobe.parsing.reading import BARE, LEADING, Reading
from medprobe.parsing.strict_letters import clean_text
from medprobe.records import AnswerFormat

#: the answer words of the solved examples and the random model, per language
ANSWER_WORDS = {
    "en": {"true": "true", "false": "false", "yes": "yes", "no": "no", "correct": "correct", "incorrect": "incorrect, the correct answer is {}", "refute": "incorrect"},
    "zh": {"true": "正确", "false": "错误", "yes": "是", "no": "否", "correct": "正确", "incorrect": "错误，正确答案是{}", "refute": "错误"},
}


def exact_answer(reply: str, fmt: AnswerFormat) -> Reading | None:
    """The reading of a reply that is exactly an answer in the examples' form (surrounding white space
    aside), as the strict rules would give it; None for any other reply."""
    text = reply.strip()
    if any(clean_text(option) == text.lower() for option in fmt.option_texts.values()):
        return None  # an option whose text is the answer word ("correct"): the rules decide what it names
    words = ANSWER_WORDS[fmt.language]
    if fmt.kind == "option_letter":
        return Reading(text, BARE) if text in fmt.options else None
    if fmt.kind == "letter_set":
        letters = text.split(",")
        if all(letter in fmt.options for letter in letters) and letters == sorted(set(letters)):
            return Reading(frozenset(letters), BARE)
        return None
    if fmt.kind == "true_false" and text in (words["true"], words["false"]):
        return Reading(text == words["true"], BARE)
    if fmt.kind == "verdict_letter" and fmt.given in fmt.options:
        if text == words["correct"]:
            return Reading(Revision(True, fmt.given), BARE)
        prefix = words["incorrect"].format("")  # the letter ends the sentence
        letter = text[len(prefix) :]
        if text.startswith(prefix) and letter in fmt.options and letter != fmt.given:
            return Reading(Revision(False, letter), LEADING)
    return None
