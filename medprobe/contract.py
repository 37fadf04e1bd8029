"""The contract between the engine and its methods: what a method is given and what it returns.

Methods are plugins: each turns a source into probes and responses into scores. A method registers
itself under the ``medprobe.methods`` entry-point group (see pyproject.toml), so a fifth method — even
one in another package — plugs in without touching the engine, the profile or the command line. This
module sits below both the engine and the methods: each imports it, neither imports the other through it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from medprobe.errors import MedprobeError

if TYPE_CHECKING:  # annotations only: the command line imports this module to start, records load with a method
    from rich.table import Table

    from medprobe.models.base import ModelBackend
    from medprobe.records import GenerationParams, ItemScore, KnowledgePoint, Probe, Request, Response
    from medprobe.sources.kb import KnowledgeBase


@dataclass(frozen=True)
class SharedPoints:
    """Knowledge points (``disease id/aspect``) drawn once for a cross-method profile
    (``medprobe run profile``): a method given them builds its probes on exactly these points
    instead of drawing its own sample, so that every method's runs can be joined point by point.
    ``kb_sha256`` names the knowledge base's content, so runs on different versions of a KB are told
    apart."""

    ids: tuple[str, ...]
    kb_sha256: str
    #: disease id -> name, for reports
    diseases: dict[str, str] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        """What config.json keeps of them (``build_info["points"]``)."""
        return {"ids": list(self.ids), "kb_sha256": self.kb_sha256, "diseases": self.diseases}


@dataclass(frozen=True)
class Way:
    """One way a method asks about a knowledge point, as a profile joins its runs (medprobe.profile.join):
    the method's items of ``facets`` (all of them when None) make up the point's cell, whose score is the
    share of questions answered right unless ``point_score`` scores the point's item itself (a graded
    free-text answer; None from it falls back to the share)."""

    key: str
    method: str
    title: str
    facets: frozenset[str] | None = None
    point_score: Callable[[ItemScore, Mapping[str, Any]], float | None] | None = None


@dataclass(frozen=True)
class ProfileRole:
    """How a method takes part in a knowledge profile (``medprobe run profile``); a method without one
    is left out of profiles."""

    #: place among the profile's methods (its runs and report sections), lowest first
    rank: int
    #: the ways its items are joined in, in report order
    ways: tuple[Way, ...]
    #: the question types it asks of an aspect: a profile samples the aspects whose types of every
    #: method pass the gate of blind-read precision (medprobe.gating)
    question_types: tuple[str, ...]
    #: the method's level(s) a profile asks (``BuildOptions.level``)
    level: str | None = None


@dataclass(frozen=True)
class PointTest:
    """What a method asks of a knowledge point before it can build on it in a profile. ``admits`` is
    checked on every candidate before the seeded draw; ``keeps``, which may cost more, only on drawn
    points in draw order until the sample is full."""

    admits: Callable[[KnowledgePoint], bool]
    keeps: Callable[[KnowledgePoint], bool] | None = None


@dataclass
class BuildOptions:
    """What a user chooses when building probes."""

    data: str | None = None
    limit: int | None = None
    seed: int = 0
    setting: str | None = None
    #: which model's results to import when a result folder holds several
    name: str | None = None
    #: method-specific: cognitive level(s) to run (MultiCogEval), repetitions the method handles itself
    level: str | None = None
    repeats: int | None = None
    #: decoding overrides from the command line, for methods that set decoding per probe
    temperature: float | None = None
    max_tokens: int | None = None
    #: further method options (``-X key=value``), e.g. a generator or judge model
    options: dict[str, str] = field(default_factory=dict)
    #: a verification file (``medprobe items apply``): knowledge points with a flagged item are left out
    verified: str | None = None
    #: a profile's shared knowledge points; a method that cannot build on them must refuse them
    points: SharedPoints | None = None
    #: on a built-in KB, also ask the aspects whose questions blind reading has not measured precise enough
    #: (``--include-unmeasured``; medprobe.gating)
    include_unmeasured: bool = False

    def point_ids(self) -> tuple[str, ...] | None:
        return None if self.points is None else self.points.ids


@dataclass
class ProbeSet:
    """Probes plus how to ask them: decoding parameters, samples per probe, and provenance
    (source, counts, what was skipped and why, template hashes) for config.json."""

    probes: list[Probe]
    generation: GenerationParams
    samples: int = 1
    setting: str | None = None
    info: dict[str, Any] = field(default_factory=dict)
    #: True when repetitions are already separate probes (e.g. differing in their demos), so the
    #: engine asks each probe once instead of repeating it
    own_repeats: bool = False

    def __post_init__(self) -> None:
        """Probe ids are unique: two probes with one id share one recorded answer, and a run would
        report every probe answered while scoring one answer twice."""
        seen: set[str] = set()
        for probe in self.probes:
            if probe.id in seen:
                raise MedprobeError(
                    f"probe id '{probe.id}' is built twice", field="--data",
                    hint="two items of the source share an id; give each item its own",
                )
            seen.add(probe.id)


@dataclass
class ScoreOptions:
    seed: int = 0
    reference_compatible: bool = False
    setting: str | None = None
    samples: int = 1
    repeats: int = 1
    #: method scoring options (e.g. embedding model, thresholds), from config.json or ``score -X``
    options: dict[str, str] = field(default_factory=dict)


@dataclass
class ScoreResult:
    items: list[ItemScore]
    metrics: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    #: further files for the run directory: records become JSONL (e.g. dialogue transcripts),
    #: strings are written as they are (e.g. SVG charts)
    extra_files: dict[str, list[dict[str, Any]] | str] = field(default_factory=dict)
    #: how replies were read: ``{task: {rule family: count}}`` (``medprobe.parsing.reading``)
    reading: dict[str, dict[str, int]] = field(default_factory=dict)


class Requests(Protocol):
    """Requests to ask: a list, or anything that knows its length and makes the requests as it is read
    (a run's requests for 80,000 probes are never all held at once)."""

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[Request]: ...


class Progress(Protocol):
    """A progress display a method advances itself (e.g. one step per finished dialogue)."""

    def advance(self, errors: int) -> None:
        """One more step done; ``errors`` is how many have failed so far."""
        ...

    def __enter__(self) -> Progress: ...

    def __exit__(self, *exc: object) -> None: ...


class RunSession(Protocol):
    """The engine as a method's ``interact`` sees it while a run is in progress: the run's settings,
    and asking the model through the engine (resume, response cache, concurrency, recording), so that
    a method never handles the engine's runner, cache or run directory itself."""

    @property
    def seed(self) -> int: ...

    @property
    def prompt_style(self) -> str: ...

    @property
    def concurrency(self) -> int:
        """How many requests the run's model takes at once."""
        ...

    def requests_for(self, probes: Sequence[Probe]) -> Requests:
        """The run's requests for ``probes`` (every sample and repeat, in the run's prompt style)."""
        ...

    async def ask(
        self, requests: Requests, backend: ModelBackend | None = None, progress: bool | None = None
    ) -> list[Response]:
        """One response per request, in order (``backend``: another model than the run's, e.g. a judge)."""
        ...

    def progress_bar(self, total: int, label: str, unit: str) -> Progress:
        """A progress display of ``total`` steps, shown when the run shows progress."""
        ...


class Method(Protocol):
    name: str
    title: str
    default_data: str
    settings: tuple[str, ...]
    raw_formats: tuple[str, ...]

    def build(self, options: BuildOptions) -> ProbeSet: ...

    def score(self, probes: list[Probe], responses: list[Response], options: ScoreOptions) -> ScoreResult: ...

    def table(self, summary: dict[str, Any]) -> Table:
        """The terminal summary table."""
        ...

    def headline(self, summary: dict[str, Any]) -> dict[str, str]:
        """One row per run for ``medprobe leaderboard`` (column -> text; "_sort" orders rows)."""
        ...

    def report(self, summary: dict[str, Any]) -> str:
        """The method's section of report.md (Markdown tables in the paper's shapes)."""
        ...

    def import_raw(self, path: Path, fmt: str, options: BuildOptions) -> tuple[ProbeSet, list[Response]]:
        """Probes and responses from another tool's result files (``medprobe score --format``)."""
        ...

    # Optional: ``results_model``, the pydantic model of what ``score`` puts in ``ScoreResult.metrics`` (its dump):
    # ``table``, ``headline`` and ``report`` read the summary's metrics back through it, and the documentation
    # publishes its JSON Schema (scripts/docs_hooks.py); the four built-in methods have one.
    # ``async def interact(self, probe_set, session: RunSession) -> None`` drives multi-turn
    # episodes through ``session.ask``; without it the engine asks every probe once. ``review_items(self, probes) -> list[ReviewItem]`` gives the questions
    # clinicians review (medprobe.verification); without it the method's items cannot be verified.
    # ``item_cells(self, probes, build_info) -> Counter[(KB name, aspect, question type)]`` counts the
    # items built from a knowledge base (medprobe.gating); without it a run states no item error.
    # ``profile: ProfileRole`` and ``profile_points(self, kb, seed) -> PointTest`` make the method part of
    # a knowledge profile (medprobe.profile.points); without them profiles leave it out.
    # ``commands(self) -> typer.Typer`` gives the method's own commands and command groups, which
    # ``medprobe`` mounts beside its own (medprobe.cli); a core command's name wins over a method's.
    # ``read_alone(self, probe, reply) -> (right, Reading)`` reads one reply by itself where the method's items
    # join several replies (an SDAK claim pair); the harness tasks score sample by sample with it, and without it
    # they score the probe alone as a run would (medprobe.integrations.harness).


def available_methods() -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group="medprobe.methods")}


class ProfileMethod(Method, Protocol):
    """A method that takes part in knowledge profiles."""

    profile: ProfileRole

    def profile_points(self, kb: KnowledgeBase, seed: int) -> PointTest:
        """What it asks of a knowledge point of ``kb`` to build on it (``seed``: the profile's)."""
        ...


def profile_methods() -> list[ProfileMethod]:
    """The methods that take part in a knowledge profile, in their profile order."""
    entries = available_methods()
    found = [entries[name].load() for name in sorted(entries)]
    return sorted((cast("ProfileMethod", m) for m in found if getattr(m, "profile", None) is not None), key=lambda m: m.profile.rank)


def profile_ways() -> list[Way]:
    """The ways of every profile method, in profile order."""
    return [way for method in profile_methods() for way in method.profile.ways]


def get_method(name: str) -> Method:
    found = available_methods()
    if name not in found:
        raise MedprobeError(
            f"unknown method '{name}'", field="METHOD", hint="available: " + ", ".join(sorted(found)) if found else None
        )
    return found[name].load()
