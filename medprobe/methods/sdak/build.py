"""From a source to probes: load items, hold a validation split apart for few-shot demos (zero-shot
tests every item), write two probes per item and run (the factual and the counterfactual claim),
each run with its own demos in few-shot.

Runs are separate probes (``ProbeSet.own_repeats``) because few-shot runs differ in their
prompts; the plugin gives every run its own sampling seed when it sends them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from pathlib import Path
from typing import Any

from medprobe.errors import MedprobeError
from medprobe.gating import gate_kb, gate_records, record_gates
from medprobe.methods.sdak.claims import ClaimPair, draw_demos, split_items
from medprobe.methods.sdak.from_kb import kb_items, point_items, to_pair
from medprobe.methods.sdak.prompts import prompt, template_hash
from medprobe.methods.sdak.release import is_release, load_release
from medprobe.precision import point_cell
from medprobe.records import AnswerFormat, Probe

METHOD = "sdak"
SETTINGS = ("zero-shot", "few-shot")
SHOTS = 3
DEFAULT_RUNS = 3
#: items per type when --limit is not given and the source is a knowledge base (the paper's
#: "at most 1,000 per type"); a release is used whole
KB_DEFAULT_LIMIT = 1000
VARIANTS = ("factual", "counterfactual")


#: the question type blind readers judge (medprobe.precision) that a claim is: one stated fact or distractor
READ_TYPES = ("TFQ",)


def load_pairs(
    data: str, *, seed: int, limit: int | None, few_shot: bool, points: Collection[str] | None = None, include_unmeasured: bool = False,
) -> tuple[list[ClaimPair], list[ClaimPair], dict[str, Any]]:
    """Test items, validation items (few-shot only) and provenance from a release (file or folder) or a
    KB; with ``points`` (a profile's shared knowledge points) the test items are those points' items
    and the validation items come from the others. On a built-in KB only the aspects whose TFQ cells
    ship are read, unless ``include_unmeasured`` (medprobe.gating)."""
    if limit is not None and limit < 1:
        raise MedprobeError(f"--limit must be at least 1, got {limit}", field="--limit")
    if points is not None and is_release(data):
        raise MedprobeError("a profile's shared knowledge points come from a knowledge base, not a release", field="--data")
    if is_release(data):
        pairs = load_release(Path(data))
        test, validation = split_items(pairs, seed=seed, limit=limit, hold_demos=few_shot)
        available = dict(Counter(p.type for p in pairs))
        info: dict[str, Any] = {"source": data, "kind": "sdak-release", "skipped": {}}
    else:
        from medprobe.sources.builtin import resolve_kb

        kb = resolve_kb(data)
        items, available, skipped = kb_items(kb)
        gate = gate_kb(kb, {point_cell(kb.language, item.point) for item in items}, READ_TYPES, include_unmeasured=include_unmeasured, method="SDAK")
        asked = [item for item in items if gate.allows(point_cell(kb.language, item.point))]
        if len(asked) < len(items):
            skipped = {**skipped, "aspect not asked": len(items) - len(asked)}
        items = asked
        if points is None:
            test_items, validation_items = split_items(items, seed=seed, limit=KB_DEFAULT_LIMIT if limit is None else limit, hold_demos=few_shot)
        else:
            test_items = point_items(items, points, seed=seed)
            tested = {item.point for item in test_items}
            validation_items = split_items([i for i in items if i.point not in tested], seed=seed, limit=0, hold_demos=few_shot)[1]
        test, validation = [to_pair(i, kb.name) for i in test_items], [to_pair(i, kb.name) for i in validation_items]
        info = {"source": kb.name, "kind": "knowledge-base", "skipped": skipped}
        record_gates(info, gate_records([gate]))
        if points is not None:  # a profile joins the runs of all methods by knowledge point
            info["point_of"] = {item.id: item.point for item in test_items}
    if not test:
        raise MedprobeError(f"no claim pairs could be built from {data}", hint="a KB needs enumerated aspects such as primary_symptoms")
    info.update(
        items_available=available,
        items_tested=dict(Counter(p.type for p in test)),
        items_validation=dict(Counter(p.type for p in validation)),
        language=test[0].language,
    )
    return test, validation, info


def demo_id(pair: ClaimPair, factual: bool) -> str:
    return f"{pair.id}/{VARIANTS[0] if factual else VARIANTS[1]}"


def _probe(pair: ClaimPair, variant: str, run: int, demos: list[tuple[ClaimPair, bool]]) -> Probe:
    claim = pair.factual if variant == "factual" else pair.counterfactual
    return Probe(
        id=f"{METHOD}/{pair.id}/run{run}/{variant}",
        method=METHOD,
        knowledge_point=pair.id,
        facet=pair.type,
        variant=variant,
        language=pair.language,
        prompt=prompt(claim, demos, pair.language),
        gold=variant == "factual",
        answer_format=AnswerFormat(kind="verdict", language=pair.language),
        meta={"run": run, "claim": claim, "demos": [demo_id(p, f) for p, f in demos], **({"aspect": pair.aspect} if pair.aspect else {})},
    )


def build_probes(
    data: str, *, setting: str, runs: int, seed: int, limit: int | None, points: Collection[str] | None = None,
    include_unmeasured: bool = False,
) -> tuple[list[Probe], dict[str, Any]]:
    """Probes for every test item x run x claim, and provenance for config.json."""
    if setting not in SETTINGS:
        raise MedprobeError(f"unknown setting '{setting}'", field="--setting", hint="zero-shot or few-shot")
    if runs < 1:
        raise MedprobeError(f"runs must be at least 1, got {runs}", field="--repeats")
    test, validation, info = load_pairs(data, seed=seed, limit=limit, few_shot=setting == "few-shot", points=points,
                                        include_unmeasured=include_unmeasured)
    draws = draw_demos(validation, runs, seed=seed, shots=SHOTS) if setting == "few-shot" else [[] for _ in range(runs)]
    probes = [_probe(pair, variant, run, draws[run]) for run in range(runs) for pair in test for variant in VARIANTS]
    info.update(setting=setting, runs=runs, demos=[[demo_id(p, f) for p, f in draw] for draw in draws], templates=template_hash())
    return probes, info
