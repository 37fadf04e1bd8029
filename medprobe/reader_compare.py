"""Where strict and reference-compatible reading part: ``medprobe readings compare RUN``.

A user comparing a medprobe score with a paper's sees two numbers that differ; much of the difference is
in how replies were read. This reads every first-sample reply of a MultifacetEval or MultiCogEval
low/mid run both ways — the strict rules, and the published scripts' extractor (before any random fill)
— and counts per task how often the two agree, give different answers, or only one of them reads an
answer, with examples of each, and for the replies only the published extractor reads, why strict
reading left them unread.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medprobe.engine.rundir import RunDir
from medprobe.errors import MedprobeError
from medprobe.methods.multicog.lowmid import score as multicog_score
from medprobe.methods.multifacet import score as multifacet_score
from medprobe.parsing.answers import jsonable, read_reference
from medprobe.parsing.base import ParseResult, Revision
from medprobe.parsing.reading import Reading, unread_family
from medprobe.reader_audit import replies
from medprobe.records import Probe

SAME = "same answer"
DIFFERENT = "different answers"
STRICT_ONLY = "only strict reads an answer"
REFERENCE_ONLY = "only the published extractor reads an answer"
NEITHER = "neither reads an answer"
KINDS_SHOWN = (SAME, DIFFERENT, STRICT_ONLY, REFERENCE_ONLY, NEITHER)
EXAMPLES = 2


@dataclass
class TaskComparison:
    """One task's replies by kind of (dis)agreement, examples of each disagreement, and why strict
    reading left unread the replies only the published extractor read."""

    counts: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[tuple[str, Any, Any]]] = field(default_factory=lambda: defaultdict(list))
    strict_unread: Counter[str] = field(default_factory=Counter)

    def add(self, reply: str, strict: Reading, reference: Any) -> None:
        kind = _kind(strict.value, reference)
        self.counts[kind] += 1
        if kind == REFERENCE_ONLY:
            self.strict_unread[unread_family(strict)] += 1
        if kind not in (SAME, NEITHER) and len(self.examples[kind]) < EXAMPLES:
            self.examples[kind].append((reply, jsonable(strict.value), jsonable(reference)))


def _kind(strict: Any, reference: Any) -> str:
    if strict is None:
        return NEITHER if reference is None else REFERENCE_ONLY
    if reference is None:
        return STRICT_ONLY
    return SAME if jsonable(strict) == jsonable(reference) else DIFFERENT


def _complete(value: Any, given: str) -> Any:
    """A published extractor's revision completed as the scripts complete "correct" (Alice's letter);
    a part still missing leaves no answer."""
    if isinstance(value, Revision) and (value.judge is None or value.option is None):
        return Revision(True, given) if value.judge else None
    return value


def _extractor(method: str, probe: Probe, cot: bool) -> Callable[[str], ParseResult[Any]]:
    if method == "multifacet":
        return multifacet_score._reference_extractor(probe, cot)
    return multicog_score._reference_extractor(probe)


def compare_run(run_path: Path) -> dict[str, TaskComparison]:
    """Per task (MultiCogEval: "dataset/task"), the strict and published readings of the run's replies."""
    run = RunDir.open(run_path)
    config = run.config()
    if config.method not in ("multifacet", "multicog"):
        raise MedprobeError(f"{config.method} has no published extractor to compare with", file=run_path,
                            hint="compare reads MultifacetEval and MultiCogEval low/mid runs")
    cot = config.setting == "cot-sc"
    tasks: dict[str, TaskComparison] = defaultdict(TaskComparison)
    for row in replies(run.probes(), run.responses().values(), cot=cot):  # read as the audit and the score read
        probe = row.probe
        reference = _complete(read_reference(row.reply, _extractor(config.method, probe, cot)).value, probe.answer_format.given or "")
        task = probe.facet if config.method == "multifacet" else f"{probe.meta.get('dataset', '')}/{probe.facet}"
        tasks[task].add(row.reply, row.reading, reference)
    return dict(sorted(tasks.items()))
