"""The gate (built-in KBs ask only the aspects blind reading measured precise enough, unless
--include-unmeasured) and the estimated item error on every report and leaderboard.

Nothing here reads the readings that ship: a fixture "built-in" KB (a tiny KB written where
``builtin:en`` is cached) and fixture readings (``medprobe.precision.shipped_readings`` swapped) make
primary_symptoms ship for every question type and leave associated_symptoms (and departments) unread.
"""

from __future__ import annotations

import csv
import json
import math
from collections import Counter
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from medprobe import precision
from medprobe.cli import app
from medprobe.contract import BuildOptions, get_method
from medprobe.errors import MedprobeError
from medprobe.gating import item_error_cell
from medprobe.jsonl import read_json, read_records, write_records
from medprobe.precision import BUILDER_VERSIONS, ITEM_TYPES, Reading, cells, item_error, wilson
from medprobe.profile.oracle import oracle_responses
from medprobe.profile.points import profile_builds
from medprobe.records import Probe, Response
from medprobe.sources.builtin import VERSIONS
from testing.fixtures import SYMPTOMS, tiny_kb_records

ENV = {"COLUMNS": "1000", "NO_COLOR": "1"}
SHIPPED, UNREAD = "primary_symptoms", "associated_symptoms"
#: per type: (read, bad) of the shipped aspect; 59 of 60 right has a Wilson lower bound of 0.911
READ = {"MCQ": (60, 0), "MCQ-neg": (60, 1), "MAQ": (60, 1), "TFQ": (60, 1)}


def write_kb(path: Path) -> Path:
    """48 made-up diseases with primary and associated symptoms (four each, none shared), departments and a severity."""
    records = tiny_kb_records(48)
    for i, record in enumerate(records):
        record["id"] = f"ICD10:X{i:02d}"  # the built-in English KB's common diseases: cells named by aspect alone
        record["aspects"][UNREAD] = [SYMPTOMS[(i * 3 + k + 15) % len(SYMPTOMS)] for k in range(4)]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args], env=ENV)


def flat(text: str) -> str:
    return " ".join(text.split())


def fixture_readings() -> tuple[Reading, ...]:
    return tuple(
        Reading(f"{SHIPPED}/{kind}/{i}", "en", SHIPPED, kind, "wrong key" if i < bad else "ok", "high", "", 1, VERSIONS["en"], "r1",
                BUILDER_VERSIONS["en"])
        for kind, (read, bad) in READ.items() for i in range(read)
    )


@pytest.fixture
def builtin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Reading, ...]:
    """builtin:en is a tiny KB (48 diseases: primary_symptoms, departments, severity) with fixture readings."""
    monkeypatch.setenv("MEDPROBE_HOME", str(tmp_path / "home"))
    write_kb(_cache_path())
    readings = fixture_readings()
    monkeypatch.setattr(precision, "shipped_readings", lambda: readings)
    return readings


def _cache_path() -> Path:
    """Where builtin:en is cached, without building it (the file is written before anyone asks for it)."""
    from medprobe.paths import home_dir
    from medprobe.sources.builtin import _package_version

    path = home_dir() / "kb" / f"en-{VERSIONS['en']}-{_package_version()}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def aspects_of(probes: list[Probe]) -> set[str]:
    """The aspects probes ask (SDAK names its claims' aspect apart; the others end their knowledge point with it)."""
    return {p.meta.get("aspect") or p.knowledge_point.rsplit("/", 1)[1] for p in probes}


# --- the gate ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["multifacet", "multicog", "sdak", "meddisk"])
def test_a_builtin_kb_asks_only_shipped_aspects_unless_unmeasured_are_included(builtin: tuple[Reading, ...], method: str) -> None:
    level = "low,mid" if method == "multicog" else None
    gated = get_method(method).build(BuildOptions(data="builtin:en", limit=4, level=level, repeats=1))
    assert aspects_of(gated.probes) == {SHIPPED}
    assert gated.info["kb_gates"]["builtin:en"]["left_out"][UNREAD] == "not read"
    assert any("aspects left out" in note and UNREAD in note and "--include-unmeasured" in note for note in gated.info["notes"])
    every = get_method(method).build(BuildOptions(data="builtin:en", level=level, repeats=1, include_unmeasured=True))
    assert UNREAD in every.info["kb_gates"]["builtin:en"]["unmeasured_included"]
    assert aspects_of(every.probes) > {SHIPPED}
    assert any("unmeasured cells included" in note for note in every.info["notes"])


