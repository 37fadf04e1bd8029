"""The knowledge points MultifacetEval can build on in a profile: those its questions may ask, with at
least MIN_VALUES entities (a multiple-answer question needs several)."""

from __future__ import annotations

from medprobe.contract import PointTest
from medprobe.methods.multifacet.from_kb import MIN_VALUES, QuestionPoints
from medprobe.sources.kb import KnowledgeBase


def point_test(kb: KnowledgeBase, seed: int) -> PointTest:
    askable = {kp.id: kp for kp in QuestionPoints(kb).every()}
    return PointTest(lambda kp: kp.id in askable and len(askable[kp.id].values) >= MIN_VALUES)
