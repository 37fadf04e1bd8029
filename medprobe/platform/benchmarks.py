"""Publishing a benchmark (the method plugin builds the probes) and the probe pack participants get.

A probe pack holds what a participant needs to answer: the prompt, the system message, the
expected answer format and how many samples to send. It holds no gold, and it hides everything
that could give the gold away: engine probe ids, knowledge-point ids and variants (an SDAK id ends
in ``/factual``; its knowledge point names the true value), and probe metadata (a diagnosis case
carries its diagnosis). Each probe gets a public id, a keyed hash of its engine id, the pack is
sorted by public id so that the order says nothing either, and each probe answered with letters
gets its own option order (``medprobe.platform.shuffle``); the stored probes are the shuffled ones,
so scoring and run-for-me use the same order as the pack.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import json
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from medprobe.contract import BuildOptions, available_methods, get_method, profile_methods
from medprobe.errors import MedprobeError
from medprobe.jsonl import dumps
from medprobe.platform.models import Benchmark, BenchmarkTexts
from medprobe.platform.shuffle import shuffle_options
from medprobe.records import Probe

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{1,60}$")
PACK_CSV_COLUMNS = ("id", "facet", "language", "samples", "answer_kind", "options", "option_texts", "given", "system", "prompt")
#: levels that can be answered offline; MultiCogEval's high level is a dialogue with the server's patient
OFFLINE_LEVELS = {"low", "mid"}


@dataclass
class BenchmarkSpec:
    """What an admin chooses when publishing: method, data, seed and size (knowledge points)."""

    slug: str
    title: str
    method: str
    data: str | None = None
    seed: int = 0
    size: int | None = None
    setting: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    #: on a built-in KB, also ask the aspects blind reading has not measured precise enough (medprobe.gating)
    include_unmeasured: bool = False


def public_id(key: str, probe_id: str) -> str:
    """The probe's id in packs and uploads: a keyed hash, so it reveals nothing of the engine id."""
    return "q" + hmac.new(key.encode(), probe_id.encode(), hashlib.sha256).hexdigest()[:16]


def pack_row(probe: Probe, key: str, samples: int, generation: dict[str, Any]) -> dict[str, Any]:
    """One probe as a participant sees it (no gold, no ids or metadata that could hint at it), with the
    benchmark's decoding parameters, which ``medprobe answer`` asks with."""
    return {
        "id": public_id(key, probe.id),
        "facet": probe.facet,
        "language": probe.language,
        "samples": samples,
        "system": probe.system,
        "prompt": probe.prompt,
        "answer_format": probe.answer_format.model_dump(mode="json"),
        "generation": generation,
    }


def _check_spec(spec: BenchmarkSpec) -> None:
    if not SLUG.match(spec.slug):
        raise MedprobeError(f"invalid short name '{spec.slug}'", field="slug", hint="2-61 characters: a-z, 0-9 and '-', starting with a letter or digit")
    if not spec.title.strip() or len(spec.title) > 200:
        raise MedprobeError("a title of 1-200 characters is needed", field="title")
    if spec.method not in available_methods():
        raise MedprobeError(f"unknown method '{spec.method}'", field="method", hint="available: " + ", ".join(sorted(available_methods())))
    if spec.size is not None and spec.size < 1:
        raise MedprobeError("the size must be a whole number ≥ 1", field="size")


def build_options(spec: BenchmarkSpec) -> BuildOptions:
    """The engine's build options for a benchmark (also used to run it against an endpoint)."""
    options = dict(spec.options)
    level = options.pop("level", None)
    if spec.method == "multicog":
        level = level or "low,mid"
        if not set(level.split(",")) <= OFFLINE_LEVELS:
            raise MedprobeError(
                f"level '{level}' cannot be published", field="level",
                hint="the high level is a dialogue with the server's simulated patient, which cannot be answered offline; use low,mid",
            )
    return BuildOptions(data=spec.data, limit=spec.size, seed=spec.seed, setting=spec.setting, level=level, options=options,
                        include_unmeasured=spec.include_unmeasured)


