"""SDAK (paper 004): self-diagnostic atomic knowledge, checked as factual/counterfactual claims.

Every atomic knowledge item is a pair of claims — "People with X may have Y" and its negation —
and the model is asked of each whether it is correct, verdict first, then a reason. It holds the
item only if it supports the fact and refutes the counterfactual (FactAcc); the instruction-
following rate (IFR) counts items whose two replies both begin with a verdict; missed items are
sorted into not-follow / sycophancy / safety / misinterpretation, plus "reversed" (the fact refuted
and the counterfactual supported), which the paper has no column for; AccR is a manual check of a
100-item sample. Sources (``--data``): the SDAK release (JSONL file or folder), or any knowledge
base (``builtin:zh`` by default, ``builtin:en``, a KB file), from which claim pairs are built per
atomic type. ``--setting zero-shot|few-shot`` (zero-shot tests every item; few-shot holds a
validation split apart and draws 3 demos from it anew for each run); ``--repeats`` is the number of runs (3); ``--limit N`` is N items per type.
Decoding follows the paper's Appendix E: temperature 0.3, top-k 5, top-p 0.85, repetition
penalty 1.05 (max 128 new tokens: the verdict and a short reason). Strict scoring reads verdicts
with ``medprobe.methods.sdak.strict_verdict``; reference-compatible scoring with the authors' prefix rules
(``medprobe.methods.sdak.reference_verdict``); every report compares the two readings.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from rich.table import Table

from medprobe.contract import (
    BuildOptions,
    PointTest,
    ProbeSet,
    ProfileRole,
    RunSession,
    ScoreOptions,
    ScoreResult,
    Way,
)
from medprobe.errors import MedprobeError
from medprobe.gating import GATES_KEY, ItemCells
from medprobe.methods.sdak import report, review
from medprobe.methods.sdak.build import DEFAULT_RUNS, READ_TYPES, SETTINGS, build_probes
from medprobe.methods.sdak.profile_part import point_test
from medprobe.methods.sdak.prompts import STOP
from medprobe.methods.sdak.score import score as score_responses
from medprobe.methods.sdak.strict_verdict import read_verdict
from medprobe.methods.sdak.summary import SdakMetrics
from medprobe.parsing.reading import NO_REPLY, Reading
from medprobe.precision import cell_aspect
from medprobe.records import GenerationParams, Probe, Response
from medprobe.seeding import sample_seed
from medprobe.sources.kb import KnowledgeBase
from medprobe.verification import ReviewItem

SAMPLING = GenerationParams(temperature=0.3, top_p=0.85, top_k=5, repetition_penalty=1.05, max_tokens=128, stop=STOP)


class SdakMethod:
    name = "sdak"
    title = "SDAK"
    default_data = "builtin:zh"
    settings = SETTINGS
    raw_formats: tuple[str, ...] = ()

    #: the typed metrics of its summary.json (their JSON Schema is published in the docs)
    results_model = SdakMetrics

    profile = ProfileRole(rank=40, ways=(Way("claims", "sdak", "SDAK claim pairs"),), question_types=READ_TYPES)

    def profile_points(self, kb: KnowledgeBase, seed: int) -> PointTest:
        return point_test(kb, seed)

    def build(self, options: BuildOptions) -> ProbeSet:
        if options.options:
            raise MedprobeError(f"unknown option(s) {', '.join(sorted(options.options))}", field="-X", hint="sdak takes no -X options")
        setting = options.setting or "zero-shot"
        probes, info = build_probes(
            options.data or self.default_data, setting=setting, runs=options.repeats or DEFAULT_RUNS, seed=options.seed, limit=options.limit,
            points=options.point_ids(), include_unmeasured=options.include_unmeasured,
        )
        return ProbeSet(probes, SAMPLING, 1, setting, info, own_repeats=True)

    async def interact(self, probe_set: ProbeSet, session: RunSession) -> None:
        """Ask every probe once, each run with its own sampling seed: zero-shot runs have the
        same prompts, and with one seed they would be one run three times (and one cache entry)."""
        seed = session.seed
        run_of = {p.id: int(p.meta["run"]) for p in probe_set.probes}
        requests = [
            r if r.seed is None else r.model_copy(update={"seed": sample_seed(seed, run_of[r.probe_id])})
            for r in session.requests_for(probe_set.probes)
        ]
        await session.ask(requests)

    def score(self, probes: list[Probe], responses: list[Response], options: ScoreOptions) -> ScoreResult:
        return score_responses(probes, responses, options)

    def read_alone(self, probe: Probe, reply: str | None) -> tuple[bool, Reading]:
        """One claim's reply read on its own (a harness scores sample by sample, while a run scores the fact and
        the counterfactual of an item together): right when the verdict read matches the claim's truth."""
        reading = read_verdict(reply, probe.language) if reply is not None else Reading(None, NO_REPLY, NO_REPLY)
        return reading.value is not None and reading.value == probe.gold, reading

    def review_items(self, probes: list[Probe]) -> list[ReviewItem]:
        return review.review_items(probes)

    def item_cells(self, probes: list[Probe], build_info: dict[str, Any]) -> ItemCells:
        """(KB, aspect, TFQ) of each claim built from a knowledge base, once however many runs ask it: a claim
        states one fact or one distractor, as a true/false question does."""
        gates = build_info.get(GATES_KEY, {})
        kb = next(iter(gates), None)
        if kb is None:
            return Counter()
        language = gates[kb]["language"]
        claims = {(p.knowledge_point, p.variant): p for p in probes if "aspect" in p.meta}
        # a KB claim's id is "<type>/<disease id>/<entity>"
        return Counter((kb, cell_aspect(language, p.knowledge_point.split("/", 2)[1], p.meta["aspect"]), READ_TYPES[0]) for p in claims.values())

    def import_raw(self, path: Path, fmt: str, options: BuildOptions) -> tuple[ProbeSet, list[Response]]:
        raise MedprobeError(
            "SDAK has no result format of another tool to import",
            field="--format",
            hint="score a medprobe run directory (--format medprobe), or answer exported probes (medprobe build sdak) "
            "and run them with --model replay:ANSWERS.jsonl",
        )

    def headline(self, summary: dict[str, Any]) -> dict[str, str]:
        return report.headline(summary)

    def table(self, summary: dict[str, Any]) -> Table:
        return report.table(summary)

    def report(self, summary: dict[str, Any]) -> str:
        return report.report(summary)


METHOD = SdakMethod()
