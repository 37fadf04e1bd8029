"""Finished runs of a profile read back point by point, and refused when they do not belong together.

A *way* is one way of asking about a knowledge point; each profile method names its own
(``ProfileRole.ways``, medprobe.contract). The built-in methods' are MedDisKEval's recall, MultifacetEval's four
facets, MultiCogEval's low level (the MCQ) and mid level (statement validation, answer existence,
rectification), SDAK's claim pairs. For every point and way a *cell* holds the share of questions
answered right (MedDisKEval: the graded tiers' mean, CW 0, PC ½, BC 1) and whether the point counts
as known that way:

* a question way: every question of the point right (with repeats or runs: in most of them);
* recall: a tier mean of at least RECALL_KNOWN over the graded metrics (Basically Correct on both
  BLEU-1 and ROUGE-1, or on one with the other Partially Correct).

Unread replies (parse failures) and failed requests count as wrong, and are counted per cell.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medprobe.contract import SharedPoints, Way, profile_ways
from medprobe.engine.rundir import RunDir
from medprobe.errors import MedprobeError
from medprobe.jsonl import read_json, read_records
from medprobe.profile.points import points_record
from medprobe.records import ItemScore, RunConfig

RECALL_KNOWN = 0.75


@dataclass
class Cell:
    """One way's result on one knowledge point."""

    score: float
    known: bool
    questions: int
    unparsed: int


@dataclass
class ProfileRun:
    """A finished run that is part of a profile."""

    path: Path
    config: RunConfig
    summary: dict[str, Any]
    points: SharedPoints
    items: list[ItemScore]


@dataclass
class Joined:
    """Runs of one model on one sample of points: per way, the cell of each point it asked."""

    model: str
    data: str
    seed: int
    points: SharedPoints
    runs: list[ProfileRun]
    cells: dict[str, dict[str, Cell]] = field(default_factory=dict)
    #: every profile method's ways, looked up once (loading the methods is the costly part)
    every_way: list[Way] = field(default_factory=profile_ways)

    @property
    def ways(self) -> list[Way]:
        return [way for way in self.every_way if way.key in self.cells]

    def shared(self) -> list[str]:
        """The points every way asked (a point a method could not build is left out, and said so)."""
        return [p for p in self.points.ids if all(p in cells for cells in self.cells.values())]


def load_profile_run(path: Path) -> ProfileRun:
    run = RunDir.open(path)
    config = run.config()
    record = config.build_info.get("points")
    if record is None:
        raise MedprobeError(
            f"a {config.method} run that is no part of a profile (it drew its own sample)", file=path,
            hint="make the runs of a profile with `medprobe run profile --data KB --limit N`",
        )
    if not (path / "summary.json").exists():
        raise MedprobeError("the run is unfinished (no summary.json)", file=path, hint="run the same command again to finish it")
    return ProfileRun(path, config, read_json(path / "summary.json"), points_record(record), read_records(path / "scores.jsonl", ItemScore))


def point_of(kp: str, ids: set[str], build_info: dict[str, Any]) -> str | None:
    """The shared point an item or probe belongs to: SDAK names it per claim pair, MultiCogEval puts
    its dataset name before it ("builtin-zh:<point>"), the others use it as it is."""
    if kp in ids:
        return kp
    if kp in build_info.get("point_of", {}):
        return build_info["point_of"][kp]
    tail = kp.split(":", 1)[-1]
    return tail if tail in ids else None


def join_runs(paths: list[Path]) -> Joined:
    """The cells of every way of these runs, or a user error naming what does not belong together."""
    return join_loaded([load_profile_run(path) for path in paths])


def join_loaded(runs: list[ProfileRun]) -> Joined:
    """``join_runs`` on runs already read (the platform reads them from its database, not from run directories)."""
    first = runs[0]
    for run in runs[1:]:
        check_same(first, run, "model")
    seen: dict[str, Path] = {}
    for run in runs:
        if run.config.method in seen:
            raise MedprobeError(f"two {run.config.method} runs: {seen[run.config.method]} and {run.path}", hint="give one run per method")
        seen[run.config.method] = run.path
    joined = Joined(first.config.model or "?", first.config.data or "?", first.config.seed, first.points, runs)
    for run in runs:
        for way in profile_ways():
            if way.method == run.config.method:
                joined.cells[way.key] = way_cells(run, way)
    return joined


def check_same(a: ProfileRun, b: ProfileRun, *also: str) -> None:
    """Refuse runs on different knowledge bases, seeds or points (and ``also`` "model")."""
    where = f"{a.path} and {b.path}"
    found = []
    if a.config.data != b.config.data or a.points.kb_sha256 != b.points.kb_sha256:
        found.append(f"knowledge bases ({a.config.data} {a.points.kb_sha256} vs {b.config.data} {b.points.kb_sha256})")
    if a.config.seed != b.config.seed:
        found.append(f"seeds ({a.config.seed} vs {b.config.seed})")
    if a.points.ids != b.points.ids:
        only_a, only_b = set(a.points.ids) - set(b.points.ids), set(b.points.ids) - set(a.points.ids)
        found.append(f"knowledge points ({len(only_a)} only in the first, {len(only_b)} only in the second)")
    if "model" in also and (a.config.model, a.config.model_identity) != (b.config.model, b.config.model_identity):
        found.append(f"models ({a.config.model} vs {b.config.model})")
    if found:
        raise MedprobeError(
            f"{where} differ in their " + "; ".join(found),
            hint="a profile joins the runs of one `medprobe run profile` (same --data, --limit and --seed); give a second model with --against",
        )


def way_cells(run: ProfileRun, way: Way) -> dict[str, Cell]:
    """Per point, the way's cell from the run's item scores."""
    ids = set(run.points.ids)
    groups: dict[str, dict[int, list[ItemScore]]] = defaultdict(lambda: defaultdict(list))
    for item in run.items:
        point = point_of(item.knowledge_point, ids, run.config.build_info)
        if point is not None and (way.facets is None or item.facet in way.facets):
            groups[point][int(item.meta.get("repeat", item.meta.get("run", 0)))].append(item)
    return {point: _cell(repeats, way, run.summary["metrics"]) for point, repeats in groups.items()}


def _cell(repeats: dict[int, list[ItemScore]], way: Way, metrics: dict[str, Any]) -> Cell:
    """A way that scores a point's item itself (a graded recall) knows the point from RECALL_KNOWN on;
    the others by their questions."""
    if way.point_score is not None:
        item = repeats[0][0]
        score = way.point_score(item, metrics)
        if score is not None:
            return Cell(score, score >= RECALL_KNOWN, 1, item.unparsed)
    return _question_cell(repeats)


def _question_cell(repeats: dict[int, list[ItemScore]]) -> Cell:
    flags = [flag for items in repeats.values() for item in items for flag in item.correct]
    known_in = sum(all(flag for item in items for flag in item.correct) for items in repeats.values())
    unparsed = sum(item.unparsed for items in repeats.values() for item in items)
    return Cell(sum(flags) / len(flags) if flags else 0.0, 2 * known_in > len(repeats), len(flags), unparsed)


def expand_runs(paths: list[Path]) -> list[Path]:
    """Run directories as given, with a profile folder standing for the runs it was made from."""
    found: list[Path] = []
    for path in paths:
        profile = path / "profile.json"
        found += [Path(run) for run in read_json(profile)["runs"].values()] if profile.is_file() else [path]
    return found
