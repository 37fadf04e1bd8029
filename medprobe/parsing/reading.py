"""How each reply was read: the rule family that produced its answer, tallied per task.

A parse-failure rate alone hides *why* replies were read: a model whose answers all come from a
loose "answer somewhere in the text" rule deserves a second look even at 0% failures. So every
method counts, per task, how many replies each rule family read, and every report prints the shares
(``medprobe.report.markdown.reading_section``).

Rule families (display order):

* ``bare`` — the reply is the answer and nothing else ("C", "**True**", "正确", "A, C");
* ``leading`` — the answer opens the reply and an explanation follows ("C. Because …");
* ``labelled`` — an answer label or phrase names it ("Answer: (C)", "The answer is C", "答案：C",
  "Therefore, the statement is false");
* ``json`` — the reply is (or holds) a JSON object whose answer field gives it (``{"answer": "C"}``);
* ``final statement`` — the reply judges several options while reasoning ("option D is incorrect",
  "选项A……是正确的") and then commits to one ("The answer is B", "所以，正确答案是D"): the commitment is read;
* ``option text`` — the reply names an option by its text instead of its letter;
* ``implied`` — the answer follows from what the reply states without the asked-for word (a revision
  reply giving only "The correct answer is C": Alice's letter means "correct", another means
  "incorrect");
* ``reference`` — reference-compatible mode: one of the published scripts' extractors;
* ``random fill`` — reference-compatible mode: unreadable, filled at random as the published scripts do;
* ``judge`` — no rule read it; the extraction judge did (``-X extractor=judge:MODEL``);
* ``unparsed`` — nothing read it; scored wrong;
* ``no reply`` — the request failed (no text to read).

Methods may add their own families (MedDisKEval's "answer pattern", SDAK's "verdict first"); they are
listed after the known ones and before ``unparsed`` and ``no reply``; a method's own family of unread
replies is named ``"unparsed: <why>"`` so that it counts as a parse failure. Strict reading tallies the
unread replies whose reason is one of ``UNREAD_KINDS`` the same way (``"unparsed: both verdicts"``), so
the report shows *why* replies went unread, not only how many.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

BARE = "bare"
LEADING = "leading"
LABELLED = "labelled"
JSON = "json"
FINAL = "final statement"
OPTION_TEXT = "option text"
IMPLIED = "implied"
REFERENCE = "reference"
RANDOM_FILL = "random fill"
JUDGE = "judge"
UNPARSED = "unparsed"
NO_REPLY = "no reply"

FAMILIES: tuple[str, ...] = (BARE, LEADING, LABELLED, JSON, FINAL, OPTION_TEXT, IMPLIED, REFERENCE, RANDOM_FILL, JUDGE, UNPARSED, NO_REPLY)
_LAST = (UNPARSED, NO_REPLY)
#: families of replies that no rule and no judge read: together they make the parse-failure rate
NOT_READ: frozenset[str] = frozenset({RANDOM_FILL, UNPARSED, NO_REPLY})
#: a method's own families of unread replies start with this (e.g. "unparsed: no number")
UNPARSED_PREFIX = UNPARSED + ": "


# Why a reply that gives an answer-like text is still unread: each reason of strict reading starts with one
# of these phrases (the rest names the details), and the report counts them apart.
BOTH_VERDICTS = "both verdicts"
SEVERAL = "several options"
CONFLICT = "letter and text disagree"
NONE_RIGHT = "none of the options"
OTHER_QUESTION = "other questions"
DIFFERENT = "different answers"
HEDGED = "hedged"
UNREAD_KINDS: tuple[str, ...] = (BOTH_VERDICTS, SEVERAL, CONFLICT, NONE_RIGHT, OTHER_QUESTION, DIFFERENT, HEDGED)


def unread_family(reading: Reading) -> str:
    """The family to tally for a reply no rule read: ``"unparsed: <kind>"`` when its reason is one of
    ``UNREAD_KINDS``, otherwise plain ``unparsed`` (or ``no reply``)."""
    if reading.rule != UNPARSED:
        return reading.rule if not_read(reading.rule) else UNPARSED
    kind = next((k for k in UNREAD_KINDS if reading.reason.startswith(k)), None)
    return UNPARSED_PREFIX + kind if kind else UNPARSED


def not_read(rule: str) -> bool:
    """Whether a family counts as a parse failure (a known one, or a method's "unparsed: …")."""
    return rule in NOT_READ or rule.startswith(UNPARSED_PREFIX)


@dataclass(frozen=True)
class Reading:
    """One reply as read: ``value`` (None when nothing was read), the rule family, and for an unread
    reply the reason."""

    value: Any
    rule: str
    reason: str = ""

    @property
    def read(self) -> bool:
        return self.value is not None


class ReadingTally:
    """Counts of rule families per task (e.g. ``"MCQ"``, ``"medqa/SV"``, ``"Symptom"``)."""

    def __init__(self) -> None:
        self._counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))

    def add(self, task: str, rule: str, n: int = 1) -> None:
        self._counts[task][rule] += n

    def as_dict(self) -> dict[str, dict[str, int]]:
        """``{task: {family: count}}``, families in display order; the form summary.json stores."""
        return {task: dict(sorted(rules.items(), key=lambda kv: family_order(kv[0]))) for task, rules in self._counts.items()}


def family_order(rule: str) -> tuple[int, str]:
    """Known families in ``FAMILIES`` order, a method's own families (by name) before the ones that
    read nothing, which close the row."""
    if rule in _LAST:
        return (len(FAMILIES) + _LAST.index(rule), "")
    if rule.startswith(UNPARSED_PREFIX):
        return (len(FAMILIES), rule)
    return (FAMILIES.index(rule), "") if rule in FAMILIES else (len(FAMILIES) - len(_LAST), rule)
