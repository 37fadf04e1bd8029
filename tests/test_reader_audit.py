"""`medprobe readings audit` writes a sheet of a run's replies with the reader's readings; a reviewer fills
in what each reply answers; `medprobe readings score` counts false reads and misses with 95% Wilson
intervals, per task and rule family."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from typer.testing import CliRunner

from medprobe.cli import app
from medprobe.jsonl import write_records
from medprobe.reader_audit import audit_sheet, canonical, rate, score_sheet, worst
from medprobe.records import AnswerFormat, Probe, Response, RunConfig

TEXTS = {"A": "Fever", "B": "Riboflavin", "C": "Cholesterol embolization", "D": "Dabigatran"}
REPLIES = {
    "m1": "The answer is C.",
    "m2": "{\"answer\": \"B\"}",
    "m3": "True / False",  # a true/false reply to an MCQ: unread
    "m4": "I pick the third one.",
    "t1": "False.",
    "t2": "The claim is untrue.",
}


def _run(tmp_path: Path, setting: str | None = None) -> Path:
    run = tmp_path / "run"
    run.mkdir()
    config = RunConfig(method="multifacet", command=["medprobe", "run"], created="2026-01-01T00:00:00+00:00", setting=setting)
    (run / "config.json").write_text(config.model_dump_json())
    mcq = AnswerFormat(kind="option_letter", options=list(TEXTS), option_texts=TEXTS)
    tf = AnswerFormat(kind="true_false", options=[], option_texts={})
    probes = [Probe(id=pid, method="multifacet", knowledge_point="k", facet="MCQ" if pid[0] == "m" else "TFQ",
                    prompt="Question: which?", answer_format=mcq if pid[0] == "m" else tf) for pid in REPLIES]
    write_records(run / "probes.jsonl", probes)
    write_records(run / "responses.jsonl", [Response(probe_id=pid, text=text) for pid, text in REPLIES.items()])
    return run


def _fill(sheet: Path, answers: dict[str, str]) -> None:
    lines = sheet.read_text(encoding="utf-8-sig").splitlines(keepends=True)
    comments = [line for line in lines if line.startswith('"#') or line.startswith("#")]
    rows = list(csv.DictReader(lines[len(comments):]))
    for row in rows:
        row["your_reading"] = answers.get(row["id"], "")
    with sheet.open("w", encoding="utf-8-sig", newline="") as handle:
        handle.writelines(comments)
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def test_the_sheet_shows_each_reply_with_its_reading_and_rule(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    assert audit_sheet(_run(tmp_path), sheet, sample=None) == len(REPLIES)
    text = sheet.read_text(encoding="utf-8-sig")
    assert "your_reading" in text and "Cholesterol embolization" in text
    rows = {r["id"]: r for r in csv.DictReader(text.splitlines()[1:])}
    assert (rows["m1"]["reading"], rows["m1"]["rule"]) == ("C", "labelled")
    assert (rows["m2"]["reading"], rows["m2"]["rule"]) == ("B", "json")
    assert rows["m3"]["reading"] == "none" and rows["m3"]["rule"].startswith("unparsed")
    assert rows["t1"]["reading"] == "false"


def test_a_sample_takes_every_rule_family_in_turn(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    assert audit_sheet(_run(tmp_path), sheet, sample=4, seed=3) == 4
    rules = {r["rule"].split(" (")[0] for r in csv.DictReader(sheet.read_text(encoding="utf-8-sig").splitlines()[1:])}
    assert len(rules) == 4  # bare/leading, labelled, json, unparsed: one of each before a second of any


def test_scoring_counts_false_reads_and_misses_with_wilson_intervals(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    audit_sheet(_run(tmp_path), sheet, sample=None)
    # the reviewer: m1 right, m2 actually D (a false read), m3 none, m4 C (a miss), t1 right, t2 blank (skipped)
    _fill(sheet, {"m1": "c", "m2": "D", "m3": "none", "m4": "C", "t1": "错误"})
    groups = score_sheet([sheet])
    mcq, tfq = groups["task"]["MCQ"], groups["task"]["TFQ"]
    assert (mcq.reviewed, mcq.read, mcq.false_reads, mcq.answerable, mcq.misses) == (4, 2, 1, 3, 1)
    assert (tfq.reviewed, tfq.false_reads) == (1, 0)
    assert groups["rule"]["json"].false_reads == 1 and worst(groups["rule"])[0] in ("json", "unparsed")
    assert rate(1, 2) == "1/2 = 50.0% [9.5%, 90.5%]" and rate(0, 0) == "–"


@pytest.mark.parametrize(("written", "same_as"), [("C, A", "A,C"), ("Incorrect, C", "incorrect, C"), ("正确", "true"), (" none ", "none"), ("ＣＡ", "A,C"), ("A and C", "A,C"), ("B和D", "B,D"),
                                                 ("错误，C", "incorrect, C"), ("正确", "correct"), ("不正确", "false"), ("incorrect", "false")])
def test_the_reviewer_may_write_a_reading_in_several_ways(written: str, same_as: str) -> None:
    assert canonical(written) == canonical(same_as)


def test_the_cli_writes_and_scores_a_sheet(tmp_path: Path) -> None:
    run, sheet = _run(tmp_path), tmp_path / "out" / "sheet.csv"
    result = CliRunner().invoke(app, ["readings", "audit", str(run), "--sample", "3", "-o", str(sheet)])
    assert result.exit_code == 0, result.output
    _fill(sheet, {})
    blank = CliRunner().invoke(app, ["readings", "score", str(sheet)])
    assert blank.exit_code == 2 and "no reviewed rows" in " ".join(blank.output.split())
    audit_sheet(run, sheet, sample=None)
    _fill(sheet, {"m1": "C", "m2": "D"})
    result = CliRunner().invoke(app, ["readings", "score", str(sheet)])
    assert result.exit_code == 0, result.output
    assert "1/1 = 100.0%" in result.output and "json" in result.output


def test_a_chain_of_thought_is_read_by_its_conclusion_as_the_score_reads_it(tmp_path: Path) -> None:
    """On a cot-sc run the score reads a chain's conclusion; the sheet showed the whole chain's reading."""
    run = _run(tmp_path, setting="cot-sc")
    chain = "Answer: A is tempting at first. Therefore the answer is C."
    write_records(run / "responses.jsonl", [Response(probe_id="m1", text=chain)])
    sheet = tmp_path / "sheet.csv"
    audit_sheet(run, sheet, sample=None)
    lines = sheet.read_text(encoding="utf-8-sig").splitlines(keepends=True)
    rows = list(csv.DictReader([line for line in lines if not line.startswith(('"#', "#"))]))
    assert [(row["id"], row["reading"]) for row in rows] == [("m1", "C")]
