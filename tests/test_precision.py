"""The precision table: Wilson intervals, cells by KB version, what ships, a run's error estimate."""

from __future__ import annotations

import json
import math

import pytest

from medprobe.precision import Cell, Reading, cells, item_error, load_readings, wilson


def _reading(aspect: str, type_: str, verdict: str = "ok", confidence: str = "high", version: int = 1) -> Reading:
    return Reading(f"{aspect}/{type_}", "en", aspect, type_, verdict, confidence, "", 5, version, "r1")


def test_wilson_matches_known_values() -> None:
    low, high = wilson(40, 40)
    assert round(low, 3) == 0.912 and high == 1.0
    low, high = wilson(9, 10)
    assert round(low, 3) == 0.596 and round(high, 3) == 0.982
    assert wilson(0, 0) == (0.0, 1.0)


def test_cells_count_bad_and_low_confidence_and_keep_only_the_current_version() -> None:
    readings = [
        _reading("medications", "MCQ"),
        _reading("medications", "MCQ", "wrong key"),
        _reading("medications", "MCQ", confidence="low"),
        _reading("medications", "MCQ", version=2),
    ]
    table = cells(readings, "en", 1)
    assert table == {("medications", "MCQ"): Cell("en", "medications", "MCQ", 3, 2)}


def test_a_cell_ships_only_with_enough_clean_readings() -> None:
    assert not Cell("en", "a", "MCQ", 20, 0).shipped  # lower bound 0.84
    assert Cell("en", "a", "MCQ", 40, 0).shipped
    assert not Cell("en", "a", "MCQ", 40, 3).shipped


def test_item_error_weights_cells_by_the_items_a_run_used() -> None:
    table = {("a", "MCQ"): Cell("en", "a", "MCQ", 50, 5), ("b", "MCQ"): Cell("en", "b", "MCQ", 50, 0)}
    estimate = item_error(table, {("a", "MCQ"): 30, ("b", "MCQ"): 10})
    assert estimate.rate == pytest.approx(0.75 * 0.1)
    assert 0 < estimate.low < estimate.rate < estimate.high < 0.25
    assert estimate.unmeasured == 0
    partial = item_error(table, {("a", "MCQ"): 10, ("c", "TFQ"): 10})
    assert partial.unmeasured == 0.5 and "unmeasured" in partial.text()
    none = item_error(table, {("c", "TFQ"): 10})
    assert math.isnan(none.rate) and none.text().startswith("not measured")


def test_load_readings_refuses_an_unknown_verdict(tmp_path) -> None:
    path = tmp_path / "r.jsonl"
    line = {"id": "x", "language": "en", "aspect": "a", "type": "MCQ", "verdict": "fine", "confidence": "high",
            "reason": "", "seed": 1, "kb_version": 1, "round": "r"}
    path.write_text(json.dumps(line) + "\n")
    with pytest.raises(ValueError, match="r.jsonl:1"):
        load_readings([path])


def test_a_rare_english_disease_is_a_cell_of_its_own() -> None:
    from medprobe.precision import cell_aspect, point_cell

    assert cell_aspect("en", "ICD10:J45.909", "medications") == "medications"
    assert cell_aspect("en", "ORPHA:558", "primary_symptoms") == "primary_symptoms (rare diseases)"
    assert cell_aspect("zh", "CMeKG:阑尾炎", "primary_symptoms") == "primary_symptoms"
    assert point_cell("en", "OMIM:154700/associated_symptoms") == "associated_symptoms (rare diseases)"


def test_the_shipped_readings_measure_the_current_english_builder() -> None:
    """A builder change bumps its version and so drops the readings from the table: the default English build
    (and `make run`) then has nothing to ask until the questions are read again. This fails first."""
    from medprobe.methods.multifacet import READ_TYPES
    from medprobe.precision import builtin_cells, shipped_readings

    assert all(r.verdict in ("ok", "wrong key", "ambiguous", "malformed") for r in shipped_readings())
    shipped = {(aspect, kind) for (aspect, kind), cell in builtin_cells("en").items() if cell.shipped}
    assert {(aspect, kind) for aspect in ("primary_symptoms", "medications") for kind in READ_TYPES} <= shipped
    assert all(cell.read >= 100 for (aspect, _), cell in builtin_cells("en").items() if aspect in ("primary_symptoms", "medications"))
