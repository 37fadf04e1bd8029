"""Which aspects of a knowledge base a build asks, and how many of a run's items are likely bad.

Questions built from a knowledge base are sometimes wrong. Blind readers measure how often,
per (language, aspect, question type), for the built-in KBs (:mod:`medprobe.precision`). Two things
follow from that table here:

* the **gate**: a build on a built-in KB asks by default only the aspects whose cells are shipped
  (95 % Wilson lower bound of precision ≥ 90 %) for every question type the method asks of an aspect;
  ``--include-unmeasured`` adds the others back, and the run says which were added. When no aspect
  passes, the build stops (a run of nothing would look like a run of something). A user's own KB is
  never gated: nothing measured it, so there is nothing to gate on, and its reports say "not measured";
* the **item error**: every run on a KB states the estimated share of bad items among the items it
  used, with a 95 % interval: from the blind readings for a built-in KB (``precision.item_error``), from
  the reviewers' verdicts of ``--verified FILE`` for a user's KB (flagged / reviewed, Wilson), and
  "not measured" otherwise. Runs on released data sets (MedQA, the SDAK release, …) build no items from a
  KB, so they carry no estimate at all (``item_error_cell`` says "n/a").

A method tells the engine which (KB, aspect, question type) each of its items came from with an optional
``item_cells(probes, build_info)`` (see :class:`ItemCells`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from medprobe import precision  # read as precision.shipped_readings(), so a test can swap the readings
from medprobe.errors import MedprobeError
from medprobe.precision import SHIP_LOWER_BOUND, Cell, cell_aspect, cells, item_error, wilson

if TYPE_CHECKING:
    from medprobe.sources.kb import KnowledgeBase

INCLUDE_FLAG = "--include-unmeasured"
#: a built-in KB's cache file: ``<home>/kb/<language>-<builder VERSION>-<medprobe version>.jsonl``
_CACHE_NAME = re.compile(r"^(?P<language>[a-z]+)-(?P<version>\d+)-")
#: what a build records per KB it read (``build_info["kb_gates"]``) and a run's summary keeps
GATES_KEY = "kb_gates"
#: (KB name, aspect, question type) -> items of a run
ItemCells = Counter[tuple[str, str, str]]


@dataclass(frozen=True)
class KbOrigin:
    """Where a KB came from: a built-in one (with the builder version its readings must match) or a user's file."""

    name: str
    language: str
    #: the builder VERSION of a built-in KB; None for a user's own KB
    version: int | None

    @property
    def builtin(self) -> bool:
        return self.version is not None


def kb_origin(kb: KnowledgeBase) -> KbOrigin:
    """A KB loaded as ``builtin:…``, or read from a built-in KB's cache file (a profile hands its methods
    the file its points were drawn from), is built-in; any other file is the user's own."""
    from medprobe.paths import home_dir
    from medprobe.sources.builtin import VERSIONS

    if kb.name.startswith("builtin:"):
        return KbOrigin(kb.name, kb.language, VERSIONS[kb.language])
    if kb.path is not None:
        file = Path(kb.path)
        found = _CACHE_NAME.match(file.name)
        if found and found["language"] in VERSIONS and file.parent.resolve() == (home_dir() / "kb").resolve():
            return KbOrigin(f"builtin:{found['language']}", kb.language, int(found["version"]))
    return KbOrigin(kb.name, kb.language, None)


def enumerated_aspects(kb: KnowledgeBase) -> set[str]:
    """The enumerated aspects some disease of the KB has entities under, by the precision table's names
    (``precision.cell_aspect``: a rare English disease's aspects are cells of their own): what the question
    builders ask."""
    return {cell_aspect(d.language, d.id, key) for d, key, n in kb.point_sizes() if n}


def builder_version(language: str) -> int:
    """The question builder's version for a language (readings of other versions do not count)."""
    return precision.BUILDER_VERSIONS.get(language, 1)


