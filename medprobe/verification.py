"""Verified items: clinicians review generated questions, and runs leave out the ones they flag.

MultiDiseK was checked by experts before use; items built from any knowledge base can be checked the same
way:

1. ``medprobe items sample METHOD --data KB`` builds the probes as a run with the same options would and
   writes one review row per distinct question (:func:`review_sheet`): the question as the model sees
   it (without the solved examples), its options and its key, with empty ``verdict`` and ``note`` columns;
2. clinicians mark an item ``wrong`` (its key is wrong, or it is no fair question) or ``ambiguous`` (more
   than one answer is defensible), leave right ones empty (or write ``ok``), and write ``skip`` on rows
   they did not review;
3. ``medprobe items apply SHEET... -o verified.json`` records the verdicts (:func:`apply_sheets`), adding
   to the file's earlier ones; an item flagged by any reviewer stays flagged;
4. ``--verified verified.json`` on ``build`` and ``run`` drops every probe of a knowledge point with a
   flagged item (:func:`verified_probe_set`): the questions of one knowledge point share their options
   and key (they are drawn together), so a wrong key in one is wrong in the others, and MultifacetEval's
   mastery counts a knowledge point only with all its facets. The report says how many items were
   reviewed, how many knowledge points were dropped and why.

An item id is the item's stable place (probe id: method, knowledge point, task, variant) plus a digest
of what the reviewer saw (question, options, key): a rebuilt KB or another seed that changes an item
gives it a new id, so an old verdict never silently applies to a changed item; the report counts such
verdicts as "changed since review".
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any

from medprobe import sheets
from medprobe.contract import BuildOptions, Method, ProbeSet
from medprobe.errors import MedprobeError
from medprobe.jsonl import read_json, write_json

FORMAT = "medprobe-verification/1"
#: verdicts from the least to the most severe; a flagged item is one whose verdict is past "ok"
VERDICTS = ("ok", "ambiguous", "wrong")
FLAGS = frozenset({"ambiguous", "wrong"})
#: what reviewers may write in the verdict column (case-insensitive); "" counts as ok, "skip" as unreviewed
VERDICT_WORDS = {
    "": "ok", "ok": "ok", "right": "ok", "correct": "ok", "对": "ok", "正确": "ok",
    "wrong": "wrong", "w": "wrong", "错": "wrong", "错误": "wrong",
    "ambiguous": "ambiguous", "a": "ambiguous", "模糊": "ambiguous", "歧义": "ambiguous",
    "skip": "skip", "?": "skip", "跳过": "skip",
}
COLUMNS = ("row", "item_id", "knowledge_point", "task", "question", "options", "key", "verdict", "note", "reviewer", "date")
INSTRUCTIONS = (
    "Review sheet (medprobe items sample). One row per generated question: check the key against the question and options.",
    "verdict: empty (or ok) = right; wrong = the key is wrong or it is no fair question; ambiguous = more than one answer "
    "is defensible; skip = not reviewed. note: why (optional). reviewer, date: optional.",
    "Keep the item_id column as it is; save as 'CSV UTF-8'; then: medprobe items apply SHEET -o verified.json",
)


@dataclass(frozen=True)
class ReviewItem:
    """One question as a reviewer sees it, and the knowledge point it belongs to."""

    #: where the item sits (a probe id without repeat or run), stable across builds
    place: str
    knowledge_point: str
    task: str
    question: str
    options: tuple[str, ...]
    key: str

    @property
    def id(self) -> str:
        """``place@digest``: the digest of what the reviewer judges changes whenever the item does."""
        seen = json.dumps([self.question, list(self.options), self.key], ensure_ascii=False)
        return f"{self.place}@{hashlib.sha256(seen.encode()).hexdigest()[:12]}"


def asked_question(prompt: str, answer_label: str) -> str:
    """The question at the end of a few-shot prompt: the text after the last blank line (solved examples
    end with one), without the open answer label."""
    last = prompt.rstrip().rsplit("\n\n", 1)[-1]
    return last.removesuffix(answer_label).rstrip()


def lettered(option_texts: dict[str, str], letters: Iterable[str] | None = None) -> str:
    """Options (or the letters of a key) with their texts, one per line: "A: fever"."""
    chosen = option_texts if letters is None else {x: option_texts[x] for x in letters}
    return "\n".join(f"{letter}: {text}" for letter, text in chosen.items())


def review_items(method: Method, probe_set: ProbeSet) -> list[ReviewItem]:
    """The method's review items for a probe set; a method without them cannot be verified."""
    items = getattr(method, "review_items", None)
    if items is None:
        raise MedprobeError(f"{method.name} has no items to review", field="METHOD", hint="meddisk, multicog, multifacet and sdak do")
    return list(items(probe_set.probes))


# --- sheets -----------------------------------------------------------------------------------------


def review_sheet(items: list[ReviewItem], path: str | Path) -> None:
    rows = [
        {"row": n, "item_id": item.id, "knowledge_point": item.knowledge_point, "task": item.task, "question": item.question,
         "options": "\n".join(item.options), "key": item.key}
        for n, item in enumerate(items, start=1)
    ]
    sheets.write_sheet(path, COLUMNS, rows, comments=INSTRUCTIONS)


@dataclass(frozen=True)
class Review:
    verdict: str
    note: str
    reviewer: str
    date: str
    sheet: str


