"""The knowledge-base file format: what loads, what is refused, and how the refusal reads."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from medprobe.errors import MedprobeError
from medprobe.sources.kb import Disease, kb_stats, load_kb, write_kb


def disease(i: int = 0, **fields: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": f"T:{i}",
        "name": f"disease {i}",
        "language": "en",
        "aspects": {"primary_symptoms": ["fever", "cough"], "departments": ["neurology"]},
    }
    record.update(fields)
    return record


def write_lines(path: Path, lines: list[Any]) -> Path:
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines), encoding="utf-8")
    return path


def load_error(path: Path) -> MedprobeError:
    with pytest.raises(MedprobeError) as info:
        load_kb(path)
    return info.value


def test_a_valid_kb_loads_with_its_file_name(tmp_path: Path) -> None:
    kb = load_kb(write_lines(tmp_path / "mini.jsonl", [disease(0), "", disease(1)]))
    assert kb.name == "mini"
    assert kb.language == "en"
    assert [d.id for d in kb.diseases] == ["T:0", "T:1"]


def test_malformed_json_names_file_and_line(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "kb.jsonl", [disease(0), '{"id": "T:1", "name": '])
    error = load_error(path)
    assert (error.file, error.line) == (str(path), 2)
    assert "malformed JSON" in str(error) and f"{path}:2" in str(error)


def test_a_line_that_is_not_an_object_is_refused(tmp_path: Path) -> None:
    error = load_error(write_lines(tmp_path / "kb.jsonl", [["fever"]]))
    assert error.line == 1 and "one JSON object per line" in error.message


def test_missing_field_names_the_field(tmp_path: Path) -> None:
    record = disease(0)
    del record["name"]
    error = load_error(write_lines(tmp_path / "kb.jsonl", [disease(1), record]))
    assert (error.line, error.field, error.message) == (2, "name", "missing required field")


def test_unknown_top_level_field_is_refused(tmp_path: Path) -> None:
    error = load_error(write_lines(tmp_path / "kb.jsonl", [disease(0, symptoms=["fever"])]))
    assert (error.field, error.message) == ("symptoms", "unknown field")


def test_unknown_aspect_names_the_aspect_and_the_way_out(tmp_path: Path) -> None:
    error = load_error(write_lines(tmp_path / "kb.jsonl", [disease(0, aspects={"primary_symptom": ["fever"]})]))
    assert error.line == 1 and error.field == "aspects"
    assert "'primary_symptom'" in error.message and "extra" in error.message


@pytest.mark.parametrize(
    ("aspects", "complaint"),
    [
        ({"primary_symptoms": "fever"}, "enumerated aspect but the value is declarative"),
        ({"laboratory_examinations": ["raised CK"]}, "declarative aspect but the value is enumerated"),
        ({"severity_level": "severe"}, "numeric aspect but the value is declarative"),
        ({"severity_level": True}, "booleans are not aspect values"),
        ({"primary_symptoms": []}, "needs at least one entity"),
        ({"primary_symptoms": ["fever", " "]}, "must be non-empty strings"),
        ({"laboratory_examinations": "  "}, "empty text"),
    ],
)
def test_wrong_value_shape_is_refused(tmp_path: Path, aspects: dict[str, Any], complaint: str) -> None:
    error = load_error(write_lines(tmp_path / "kb.jsonl", [disease(0, aspects=aspects)]))
    assert error.field == "aspects" and complaint in error.message


@pytest.mark.parametrize(
    ("extra", "complaint"),
    [
        ({"Inheritance": ["autosomal dominant"]}, "must be snake_case"),
        ({"departments": ["neurology"]}, "is a MedDisK aspect"),
        ({"cause": []}, "needs at least one entity"),
    ],
)
def test_bad_extra_is_refused(tmp_path: Path, extra: dict[str, Any], complaint: str) -> None:
    error = load_error(write_lines(tmp_path / "kb.jsonl", [disease(0, extra=extra)]))
    assert error.field == "extra" and complaint in error.message


def test_empty_kb_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "kb.jsonl"
    path.write_text("\n\n", encoding="utf-8")
    assert "empty" in load_error(path).message


def test_missing_file_is_reported(tmp_path: Path) -> None:
    assert load_error(tmp_path / "nowhere.jsonl").message == "file not found"


def test_duplicate_id_points_at_the_first_line(tmp_path: Path) -> None:
    error = load_error(write_lines(tmp_path / "kb.jsonl", [disease(0), disease(1), disease(0)]))
    assert (error.line, error.field) == (3, "id")
    assert "first on line 1" in error.message


def test_mixed_languages_are_refused(tmp_path: Path) -> None:
    error = load_error(write_lines(tmp_path / "kb.jsonl", [disease(0), disease(1, language="zh")]))
    assert (error.line, error.field) == (2, "language")


def test_write_then_load_round_trips(tmp_path: Path) -> None:
    diseases = [
        Disease.model_validate(disease(0, codes={"OMIM": ["154700"]}, synonyms=["MFS"], extra={"inheritance": ["AD"]})),
        Disease.model_validate(disease(1, aspects={"laboratory_examinations": "高血糖", "severity_level": 2})),
    ]
    path = tmp_path / "kb.jsonl"
    write_kb(path, diseases)
    assert load_kb(path).diseases == diseases
    assert not list(tmp_path.glob("*.tmp"))


def test_knowledge_points_and_stats_of_a_tiny_kb(tmp_path: Path) -> None:
    kb = load_kb(write_lines(tmp_path / "kb.jsonl", [
        disease(0, extra={"inheritance": ["AD"]}),
        disease(1, aspects={"primary_symptoms": ["rash"], "laboratory_examinations": "low Hb", "severity_level": 3}),
    ]))
    points = list(kb.knowledge_points())
    assert [p.id for p in points] == ["T:0/primary_symptoms", "T:0/departments", "T:1/primary_symptoms"]
    assert points[0].values == ["fever", "cough"] and points[0].disease == "disease 0"
    assert [p.id for p in kb.knowledge_points(min_values=2)] == ["T:0/primary_symptoms"]
    assert [p.id for p in kb.knowledge_points(aspects=["inheritance"])] == ["T:0/inheritance"]

    stats = kb_stats(kb)
    assert stats["diseases"] == 2 and stats["language"] == "en"
    assert stats["aspects"] == {
        "primary_symptoms": {"diseases": 2, "knowledge_points": 3},
        "laboratory_examinations": {"diseases": 1, "knowledge_points": 1},
        "departments": {"diseases": 1, "knowledge_points": 1},
        "severity_level": {"diseases": 1, "knowledge_points": 1},
        "extra.inheritance": {"diseases": 1, "knowledge_points": 1},
    }
    assert list(stats["aspects"]) == ["primary_symptoms", "laboratory_examinations", "departments", "severity_level",
                                      "extra.inheritance"]
    assert stats["total_knowledge_points"] == 7