@dataclass(frozen=True)
class Gate:
    """What a build may ask of one KB: the aspects left out (with why) or the unmeasured ones let in."""

    origin: KbOrigin
    types: tuple[str, ...]
    #: aspect -> why it is not asked (default build on a built-in KB)
    left_out: dict[str, str] = field(default_factory=dict)
    #: aspect -> why it is unmeasured, asked because of --include-unmeasured
    included: dict[str, str] = field(default_factory=dict)

    def allows(self, aspect: str) -> bool:
        return aspect not in self.left_out

    def aspects(self, candidates: Iterable[str]) -> list[str]:
        """The candidates this gate lets through, in their order."""
        return [a for a in candidates if self.allows(a)]

    def record(self) -> dict[str, Any]:
        """What config.json keeps (``build_info["kb_gates"][KB name]``); ``item_error_record`` reads it back."""
        return {"language": self.origin.language, "kb_version": self.origin.version, "builder": builder_version(self.origin.language),
                "builtin": self.origin.builtin,
                "types": list(self.types), "left_out": dict(self.left_out), "unmeasured_included": dict(self.included)}


def gate_records(gates: Iterable[Gate]) -> dict[str, dict[str, Any]]:
    """KB name -> the gate's record, as a build keeps them (``build_info["kb_gates"]``)."""
    return {gate.origin.name: gate.record() for gate in gates}


def gate_note(name: str, record: Mapping[str, Any]) -> str | None:
    """One line for the run's notes (summary.json, report.md, terminal): what the gate of KB ``name`` did."""
    if not record["builtin"]:
        return f"{name} is your own knowledge base: no aspect is gated, and no blind reading measured its items"
    types = "/".join(record["types"])
    if record["left_out"]:
        return (f"{name}: aspects left out because their {types} questions are not measured precise enough "
                f"(95% Wilson lower bound below {SHIP_LOWER_BOUND:.0%}): {_reasons(record['left_out'])}; add them with {INCLUDE_FLAG}")
    if record["unmeasured_included"]:
        return (f"{name}: unmeasured cells included ({INCLUDE_FLAG}), their {types} questions not measured precise enough: "
                f"{_reasons(record['unmeasured_included'])}")
    return None


def _reasons(why: Mapping[str, str]) -> str:
    """The aspects blind readers read, each with its numbers, then those nobody read, named once together."""
    read = [f"{a} ({reason})" for a, reason in sorted(why.items()) if reason != "not read"]
    unread = sorted(a for a, reason in why.items() if reason == "not read")
    return "; ".join([*read, *([f"not read: {', '.join(unread)}"] if unread else [])])


def record_gates(info: dict[str, Any], gates: Mapping[str, Mapping[str, Any]]) -> None:
    """Keep the gates in the build's info (config.json) and their notes among the build's notes."""
    for name, record in gates.items():
        info.setdefault(GATES_KEY, {})[name] = dict(record)
        note = gate_note(name, record)
        if note:
            info["notes"] = [*info.get("notes", []), note]


def _why_unshipped(table: Mapping[tuple[str, str], Cell], aspect: str, types: Sequence[str]) -> str | None:
    """Why an aspect's cells do not all ship, or None when they do."""
    if not any(table.get((aspect, kind)) for kind in types):
        return "not read"
    reasons = []
    for kind in types:
        cell = table.get((aspect, kind))
        if cell is None or not cell.read:
            reasons.append(f"{kind} not read")
        elif not cell.shipped:
            reasons.append(f"{kind} {cell.read - cell.bad}/{cell.read} right, lower bound {cell.interval[0]:.0%}")
    return ", ".join(reasons) or None


def gate_kb(kb: KnowledgeBase, candidates: Collection[str], types: Sequence[str], *, include_unmeasured: bool, method: str) -> Gate:
    """The gate of one method's build on one KB: ``candidates`` are the aspects the method could ask
    there, ``types`` the question types it asks of each. Raises when a built-in KB has no candidate left."""
    origin = kb_origin(kb)
    if not origin.builtin:
        return Gate(origin, tuple(types))
    table = cells(precision.shipped_readings(), origin.language, origin.version or 0, builder_version(origin.language))
    unshipped = {a: why for a in sorted(candidates) if (why := _why_unshipped(table, a, types)) is not None}
    if include_unmeasured:
        return Gate(origin, tuple(types), included=unshipped)
    if candidates and len(unshipped) == len(candidates):
        raise MedprobeError(
            f"no aspect of {origin.name} (builder version {origin.version}) has {method} questions ({'/'.join(types)}) "
            f"measured precise enough by blind reading to be asked by default",
            field="--data",
            hint=f"pass {INCLUDE_FLAG} to ask the unmeasured aspects anyway (the report says so), or use your own KB file",
        )
    return Gate(origin, tuple(types), left_out=unshipped)