def read_reviews(path: str | Path, *, reviewer: str | None = None) -> dict[str, Review]:
    """A filled-in sheet's verdicts by item id (rows marked skip left out); ``reviewer`` fills empty
    reviewer cells."""
    path = Path(path)
    reviews: dict[str, Review] = {}
    lines: dict[str, int] = {}
    for line, row in sheets.read_sheet(path, ("item_id", "verdict")):
        item = row["item_id"].strip()
        if not item:
            raise MedprobeError("no item id", file=path, line=line, field="item_id", hint="keep the item_id column of the written sheet")
        if "@" not in item:
            raise MedprobeError(f"'{item}' is no item id written by `medprobe items sample`", file=path, line=line, field="item_id")
        word = row["verdict"].strip().casefold()
        if word not in VERDICT_WORDS:
            raise MedprobeError(
                f"unknown verdict '{row['verdict'].strip()}'", file=path, line=line, field="verdict",
                hint="write wrong or ambiguous, skip for a row not reviewed, or leave it empty when the item is right",
            )
        verdict = VERDICT_WORDS[word]
        if verdict == "skip":
            continue
        review = Review(verdict, row.get("note", "").strip(), row.get("reviewer", "").strip() or reviewer or "",
                        row.get("date", "").strip(), path.name)
        if item in reviews and reviews[item].verdict != verdict:
            raise MedprobeError(
                f"item {item} is marked '{reviews[item].verdict}' on line {lines[item]} and '{verdict}' here", file=path, line=line,
                field="verdict",
            )
        reviews[item], lines[item] = review, line
    return reviews


def apply_sheets(paths: list[Path], output: Path, *, reviewer: str | None = None) -> dict[str, Any]:
    """Add the verdicts of filled-in sheets to the verification file ``output`` (made when missing) and
    return it. An item keeps every review; its verdict is the most severe of them."""
    document = load_verification(output) if output.exists() else {"format": FORMAT, "items": {}}
    today = date.today().isoformat()
    for path in paths:
        for item, review in read_reviews(path, reviewer=reviewer).items():
            entry = document["items"].setdefault(item, {"verdict": "ok", "reviews": []})
            entry["reviews"].append({**review.__dict__, "date": review.date or today})
            entry["verdict"] = max((r["verdict"] for r in entry["reviews"]), key=VERDICTS.index)
    write_json(output, document)
    return document


def load_verification(path: str | Path) -> dict[str, Any]:
    document = read_json(path)
    if not isinstance(document, dict) or document.get("format") != FORMAT or not isinstance(document.get("items"), dict):
        raise MedprobeError(f"not a verification file (expected \"format\": \"{FORMAT}\")", file=path,
                            hint="write one with `medprobe items apply SHEET -o FILE`")
    for item, entry in document["items"].items():
        if not isinstance(entry, dict) or entry.get("verdict") not in VERDICTS:
            raise MedprobeError(f"item {item}: verdict must be one of {', '.join(VERDICTS)}", file=path, field=f"items.{item}.verdict")
    return document


# --- runs --------------------------------------------------------------------------------------------


@dataclass
class VerificationTally:
    """What a verification file did to one probe set."""

    file: str
    items: int = 0
    reviewed: int = 0
    flagged: Counter[str] = field(default_factory=Counter)
    dropped_knowledge_points: int = 0
    dropped_probes: int = 0
    #: verdicts for an item of this build whose content has changed since it was reviewed
    changed: int = 0
    #: verdicts for items this build does not hold (another --limit, method or KB)
    elsewhere: int = 0

    def note(self) -> str:
        why = ", ".join(f"{n} {v}" for v, n in sorted(self.flagged.items()))
        text = (f"verified items ({self.file}): {self.reviewed} of {self.items} items reviewed; "
                f"{sum(self.flagged.values())} flagged ({why or 'none'}), so {self.dropped_knowledge_points} knowledge "
                f"point(s) and their {self.dropped_probes} probes dropped")
        if self.changed:
            text += f"; {self.changed} verdict(s) ignored: their items changed since review"
        return text + (f"; {self.elsewhere} verdict(s) for items not in this build" if self.elsewhere else "")


def apply_verification(items: list[ReviewItem], probe_set: ProbeSet, path: str | Path) -> tuple[ProbeSet, VerificationTally]:
    """The probe set without the knowledge points of flagged items, and what was dropped."""
    verdicts = {item: entry["verdict"] for item, entry in load_verification(path)["items"].items()}
    tally = VerificationTally(str(path), items=len(items))
    places = {item.place for item in items}
    drop: set[str] = set()
    for item in items:
        verdict = verdicts.get(item.id)
        if verdict is None:
            continue
        tally.reviewed += 1
        if verdict in FLAGS:
            tally.flagged[verdict] += 1
            drop.add(item.knowledge_point)
    ids = {item.id for item in items}
    for item in verdicts:
        if item not in ids:
            if item.rsplit("@", 1)[0] in places:
                tally.changed += 1
            else:
                tally.elsewhere += 1
    kept = [p for p in probe_set.probes if p.knowledge_point not in drop]
    tally.dropped_knowledge_points = len(drop)
    tally.dropped_probes = len(probe_set.probes) - len(kept)
    if not kept:
        raise MedprobeError("every item of this build is flagged in the verification file", file=path, field="--verified")
    info = {**probe_set.info, "verification": {**tally.__dict__, "flagged": dict(tally.flagged)},
            "notes": [*probe_set.info.get("notes", []), tally.note()]}
    return replace(probe_set, probes=kept, info=info), tally


def verified_probe_set(method: Method, options: BuildOptions) -> ProbeSet:
    """Build the probes; with a verification file (``options.verified``), without the flagged knowledge points."""
    probe_set = method.build(options)
    if options.verified is None:
        return probe_set
    return apply_verification(review_items(method, probe_set), probe_set, options.verified)[0]
