"""An MCQ as the reader's tests ask it: the answer format of a set of options and our question around a stem, written
as medprobe's prompts write it ("Question: …\nOptions: A: …\tB: …\nAnswer:", or its Chinese form); and our true/false
question on a claim."""

from __future__ import annotations

from medprobe.records import AnswerFormat


def _chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def option_format(texts: dict[str, str], language: str | None = None) -> AnswerFormat:
    """The answer format of an MCQ with these options; its language is Chinese when an option's text is, unless given."""
    language = language or ("zh" if _chinese("".join(texts.values())) else "en")
    return AnswerFormat(kind="option_letter", options=list(texts), option_texts=texts, language=language)


def question(stem: str, texts: dict[str, str], language: str | None = None) -> str:
    """Our question around ``stem`` with its options, in the stem's language unless given."""
    chinese = language == "zh" if language else _chinese(stem)
    head, listed, answer = ("问题：", "选项：", "答案：") if chinese else ("Question: ", "Options: ", "Answer:")
    return head + stem + "\n" + listed + "\t".join(f"{k}: {v}" for k, v in texts.items()) + "\n" + answer


def statement_question(claim: str) -> str:
    """Our true/false question on a quoted claim, as medprobe's prompts write it."""
    return f'Statement: "{claim}" Is this statement true or false? Reply true or false.\nAnswer:'