# --- item error ---------------------------------------------------------------------------------------


def item_error_record(gates: Mapping[str, Mapping[str, Any]], counts: ItemCells, verification: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """summary.json's ``item_error``: the estimate for the run's items built from KBs (``counts``, per KB
    name, aspect and question type), or None when the run built no item from a KB (released data). Blind
    reading decides wherever a built-in KB is involved (a user's KB beside it counts as unmeasured); a
    user's KB alone is estimated from a verification file's reviews, or not at all."""
    if not counts:
        return None
    builtin = {kb: gate for kb, gate in gates.items() if gate.get("builtin")}
    if builtin:
        return _blind_reading_estimate(builtin, counts)
    if verification and verification.get("reviewed"):
        return _review_estimate(verification, sum(counts.values()))
    return {"items": sum(counts.values()), "measured_by": None,
            "text": "not measured (your own knowledge base: no blind reading covers it; supply --verified FILE to estimate it "
                    "from your reviewers' verdicts)"}


def _blind_reading_estimate(builtin: Mapping[str, Mapping[str, Any]], counts: ItemCells) -> dict[str, Any]:
    """``precision.item_error`` over the cells of each built-in KB at the builder version the build read
    (a run rescored after a KB rebuild keeps the readings of the KB it asked)."""
    table = {(f"{kb}/{aspect}", kind): cell for kb, gate in builtin.items()
             for (aspect, kind), cell in cells(precision.shipped_readings(), gate["language"], gate["kb_version"], gate.get("builder", 1)).items()}
    estimate = item_error(table, {(f"{kb}/{aspect}", kind): n for (kb, aspect, kind), n in counts.items()})
    versions = ", ".join(f"{kb} version {gate['kb_version']}" for kb, gate in sorted(builtin.items()))
    if estimate.unmeasured >= 1:
        return {"items": estimate.items, "unmeasured": 1.0, "measured_by": None, "kb": versions, "text": estimate.text()}
    return {**estimate.as_dict(), "measured_by": "blind reading", "kb": versions,
            "text": f"{estimate.text()} [blind reading of {versions}, {estimate.items} items]"}


def _review_estimate(verification: Mapping[str, Any], items: int) -> dict[str, Any]:
    """Flagged / reviewed items of this build with its Wilson interval: the reviewed items are a sample of
    the build's, so their error rate estimates the rate of the items nobody reviewed (the flagged ones
    themselves were dropped from the run)."""
    reviewed, flagged = int(verification["reviewed"]), sum(verification.get("flagged", {}).values())
    low, high = wilson(flagged, reviewed)
    built = int(verification.get("items") or reviewed)
    return {"rate": flagged / reviewed, "low": low, "high": high, "items": items, "reviewed": reviewed, "built": built,
            "reviewed_share": reviewed / built, "measured_by": "verification file", "file": verification.get("file"),
            "text": f"{100 * flagged / reviewed:.1f}% (95% CI {100 * low:.1f}–{100 * high:.1f}%): {flagged} of {reviewed} reviewed "
                    f"items flagged ({100 * reviewed / built:.0f}% of the {built} items built were reviewed; verification file)"}


def item_error_cell(summary: Mapping[str, Any]) -> str:
    """A leaderboard cell: rate and interval, "not measured", or "n/a" for a run on released data."""
    found = summary.get("item_error")
    if not found:
        return "n/a"
    if found.get("measured_by") is None:
        return "not measured"
    return f"{100 * found['rate']:.1f}% [{100 * found['low']:.1f}–{100 * found['high']:.1f}]"


def item_cells_of(method: Any, probes: Sequence[Any], build_info: Mapping[str, Any]) -> ItemCells:
    """The method's (KB, aspect, question type) count of its items; nothing for a method without ``item_cells``."""
    counter = getattr(method, "item_cells", None)
    return counter(probes, build_info) if counter is not None else Counter()
