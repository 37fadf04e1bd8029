"""The knowledge points MultiCogEval's low and mid levels can build on in a profile: those its questions may
ask, with at least MIN_VALUES entities and NEEDED_DISTRACTORS usable distractors. The distractors are drawn
with the seeded generator the build uses, so the check sees what the build will see; drawing them costs
more, so it is checked on drawn points only."""

from __future__ import annotations

from medprobe.contract import PointTest
from medprobe.methods.multicog.lowmid.kb import NEEDED_DISTRACTORS, WANTED_DISTRACTORS
from medprobe.methods.multifacet.from_kb import MIN_VALUES, QuestionPoints, distractors, index_kb
from medprobe.records import KnowledgePoint
from medprobe.seeding import item_rng
from medprobe.sources.kb import KnowledgeBase


def point_test(kb: KnowledgeBase, seed: int) -> PointTest:
    every = QuestionPoints(kb).every()
    askable = {kp.id: kp for kp in every}
    index = index_kb(kb, {kp.aspect or "" for kp in every})

    def has_distractors(point: KnowledgePoint) -> bool:
        kp = askable[point.id]
        wrong = distractors(index[kp.aspect or ""], kp, item_rng(seed, "distractors", kp.id), WANTED_DISTRACTORS)
        return len(wrong) >= NEEDED_DISTRACTORS

    return PointTest(lambda kp: kp.id in askable and len(askable[kp.id].values) >= MIN_VALUES, has_distractors)
