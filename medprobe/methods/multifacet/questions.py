"""Questions before prompting, and how they become probes.

A knowledge point is asked through four facets (paper 003 §3.2): comparison (MCQ), rectification
(revision question, RQ), discrimination (multiple-answer, MAQ) and verification (true/false,
TFQ), some with negated variants. Both sources (the MultifacetEval release and any knowledge
base) produce :class:`Question` objects; :func:`to_probes` adds the instruction and the five
solved examples.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from medprobe.records import AnswerFormat, Probe

METHOD = "multifacet"
TASKS = ("MCQ", "RQ", "MAQ", "TFQ")
FACET_OF = {"MCQ": "comparison", "RQ": "rectification", "MAQ": "discrimination", "TFQ": "verification"}
#: the order in which the paper's Fig. 6 adds facets to the mastery curve
MASTERY_ORDER = ("comparison", "verification", "rectification", "discrimination")
KIND_OF = {"MCQ": "option_letter", "RQ": "verdict_letter", "MAQ": "letter_set", "TFQ": "true_false"}


@dataclass(frozen=True)
class Question:
    """One question of one knowledge point. ``gold`` is a letter (MCQ), [judge, letter] (RQ),
    a sorted letter list (MAQ) or a bool (TFQ)."""

    knowledge_point: str
    task: str
    variant: str
    negated: bool
    text: str
    gold: Any
    fmt: AnswerFormat

    @property
    def probe_id(self) -> str:
        return f"{METHOD}/{self.knowledge_point}/{self.task}/{self.variant}"


@dataclass(frozen=True)
class Demo:
    text: str
    gold: Any
    rationale: str | None = None


def to_probes(questions: Iterable[Question], demos: dict[tuple[str, bool], list[Demo]], language: str, cot: bool) -> list[Probe]:
    """Instruction + 5 solved examples of the same task and polarity + the question.

    Negated questions get negated examples, as in the reference scripts (REFERENCE_METHODS §2.2).
    """
    from medprobe.methods.multifacet.templates import answer_text, demo_block, query_block, wording

    w = wording(language)
    head = w.instruction_cot if cot else w.instruction_ao
    prefixes: dict[tuple[str, bool], str] = {}
    for key, shots in demos.items():
        kind = KIND_OF[key[0]]
        prefixes[key] = head + "".join(
            demo_block(d.text, answer_text(kind, d.gold, language), language, d.rationale if cot else None) for d in shots
        )
    return [
        question_probe(q, prefixes[(q.task, q.negated)] + query_block(q.text, language), language, len(demos[(q.task, q.negated)]))
        for q in questions
    ]


def question_probe(q: Question, prompt: str, language: str, demos: int = 0) -> Probe:
    return Probe(
        id=q.probe_id,
        method=METHOD,
        knowledge_point=q.knowledge_point,
        facet=q.task,
        variant=q.variant,
        language=language,  # type: ignore[arg-type]
        prompt=prompt,
        gold=q.gold,
        answer_format=q.fmt,
        meta={"negated": q.negated, "demos": demos},
    )
