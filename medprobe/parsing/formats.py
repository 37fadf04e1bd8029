"""The answer formats a probe can ask for, listed once.

Each format says what its answer is, which strict rule reads a cleaned chat reply in it, what the
extraction judge is asked to write for it, and whether a JSON reply's answer fields are read together.
The records' ``AnswerFormat.kind``, the strict reader's dispatch, the kinds the judge and the reader
audit cover, and the judge's instructions all come from :data:`FORMATS`, so a new format is one row
here and cannot be half-added. Formats without a strict
rule are read by their method alone (SDAK's leading verdict, the dialogue's turns, free text); the
judge never sees them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from medprobe.parsing.reading import Reading
from medprobe.parsing.strict_letters import read_letter_set, read_option_letter
from medprobe.parsing.strict_verdicts import read_answer_existence, read_revision, read_true_false

if TYPE_CHECKING:
    from medprobe.records import AnswerFormat

#: a strict rule: a cleaned reply (no reasoning block, no markdown), its format and our question (None when unknown)
#: -> the reading
StrictRule = Callable[[str, "AnswerFormat", str | None], Reading]


@dataclass(frozen=True)
class FormatSpec:
    """One answer format. ``rule`` and ``judge_ask`` go together: the judge completes strict
    reading, so it is asked only about the formats strict rules read."""

    kind: str
    #: what an answer in this format is
    answer: str
    #: the strict rule for this format (None: its method reads it)
    rule: StrictRule | None = None
    #: what the extraction judge is told to write; ``{given}`` is the answer under review
    judge_ask: str | None = None
    #: the answer has two parts that a JSON reply often puts in two fields (a verdict and a letter):
    #: its answer fields are read together, not one by one
    fields_together: bool = False

    def __post_init__(self) -> None:
        if (self.rule is None) != (self.judge_ask is None):
            raise ValueError(f"answer format {self.kind!r}: a strict rule and a judge instruction go together")


_SPECS = (
    FormatSpec(
        "option_letter", "one letter out of ``options`` (MCQ)",
        lambda text, fmt, question: read_option_letter(text, fmt.option_texts, fmt.options, question),
        "Write only the letter of the option the reply chose.",
    ),
    FormatSpec(
        "letter_set", "a non-empty subset of ``options`` (multiple-answer)",
        lambda text, fmt, question: read_letter_set(text, fmt.option_texts, fmt.options),
        "Write only the letters of every option the reply chose, separated by commas (for example: A, C).",
    ),
    FormatSpec(
        "true_false", "a true/false verdict",
        lambda text, fmt, question: read_true_false(text),
        "Write only true if the reply judged the statement true, or false if it judged it false.",
    ),
    FormatSpec(
        "verdict_letter", "a correct/incorrect verdict on ``given`` plus the right letter (revision)",
        lambda text, fmt, question: read_revision(text, fmt.option_texts, fmt.options, fmt.given or ""),
        "The question gave an answer ({given}) to be checked. Write only correct if the reply said that answer is "
        "right; if the reply said it is wrong, write: incorrect, the correct answer is <the letter the reply named>.",
        fields_together=True,
    ),
    FormatSpec(
        "yes_no", 'a yes/no judgement (e.g. "is the right answer among the options?")',
        lambda text, fmt, question: read_answer_existence(text, fmt.option_texts, fmt.options),
        "Write only yes if the reply said the right answer is among the options, or no if it said it is not.",
    ),
    FormatSpec("verdict", "a correct/incorrect verdict about a claim, given first (SDAK fact-checking)"),
    FormatSpec(
        "dialogue_turn",
        'a turn of a diagnostic dialogue: one of ``options`` after the label ``given`` ("Action:", "Diagnosis:")',
    ),
    FormatSpec(
        "dialogue_list",
        'a turn of a diagnostic dialogue: some of ``options`` after the label ``given`` (an exam list, "Lab Tests:")',
    ),
    FormatSpec("free_text", "anything (e.g. a summary of a dialogue); no random answer exists"),
)

#: kind -> its format, in the order the records' schema lists them
FORMATS: dict[str, FormatSpec] = {spec.kind: spec for spec in _SPECS}
#: every answer format
KINDS: tuple[str, ...] = tuple(FORMATS)
#: the formats strict rules read (and so the extraction judge and the reader audit)
STRICT_KINDS: tuple[str, ...] = tuple(kind for kind, spec in FORMATS.items() if spec.rule is not None)
