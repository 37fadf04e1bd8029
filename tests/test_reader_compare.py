"""`medprobe readings compare RUN`: per task, how often strict reading and the published scripts' extractors
agree on a run's replies, differ, or only one reads an answer, with examples, so a user comparing with a
paper sees why the numbers differ."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from medprobe.cli import app
from medprobe.jsonl import write_records
from medprobe.reader_compare import DIFFERENT, NEITHER, REFERENCE_ONLY, SAME, STRICT_ONLY, compare_run
from medprobe.records import AnswerFormat, Probe, Response

TEXTS = {"A": "Fever", "B": "Riboflavin", "C": "Cholesterol embolization", "D": "Dabigatran"}
REPLIES = {
    "same": "C",
    "strict-only": "The answer is C.",  # the published MCQ patterns want the letter first or "Answer: C"
    "different": "Option A is wrong. The answer is C.",  # the published list reads "Option A" first
    "reference-only": "A or C",  # the published extractor takes the first letter; strict refuses two options
    "neither": "I do not know.",
}


def _run(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    run.mkdir()
    (run / "config.json").write_text(json.dumps({"method": "multicog", "command": [], "created": "now"}))
    mcq = AnswerFormat(kind="option_letter", options=list(TEXTS), option_texts=TEXTS)
    probes = [Probe(id=pid, method="multicog", knowledge_point="k", facet="MCQ", prompt="Question: which?",
                    answer_format=mcq, meta={"dataset": "medqa"}) for pid in REPLIES]
    write_records(run / "probes.jsonl", probes)
    write_records(run / "responses.jsonl", [Response(probe_id=pid, text=text) for pid, text in REPLIES.items()])
    return run


def test_each_reply_is_counted_by_how_the_two_readers_part(tmp_path: Path) -> None:
    task = compare_run(_run(tmp_path))["medqa/MCQ"]
    assert task.counts[SAME] == 1 and task.counts[STRICT_ONLY] == 1 and task.counts[NEITHER] == 1, task.counts
    assert task.counts[REFERENCE_ONLY] == 1 and task.strict_unread == {"unparsed: several options": 1}
    assert task.counts[DIFFERENT] == 1 and task.examples[DIFFERENT][0][1:] == ("C", "A")
    assert task.examples[REFERENCE_ONLY] == [("A or C", None, "A")]


def test_the_cli_prints_the_table_and_examples(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["readings", "compare", str(_run(tmp_path))])
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "medqa/MCQ" in text and "A or C" in text and "unparsed: several options" in text
