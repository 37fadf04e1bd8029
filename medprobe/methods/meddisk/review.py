"""MedDisKEval reference answers for clinicians to review (``medprobe items sample meddisk``): per
(disease, aspect) the question and the knowledge-base answer every reply is scored against. A flagged
reference answer drops that disease-aspect."""

from __future__ import annotations

from medprobe.methods.meddisk.instructions import question
from medprobe.records import Probe
from medprobe.verification import ReviewItem


def review_items(probes: list[Probe]) -> list[ReviewItem]:
    return [
        ReviewItem(place=p.id, knowledge_point=p.knowledge_point, task=p.facet,
                   question=question(p.facet, p.meta["disease"], p.language), options=(), key=p.gold["reference"])
        for p in probes
    ]
