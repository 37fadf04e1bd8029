"""Imported raw result files (``multifaceteval-raw``, ``multicogeval-raw``) with a repeated and a missing
item id, as in the released med42-70B MCQ file (id 5 written again where id 186 belongs): the repeat is
reported and its first line kept, the missing item is reported and counted as unanswered. Fixtures are
written here in the reference layout (REFERENCE_METHODS §1.1-1.3)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from medprobe.contract import BuildOptions
from medprobe.engine.pipeline import rescore
from medprobe.errors import MedprobeError
from medprobe.methods.multicog.lowmid import import_raw as import_mce
from medprobe.methods.multicog.lowmid import score_lowmid
from medprobe.methods.multifacet import METHOD as MULTIFACET
from medprobe.records import Probe, Response
from testing.fixtures import release_files, write_tiny_release
from testing.releases import write_mce_release, write_mce_results, write_mfe

# --- MultifacetEval: {MCQ,RQ,MAQ,TFQ}/<model>_<TYPE>_results.json ---------------------------------------------------

def test_mfe_repeated_and_missing_ids_with_the_release(tmp_path: Path) -> None:
    release = write_tiny_release(tmp_path / "medqa")
    folder = write_mfe(tmp_path / "results", [(5, "A"), (6, "B"), (5, "B")])  # id 5 again where id 7 belongs
    outcome = rescore("multifacet", folder, "multifaceteval-raw", BuildOptions(data=str(release)), out=tmp_path / "runs",
                      reference_compatible=False)
    summary = outcome.summary
    comparison = summary["metrics"]["facets"]["comparison"]
    assert comparison["questions"] == 3, "the missing item stays in the denominator"
    assert comparison["accuracy"] == pytest.approx(1 / 3), "5 right (first line kept), 6 wrong, 7 unanswered"
    assert summary["run"]["errors"] == 1 and summary["status"].startswith("incomplete")
    mcq_file = folder / "MCQ" / "m42_MCQ_results.json"
    assert f"{mcq_file}: 1 item(s) missing, counted as unanswered: id 7; id 5 repeated on lines 1, 3 (line 1 kept)" in summary["notes"]
    assert any("7" in error and "m42_MCQ_results.json" in error for error in summary["run"]["first_errors"])
    report = (outcome.path / "report.md").read_text(encoding="utf-8")
    assert "id 5 repeated on lines 1, 3 (line 1 kept)" in report


def test_mfe_missing_id_without_the_release_names_it_and_asks_for_the_release(tmp_path: Path) -> None:
    folder = write_mfe(tmp_path / "results", [(5, "A"), (6, "B"), (5, "B")])
    with pytest.raises(MedprobeError) as caught:
        MULTIFACET.import_raw(folder, "multifaceteval-raw", BuildOptions())
    error = caught.value
    assert error.file == str(folder / "MCQ" / "m42_MCQ_results.json") and "id 7" in error.message
    assert error.field == "--data" and "release" in (error.hint or "")


def test_mfe_repeated_id_alone_is_reported_and_the_first_line_kept(tmp_path: Path) -> None:
    folder = write_mfe(tmp_path / "results", [(5, "B"), (6, "C"), (7, "A"), (5, "A")])  # the repeat would be right
    probe_set, responses = MULTIFACET.import_raw(folder, "multifaceteval-raw", BuildOptions())
    mcq = {r.probe_id: r.text for r in responses if "/MCQ/" in r.probe_id}
    assert mcq == {"multifacet/medqa-5/MCQ/base": "B", "multifacet/medqa-6/MCQ/base": "C", "multifacet/medqa-7/MCQ/base": "A"}
    assert len({p.id for p in probe_set.probes}) == len(probe_set.probes) == 27
    assert probe_set.info["notes"] == [f"{folder / 'MCQ' / 'm42_MCQ_results.json'}: id 5 repeated on lines 1, 4 (line 1 kept)"]


def test_mfe_cot_missing_item_is_unanswered_in_every_chain(tmp_path: Path) -> None:
    release = write_tiny_release(tmp_path / "medqa")
    items = {item[0]: item for item in release_files()["MCQ"]["test.json"]}
    folder = tmp_path / "results"
    (folder / "MCQ").mkdir(parents=True)
    rows = [items[5] + [["A"] * 5], items[6] + [["C"] * 5]]
    (folder / "MCQ" / "m_MCQ_results_cot.json").write_text("".join(json.dumps(r) + "\n" for r in rows))
    probe_set, responses = MULTIFACET.import_raw(folder, "multifaceteval-raw", BuildOptions(data=str(release), setting="cot-sc"))
    missing = [r for r in responses if r.probe_id == "multifacet/medqa-7/MCQ/base"]
    assert [r.sample for r in missing] == [0, 1, 2, 3, 4] and all(r.error and not r.text for r in missing)
    assert len(probe_set.probes) == 3


def test_mfe_id_outside_the_release_stops_the_import(tmp_path: Path) -> None:
    release = write_tiny_release(tmp_path / "medqa")
    folder = write_mfe(tmp_path / "results", [(5, "A"), (6, "B"), (7, "A")])
    rows = (folder / "MCQ" / "m42_MCQ_results.json").read_text().splitlines()
    stranger = json.loads(rows[2])
    stranger[0] = 900
    (folder / "MCQ" / "m42_MCQ_results.json").write_text("\n".join([*rows, json.dumps(stranger)]) + "\n")
    with pytest.raises(MedprobeError, match="id 900 is not in the release") as caught:
        MULTIFACET.import_raw(folder, "multifaceteval-raw", BuildOptions(data=str(release)))
    assert caught.value.line == 4


# --- MultiCogEval: results/{ds}_repeat/{TYP}/<model>_{TYP}_results.json ----------------------------------------------

def mcq_accuracy(probes: list[Probe], responses: list[Response]) -> dict[str, Any]:
    return score_lowmid(probes, responses, seed=0, reference_compatible=False).metrics.datasets["medqa"].tasks["MCQ"].model_dump()


def test_mce_repeated_and_missing_ids_with_the_release(tmp_path: Path) -> None:
    release = write_mce_release(tmp_path / "data", [5, 6, 7])
    results = write_mce_results(tmp_path / "results", [(5, ["B", "B"]), (6, ["B", "A"]), (5, ["A", "A"])], [5, 6, 7])
    probes, responses, info = import_mce(results, None, None, release=str(release))
    row = mcq_accuracy(probes, responses)
    assert row["questions"] == 3 and row["repeats"] == 2
    assert row["accuracy"] == pytest.approx((2 / 3 + 1 / 3) / 2), "5 right twice (first line), 6 right once, 7 unanswered"
    missing = [r for r in responses if r.probe_id.startswith("multicog/medqa/MCQ/7/")]
    assert len(missing) == 2 and all(r.error for r in missing)
    mcq_file = results / "medqa_repeat" / "MCQ" / "m42_MCQ_results.json"
    assert info["notes"] == [f"{mcq_file}: 1 item(s) missing, counted as unanswered: id 7; id 5 repeated on lines 1, 3 (line 1 kept)"]
    assert info["datasets"]["medqa"]["items"] == {"MCQ": 3, "MR": 3}


def test_mce_run_summary_names_the_ids(tmp_path: Path) -> None:
    release = write_mce_release(tmp_path / "data", [5, 6, 7])
    results = write_mce_results(tmp_path / "results", [(5, ["B", "B"]), (6, ["B", "A"]), (5, ["A", "A"])], [5, 6, 7])
    outcome = rescore("multicog", results, "multicogeval-raw", BuildOptions(data=str(release)), out=tmp_path / "runs",
                      reference_compatible=False)
    assert outcome.summary["run"]["errors"] == 2
    assert any("id 7" in note and "id 5 repeated on lines 1, 3" in note for note in outcome.summary["notes"])


def test_mce_missing_id_without_the_release_names_it(tmp_path: Path) -> None:
    results = write_mce_results(tmp_path / "results", [(5, ["B", "B"]), (6, ["B", "A"]), (5, ["A", "A"])], [5, 6, 7])
    with pytest.raises(MedprobeError) as caught:
        import_mce(results, None, None)
    assert caught.value.file == str(results / "medqa_repeat" / "MCQ" / "m42_MCQ_results.json")
    assert "id 7" in caught.value.message and caught.value.field == "--data"


def test_mce_repeated_id_alone_keeps_the_first_line(tmp_path: Path) -> None:
    results = write_mce_results(tmp_path / "results", [(5, ["A", "A"]), (6, ["B", "B"]), (7, ["B", "B"]), (5, ["B", "B"])], [5, 6, 7])
    probes, responses, info = import_mce(results, None, None)
    assert mcq_accuracy(probes, responses)["accuracy"] == pytest.approx(2 / 3)
    assert len({p.id for p in probes}) == len(probes) == 3 * 2 + 3 * 2 * 2
    assert len(info["notes"]) == 1 and "id 5 repeated on lines 1, 4 (line 1 kept)" in info["notes"][0]
