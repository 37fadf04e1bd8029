"""Claim pairs from a knowledge base: every (disease, entity) pair of a type is one item.

For each atomic type with KB sources (medprobe.methods.sdak.claims), every entity a disease has
under those keys becomes a factual claim and its negated counterfactual. An entity listed under
two keys of one type (a primary and an associated symptom) is one item, and an entity that is
the disease's own name or synonym (HPO lists some diseases as their own phenotype) is none.
Declarative sources
(PyCMeKG's examination texts) are split at semicolons into entities. Polar types read the KB's
value as yes or no (有传染性 / 无传染性) and say the KB's answer in the factual claim; a value
they cannot read is counted as skipped, never guessed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterator
from typing import NamedTuple

from medprobe.methods.sdak.claims import ATOMIC_TYPES, TYPES, AtomicType, ClaimPair, make_pair
from medprobe.seeding import item_rng
from medprobe.sources.kb import Disease, KnowledgeBase

#: claim pairs asked per knowledge point of a profile (``point_items``)
PAIRS_PER_POINT = 5
#: how a polar property is written in a KB -> whether it holds
POLARITY = {
    "有传染性": True, "弱传染性": True, "强传染性": True, "无传染性": False, "不传染": False,
    "contagious": True, "infectious": True, "not contagious": False, "non-contagious": False, "not infectious": False,
}


def kb_types(language: str) -> list[AtomicType]:
    """The types a KB of this language can yield (those with a source for it), catalogue order."""
    return [t for t in ATOMIC_TYPES if any(language in s.languages for s in t.sources)]


class KbItem(NamedTuple):
    """One (disease, entity) item of a type, worded into claims only if it is sampled (a KB
    holds hundreds of thousands of them)."""

    id: str
    type: str
    disease: Disease
    entity: str
    holds: bool
    #: the KB key the entity was read from (the first, when two keys of the type list it)
    key: str

    @property
    def point(self) -> str:
        """The knowledge point (disease, aspect) the item belongs to."""
        return f"{self.disease.id}/{self.key}"


def _type_items(kind: AtomicType, disease: Disease, skipped: Counter[str]) -> Iterator[KbItem]:
    own = {disease.name.casefold(), *(s.casefold() for s in disease.synonyms)}
    seen: set[str] = set()
    for source in kind.sources:
        if disease.language not in source.languages:
            continue
        for entity in disease.entities(source.key):
            folded = entity.casefold()
            if folded in own:
                skipped[f"{kind.key}: the disease's own name"] += 1
                continue
            if folded in seen:  # the same entity under two keys of the type: one item
                continue
            seen.add(folded)
            holds = POLARITY.get(folded) if kind.polar else True
            if holds is None:
                skipped[f"{kind.key}: unreadable value '{entity}'"] += 1
                continue
            yield KbItem(f"{kind.key}/{disease.id}/{entity}", kind.key, disease, entity, holds, source.key)


def kb_items(kb: KnowledgeBase) -> tuple[list[KbItem], dict[str, int], dict[str, int]]:
    """All items of a KB, the number each type yields (zero for a type the KB lacks) and what
    was skipped and why."""
    types = kb_types(kb.language)
    skipped: Counter[str] = Counter()
    items = [item for disease in kb.diseases for kind in types for item in _type_items(kind, disease, skipped)]
    counts = Counter(item.type for item in items)
    return items, {t.key: counts[t.key] for t in types}, dict(skipped)


def to_pair(item: KbItem, source: str) -> ClaimPair:
    """The item's factual and counterfactual claims, with the aspect they were read from."""
    pair = make_pair(TYPES[item.type], item.disease.name, item.entity, item.disease.language, item_id=item.id, source=source, holds=item.holds)
    return pair.model_copy(update={"aspect": item.key})


def point_items(items: list[KbItem], points: Collection[str], *, seed: int) -> list[KbItem]:
    """The items of a profile's shared knowledge points: up to PAIRS_PER_POINT per point, a seeded
    draw, so that a point with thirty symptoms costs no more than one with five."""
    wanted = set(points)
    by_point: dict[str, list[KbItem]] = {}
    for item in items:
        if item.point in wanted:
            by_point.setdefault(item.point, []).append(item)
    chosen = [item for point, group in by_point.items() for item in item_rng(seed, "profile", point).sample(group, min(PAIRS_PER_POINT, len(group)))]
    return sorted(chosen, key=lambda item: item.id)
