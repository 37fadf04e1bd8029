"""MultifacetEval questions for clinicians to review (``medprobe items sample multifacet``).

Of a knowledge point's ten questions four hold everything the others repeat: the MCQ, the negated MCQ,
the multiple-answer question and the true/false statement (the revision questions are the two MCQs with
a proposed letter; the negated multiple-answer question and statement have the same options and
entity). A flag on any of them drops the whole knowledge point (``medprobe.verification``).
"""

from __future__ import annotations

from medprobe.methods.multifacet.templates import wording
from medprobe.records import Probe
from medprobe.verification import ReviewItem, asked_question, lettered

REVIEWED = {("MCQ", "base"), ("MCQ", "neg"), ("MAQ", "pos"), ("TFQ", "stmt")}


def review_items(probes: list[Probe]) -> list[ReviewItem]:
    return [_item(p) for p in probes if (p.facet, p.variant) in REVIEWED]


def _item(probe: Probe) -> ReviewItem:
    w = wording(probe.language)
    texts = probe.answer_format.option_texts
    if probe.facet == "TFQ":
        key = w.true if probe.gold else w.false
    else:
        key = lettered(texts, [probe.gold] if isinstance(probe.gold, str) else probe.gold)
    return ReviewItem(
        place=probe.id, knowledge_point=probe.knowledge_point, task=f"{probe.facet}/{probe.variant}",
        question=asked_question(probe.prompt, w.answer_label), options=tuple(lettered(texts).splitlines()), key=key,
    )
