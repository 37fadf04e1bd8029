"""The ``medprobe`` command line: the scripting contract (last stdout line = run directory), exit codes and
messages of user errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from medprobe.cli import app
from medprobe.jsonl import read_records, write_records
from medprobe.records import Probe, Response
from testing.fixtures import gold_reply, write_tiny_kb, write_tiny_release

#: wide enough that rich never wraps a path or a message
ENV = {"COLUMNS": "1000", "NO_COLOR": "1"}


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args], env=ENV)


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def release(tmp_path: Path) -> Path:
    return write_tiny_release(tmp_path / "medqa")


def last_line(result: Result) -> str:
    return result.stdout.strip().splitlines()[-1]


def metrics(run_dir: Path) -> dict[str, object]:
    return json.loads((run_dir / "summary.json").read_text())["metrics"]


def test_run_prints_the_run_directory_last_and_score_reproduces_it(release: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs"
    result = invoke("run", "multifacet", "--model", "random", "--data", release, "--out", out)
    assert result.exit_code == 0, result.output
    run_dir = Path(last_line(result))
    assert run_dir.is_dir() and run_dir.parent == out
    assert (run_dir / "summary.json").exists() and (run_dir / "report.md").exists()
    assert "comparison" in result.stdout and "verification" in result.stdout  # the summary table

    again = invoke("score", "multifacet", "--responses", run_dir, "--format", "medprobe", "--out", out)
    assert again.exit_code == 0, again.output
    rescored = Path(last_line(again))
    assert rescored.is_dir() and rescored != run_dir
    assert metrics(rescored) == metrics(run_dir)


def test_last_stdout_line_of_the_real_process_is_the_run_directory(release: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs"
    cmd = [sys.executable, "-m", "medprobe.cli", "run", "multifacet", "--model", "random", "--data", str(release), "--out", str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, env=os.environ.copy(), timeout=120)
    assert done.returncode == 0, done.stderr
    run_dir = Path(done.stdout.splitlines()[-1])
    assert run_dir.parent == out and (run_dir / "summary.json").exists()


def test_build_then_run_with_replayed_answers(release: Path, tmp_path: Path) -> None:
    probes_path = tmp_path / "probes.jsonl"
    result = invoke("build", "multifacet", "-o", probes_path, "--data", release)
    assert result.exit_code == 0, result.output
    assert last_line(result) == str(probes_path)
    probes = read_records(probes_path, Probe)
    assert len(probes) == 27 and "27 probes" in flat(result.stderr)
    answers = tmp_path / "answers.jsonl"
    write_records(answers, [Response(probe_id=p.id, text=gold_reply(p)) for p in probes])
    result = invoke("run", "multifacet", "--model", f"replay:{answers}", "--data", release, "--out", tmp_path / "runs", "-q")
    assert result.exit_code == 0, result.output
    m = metrics(Path(last_line(result)))
    assert all(row["accuracy"] == 1.0 for row in m["facets"].values())  # type: ignore[attr-defined]


def test_build_makes_the_output_folder_when_missing(release: Path, tmp_path: Path) -> None:
    probes_path = tmp_path / "not" / "yet" / "probes.jsonl"
    result = invoke("build", "multifacet", "-o", probes_path, "--data", release)
    assert result.exit_code == 0, result.output
    assert last_line(result) == str(probes_path) and len(read_records(probes_path, Probe)) == 27


def test_replay_without_an_answer_is_reported(release: Path, tmp_path: Path) -> None:
    answers = tmp_path / "answers.jsonl"
    write_records(answers, [Response(probe_id="multifacet/medqa-5/MCQ/base", text="A")])
    result = invoke("run", "multifacet", "--model", f"replay:{answers}", "--data", release, "--out", tmp_path / "runs", "-q")
    assert result.exit_code == 3, result.output  # finished, incomplete
    assert "request(s) failed" in flat(result.stderr)
    summary = json.loads((Path(last_line(result)) / "summary.json").read_text())
    assert summary["run"]["errors"] == 26 and summary["status"].startswith("incomplete")


def test_kb_stats_prints_the_aspects(tmp_path: Path) -> None:
    kb = write_tiny_kb(tmp_path / "kb.jsonl")
    result = invoke("kb", "stats", kb)
    assert result.exit_code == 0, result.output
    for aspect in ("primary_symptoms", "departments", "severity_level"):
        assert aspect in result.stdout
    assert "16 diseases" in result.stdout
    as_json = invoke("kb", "stats", kb, "--json")
    stats = json.loads(as_json.stdout)
    assert stats["aspects"]["primary_symptoms"] == {"diseases": 16, "knowledge_points": 64}


def test_kb_validate(tmp_path: Path) -> None:
    good = write_tiny_kb(tmp_path / "kb.jsonl", n=3)
    result = invoke("kb", "validate", good)
    assert result.exit_code == 0 and "valid, 3 diseases (en)" in result.stdout
    bad = tmp_path / "bad.jsonl"
    lines = good.read_text().splitlines()
    bad.write_text(lines[0] + "\n" + lines[1][:-5] + "\n" + lines[2] + "\n")
    result = invoke("kb", "validate", bad)
    assert result.exit_code == 2
    assert f"{bad}:2" in flat(result.stderr) and "malformed JSON" in result.stderr
    assert "Traceback" not in result.output


def test_unknown_method_lists_the_methods(tmp_path: Path) -> None:
    result = invoke("run", "nosuchmethod", "--model", "random", "--out", tmp_path / "runs")
    assert result.exit_code == 2
    err = flat(result.stderr)
    assert "unknown method 'nosuchmethod'" in err and "available: meddisk, multicog, multifacet, sdak" in err
    assert not (tmp_path / "runs").exists()
    result = invoke("build", "nosuchmethod", "-o", tmp_path / "p.jsonl")
    assert result.exit_code == 2 and "available: meddisk, multicog, multifacet, sdak" in flat(result.stderr)


def test_bad_prompt_style_exits_2(release: Path, tmp_path: Path) -> None:
    result = invoke("run", "multifacet", "--model", "random", "--data", release, "--out", tmp_path / "runs", "--prompt-style", "bogus")
    assert result.exit_code == 2
    assert "unknown prompt style 'bogus'" in flat(result.stderr) and "chat or completion" in flat(result.stderr)


def test_bad_release_is_one_clear_message(release: Path, tmp_path: Path) -> None:
    (release / "MCQ" / "test.json").write_text('[[5, "Question: x\\nOptions: A: a\\tB: b", "Z"]]')
    result = invoke("run", "multifacet", "--model", "random", "--data", release, "--out", tmp_path / "runs")
    assert result.exit_code == 2
    err = flat(result.stderr)
    assert str(release / "MCQ" / "test.json") in err and "[0][2]" in err and "got 'Z'" in err
    assert "Traceback" not in result.output


def test_score_of_raw_results_needs_a_name_when_there_are_several(tmp_path: Path) -> None:
    folder = tmp_path / "results"
    for model in ("alpha", "beta"):
        (folder / "MCQ").mkdir(parents=True, exist_ok=True)
        (folder / "MCQ" / f"{model}_MCQ_results.json").write_text(json.dumps([5, "Question: x\nOptions: A: a\tB: b", "A", "A"]) + "\n")
    result = invoke("score", "multifacet", "--responses", folder, "--format", "multifaceteval-raw", "--out", tmp_path / "runs")
    assert result.exit_code == 2 and "--name: alpha, beta" in flat(result.stderr)
    result = invoke("score", "multifacet", "--responses", folder, "--format", "multifaceteval-raw", "--name", "beta", "--out", tmp_path / "runs")
    assert result.exit_code == 0, result.output
    m = metrics(Path(last_line(result)))
    assert set(m["facets"]) == {"comparison"}  # type: ignore[arg-type]
    result = invoke("score", "multifacet", "--responses", folder, "--format", "nonsense", "--out", tmp_path / "runs")
    assert result.exit_code == 2 and "formats: medprobe, multifaceteval-raw" in flat(result.stderr)


def test_error_messages_are_printed_verbatim(tmp_path: Path) -> None:
    """A message quoting user text that looks like rich markup is neither eaten nor a crash."""
    bad = tmp_path / "kb.jsonl"
    for key in ("[/x]", "[bold]y"):
        bad.write_text(json.dumps({"id": "X", "name": "x", "language": "en", "aspects": {key: ["a"]}}) + "\n")
        result = invoke("kb", "validate", bad)
        assert result.exit_code == 2, result.output
        assert f"unknown aspect '{key}'" in flat(result.stderr)


def test_kb_build_and_show_the_builtin_english_kb(tmp_path: Path) -> None:
    out = tmp_path / "en.jsonl"
    result = invoke("kb", "build", "hpo", "-o", out)
    assert result.exit_code == 0, result.output
    assert last_line(result) == str(out)
    assert int(flat(result.stderr).split(" diseases")[0].split()[-1]) > 10_000
    shown = invoke("kb", "show", out, "Marfan syndrome")
    assert shown.exit_code == 0, shown.output
    record = json.loads(shown.stdout)
    assert "Arachnodactyly" in record["aspects"]["primary_symptoms"]
    missing = invoke("kb", "show", out, "no such disease")
    assert missing.exit_code == 2 and "no disease 'no such disease'" in flat(missing.stderr)
    unknown = invoke("kb", "build", "fr")
    assert unknown.exit_code == 2 and "unknown built-in knowledge base 'fr'" in flat(unknown.stderr)


def test_the_default_job_runs_both_methods_on_builtin_material(tmp_path: Path) -> None:
    # --include-unmeasured: the built-in KB's cells are gated (medprobe.gating), and this test must not
    # depend on which readings ship; test_gating covers the gate itself
    result = invoke("run", "--model", "random", "--out", tmp_path / "runs", "-q", "--include-unmeasured")
    assert result.exit_code == 0, result.output
    runs = sorted((tmp_path / "runs").iterdir())
    assert [r.name.split("-")[1] for r in runs] == ["multifacet", "multicog"]
    assert last_line(result) == str(runs[-1])
    multicog = json.loads((runs[-1] / "summary.json").read_text())
    assert set(multicog["metrics"]["levels"]) == {"low", "mid", "high"}
    assert multicog["metrics"]["high"]["episodes"] == 1
    # every report says how the answers were read; the random model answers in each asked format
    assert all("## How answers were read" in (run / "report.md").read_text() for run in runs)
    lowmid = {task: rules for task, rules in multicog["reading"].items() if "/" in task}
    assert {task.rsplit("/", 1)[1] for task in lowmid} == {"MCQ", "SV", "AE", "MR"}
    assert all(set(rules) <= {"bare", "leading", "labelled"} for rules in lowmid.values()), lowmid


def test_leaderboard_ranks_runs_of_one_method(tmp_path: Path, release: Path) -> None:
    kb = write_tiny_kb(tmp_path / "kb.jsonl")
    for seed in ("0", "1"):
        assert invoke("run", "multifacet", "--model", "random", "--data", kb, "--seed", seed, "--out", tmp_path / "runs", "-q").exit_code == 0
    runs = sorted((tmp_path / "runs").iterdir())
    result = invoke("leaderboard", *runs)
    assert result.exit_code == 0, result.output
    assert "MultifacetEval leaderboard" in result.stdout and result.stdout.count("random") == 2
    other = invoke("run", "multifacet", "--model", "random", "--data", release, "--out", tmp_path / "other", "-q")
    assert other.exit_code == 0
    mixed = invoke("leaderboard", runs[0], last_line(other))
    assert mixed.exit_code == 0, "runs of one method on different data may be ranked together"


def test_leaderboard_over_a_glob_skips_an_unfinished_run_with_a_warning(release: Path, tmp_path: Path) -> None:
    out = tmp_path / "runs"
    finished = Path(last_line(invoke("run", "multifacet", "--model", "random", "--data", release, "--out", out)))
    unfinished = out / "x-multifacet-unfinished"
    unfinished.mkdir()
    board = invoke("leaderboard", finished, unfinished)
    assert board.exit_code == 0, board.output
    assert "random" in board.stdout and f"skipped {unfinished}: unfinished" in flat(board.stderr)
    refused = invoke("leaderboard", "--strict", finished, unfinished)
    assert refused.exit_code == 2 and "no summary.json" in refused.output
    assert invoke("leaderboard", unfinished).exit_code == 2, "nothing finished to rank"


def test_the_random_model_is_refused_for_free_text_recall_before_anything_runs(tmp_path: Path) -> None:
    kb = write_tiny_kb(tmp_path / "kb.jsonl")
    out = tmp_path / "runs"
    result = invoke("run", "meddisk", "--model", "random", "--data", kb, "--out", out)
    assert result.exit_code == 2, result.output
    assert "the random model cannot answer meddisk" in flat(result.output) and "multifacet, multicog and sdak" in flat(result.output)
    assert not out.exists() or not any(out.iterdir()), "nothing may be left behind"


def test_a_missing_data_file_is_named_as_a_missing_file(tmp_path: Path) -> None:
    result = invoke("run", "sdak", "--model", "random", "--data", tmp_path / "sdak_release.jsonl", "--out", tmp_path / "runs")
    assert result.exit_code == 2 and "no such file" in flat(result.output) and "no knowledge base" not in result.output


def test_piped_tables_keep_their_cells_whole(release: Path, tmp_path: Path) -> None:
    """Off a terminal without COLUMNS, rich used 80 columns and cut leaderboard cells to a few characters."""
    out = tmp_path / "runs"
    run_dir = last_line(invoke("run", "multifacet", "--model", "random", "--data", release, "--out", out))
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    board = subprocess.run([sys.executable, "-m", "medprobe", "leaderboard", run_dir], capture_output=True, text=True, env=env, check=True)
    assert "verification" in board.stdout or "Average" in board.stdout
    assert "…" not in board.stdout and str(release) in board.stdout