def publish(session: Session, spec: BenchmarkSpec, user_id: int | None, options: BuildOptions | None = None) -> Benchmark:
    """Build the probes with the method plugin and store the benchmark (gold kept server-side).
    ``options`` replaces the spec's build options (a profile's methods build on shared points)."""
    _check_spec(spec)
    _check_free(session, spec.slug)
    method = get_method(spec.method)
    options = options or build_options(spec)
    probe_set = method.build(options)
    if options.points is not None:  # as the engine's run records them, for joining the scores into a profile
        probe_set.info["points"] = options.points.record()
    key = secrets.token_hex(16)
    probe_set.probes, kept = shuffle_options(probe_set.probes, key)
    probe_set.info["options_kept_in_order"] = kept
    generation = probe_set.generation.model_dump(mode="json")
    rows = [pack_row(probe, key, probe_set.samples, generation) for probe in probe_set.probes]
    if len({row["id"] for row in rows}) != len(rows):  # 64-bit ids: only a broken key collides
        raise MedprobeError("two probes got the same public id; publish again")
    rows.sort(key=lambda row: row["id"])
    benchmark = Benchmark(
        slug=spec.slug, title=spec.title.strip(), method=spec.method, data=spec.data or method.default_data, seed=spec.seed,
        size=spec.size, setting=probe_set.setting, options=spec.options, probes=len(probe_set.probes), samples=probe_set.samples,
        generation=generation, build_info=probe_set.info, id_key=key,
        texts=BenchmarkTexts(probes_jsonl="".join(dumps(p) + "\n" for p in probe_set.probes),
                             pack_jsonl="".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)),
        created_by=user_id,
    )
    session.add(benchmark)
    session.commit()
    return benchmark


def _check_free(session: Session, slug: str) -> None:
    if session.scalar(select(Benchmark.id).where(Benchmark.slug == slug)) is not None:
        raise MedprobeError(f"a benchmark named '{slug}' exists already", field="slug")


def publish_profile(
    session: Session, prefix: str, data: str, size: int, seed: int, user_id: int | None, *, include_unmeasured: bool = False,
) -> list[Benchmark]:
    """The methods of a knowledge profile as benchmarks ``PREFIX-METHOD``, built on one shared
    sample of ``size`` knowledge points (as ``medprobe run profile`` builds them), so that one
    model's submissions to all of them join into its profile on the model page."""
    from medprobe.profile.points import profile_builds

    for method in profile_methods():
        _check_free(session, f"{prefix}-{method.name}")
    points, builds = profile_builds(data, limit=size, seed=seed, include_unmeasured=include_unmeasured)
    title = f"Knowledge profile {prefix} ({len(points.ids)} points of {data})"
    return [publish(session, BenchmarkSpec(f"{prefix}-{method}", f"{title}: {method}", method, data, seed, size,
                                           options={"level": options.level} if options.level else {},
                                           include_unmeasured=include_unmeasured), user_id, options)
            for method, options in builds]


def probes_of(benchmark: Benchmark) -> list[Probe]:
    """The engine's probes, gold included (server side only)."""
    return [Probe.model_validate_json(line) for line in benchmark.probes_jsonl.splitlines() if line]


def pack_ids(benchmark: Benchmark) -> list[str]:
    return [json.loads(line)["id"] for line in benchmark.pack_jsonl.splitlines() if line]


#: public ids per benchmark id key (new at each publishing), kept by each process
_KNOWN: dict[str, frozenset[str]] = {}


def known_ids(benchmark: Benchmark) -> frozenset[str]:
    """The pack's public ids, read once per process: a published pack never changes, and reading a
    release-sized one (50 MB) took about half a second of every upload."""
    if benchmark.id_key not in _KNOWN:
        _KNOWN[benchmark.id_key] = frozenset(pack_ids(benchmark))
    return _KNOWN[benchmark.id_key]


def pack_csv(benchmark: Benchmark) -> str:
    """The probe pack as CSV: one row per probe; options and option texts as JSON cells."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(PACK_CSV_COLUMNS)
    for line in benchmark.pack_jsonl.splitlines():
        row = json.loads(line)
        fmt = row["answer_format"]
        writer.writerow([
            row["id"], row["facet"], row["language"], row["samples"], fmt["kind"], json.dumps(fmt["options"], ensure_ascii=False),
            json.dumps(fmt["option_texts"], ensure_ascii=False), fmt["given"] or "", row["system"] or "", row["prompt"],
        ])
    return out.getvalue()


def describe(benchmark: Benchmark) -> dict[str, Any]:
    """The public description of a benchmark (API and pages)."""
    return {
        "slug": benchmark.slug, "title": benchmark.title, "method": benchmark.method, "data": benchmark.data,
        "seed": benchmark.seed, "size": benchmark.size, "setting": benchmark.setting, "options": benchmark.options,
        "probes": benchmark.probes, "samples": benchmark.samples, "generation": benchmark.generation,
        "options_kept_in_order": benchmark.build_info.get("options_kept_in_order"),
        "created": benchmark.created.isoformat(timespec="seconds"),
    }
