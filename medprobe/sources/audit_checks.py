"""The audit's checks and their limits, apart from the rules that run them: the command line reads them
to start (option defaults and help), and ``medprobe --help`` should not wait for rapidfuzz, pydantic and
the rules to import."""

from __future__ import annotations

from dataclasses import dataclass

#: knowledge points whose MultifacetEval distractors are checked (a blind reading of 300 questions found what this checks)
DISTRACTOR_SAMPLE = 300


@dataclass(frozen=True)
class Check:
    key: str
    title: str
    #: the highest rate (percent of the values looked at) that passes
    limit: float


CHECKS: tuple[Check, ...] = (
    Check("one_character", "one-character values", 0.05),
    Check("numbers_units", "numbers and units", 0.05),
    Check("non_medical", "place names and everyday words", 0.05),
    Check("fragments", "split fragments", 0.5),
    Check("near_duplicates", "near-duplicates within a disease's aspect", 1.0),
    Check("restates_name", "symptoms restating the disease name", 0.5),
    Check("wrong_kind", "values of the wrong kind for the aspect", 1.0),
    Check("cross_aspect", "values under two aspect families of one disease", 0.5),
    Check("distractor_risk", "wrong options alike to the disease's own values", 1.0),
)
CHECKS_BY_KEY = {c.key: c for c in CHECKS}
