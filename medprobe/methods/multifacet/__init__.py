"""MultifacetEval (paper 003): one knowledge point, four facets of questions.

Sources: the MultifacetEval release (a folder such as ../shared/data/multifaceteval/medqa, i.e.
MultiMedQA) or any knowledge base (``builtin:en``, ``builtin:zh`` or a KB file), from which
MultiDiseK-style questions are generated. Settings: ``ao`` (answer-only, 5-shot, greedy) and
``cot-sc`` (chain of thought with self-consistency: 5 sampled chains at temperature 0.8,
top-p 0.8, majority vote, ties broken by the seeded RNG; release data only, since it needs the
rationales of dev_cot.json — the paper, too, ran MultiDiseK answer-only).
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.table import Table

from medprobe.contract import BuildOptions, PointTest, ProbeSet, ProfileRole, ScoreOptions, ScoreResult, Way
from medprobe.errors import MedprobeError
from medprobe.gating import GATES_KEY, ItemCells, enumerated_aspects, gate_kb, gate_records, record_gates
from medprobe.methods.multifacet import raw, release, report, review
from medprobe.methods.multifacet.profile_part import point_test
from medprobe.methods.multifacet.questions import TASKS, to_probes
from medprobe.methods.multifacet.score import score as score_responses
from medprobe.methods.multifacet.summary import MultifacetMetrics
from medprobe.methods.multifacet.templates import template_hash
from medprobe.precision import point_cell
from medprobe.records import GenerationParams, Probe, Response
from medprobe.sources.kb import KnowledgeBase
from medprobe.verification import ReviewItem

if TYPE_CHECKING:
    from medprobe.methods.multifacet.from_kb import KbQuestions

#: keeps a completion-style model from running on into the next example. Nothing stops at a blank
#: line: chat models often put the answer after one ("**Answer**\n\nC"); strict reading takes the
#: answer statements and ignores the explanation around them
STOP = ["\n\nQuestion:", "\n\n问题："]
AO = GenerationParams(temperature=0.0, max_tokens=50, stop=STOP)
COT = GenerationParams(temperature=0.8, top_p=0.8, max_tokens=512, stop=STOP)
COT_SAMPLES = 5
#: task -> the question type blind readers judge (negated MCQ and RQ: MCQ-neg, see ``read_type``)
READ_AS = {"MCQ": "MCQ", "RQ": "MCQ", "MAQ": "MAQ", "TFQ": "TFQ"}
#: the question types of an aspect that must all be measured for MultifacetEval to ask it by default
READ_TYPES = ("MCQ", "MCQ-neg", "MAQ", "TFQ")


def _kb_questions(data: str, options: BuildOptions) -> KbQuestions:
    """The questions of a knowledge base, on the aspects its gate lets through (medprobe.gating: all
    four question types must be measured, as mastery needs every facet of a point); the KB itself is
    let go on return, before the questions become probes."""
    from medprobe.methods.multifacet.from_kb import build_kb_questions  # a release run never needs it
    from medprobe.sources.builtin import resolve_kb

    kb = resolve_kb(data)
    candidates = enumerated_aspects(kb)
    gate = gate_kb(kb, candidates, READ_TYPES, include_unmeasured=options.include_unmeasured, method="MultifacetEval")
    asked = gate.aspects(candidates) if gate.left_out else None
    built = build_kb_questions(kb, seed=options.seed, limit=options.limit, points=options.point_ids(), aspects=asked)
    record_gates(built.info, gate_records([gate]))
    return built


def read_type(probe: Probe) -> str:
    """The question type blind readers judge (medprobe.precision) that a probe is: a revision question
    is its MCQ with a proposed letter, so both are MCQ, or MCQ-neg when negated."""
    kind = READ_AS[probe.facet]
    return f"{kind}-neg" if kind == "MCQ" and probe.meta.get("negated") else kind


class MultifacetMethod:
    name = "multifacet"
    title = "MultifacetEval"
    default_data = "builtin:en"
    settings = ("ao", "cot-sc")
    raw_formats = ("multifaceteval-raw",)

    #: the typed metrics of its summary.json (their JSON Schema is published in the docs)
    results_model = MultifacetMetrics

    profile = ProfileRole(rank=20, ways=(Way("facets", "multifacet", "MultifacetEval, four facets"),), question_types=READ_TYPES)

    def profile_points(self, kb: KnowledgeBase, seed: int) -> PointTest:
        return point_test(kb, seed)

    def build(self, options: BuildOptions) -> ProbeSet:
        if options.options:  # -X extractor=judge:MODEL is taken by the engine before the method sees the options
            raise MedprobeError(
                f"unknown option(s) {', '.join(sorted(options.options))}", field="-X",
                hint="multifacet takes no -X options but extractor=judge:MODEL",
            )
        setting = options.setting or "ao"
        if setting not in self.settings:
            raise MedprobeError(f"unknown setting '{setting}'", field="--setting", hint="ao or cot-sc")
        cot = setting == "cot-sc"
        data = options.data or self.default_data
        folder = Path(data)
        if folder.is_dir():
            if options.points is not None:
                raise MedprobeError("a profile's shared knowledge points come from a knowledge base, not a release", field="--data")
            questions = release.load_release(folder)
            if options.limit is not None:
                kps = sorted({q.knowledge_point for q in questions})
                keep = set(random.Random(options.seed).sample(kps, min(options.limit, len(kps))))
                questions = [q for q in questions if q.knowledge_point in keep]
            demos, language = release.load_demos(folder, cot), "en"
            info: dict[str, Any] = {"source": str(folder), "kind": "multifaceteval-release", "knowledge_points": len({q.knowledge_point for q in questions})}
        else:
            if cot:
                raise MedprobeError(
                    "cot-sc needs worked rationales, which only the MultifacetEval release provides (dev_cot.json)",
                    field="--setting",
                    hint="use --setting ao with a knowledge base, or --data pointing at the release folder",
                )
            built = _kb_questions(data, options)
            questions, demos, language = built.questions, built.demos, str(built.info["language"])
            info = {"kind": "knowledge-base", **built.info}
        probes = to_probes(questions, demos, language, cot)
        if not probes:
            raise MedprobeError(f"no questions could be built from {data}")
        info["templates"] = template_hash()
        info["questions"] = {t: sum(p.facet == t for p in probes) for t in TASKS}
        return ProbeSet(probes, COT if cot else AO, COT_SAMPLES if cot else 1, setting, info)

    def score(self, probes: list[Probe], responses: list[Response], options: ScoreOptions) -> ScoreResult:
        return score_responses(probes, responses, options)

    def import_raw(self, path: Path, fmt: str, options: BuildOptions) -> tuple[ProbeSet, list[Response]]:
        return raw.import_raw(path, options)

    def review_items(self, probes: list[Probe]) -> list[ReviewItem]:
        return review.review_items(probes)

    def item_cells(self, probes: list[Probe], build_info: dict[str, Any]) -> ItemCells:
        """(KB, aspect, question type) of each question built from a knowledge base (none from a release)."""
        gates = build_info.get(GATES_KEY, {})
        kb = next(iter(gates), None)
        if kb is None:
            return Counter()
        language = gates[kb]["language"]
        return Counter((kb, point_cell(language, p.knowledge_point), read_type(p)) for p in probes)

    def headline(self, summary: dict[str, Any]) -> dict[str, str]:
        return report.headline(summary)

    def table(self, summary: dict[str, Any]) -> Table:
        return report.table(summary)

    def report(self, summary: dict[str, Any]) -> str:
        return report.report(summary)


METHOD = MultifacetMethod()