def test_an_aspect_with_one_unshipped_type_is_left_out_for_methods_that_ask_that_type(
    builtin: tuple[Reading, ...], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """MAQ of the shipped aspect read 40 times with 3 bad: MultifacetEval (which needs MAQ) refuses, SDAK (TFQ only) asks it."""
    readings = tuple(r for r in builtin if r.type != "MAQ") + tuple(
        Reading(f"maq/{i}", "en", SHIPPED, "MAQ", "ambiguous" if i < 3 else "ok", "high", "", 1, VERSIONS["en"], "r1") for i in range(40))
    monkeypatch.setattr(precision, "shipped_readings", lambda: readings)
    with pytest.raises(MedprobeError, match="--include-unmeasured") as refused:
        get_method("multifacet").build(BuildOptions(data="builtin:en", limit=4))
    assert "MultifacetEval" in str(refused.value)
    assert aspects_of(get_method("sdak").build(BuildOptions(data="builtin:en", limit=4, repeats=1)).probes) == {SHIPPED}


def test_nothing_shipped_stops_the_build_naming_the_flag(builtin: tuple[Reading, ...], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(precision, "shipped_readings", lambda: ())
    result = invoke("run", "multifacet", "--data", "builtin:en", "--limit", "4", "--model", "random", "--out", tmp_path / "runs", "-q")
    assert result.exit_code == 2
    assert "no aspect of builtin:en" in flat(result.stderr) and "--include-unmeasured" in flat(result.stderr)
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())
    default = invoke("run", "--model", "random", "--out", tmp_path / "runs", "-q")  # the default job is gated too
    assert default.exit_code == 2 and "--include-unmeasured" in flat(default.stderr)
    built = invoke("build", "meddisk", "--data", "builtin:en", "-o", tmp_path / "p.jsonl", "--include-unmeasured")
    assert built.exit_code == 0, built.output


def test_a_user_kb_is_never_gated_and_says_not_measured(builtin: tuple[Reading, ...], tmp_path: Path) -> None:
    kb = write_kb(tmp_path / "mine.jsonl")
    built = get_method("multifacet").build(BuildOptions(data=str(kb)))
    assert aspects_of(built.probes) == {SHIPPED, UNREAD}
    assert built.info["kb_gates"]["mine"]["builtin"] is False
    assert any("your own knowledge base" in note for note in built.info["notes"])


def test_profile_points_come_from_shipped_aspects_and_every_method_builds_on_them(builtin: tuple[Reading, ...]) -> None:
    points, builds = profile_builds("builtin:en", limit=6, seed=0)
    assert {p.rsplit("/", 1)[1] for p in points.ids} == {SHIPPED}
    for method, options in builds:
        probe_set = get_method(method).build(options)
        assert probe_set.info["kb_gates"]["builtin:en"]["builtin"], method  # the cache file is still the built-in KB
    wider, _ = profile_builds("builtin:en", limit=30, seed=0, include_unmeasured=True)
    assert UNREAD in {p.rsplit("/", 1)[1] for p in wider.ids}


# --- the item error ---------------------------------------------------------------------------------


def _run(tmp_path: Path, *args: str | Path) -> tuple[Path, Result]:
    result = invoke("run", *args, "--model", "random", "--out", tmp_path / "runs", "-q")
    assert result.exit_code == 0, result.output
    return Path(result.stdout.strip().splitlines()[-1]), result


def test_a_run_on_a_builtin_kb_states_its_item_error(builtin: tuple[Reading, ...], tmp_path: Path) -> None:
    run_dir, result = _run(tmp_path, "multifacet", "--data", "builtin:en", "--limit", "6")
    probes = read_records(run_dir / "probes.jsonl", Probe)
    kinds = Counter(("MCQ-neg" if p.meta["negated"] else "MCQ") if p.facet in ("MCQ", "RQ") else p.facet for p in probes)
    expected = item_error(cells(builtin, "en", VERSIONS["en"], BUILDER_VERSIONS["en"]), {(SHIPPED, kind): n for kind, n in kinds.items()})
    found = read_json(run_dir / "summary.json")["item_error"]
    assert found["measured_by"] == "blind reading" and found["items"] == len(probes)
    assert found["rate"] == pytest.approx(expected.rate) and found["low"] == pytest.approx(expected.low)
    assert found["high"] == pytest.approx(expected.high) and found["unmeasured"] == 0
    assert 0 < found["low"] < found["rate"] < found["high"] < 0.1
    line = f"{100 * expected.rate:.1f}% (95% CI {100 * expected.low:.1f}–{100 * expected.high:.1f}%)"
    assert f"estimated item error | {line}" in (run_dir / "report.md").read_text()
    assert f"estimated item error: {line}" in flat(result.stdout)
    config = read_json(run_dir / "config.json")
    assert config["build_info"]["kb_gates"]["builtin:en"]["left_out"][UNREAD] == "not read"


def test_an_unmeasured_run_says_so(builtin: tuple[Reading, ...], tmp_path: Path) -> None:
    run_dir, _ = _run(tmp_path, "sdak", "--data", "builtin:en", "--limit", "5", "--repeats", "1", "--include-unmeasured")
    found = read_json(run_dir / "summary.json")["item_error"]
    probes = read_records(run_dir / "probes.jsonl", Probe)
    unread = sum(p.meta["aspect"] != SHIPPED for p in probes) / len(probes)
    assert 0 < unread < 1 and found["unmeasured"] == pytest.approx(unread)
    assert f"{100 * unread:.0f}% of the items come from unmeasured cells" in found["text"]
    assert any("unmeasured cells included" in note for note in read_json(run_dir / "summary.json")["notes"])


def test_a_user_kb_run_is_not_measured_unless_verified(builtin: tuple[Reading, ...], tmp_path: Path) -> None:
    kb = write_kb(tmp_path / "mine.jsonl")
    run_dir, result = _run(tmp_path, "multifacet", "--data", kb, "--limit", "4")
    found = read_json(run_dir / "summary.json")["item_error"]
    assert found["measured_by"] is None and found["text"].startswith("not measured") and "--verified" in found["text"]
    assert "estimated item error: not measured" in flat(result.stdout)
    sheet = tmp_path / "sheet.csv"
    assert invoke("items", "sample", "multifacet", "--data", kb, "--limit", "4", "-o", sheet).exit_code == 0
    lines = sheet.read_text(encoding="utf-8-sig").splitlines(keepends=True)
    comments = [line for line in lines if line.startswith(("#", '"#'))]
    rows = list(csv.DictReader([line for line in lines if line not in comments]))
    reviewed = rows[:10]
    for i, row in enumerate(reviewed):
        row["verdict"] = "wrong" if i == 0 else "ok"
    with (tmp_path / "filled.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(reviewed)
    assert invoke("items", "apply", tmp_path / "filled.csv", "-o", tmp_path / "verified.json").exit_code == 0
    run_dir, _ = _run(tmp_path, "multifacet", "--data", kb, "--limit", "4", "--verified", tmp_path / "verified.json")
    found = read_json(run_dir / "summary.json")["item_error"]
    low, high = wilson(1, 10)
    assert found["measured_by"] == "verification file" and found["rate"] == pytest.approx(0.1)
    assert (found["low"], found["high"]) == (pytest.approx(low), pytest.approx(high))
    assert found["reviewed"] == 10 and found["reviewed_share"] == pytest.approx(10 / len(rows))
    assert f"{100 * 10 / len(rows):.0f}% of the {len(rows)} items built were reviewed" in found["text"]


def test_a_run_on_released_data_has_no_item_error(tmp_path: Path) -> None:
    from testing.fixtures import write_tiny_release

    run_dir, result = _run(tmp_path, "multifacet", "--data", write_tiny_release(tmp_path / "medqa"))
    assert "item_error" not in read_json(run_dir / "summary.json")
    assert "item error" not in (run_dir / "report.md").read_text() and "item error" not in result.stdout
    assert item_error_cell(read_json(run_dir / "summary.json")) == "n/a"


# --- leaderboards -----------------------------------------------------------------------------------


def _meddisk(tmp_path: Path, data: str) -> Path:
    """A MedDisKEval run that answers every question with the KB's own values (a random model cannot recall)."""
    probes = get_method("meddisk").build(BuildOptions(data=data, limit=3)).probes
    replies = tmp_path / f"replies-{len(list(tmp_path.iterdir()))}.jsonl"
    write_records(replies, [Response(probe_id=p.id, text=str(p.gold["reference"])) for p in probes])
    result = invoke("run", "meddisk", "--data", data, "--limit", "3", "--model", f"replay:{replies}", "--out", tmp_path / "runs", "-q")
    assert result.exit_code == 0, result.output
    return Path(result.stdout.strip().splitlines()[-1])


def test_the_meddisk_leaderboard_carries_an_item_error_column(builtin: tuple[Reading, ...], tmp_path: Path) -> None:
    measured = _meddisk(tmp_path, "builtin:en")
    mine = _meddisk(tmp_path, str(write_kb(tmp_path / "mine.jsonl")))
    result = invoke("leaderboard", measured, mine)
    assert result.exit_code == 0, result.output
    found = read_json(measured / "summary.json")["item_error"]
    assert "item error" in result.stdout and "not measured" in result.stdout
    assert f"{100 * found['rate']:.1f}% [{100 * found['low']:.1f}–{100 * found['high']:.1f}]" in result.stdout
    assert not math.isnan(found["rate"]) and found["rate"] == pytest.approx(1 / 60)  # TFQ: 1 of 60 read bad


def test_item_error_cell_reads_every_kind_of_summary() -> None:
    assert item_error_cell({}) == "n/a"
    assert item_error_cell({"item_error": {"measured_by": None, "text": "not measured"}}) == "not measured"
    assert item_error_cell({"item_error": {"measured_by": "blind reading", "rate": 0.05, "low": 0.01, "high": 0.2}}) == "5.0% [1.0–20.0]"


def test_types_are_the_ones_readers_judge() -> None:
    from medprobe.methods.meddisk import READ_TYPES as MEDDISK
    from medprobe.methods.multicog.lowmid.kb import READ_AS
    from medprobe.methods.multifacet import READ_TYPES as MULTIFACET
    from medprobe.methods.sdak.build import READ_TYPES as SDAK

    assert set(MULTIFACET) == set(ITEM_TYPES) and set(READ_AS.values()) == {"MCQ", "TFQ"} and MEDDISK == SDAK == ("TFQ",)
    assert json.dumps(READ_AS, sort_keys=True) == json.dumps({"AE": "MCQ", "MCQ": "MCQ", "MR": "MCQ", "SV": "TFQ"}, sort_keys=True)


def _profile(tmp_path: Path, data: str) -> tuple[dict, Path]:
    """The knowledge profile of a replay model that knows every third shared point of ``data``."""
    points, builds = profile_builds(data, limit=6, seed=0)
    answers = tmp_path / f"answers-{len(list(tmp_path.iterdir()))}.jsonl"
    write_records(answers, oracle_responses([get_method(m).build(o) for m, o in builds], points, set(points.ids[::3]), only_mcq=False))
    result = invoke("run", "profile", "--data", data, "--limit", "6", "--model", f"replay:{answers}", "--out", tmp_path / "runs", "-q")
    assert result.exit_code == 0, result.output
    folder = Path(result.stdout.strip().splitlines()[-1])
    return read_json(folder / "profile.json"), folder


def test_the_profile_carries_each_methods_item_error(builtin: tuple[Reading, ...], tmp_path: Path) -> None:
    profile, folder = _profile(tmp_path, "builtin:en")
    for way in profile["ways"]:
        run = read_json(Path(profile["runs"][way["method"]]) / "summary.json")
        assert run["item_error"]["measured_by"] == "blind reading", way
        assert profile["per_way"][way["key"]]["item_error"] == item_error_cell(run) != "not measured"
    report = (folder / "report.md").read_text()
    assert "| parse failures | item error |" in report
    mine, folder = _profile(tmp_path, str(write_kb(tmp_path / "mine.jsonl")))
    assert {row["item_error"] for row in mine["per_way"].values()} == {"not measured"}
    assert "| not measured |" in (folder / "report.md").read_text()
