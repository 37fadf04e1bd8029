"""SDAK claim pairs for clinicians to review (``medprobe items sample sdak``): the factual claim of each
pair, once (from the first run). The counterfactual is its negation, so a wrong fact makes both
probes of the pair wrong, and a flag drops the pair from every run."""

from __future__ import annotations

from medprobe.methods.multifacet.templates import wording
from medprobe.methods.sdak.build import METHOD, VARIANTS
from medprobe.records import Probe
from medprobe.verification import ReviewItem


def review_items(probes: list[Probe]) -> list[ReviewItem]:
    return [
        ReviewItem(place=f"{METHOD}/{p.knowledge_point}", knowledge_point=p.knowledge_point, task=p.facet,
                   question=p.meta["claim"], options=(), key=wording(p.language).true)
        for p in probes if p.variant == VARIANTS[0] and p.meta.get("run") == 0
    ]
