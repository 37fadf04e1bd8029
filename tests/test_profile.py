"""The cross-method knowledge profile: shared points, joining runs, illusions, agreement, a second
model, and the refusals. A replay model that knows exactly a chosen set of points, and one that
knows them only in MCQ form, must come back as exactly that set and that illusion."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from typer.testing import CliRunner

from medprobe.cli import app
from medprobe.contract import get_method, profile_ways
from medprobe.errors import MedprobeError
from medprobe.jsonl import read_json, write_json, write_records
from medprobe.metrics.stats import bootstrap_ci
from medprobe.profile.join import join_runs, point_of
from medprobe.profile.oracle import oracle_responses
from medprobe.profile.points import profile_builds
from medprobe.report.svg import matrix
from testing.fixtures import write_tiny_kb

ENV = {"COLUMNS": "1000", "NO_COLOR": "1"}
LIMIT = 12
WAY_KEYS = [w.key for w in profile_ways()]


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args], env=ENV)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_kb(tmp_path_factory.mktemp("kb") / "kb.jsonl", n=48)


@pytest.fixture(scope="module")
def known(kb: Path) -> set[str]:
    points, _ = profile_builds(str(kb), limit=LIMIT, seed=0)
    return set(points.ids[::3])


def profile_of(kb: Path, out: Path, known: set[str], *, only_mcq: bool, against: Path | None = None) -> tuple[dict[str, Any], Path]:
    """Run the profile of a replay model that knows ``known``; its profile.json and folder."""
    points, builds = profile_builds(str(kb), limit=LIMIT, seed=0)
    answers = out / "answers.jsonl"
    out.mkdir(parents=True, exist_ok=True)
    write_records(answers, oracle_responses([get_method(m).build(o) for m, o in builds], points, known, only_mcq=only_mcq))
    result = invoke("run", "profile", "--data", kb, "--limit", LIMIT, "--model", f"replay:{answers}", "--out", out / "runs", "-q")
    assert result.exit_code == 0, result.output
    folder = Path(result.stdout.strip().splitlines()[-1])
    if against is not None:
        result = invoke("profile", folder, "--against", against, "-o", out / "against")
        assert result.exit_code == 0, result.output
        folder = out / "against"
    return read_json(folder / "profile.json"), folder


@pytest.fixture(scope="module")
def knows(kb: Path, known: set[str], tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    return profile_of(kb, tmp_path_factory.mktemp("knows"), known, only_mcq=False)


@pytest.fixture(scope="module")
def mcq_only(kb: Path, known: set[str], tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    return profile_of(kb, tmp_path_factory.mktemp("mcq"), known, only_mcq=True)


def test_every_method_builds_on_exactly_the_shared_points(kb: Path) -> None:
    points, builds = profile_builds(str(kb), limit=LIMIT, seed=0)
    assert len(points.ids) == LIMIT
    for method, options in builds:
        probe_set = get_method(method).build(options)
        asked = {point_of(p.knowledge_point, set(points.ids), probe_set.info) for p in probe_set.probes}
        assert asked == set(points.ids), method
    assert profile_builds(str(kb), limit=LIMIT, seed=0)[0] == points
    assert profile_builds(str(kb), limit=LIMIT, seed=1)[0].ids != points.ids


def test_a_model_that_knows_a_set_of_points_is_found_to_know_exactly_them(knows: tuple[dict[str, Any], Path], known: set[str]) -> None:
    profile, folder = knows
    assert profile["points"] == {"sampled": LIMIT, "shared": LIMIT, "missing": {k: [] for k in WAY_KEYS}}
    assert [w["key"] for w in profile["ways"]] == WAY_KEYS
    for key in WAY_KEYS:
        assert set(profile["known_points"][key]) == known, key
        assert profile["per_way"][key]["known"] == pytest.approx(len(known) / LIMIT)
        assert profile["per_way"][key]["parse_failures"] == 0
    assert all(i["count"] == 0 for i in profile["illusions"])
    for pair in profile["agreement"]:
        assert pair["agreement"] == 1.0 and pair["kappa"] == pytest.approx(1.0)
        assert pair["chance"] == pytest.approx(1 - 2 * (len(known) / LIMIT) * (1 - len(known) / LIMIT))
    assert sum(d["known_every_way"] for d in profile["diseases"]) == len(known)
    html = (folder / "profile.html").read_text(encoding="utf-8")
    assert html.count("<svg") == 3 and "Illusions" in html
    assert "## Agreement between methods" in (folder / "report.md").read_text(encoding="utf-8")


def test_a_model_that_knows_them_only_as_mcqs_shows_exactly_that_illusion(mcq_only: tuple[dict[str, Any], Path], known: set[str]) -> None:
    profile, _ = mcq_only
    assert set(profile["known_points"]["mcq"]) == known
    assert all(profile["known_points"][key] == [] for key in WAY_KEYS if key != "mcq")
    for illusion in profile["illusions"]:
        expected = known if illusion["right"] == "mcq" else set()
        assert set(illusion["points"]) == expected, (illusion["right"], illusion["wrong"])
        assert len(illusion["examples"]) == min(5, len(expected))
    # MultifacetEval asks two of its ten questions as MCQs (plain and negated): 20 % on the known points
    assert profile["per_way"]["facets"]["score"] == pytest.approx(0.2 * len(known) / LIMIT)


def test_a_second_model_is_compared_per_method_and_aspect(kb: Path, known: set[str], knows: tuple[dict[str, Any], Path],
                                                          tmp_path: Path) -> None:
    profile, _ = profile_of(kb, tmp_path, known, only_mcq=True, against=knows[1])
    against = profile["against"]
    assert against["points"] == LIMIT and against["model_b"] == knows[0]["model"]
    overall = {key: rows[-1] for key, rows in against["welch"].items()}
    assert overall["mcq"]["t"] is None or overall["mcq"]["t"] == 0  # the same answers both ways
    assert overall["recall"]["t"] < 0 and overall["recall"]["mean_b"] == pytest.approx(len(known) / LIMIT)
    assert against["known"]["claims"] == {"a": 0.0, "b": pytest.approx(len(known) / LIMIT)}


def test_runs_on_other_seeds_or_points_are_refused(knows: tuple[dict[str, Any], Path], tmp_path: Path) -> None:
    runs = [Path(p) for p in knows[0]["runs"].values()]
    other = tmp_path / runs[0].name
    shutil.copytree(runs[0], other)
    config = read_json(other / "config.json")
    write_json(other / "config.json", {**config, "seed": 1})
    with pytest.raises(MedprobeError, match="seeds"):
        join_runs([other, *runs[1:]])
    write_json(other / "config.json", {**config, "build_info": {**config["build_info"], "points": {**config["build_info"]["points"], "ids": ["x/y"]}}})
    with pytest.raises(MedprobeError, match="knowledge points"):
        join_runs([other, *runs[1:]])
    with pytest.raises(MedprobeError, match="two meddisk runs"):
        join_runs([runs[0], *runs])
    write_json(other / "config.json", {**config, "build_info": {k: v for k, v in config["build_info"].items() if k != "points"}})
    result = invoke("profile", other)
    assert result.exit_code == 2 and "no part of a profile" in " ".join(result.output.split())


def test_run_profile_needs_a_knowledge_base_and_a_limit(kb: Path) -> None:
    result = invoke("run", "profile", "--data", kb)
    assert result.exit_code == 2 and "--limit" in result.output
    result = invoke("run", "profile", "--data", kb, "--limit", 3, "--level", "high")
    assert result.exit_code == 2 and "--level" in result.output


def test_bootstrap_ci_brackets_the_statistic() -> None:
    values = [0.0] * 30 + [1.0] * 70
    low, high = bootstrap_ci(values, lambda sample: {"mean": sum(sample) / len(sample)}, seed=0)["mean"] or (None, None)
    assert low < 0.7 < high and high - low < 0.25
    assert bootstrap_ci([1.0], lambda sample: {"mean": sample[0]}) == {"mean": None}


def test_matrix_chart_greys_the_diagonal() -> None:
    svg = matrix(["a", "b"], ["a", "b"], [[None, 3], [0, None]], "t")
    assert svg.count('fill="#eee"') == 2 and ">3</text>" in svg
    json.dumps(svg)
