"""Checking the strict reader on one's own model: ``medprobe readings audit`` and ``readings score``.

The reply corpus measures the reader on the replies of the models it was written for; another model
writes its own forms. So a user can take a sample of a run's replies, read each one themselves, and
count how often the reader read an answer the reply does not give (a *false read*) or missed one it
does give (a *miss*). A false read puts a made-up answer into the score; a miss counts a given answer
wrong; both bias scores.

The audit sheet (CSV, opened in a spreadsheet) shows per reply the question, the reply, the reader's
reading and its rule family, and a blank ``your_reading`` column. The sample is drawn per rule family
(in turn, seeded), so that rare families — the unread ones among them — are reviewed at all; each
row says how many replies of the run its family read, since a family's rates are what the sample
estimates. Scoring gives false-read and miss rates with 95 % Wilson intervals per task and per rule
family, and names the families with the most errors.

Readings are written as the reviewer writes them: a letter ("C"), letters ("A,C"), true / false,
yes / no, correct / "incorrect, C" for a revision, and none where the reply gives no answer
(正确 / 错误 / 是 / 否 / 无 are taken too).
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from medprobe.engine.rundir import RunDir
from medprobe.errors import MedprobeError
from medprobe.parsing.answers import conclusion, question_of, read_strict
from medprobe.parsing.base import Revision
from medprobe.parsing.formats import STRICT_KINDS
from medprobe.parsing.reading import Reading, unread_family
from medprobe.precision import wilson
from medprobe.records import Probe, Response
from medprobe.sheets import read_sheet, write_sheet

COLUMNS = ("id", "task", "language", "question", "options", "reply", "reading", "rule", "family_replies", "your_reading", "note")
REQUIRED = ("id", "task", "reading", "rule", "your_reading")
NONE = "none"
_INSTRUCTIONS = (
    "Read each reply and write in your_reading the answer it gives: a letter (C), letters (A,C), true/false, "
    "yes/no, correct or 'incorrect, C' for a revision; none when it gives no answer (or several, or is unsure). "
    "Leave your_reading blank to skip a row. Then: medprobe readings score THIS_FILE",
)
#: the reviewer's words for the answers, beside the canonical ones
#: (longest first: 不正确 is a refutation, not 不 + 正确); a revision's correct / incorrect fold onto true / false
_WORDS = {"不正确": "false", "不对": "false", "正确": "true", "对": "true", "错误": "false", "错": "false", "是": "yes", "否": "no",
          "无": NONE, "没有": NONE}


def shown(value: object, kind: str) -> str:
    """A reading as the sheet shows it (and as a reviewer writes it)."""
    if value is None:
        return NONE
    if isinstance(value, Revision):
        return "correct" if value.judge else f"incorrect, {value.option}"
    if isinstance(value, frozenset | set):
        return ",".join(sorted(value))
    if isinstance(value, bool):
        return ("yes" if value else "no") if kind == "yes_no" else ("true" if value else "false")
    return str(value)


def canonical(text: str) -> str:
    """A written reading, compared without case, spaces, punctuation or letter order ("C, A" = "A,C")."""
    clean = unicodedata.normalize("NFKC", text).strip().lower()
    for word, meant in _WORDS.items():
        clean = clean.replace(word, meant)
    clean = re.sub(r"^correct\b", "true", re.sub(r"^incorrect\b", "false", clean))
    if clean.startswith(("false", "true")):
        return re.sub(r"[^a-z]", "", clean)
    letters = re.sub(r"\band\b|和", ",", clean)
    if re.fullmatch(r"[a-e](?:[\s,，、;]*[a-e])*", letters):
        return "".join(sorted(set(re.findall(r"[a-e]", letters))))
    return re.sub(r"[^\w]", "", clean)


@dataclass(frozen=True)
class Row:
    probe: Probe
    reply: str
    reading: Reading


def replies(probes: Iterable[Probe], responses: Iterable[Response], *, cot: bool) -> Iterator[Row]:
    """Every first-sample reply to a question strict reading reads, read as the score reads it (a chain
    of thought by its conclusion). The probes need no gold: the platform passes its pack's."""
    first = {r.probe_id: r for r in responses if r.sample == 0}
    for probe in probes:
        response = first.get(probe.id)
        if probe.answer_format.kind not in STRICT_KINDS or response is None or response.error is not None:
            continue
        text = conclusion(response.text) if cot else response.text
        yield Row(probe, response.text, read_strict(text, probe.answer_format, question_of(probe.prompt)))


