"""Verified items: review sheets (``items sample``), verdicts (``items apply``) and ``--verified`` on build and
run, for MultifacetEval, MultiCogEval (KB items), SDAK claim pairs and MedDisKEval reference answers."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from test_cli import flat, invoke

from medprobe.jsonl import read_json, read_records
from medprobe.records import Probe
from testing.fixtures import tiny_kb_records


def sample(tmp_path: Path, method: str, kb: Path, name: str = "sheet.csv", *extra: str) -> list[dict[str, str]]:
    sheet = tmp_path / name
    result = invoke("items", "sample", method, "--data", kb, "-o", sheet, *extra)
    assert result.exit_code == 0, result.output
    return read_rows(sheet)


def read_rows(sheet: Path) -> list[dict[str, str]]:
    lines = [line for line in sheet.read_text(encoding="utf-8-sig").splitlines(keepends=True) if not line.startswith(('#', '"#'))]
    return list(csv.DictReader(lines))


def write_rows(sheet: Path, rows: list[dict[str, str]]) -> Path:
    with sheet.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return sheet


def mark(rows: list[dict[str, str]], verdicts: dict[int, str]) -> list[dict[str, str]]:
    """The rows with ``verdicts`` (row index -> verdict word) written in."""
    return [{**row, "verdict": verdicts.get(i, row["verdict"])} for i, row in enumerate(rows)]


def apply(tmp_path: Path, *sheets: Path, extra: tuple[str, ...] = ()) -> dict:
    result = invoke("items", "apply", *sheets, "-o", tmp_path / "verified.json", *extra)
    assert result.exit_code == 0, result.output
    return read_json(tmp_path / "verified.json")


def build(tmp_path: Path, method: str, kb: Path, *extra: str) -> tuple[list[Probe], str]:
    out = tmp_path / f"probes-{len(list(tmp_path.iterdir()))}.jsonl"
    result = invoke("build", method, "--data", kb, "-o", out, *extra)
    assert result.exit_code == 0, result.output
    return read_records(out, Probe), flat(result.stderr)


DRUGS = ["aspirin", "metformin", "insulin", "warfarin", "heparin", "ibuprofen", "prednisone", "amoxicillin"]


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    """24 made-up diseases with four symptoms and three medications each (no departments: diseases
    sharing one are too close to lend each other distractors)."""
    records = tiny_kb_records(24)
    for i, record in enumerate(records):
        record["aspects"]["medications"] = [DRUGS[(i + k) % len(DRUGS)] for k in range(3)]
        del record["aspects"]["departments"]
    path = tmp_path / "kb.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_the_sheet_has_instructions_and_one_row_per_distinct_question(tmp_path: Path, kb: Path) -> None:
    rows = sample(tmp_path, "multifacet", kb, "sheet.csv", "--limit", "3")
    assert [r["task"] for r in rows[:4]] == ["MCQ/base", "MCQ/neg", "MAQ/pos", "TFQ/stmt"]
    assert len(rows) == 12 and len({r["knowledge_point"] for r in rows}) == 3
    first = rows[0]
    assert first["question"].startswith("Question: Which of the following belongs to")
    assert "Answer:" not in first["question"] and "Solved" not in first["question"]
    assert first["key"] in first["options"].splitlines() and len(first["options"].splitlines()) == 4
    assert first["item_id"].startswith(f"multifacet/{first['knowledge_point']}/MCQ/base@")
    assert (tmp_path / "sheet.csv").read_text(encoding="utf-8-sig").startswith("# Review sheet")
    # the same options give the same ids
    assert [r["item_id"] for r in sample(tmp_path, "multifacet", kb, "again.csv", "--limit", "3")] == [r["item_id"] for r in rows]


def test_verdicts_are_recorded_merged_and_the_flag_wins(tmp_path: Path, kb: Path) -> None:
    rows = sample(tmp_path, "multifacet", kb, "sheet.csv", "--limit", "3")
    first = write_rows(tmp_path / "a.csv", mark(rows, {0: "wrong", 1: "ok", 2: "skip", 5: "模糊"}))
    first_rows = read_rows(first)
    first_rows[0]["note"] = "D is also right"
    write_rows(first, first_rows)
    document = apply(tmp_path, first, extra=("--reviewer", "Dr. A"))
    items = document["items"]
    assert len(items) == 11  # every row but the skipped one
    assert items[rows[0]["item_id"]]["verdict"] == "wrong"
    assert items[rows[0]["item_id"]]["reviews"][0] | {"date": "-"} == {
        "verdict": "wrong", "note": "D is also right", "reviewer": "Dr. A", "date": "-", "sheet": "a.csv"}
    assert items[rows[5]["item_id"]]["verdict"] == "ambiguous" and items[rows[3]["item_id"]]["verdict"] == "ok"
    assert rows[2]["item_id"] not in items
    second = write_rows(tmp_path / "b.csv", mark(rows, {0: "ok", 3: "wrong"}))
    merged = apply(tmp_path, second)["items"]
    assert merged[rows[0]["item_id"]]["verdict"] == "wrong" and len(merged[rows[0]["item_id"]]["reviews"]) == 2
    assert merged[rows[3]["item_id"]]["verdict"] == "wrong"
    assert merged[rows[2]["item_id"]]["verdict"] == "ok"  # reviewed in the second sheet


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"verdict": "maybe"}, "verdict", "unknown verdict 'maybe'"),
        ({"item_id": ""}, "item_id", "no item id"),
        ({"item_id": "multifacet/T:1/primary_symptoms/MCQ/base"}, "item_id", "is no item id written by `medprobe items sample`"),
    ],
)
def test_a_bad_row_is_refused_with_file_line_and_column(tmp_path: Path, kb: Path, change: dict, field: str, message: str) -> None:
    rows = sample(tmp_path, "multifacet", kb, "sheet.csv", "--limit", "2")
    rows[1].update(change)
    sheet = write_rows(tmp_path / "bad.csv", rows)
    result = invoke("items", "apply", sheet, "-o", tmp_path / "verified.json")
    assert result.exit_code == 2
    line = next(n for n, text in enumerate(sheet.read_text().splitlines(), start=1) if text.startswith("2,"))  # cells span lines
    error = flat(result.stderr)
    assert f"{sheet}:{line}: field '{field}': " in error and message in error
    assert not (tmp_path / "verified.json").exists()


def test_a_sheet_without_a_verdict_column_or_with_two_verdicts_for_one_item_is_refused(tmp_path: Path, kb: Path) -> None:
    rows = sample(tmp_path, "multifacet", kb, "sheet.csv", "--limit", "2")
    no_column = write_rows(tmp_path / "cut.csv", [{k: v for k, v in r.items() if k != "verdict"} for r in rows])
    assert "field 'verdict': missing column" in flat(invoke("items", "apply", no_column, "-o", tmp_path / "v.json").stderr)
    twice = write_rows(tmp_path / "twice.csv", mark(rows, {0: "wrong"}) + mark(rows[:1], {0: "ok"}))
    result = invoke("items", "apply", twice, "-o", tmp_path / "v.json")
    assert result.exit_code == 2 and "marked 'wrong' on line 2 and 'ok' here" in flat(result.stderr)


def test_multifacet_build_drops_every_probe_of_a_flagged_knowledge_point(tmp_path: Path, kb: Path) -> None:
    rows = sample(tmp_path, "multifacet", kb, "sheet.csv", "--limit", "4")
    apply(tmp_path, write_rows(tmp_path / "a.csv", mark(rows, {2: "wrong", 7: "ambiguous"})))
    everything, _ = build(tmp_path, "multifacet", kb, "--limit", "4")
    kept, notes = build(tmp_path, "multifacet", kb, "--limit", "4", "--verified", tmp_path / "verified.json")
    flagged = {rows[2]["knowledge_point"], rows[7]["knowledge_point"]}
    assert len(flagged) == 2
    assert {p.knowledge_point for p in kept} == {p.knowledge_point for p in everything} - flagged
    assert len(everything) - len(kept) == 20  # ten questions per knowledge point
    assert "16 of 16 items reviewed; 2 flagged (1 ambiguous, 1 wrong), so 2 knowledge point(s) and their 20 probes dropped" in notes


def test_a_verdict_on_an_item_that_changed_is_not_applied(tmp_path: Path, kb: Path) -> None:
    rows = sample(tmp_path, "multifacet", kb, "sheet.csv", "--limit", "4")
    apply(tmp_path, write_rows(tmp_path / "a.csv", mark(rows, {0: "wrong"})))
    records = [json.loads(line) for line in kb.read_text().splitlines()]
    disease_id, aspect = rows[0]["knowledge_point"].rsplit("/", 1)
    for record in records:
        if record["id"] == disease_id:
            # reordered: the question drawn from them changes, while every other disease's wrong options, which
            # may be drawn from these values, stay as they were
            record["aspects"][aspect] = record["aspects"][aspect][::-1]
    kb.write_text("".join(json.dumps(r) + "\n" for r in records))
    changed = {r["item_id"] for r in sample(tmp_path, "multifacet", kb, "changed.csv", "--limit", "4")}
    assert rows[0]["item_id"] not in changed and rows[4]["item_id"] in changed
    kept, notes = build(tmp_path, "multifacet", kb, "--limit", "4", "--verified", tmp_path / "verified.json")
    assert rows[0]["knowledge_point"] in {p.knowledge_point for p in kept}
    assert "0 flagged (none)" in notes and "4 verdict(s) ignored: their items changed since review" in notes


def test_run_reports_reviewed_and_dropped_items(tmp_path: Path, kb: Path) -> None:
    rows = sample(tmp_path, "multifacet", kb, "sheet.csv", "--limit", "4")
    apply(tmp_path, write_rows(tmp_path / "a.csv", mark(rows[:8], {0: "wrong"})))
    result = invoke("run", "multifacet", "--model", "random", "--data", kb, "--limit", "4", "--verified", tmp_path / "verified.json",
                    "--out", tmp_path / "runs", "-q")
    assert result.exit_code == 0, result.output
    run_dir = Path(result.stdout.splitlines()[-1])
    summary = read_json(run_dir / "summary.json")
    assert summary["verification"] | {"file": "-"} == {
        "file": "-", "items": 16, "reviewed": 8, "flagged": {"wrong": 1}, "dropped_knowledge_points": 1, "dropped_probes": 10,
        "changed": 0, "elsewhere": 0}
    assert summary["metrics"]["knowledge_points"] == 3
    assert "8 of 16 items reviewed; 1 flagged (1 wrong)" in (run_dir / "report.md").read_text()


def test_sdak_a_flagged_claim_drops_both_claims_in_every_run(tmp_path: Path, kb: Path) -> None:
    rows = sample(tmp_path, "sdak", kb, "sheet.csv", "--limit", "3")
    assert any(r["question"].startswith("People with test disease") for r in rows)  # symptoms
    assert any(r["question"].startswith(tuple(d.capitalize() for d in DRUGS)) for r in rows)  # medications
    assert {r["key"] for r in rows} == {"true"} and {r["options"] for r in rows} == {""}
    assert len(rows) == len({r["item_id"] for r in rows}) == 6  # three per type, each once
    apply(tmp_path, write_rows(tmp_path / "a.csv", mark(rows, {0: "wrong"})))
    everything, _ = build(tmp_path, "sdak", kb, "--limit", "3")
    kept, notes = build(tmp_path, "sdak", kb, "--limit", "3", "--verified", tmp_path / "verified.json")
    assert len(everything) - len(kept) == 2 * 3  # factual and counterfactual, three runs
    assert rows[0]["knowledge_point"] not in {p.knowledge_point for p in kept}
    assert "6 of 6 items reviewed; 1 flagged (1 wrong)" in notes


def test_meddisk_a_flagged_reference_answer_drops_that_disease_aspect(tmp_path: Path, kb: Path) -> None:
    rows = sample(tmp_path, "meddisk", kb, "sheet.csv", "--limit", "2")
    assert rows[0]["question"].startswith("Question: What are the") and rows[0]["key"]
    apply(tmp_path, write_rows(tmp_path / "a.csv", mark(rows, {1: "wrong"})))
    everything, _ = build(tmp_path, "meddisk", kb, "--limit", "2")
    kept, _ = build(tmp_path, "meddisk", kb, "--limit", "2", "--verified", tmp_path / "verified.json")
    assert [p.knowledge_point for p in everything if p not in kept] == [rows[1]["knowledge_point"]]


def test_multicog_a_flagged_question_drops_the_item_from_every_task(tmp_path: Path, kb: Path) -> None:
    rows = sample(tmp_path, "multicog", kb, "sheet.csv", "--limit", "3")
    assert sorted(r["task"] for r in rows if r["knowledge_point"] == rows[0]["knowledge_point"]) == ["AE/replaced", "MCQ/base", "SV/false", "SV/true"]
    mcq = next(r for r in rows if r["task"] == "MCQ/base")
    assert mcq["key"] in mcq["options"].splitlines() and "Answer:" not in mcq["question"]
    apply(tmp_path, write_rows(tmp_path / "a.csv", mark(rows, {rows.index(mcq): "wrong"})))
    everything, _ = build(tmp_path, "multicog", kb, "--limit", "3")
    kept, _ = build(tmp_path, "multicog", kb, "--limit", "3", "--verified", tmp_path / "verified.json")
    dropped = [p for p in everything if p.knowledge_point == mcq["knowledge_point"] and p.meta.get("level") != "high"]
    assert {p.facet for p in dropped} == {"MCQ", "SV", "AE", "MR"}
    assert len(everything) - len(kept) == len(dropped)


def test_a_file_that_is_no_verification_file_is_refused(tmp_path: Path, kb: Path) -> None:
    bogus = tmp_path / "bogus.json"
    bogus.write_text('{"items": {}}')
    result = invoke("build", "multifacet", "--data", kb, "-o", tmp_path / "p.jsonl", "--verified", bogus)
    assert result.exit_code == 2 and "not a verification file" in flat(result.stderr)
