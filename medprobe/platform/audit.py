"""The reader audit of a submission, for its owner: the sheet of their replies with the strict
reader's readings, and the score of the sheet once they have filled it in.

The sheet is built from the pack, as the participant saw it (public ids, their option order), and
from their own answers: it holds no gold and no engine ids, and a reading depends on the reply and
the options alone, so it tells the owner nothing of the gold that their answers did not. It is still
theirs alone (and the admins'): their replies are private even when their scores are public.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from medprobe.errors import MedprobeError
from medprobe.platform.models import Submission
from medprobe.reader_audit import Tally, replies, score_sheet, write_audit
from medprobe.records import Probe, Response


def pack_probes(submission: Submission) -> list[Probe]:
    """The benchmark's probes as its pack shows them: public ids and option orders, no gold."""
    benchmark = submission.benchmark
    probes = []
    for line in benchmark.pack_jsonl.splitlines():
        row = json.loads(line)
        probes.append(Probe(id=row["id"], method=benchmark.method, knowledge_point="", facet=row["facet"], language=row["language"],
                            system=row["system"], prompt=row["prompt"], answer_format=row["answer_format"]))
    return probes


def audit_csv(submission: Submission, sample: int, seed: int = 0) -> tuple[str, int]:
    """The audit sheet (CSV text) of a seeded sample of the submission's replies, and its number of rows
    (0 when the benchmark asks no option or verdict questions)."""
    answers = [Response.model_validate_json(line) for line in submission.answers_jsonl.splitlines() if line]
    rows = list(replies(pack_probes(submission), answers, cot=submission.benchmark.setting == "cot-sc"))
    if not rows:
        return "", 0
    with tempfile.TemporaryDirectory(prefix="medprobe-audit-") as tmp:
        sheet = Path(tmp) / "audit.csv"
        written = write_audit(rows, sheet, sample=sample, seed=seed)
        return sheet.read_text(encoding="utf-8"), written


def score_upload(content: bytes, name: str) -> dict[str, dict[str, Tally]]:
    """The score of a filled-in audit sheet (per task and per rule family). The sheet's own errors
    (missing columns, not UTF-8, nothing reviewed) raise MedprobeError naming the uploaded file,
    not the server's scratch copy."""
    with tempfile.TemporaryDirectory(prefix="medprobe-audit-") as tmp:
        sheet = Path(tmp) / "filled.csv"
        sheet.write_bytes(content)
        try:
            return score_sheet([sheet])
        except MedprobeError as exc:
            exc.file = name
            raise
