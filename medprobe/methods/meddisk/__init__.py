"""MedDisKEval (paper 000): how much of a disease knowledge base a model can recall.

For every (disease, aspect) of a knowledge base (``builtin:en``, ``builtin:zh`` or a KB file) the
model is asked to recall the aspect; the answer is post-processed, compared with the KB by
BLEU-1, ROUGE-1 and embedding cosine (exact match for the severity level), graded into
Completely Wrong / Partially Correct / Basically Correct, and summarized as tier distributions,
a total score (0·CW + 5·PC + 10·BC) and a level. ``--setting instruct`` (default, chat models)
or ``base`` (completion-style prompts for pretrained-only models); ``--limit N`` samples diseases.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from medprobe.aspects import ASPECTS
from medprobe.contract import BuildOptions, PointTest, ProbeSet, ProfileRole, ScoreOptions, ScoreResult, Way
from medprobe.errors import MedprobeError
from medprobe.gating import GATES_KEY, ItemCells, gate_kb, gate_records, record_gates
from medprobe.methods.meddisk import report, review
from medprobe.methods.meddisk.build import BASE, INSTRUCT, SETTINGS, build_probes
from medprobe.methods.meddisk.grading import METRICS
from medprobe.methods.meddisk.instructions import template_hash
from medprobe.methods.meddisk.profile_part import point_test, recall_score
from medprobe.methods.meddisk.report import METRIC_NAMES
from medprobe.methods.meddisk.score import SCORING_OPTIONS
from medprobe.methods.meddisk.score import score as score_responses
from medprobe.methods.meddisk.summary import MedDisKMetrics
from medprobe.precision import cell_aspect
from medprobe.records import Probe, Response
from medprobe.report.svg import tier_bars, value_bars
from medprobe.sources.kb import KnowledgeBase
from medprobe.verification import ReviewItem

#: the question type whose blind-read precision stands for a reference answer's (see ``item_cells``)
READ_TYPES = ("TFQ",)


class MedDisKMethod:
    name = "meddisk"
    title = "MedDisKEval"
    default_data = "builtin:en"
    settings = SETTINGS
    raw_formats: tuple[str, ...] = ()

    #: the typed metrics of its summary.json (their JSON Schema is published in the docs)
    results_model = MedDisKMetrics

    profile = ProfileRole(rank=10, ways=(Way("recall", "meddisk", "MedDisKEval recall", point_score=recall_score),),
                          question_types=READ_TYPES)

    def profile_points(self, kb: KnowledgeBase, seed: int) -> PointTest:
        return point_test(kb, seed)

    def build(self, options: BuildOptions) -> ProbeSet:
        from medprobe.sources.builtin import resolve_kb

        setting = options.setting or "instruct"
        if setting not in SETTINGS:
            raise MedprobeError(f"unknown setting '{setting}'", field="--setting", hint="instruct (chat models) or base (completion)")
        unknown = sorted(set(options.options) - set(SCORING_OPTIONS))
        if unknown:
            raise MedprobeError(f"unknown option(s) {', '.join(unknown)}", field="-X", hint="meddisk options: " + ", ".join(SCORING_OPTIONS))
        kb = resolve_kb(options.data or self.default_data)
        candidates = {cell_aspect(disease.language, disease.id, key) for disease in kb.diseases for key in disease.aspects}
        gate = gate_kb(kb, candidates, READ_TYPES, include_unmeasured=options.include_unmeasured, method="MedDisKEval")
        asked = gate.aspects(candidates) if gate.left_out else None
        probes, info = build_probes(kb, limit=options.limit, seed=options.seed, setting=setting, points=options.point_ids(), aspects=asked)
        if not probes:
            raise MedprobeError(f"no (disease, aspect) pairs to ask in {kb.name}")
        info["templates"] = template_hash()
        info["scoring_options"] = dict(options.options)
        record_gates(info, gate_records([gate]))
        return ProbeSet(probes, INSTRUCT if setting == "instruct" else BASE, 1, setting, info)

    def score(self, probes: list[Probe], responses: list[Response], options: ScoreOptions) -> ScoreResult:
        result = score_responses(probes, responses, options)
        m = MedDisKMetrics.model_validate(result.metrics)
        result.extra_files["tiers.svg"] = tier_bars(
            [(METRIC_NAMES[k], m.distribution[k]) for k in METRICS] + [("average", m.mean_distribution)],
            "Tier distribution by metric",
        )
        aspects = [(a.en, m.per_aspect[a.key].total_score) for a in ASPECTS if a.key in m.per_aspect]
        result.extra_files["aspects.svg"] = value_bars(aspects, "Total score by aspect (0-10)", 10.0)
        return result

    def import_raw(self, path: Path, fmt: str, options: BuildOptions) -> tuple[ProbeSet, list[Response]]:
        raise MedprobeError(f"meddisk imports no raw format '{fmt}'", field="--format", hint="use --format medprobe")

    def commands(self) -> typer.Typer:
        """The method's own commands, mounted by ``medprobe`` (imported only when one is asked for)."""
        from medprobe.methods.meddisk.cli import app

        return app

    def review_items(self, probes: list[Probe]) -> list[ReviewItem]:
        return review.review_items(probes)

    def item_cells(self, probes: list[Probe], build_info: dict[str, Any]) -> ItemCells:
        """(KB, aspect, TFQ) of each reference answer: nobody reads MedDisKEval's open questions blind, and a
        reference answer is a disease's keyed facts under an aspect, which is what a TFQ states one of, so
        the TFQ cell is the closest measured proxy for how often the reference is wrong."""
        gates = build_info.get(GATES_KEY, {})
        kb = next(iter(gates), None)
        if kb is None:
            return Counter()
        language = gates[kb]["language"]
        return Counter((kb, cell_aspect(language, p.meta["disease_id"], p.facet), READ_TYPES[0]) for p in probes)

    def headline(self, summary: dict[str, Any]) -> dict[str, str]:
        return report.headline(summary)

    def table(self, summary: dict[str, Any]) -> Table:
        return report.table(summary)

    def report(self, summary: dict[str, Any]) -> str:
        return report.report(summary)


METHOD = MedDisKMethod()
