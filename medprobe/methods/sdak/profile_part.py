"""The knowledge points SDAK can build on in a profile: those at least one claim pair is read from."""

from __future__ import annotations

from medprobe.contract import PointTest
from medprobe.methods.sdak.from_kb import kb_items
from medprobe.sources.kb import KnowledgeBase


def point_test(kb: KnowledgeBase, seed: int) -> PointTest:
    with_claims = {item.point for item in kb_items(kb)[0]}
    return PointTest(lambda kp: kp.id in with_claims)
