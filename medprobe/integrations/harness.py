"""What the harness integrations share: which probe sets a single-turn harness can ask, the record
that travels with them (the *header*), reading one reply, and the method's own metrics over many.

A harness asks each probe once and keeps each reply beside the probe. Everything medprobe needs to
score those replies later travels with them: the probe itself and the header (method, build options,
decoding, the build's record). So a harness log alone turns back into a normal run directory.
"""

from __future__ import annotations

import importlib.metadata
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from medprobe.contract import BuildOptions, ProbeSet, ScoreOptions, ScoreResult, get_method
from medprobe.errors import MedprobeError
from medprobe.records import GenerationParams, Probe, Response
from medprobe.verification import verified_probe_set

#: harness task name -> (method, build options the task fixes). MultiCogEval's high level is a
#: dialogue that medprobe drives turn by turn, which a single-turn harness cannot do.
TASKS: dict[str, tuple[str, dict[str, Any]]] = {
    "multifacet": ("multifacet", {}),
    "multicog_lowmid": ("multicog", {"level": "low,mid"}),
    "sdak": ("sdak", {}),
    "meddisk": ("meddisk", {}),
}
#: what a failed generation leaves as the response's error
NO_HARNESS_REPLY = "the harness recorded no reply"


@dataclass(frozen=True)
class HarnessSet:
    """A probe set built for a harness, with the header that lets its replies be scored anywhere."""

    task: str
    probe_set: ProbeSet
    header: dict[str, Any]


def build_harness_set(
    task: str, *, data: str | None = None, limit: int | None = None, seed: int = 0, setting: str | None = None,
    repeats: int | None = None, include_unmeasured: bool = False,
) -> HarnessSet:
    """The probes ``medprobe run`` would ask with the same options, refused where a harness would ask
    them differently (several samples per probe, engine repetitions)."""
    if task not in TASKS:
        raise MedprobeError(f"unknown harness task '{task}'", hint="tasks: " + ", ".join(TASKS))
    method_name, fixed = TASKS[task]
    method = get_method(method_name)
    build = {"data": data, "limit": limit, "seed": seed, "setting": setting, "repeats": repeats,
             "include_unmeasured": include_unmeasured, **fixed}
    probe_set = verified_probe_set(method, BuildOptions(**build))
    if probe_set.samples != 1:
        raise MedprobeError(f"the setting '{probe_set.setting}' asks {probe_set.samples} samples per probe", field="setting",
                            hint="harness tasks ask each probe once; run self-consistency settings with medprobe run")
    if repeats not in (None, 1) and not probe_set.own_repeats:
        raise MedprobeError(f"{method_name} repeats the same probes in the engine", field="repeats",
                            hint="harness tasks ask each probe once: leave repeats out (inspect's --epochs is not scored either)")
    info = json.loads(json.dumps(probe_set.info, default=str))
    header = {
        "medprobe": importlib.metadata.version("medprobe"),
        "task": task,
        "build": {**build, "data": data or method.default_data},
        "probes": len(probe_set.probes),
        "generation": probe_set.generation.model_dump(mode="json"),
        "info": info,
        "scoring": {"method": method_name, "seed": seed, "setting": probe_set.setting, "options": info.get("scoring_options", {})},
    }
    return HarnessSet(task, probe_set, header)


def probe_set_of(header: Mapping[str, Any], probes: list[Probe]) -> ProbeSet:
    return ProbeSet(probes, GenerationParams.model_validate(header["generation"]), 1, header["scoring"]["setting"],
                    dict(header["info"]))


def score_options(scoring: Mapping[str, Any]) -> ScoreOptions:
    """How ``medprobe run`` scores this probe set (``header["scoring"]``): strict mode, the build's seed
    and scoring options."""
    return ScoreOptions(seed=int(scoring["seed"]), setting=scoring["setting"], samples=1, repeats=1, options=dict(scoring["options"]))


def responses_of(probes: Sequence[Probe], replies: Mapping[str, str | None]) -> list[Response]:
    """One response per probe: its reply, or an error where the harness has none (a failed generation
    scores as a failed request does in a run, never as an empty answer)."""
    return [Response(probe_id=p.id, text=replies[p.id]) if replies.get(p.id) is not None
            else Response(probe_id=p.id, error=NO_HARNESS_REPLY) for p in probes]


def score_replies(scoring: Mapping[str, Any], probes: list[Probe], replies: Mapping[str, str | None]) -> ScoreResult:
    method = get_method(scoring["method"])
    return method.score(probes, responses_of(probes, replies), score_options(scoring))


@dataclass(frozen=True)
class SampleReading:
    """One reply as the method reads it: ``value`` is 1.0 when the answer read is right, 0.0 otherwise
    (MedDisKEval: the mean of its tier values over the graded metrics), ``answer`` what was read,
    ``rule`` the rule family."""

    value: float
    answer: str
    rule: str
    reason: str = ""


def read_sample(scoring: Mapping[str, Any], probe: Probe, reply: str | None) -> SampleReading:
    """Read one reply on its own. A method whose items join several replies (an SDAK claim is half of an
    item) reads one alone with its ``read_alone``; every other method scores the probe alone as it scores a run."""
    read_alone = getattr(get_method(scoring["method"]), "read_alone", None)
    if read_alone is not None:
        right, reading = read_alone(probe, reply)
        return SampleReading(float(right), "" if reading.value is None else str(reading.value), reading.rule, reading.reason)
    result = score_replies(scoring, [probe], {probe.id: reply})
    rules = [rule for counts in result.reading.values() for rule in counts]
    item = result.items[0]
    parsed = item.parsed[0] if item.parsed else None
    answer = "" if parsed is None else parsed if isinstance(parsed, str) else json.dumps(parsed, ensure_ascii=False)
    return SampleReading(float(item.score), answer, rules[0] if len(rules) == 1 else ", ".join(rules))


#: headline numbers where less is better: MedDisKEval's "Completely Wrong" share and its level (1 is best)
LOWER_IS_BETTER = frozenset({"CW", "level"})


def headline_numbers(method: str, metrics: Mapping[str, Any]) -> dict[str, float]:
    """The numbers of a method's leaderboard row, as floats (a number the run could not compute, such
    as the accuracy of a task with no questions, is left out rather than shown as 0)."""
    numbers: dict[str, Any]
    if method == "multifacet":
        curve, negated = metrics["mastery"]["without_negation"], metrics["mastery"]["with_negation"]
        numbers = {**{facet: row["accuracy"] for facet, row in metrics["facets"].items()}, "average": metrics["average"],
                   "p_mastery": curve[-1] if curve else None, "p_mastery_with_negation": negated[-1] if negated else None}
    elif method == "multicog":
        numbers = {f"{level}_normalized": row["normalized"] for level, row in metrics.get("levels", {}).items()}
        for dataset, block in metrics.get("lowmid", {}).get("datasets", {}).items():
            numbers |= {f"{dataset}/{task}_normalized": row["normalized"] for task, row in block["tasks"].items()}
    elif method == "sdak":
        numbers = {"ifr": metrics["ifr"]["mean"], "fact_acc": metrics["fact_acc"]["mean"]}
    elif method == "meddisk":
        numbers = {**{tier: share for tier, share in metrics["mean_distribution"].items()}, "total_score": metrics["total_score"],
                   "level": metrics["level"]}
    else:
        raise MedprobeError(f"no harness headline for method '{method}'")
    return {key: float(value) for key, value in numbers.items() if value is not None}