def _family(reading: Reading) -> str:
    return reading.rule if reading.read else unread_family(reading)


def audit_sheet(run_path: Path, output: Path, *, sample: int | None, seed: int = 0) -> int:
    """Write the audit sheet of a run directory; the number of rows written."""
    run = RunDir.open(run_path)
    rows = list(replies(run.probes(), run.responses().values(), cot=run.config().setting == "cot-sc"))
    if not rows:
        raise MedprobeError("the run has no replies to option or verdict questions to audit", file=run_path,
                            hint="audit reads MultifacetEval and MultiCogEval low/mid runs")
    return write_audit(rows, output, sample=sample, seed=seed)


def write_audit(rows: Sequence[Row], output: Path, *, sample: int | None, seed: int = 0) -> int:
    """Write the audit sheet of ``rows``: a seeded sample of ``sample`` of them, drawn per rule family in
    turn (all when None); the number of rows written."""
    by_family: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        by_family[_family(row.reading)].append(row)
    rng = random.Random(seed)
    for members in by_family.values():
        rng.shuffle(members)
    chosen = _in_turn(list(by_family.values()), sample if sample is not None else len(rows))
    write_sheet(output, COLUMNS, (_sheet_row(row, len(by_family[_family(row.reading)])) for row in chosen), comments=_INSTRUCTIONS)
    return len(chosen)


def _in_turn(groups: list[list[Row]], n: int) -> list[Row]:
    """One row of each group in turn until ``n`` rows are taken (or all are)."""
    chosen: list[Row] = []
    depth = 0
    while len(chosen) < n and any(depth < len(g) for g in groups):
        chosen += [g[depth] for g in groups if depth < len(g)][: n - len(chosen)]
        depth += 1
    return chosen


def _sheet_row(row: Row, family_replies: int) -> dict[str, object]:
    fmt, probe = row.probe.answer_format, row.probe
    options = "; ".join(f"{letter}: {text}" for letter, text in fmt.option_texts.items())
    if fmt.given:
        options += f" (answer to judge: {fmt.given})"
    return {
        "id": probe.id, "task": probe.facet, "language": probe.language, "question": question_of(probe.prompt), "options": options,
        "reply": row.reply, "reading": shown(row.reading.value, fmt.kind), "rule": _family(row.reading) + (f" ({row.reading.reason})" if row.reading.reason else ""),
        "family_replies": family_replies,
    }


@dataclass
class Tally:
    """Reviewed rows of one group: read (the reader gave an answer), false reads among them, answerable
    (the reviewer found an answer), misses among them."""

    reviewed: int = 0
    read: int = 0
    false_reads: int = 0
    answerable: int = 0
    misses: int = 0

    def add(self, reading: str, truth: str) -> None:
        self.reviewed += 1
        self.read += reading != NONE
        self.false_reads += reading != NONE and reading != truth
        self.answerable += truth != NONE
        self.misses += reading == NONE and truth != NONE


def score_sheet(paths: Sequence[Path]) -> dict[str, dict[str, Tally]]:
    """``{"task": {task: Tally}, "rule": {family: Tally}}`` over the reviewed rows of filled-in sheets."""
    groups: dict[str, dict[str, Tally]] = {"task": defaultdict(Tally), "rule": defaultdict(Tally)}
    for path in paths:
        for _, row in read_sheet(path, REQUIRED):
            truth = row["your_reading"].strip()
            if not truth:
                continue
            reading = canonical(row["reading"])
            groups["task"][row["task"]].add(reading, canonical(truth))
            groups["rule"][row["rule"].split(" (", 1)[0]].add(reading, canonical(truth))
    if not any(groups["task"].values()):
        raise MedprobeError("no reviewed rows (your_reading is blank everywhere)", file=paths[0] if len(paths) == 1 else None)
    return groups


def rate(errors: int, n: int) -> str:
    """"2/40 = 5.0% [1.4%, 16.5%]": the share with its 95 % Wilson interval ("–" for n = 0)."""
    if n == 0:
        return "–"
    low, high = wilson(errors, n)
    return f"{errors}/{n} = {100 * errors / n:.1f}% [{100 * low:.1f}%, {100 * high:.1f}%]"


def worst(rules: dict[str, Tally], k: int = 3) -> list[str]:
    """The rule families with the most errors (false reads and misses), most first; none without errors."""
    ranked = sorted(rules.items(), key=lambda kv: -(kv[1].false_reads + kv[1].misses))
    return [name for name, t in ranked[:k] if t.false_reads + t.misses]
