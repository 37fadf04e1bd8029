"""The shared sample of a profile: knowledge points every method can build on, drawn once.

A knowledge point is a disease and one of its enumerated aspects. Each method has its own
conditions for a point, and a profile is complete only where all of them hold:

* MultifacetEval and MultiCogEval need at least MIN_VALUES entities and NEEDED_DISTRACTORS usable
  distractors (both draw them with the same seeded RNG, so the check here sees what they will see);
* MedDisKEval sets five example diseases apart per aspect, never tests them, and needs five of them;
* SDAK needs at least one claim pair read from the point's aspect;
* on a built-in KB, the point's aspect passes every method's gate (medprobe.gating): its MCQ, negated
  MCQ, MAQ and TFQ questions are measured precise enough by blind reading (the union of what the four
  methods ask of an aspect), unless ``include_unmeasured``.

Points are drawn in one seeded order of the candidates until ``limit`` pass; the methods then build on
exactly these (``BuildOptions.points``), each with its own demos from outside the sample.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from medprobe.contract import BuildOptions, SharedPoints
from medprobe.errors import MedprobeError
from medprobe.gating import Gate, enumerated_aspects, gate_kb
from medprobe.methods.meddisk.build import N_DEMOS, demo_pools
from medprobe.methods.multicog.lowmid.kb import NEEDED_DISTRACTORS, WANTED_DISTRACTORS
from medprobe.methods.multifacet import READ_TYPES
from medprobe.methods.multifacet.from_kb import MIN_VALUES, QuestionPoints, distractors, index_kb
from medprobe.methods.sdak.from_kb import kb_items
from medprobe.precision import point_cell
from medprobe.seeding import item_rng
from medprobe.sources.kb import KnowledgeBase


@dataclass(frozen=True)
class Job:
    """One method's part of ``medprobe run profile``: what it is given besides the shared points."""

    method: str
    level: str | None = None


#: the methods of a profile, in report order; MultiCogEval without its high level (clinical cases
#: are not knowledge points)
JOBS: tuple[Job, ...] = (Job("meddisk"), Job("multifacet"), Job("multicog", level="low,mid"), Job("sdak"))


def kb_digest(kb: KnowledgeBase) -> str:
    """A short digest of the KB's content: runs on two versions of one built-in KB differ in it."""
    if kb.path and Path(kb.path).is_file():
        blob = Path(kb.path).read_bytes()
    else:
        blob = json.dumps([d.model_dump() for d in kb.diseases], ensure_ascii=False, sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def profile_gate(kb: KnowledgeBase, *, include_unmeasured: bool) -> Gate:
    """The aspects a profile may sample: those every method of JOBS asks by default (MultifacetEval's four
    question types cover what the others ask of an aspect)."""
    return gate_kb(kb, enumerated_aspects(kb), READ_TYPES, include_unmeasured=include_unmeasured, method="a knowledge profile")


def shared_points(kb: KnowledgeBase, *, limit: int, seed: int, include_unmeasured: bool = False) -> SharedPoints:
    """``limit`` knowledge points that every method of JOBS builds on (fewer when the KB has fewer)."""
    gate = profile_gate(kb, include_unmeasured=include_unmeasured)
    every = QuestionPoints(kb).every()
    index = index_kb(kb, {kp.aspect or "" for kp in every})
    pools = demo_pools(kb, random.Random(seed))
    examples = {d.id for pool in pools.values() for d in pool}
    with_claims = {item.point for item in kb_items(kb)[0]}
    candidates = [
        kp for kp in every
        if len(kp.values) >= MIN_VALUES and kp.meta["disease_id"] not in examples and len(pools[kp.aspect or ""]) == N_DEMOS
        and kp.id in with_claims and gate.allows(point_cell(kb.language, kp.id))
    ]
    random.Random(seed).shuffle(candidates)
    chosen = []
    for kp in candidates:
        if len(chosen) == limit:
            break
        wrong = distractors(index[kp.aspect or ""], kp, item_rng(seed, "distractors", kp.id), WANTED_DISTRACTORS)
        if len(wrong) >= NEEDED_DISTRACTORS:
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
        (job.method, BuildOptions(data=source, seed=seed, level=job.level, repeats=repeats, points=points,
                                  include_unmeasured=include_unmeasured))
        for job in JOBS
    ]
    return points, builds
