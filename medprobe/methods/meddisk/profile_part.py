"""MedDisKEval in a knowledge profile: its way's score (recall, by the graded tiers), and the points it can
build on: it sets N_DEMOS example diseases apart per aspect and never tests them, so a point needs a full
pool of examples and a disease outside it."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from medprobe.contract import PointTest
from medprobe.methods.meddisk.build import N_DEMOS, demo_pools
from medprobe.methods.meddisk.score import TIER_VALUE
from medprobe.records import ItemScore
from medprobe.sources.kb import KnowledgeBase


def recall_score(item: ItemScore, metrics: Mapping[str, Any]) -> float | None:
    """A point's recall: the mean tier (CW 0, PC ½, BC 1) over the run's graded metrics; None when the
    run graded none."""
    graded = metrics.get("graded_metrics")
    if not graded:
        return None
    return sum(TIER_VALUE[item.meta["tiers"][metric]] for metric in graded) / len(graded)


def point_test(kb: KnowledgeBase, seed: int) -> PointTest:
    pools = demo_pools(kb, random.Random(seed))
    examples = {d.id for pool in pools.values() for d in pool}
    return PointTest(lambda kp: kp.meta["disease_id"] not in examples and len(pools.get(kp.aspect or "", ())) == N_DEMOS)
