"""The shared sample of a profile: knowledge points every method can build on, drawn once.

A knowledge point is a disease and one of its enumerated aspects. Each method of a profile (a method with a
``profile`` role, medprobe.contract) has its own conditions for a point (its ``profile_points``), and a
profile is complete only where all of them hold; on a built-in KB the point's aspect must also pass every
method's gate (medprobe.gating): its questions of each type the methods ask are measured precise enough by
blind reading, unless ``include_unmeasured``.

Points are drawn in one seeded order of the candidates until ``limit`` pass; the methods then build on
exactly these (``BuildOptions.points``), each with its own demos from outside the sample.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from medprobe.contract import BuildOptions, ProfileMethod, SharedPoints, profile_methods
from medprobe.errors import MedprobeError
from medprobe.gating import Gate, enumerated_aspects, gate_kb
from medprobe.precision import ITEM_TYPES, point_cell
from medprobe.sources.kb import KnowledgeBase


def kb_digest(kb: KnowledgeBase) -> str:
    """A short digest of the KB's content: runs on two versions of one built-in KB differ in it."""
    if kb.path and Path(kb.path).is_file():
        blob = Path(kb.path).read_bytes()
    else:
        blob = json.dumps([d.model_dump() for d in kb.diseases], ensure_ascii=False, sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def question_types(methods: list[ProfileMethod]) -> tuple[str, ...]:
    """Every question type the methods ask of an aspect, in the order precision tables list them."""
    types = {t for method in methods for t in method.profile.question_types}
    return tuple(sorted(types, key=lambda t: (ITEM_TYPES.index(t) if t in ITEM_TYPES else len(ITEM_TYPES), t)))


def profile_gate(kb: KnowledgeBase, methods: list[ProfileMethod], *, include_unmeasured: bool) -> Gate:
    """The aspects a profile may sample: those whose questions of every type the methods ask pass the gate."""
    return gate_kb(kb, enumerated_aspects(kb), question_types(methods), include_unmeasured=include_unmeasured,
                   method="a knowledge profile")


def shared_points(kb: KnowledgeBase, *, limit: int, seed: int, include_unmeasured: bool = False) -> SharedPoints:
    """``limit`` knowledge points that every profile method builds on (fewer when the KB has fewer)."""
    methods = profile_methods()
    gate = profile_gate(kb, methods, include_unmeasured=include_unmeasured)
    tests = [method.profile_points(kb, seed) for method in methods]
    every = [kb.knowledge_point(d, key) for d, key, n in kb.point_sizes() if n]
    candidates = [kp for kp in every if gate.allows(point_cell(kb.language, kp.id)) and all(t.admits(kp) for t in tests)]
    random.Random(seed).shuffle(candidates)
    costly = [t.keeps for t in tests if t.keeps is not None]
    chosen = []
    for kp in candidates:
        if len(chosen) == limit:
            break
        if all(keeps(kp) for keeps in costly):
            chosen.append(kp)
    if not chosen:
        raise MedprobeError(f"no knowledge point of {kb.name} can be asked by every method", field="--data",
                            hint="a profile needs enumerated aspects with at least three entities")
    chosen.sort(key=lambda kp: kp.id)
    names = {kp.meta["disease_id"]: kp.disease or "" for kp in chosen}
    return SharedPoints(tuple(kp.id for kp in chosen), kb_digest(kb), names)


def points_record(record: dict[str, Any]) -> SharedPoints:
    """SharedPoints back from config.json (``build_info["points"]``)."""
    return SharedPoints(tuple(record["ids"]), record["kb_sha256"], dict(record.get("diseases", {})))


def profile_builds(
    data: str, *, limit: int, seed: int, repeats: int = 1, include_unmeasured: bool = False,
) -> tuple[SharedPoints, list[tuple[str, BuildOptions]]]:
    """The shared points of ``data`` and each method's build options on them. ``repeats`` goes to
    the methods that repeat with other demos or runs (MultiCogEval, SDAK); one is enough to tell
    which points a model knows. The methods read the KB file the points were drawn from (a built-in
    KB's cache file, which they still know as built-in: medprobe.gating.kb_origin), so that a built-in
    KB rebuilt meanwhile cannot slip in between. ``include_unmeasured`` reaches every method's gate too."""
    from medprobe.sources.builtin import resolve_kb

    kb = resolve_kb(data)
    points = shared_points(kb, limit=limit, seed=seed, include_unmeasured=include_unmeasured)
    source = kb.path or data
    builds = [
        (method.name, BuildOptions(data=source, seed=seed, level=method.profile.level, repeats=repeats,
                                   points=points, include_unmeasured=include_unmeasured))
        for method in profile_methods()
    ]
    return points, builds
