"""medprobe inside inspect_ai and lm-evaluation-harness, and probe sets as Hugging Face datasets.

The equality tests send the same questions through ``medprobe run``, an inspect eval and an lm-eval
run against one mock OpenAI server whose reply is a pure function of the question, and check that
the harnesses' metrics, and the run directories rebuilt from their logs, equal the run's."""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from medprobe.contract import BuildOptions
from medprobe.engine.pipeline import RunPlan, rescore
from medprobe.engine.pipeline import run as run_plan
from medprobe.errors import MedprobeError
from medprobe.integrations.harness import (
    NO_HARNESS_REPLY,
    TASKS,
    build_harness_set,
    headline_numbers,
    read_sample,
    responses_of,
)
from testing.fixtures import deterministic_reply, write_tiny_kb, write_tiny_release
from testing.mock_server import MockOpenAI, serve_in_thread

LIMIT = 3
INSTALL = "install the harness extras: pip install -e '.[inspect,lm-eval,hf]' (scripts/setup.sh dev does)"


def varied_reply(body: dict[str, Any]) -> str:
    """Answers of every kind the four methods ask, chosen by a hash of the question: verdict-first
    replies to SDAK's claims, recalled lists to MedDisKEval's questions, yes/no, letters and verdicts."""
    text = body["messages"][-1]["content"]
    h = hashlib.sha256(text.encode()).digest()[0]
    tail = text[-300:]
    if 'reply "correct" first' in tail:
        return ["Correct. It is well known.", "Incorrect. That is not so.", "I am not sure."][h % 3]
    if tail.rstrip().endswith("?") and "What are" in tail[-120:]:
        return ["fever; cough; rash", "cardiology", "None", "The answer: 2"][h % 4]
    if "yes or no" in tail:
        return "yes" if h % 2 else "no"
    return deterministic_reply(body)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_kb(tmp_path_factory.mktemp("kb") / "kb.jsonl")


def sent(mock: MockOpenAI) -> list[tuple[str, ...]]:
    """What decides a reply in each request a mock received: messages and decoding (any order)."""
    keys = ("messages", "temperature", "top_p", "max_tokens", "stop", "top_k", "repetition_penalty")
    return sorted(json.dumps([body.get(key) for key in keys], sort_keys=True) for body in mock.bodies)


@pytest.fixture(scope="module")
def runs(kb: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """``medprobe run`` of each harness task's probes: the summaries the harnesses must equal, and
    the requests they must send."""
    out = tmp_path_factory.mktemp("runs")
    mock = MockOpenAI(reply=varied_reply, keep_bodies=True)
    summaries: dict[str, Any] = {}
    with serve_in_thread(mock) as url:
        for task, (method, fixed) in TASKS.items():
            build = BuildOptions(data=str(kb), limit=LIMIT, seed=0, **fixed)
            plan = RunPlan(method=method, build=build, model=f"openai:mock@{url}", out=out, use_cache=False, progress=False)
            summaries[task] = run_plan(plan).summary
    summaries["sent"] = sent(mock)
    return summaries


def _close(left: dict[str, float], right: dict[str, float]) -> bool:
    return left.keys() == right.keys() and all(math.isclose(left[k], right[k], abs_tol=1e-9) for k in left)


# --- what every harness shares ---------------------------------------------------------------------


def test_a_harness_task_refuses_self_consistency(tmp_path: Path) -> None:
    """A harness asks each probe once; cot-sc needs several samples, and scoring one would mislabel it."""
    with pytest.raises(MedprobeError, match="samples per probe"):
        build_harness_set("multifacet", data=str(write_tiny_release(tmp_path)), setting="cot-sc")


def test_a_harness_task_refuses_engine_repeats(kb: Path) -> None:
    with pytest.raises(MedprobeError, match="repeats the same probes"):
        build_harness_set("multifacet", data=str(kb), limit=LIMIT, repeats=3)


def test_a_failed_generation_is_a_failed_request_not_an_empty_answer(kb: Path) -> None:
    built = build_harness_set("multifacet", data=str(kb), limit=LIMIT)
    probe = built.probe_set.probes[0]
    (response,) = responses_of([probe], {probe.id: None})
    assert response.error == NO_HARNESS_REPLY
    assert read_sample(built.header["scoring"], probe, None).rule == "no reply"


def test_the_sample_reader_keeps_the_rule_that_read_the_reply(kb: Path) -> None:
    built = build_harness_set("sdak", data=str(kb), limit=LIMIT)
    factual = next(p for p in built.probe_set.probes if p.variant == "factual")
    assert read_sample(built.header["scoring"], factual, "Correct. Yes.").value == 1.0
    wrong = read_sample(built.header["scoring"], factual, "Incorrect, it is not.")
    assert (wrong.value, wrong.answer) == (0.0, "False")
    assert read_sample(built.header["scoring"], factual, "Maybe.").rule.startswith("unparsed")


# --- inspect_ai -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def inspect_logs(kb: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """``inspect eval medprobe/<task> …`` of the four tasks, as a user types it: the tasks are found
    through the entry point."""
    pytest.importorskip("inspect_ai", reason=f"inspect_ai is not installed: {INSTALL}")
    pytest.importorskip("openai", reason=f"openai (inspect's client) is not installed: {INSTALL}")
    from inspect_ai.log import read_eval_log

    logs = tmp_path_factory.mktemp("inspect")
    mock = MockOpenAI(reply=varied_reply, keep_bodies=True)
    with serve_in_thread(mock) as url:
        command = [
            sys.executable, "-m", "inspect_ai", "eval", *(f"medprobe/{task}" for task in TASKS),
            "-T", f"data={kb}", "-T", f"limit={LIMIT}", "--model", "llama-cpp-python/mock", "--model-base-url", url,
            "--log-dir", str(logs), "--display", "none",
        ]
        done = subprocess.run(command, capture_output=True, text=True, cwd=logs)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    read = [read_eval_log(str(path)) for path in logs.glob("*.eval")]
    return {"sent": sent(mock), **{log.eval.task.split("/")[-1]: log for log in read}}


@pytest.mark.parametrize("task", list(TASKS))
def test_inspect_metrics_equal_medprobe_run(task: str, inspect_logs: dict[str, Any], runs: dict[str, dict[str, Any]]) -> None:
    log = inspect_logs[task]
    assert log.status == "success", log.error
    (scores,) = log.results.scores
    assert log.eval.task == f"medprobe/{task}"
    reported = {name: m.value for name, m in scores.metrics.items()}
    expected = headline_numbers(TASKS[task][0], runs[task]["metrics"])
    assert _close(reported, expected), (reported, expected)
    assert all("rule" in s.scores["medprobe_reader"].metadata for s in log.samples)


@pytest.mark.parametrize("task", list(TASKS))
def test_an_inspect_log_rescored_is_the_run(task: str, inspect_logs: dict[str, Any], runs: dict[str, dict[str, Any]],
                                             tmp_path: Path) -> None:
    method = TASKS[task][0]
    outcome = rescore(method, Path(inspect_logs[task].location), "inspect-log", BuildOptions(), out=tmp_path, reference_compatible=False)
    assert outcome.summary["metrics"] == runs[task]["metrics"]
    assert outcome.summary["reading"] == runs[task]["reading"]
    assert outcome.summary["model"] == "inspect-log:llama-cpp-python/mock"
    assert (outcome.path / "report.md").is_file()


def test_inspect_sends_the_requests_medprobe_run_sends(inspect_logs: dict[str, Any], runs: dict[str, Any]) -> None:
    """Same messages and decoding, so a real model (not only the mock) answers both alike."""
    assert inspect_logs["sent"] == runs["sent"]


def test_inspect_epochs_are_refused(kb: Path, tmp_path: Path) -> None:
    """Several epochs would be averaged per sample and scored on one epoch's replies: refused."""
    inspect_ai = pytest.importorskip("inspect_ai", reason=f"inspect_ai is not installed: {INSTALL}")
    from medprobe.integrations.inspect_tasks import multifacet

    with serve_in_thread(MockOpenAI(reply=varied_reply)) as url:
        (log,) = inspect_ai.eval(multifacet(data=str(kb), limit=1), model="llama-cpp-python/mock", model_base_url=url,
                                 epochs=2, log_dir=str(tmp_path), display="none")
    assert log.status == "error" and "ask each probe once" in log.error.message


def test_an_inspect_log_of_another_method_is_refused(inspect_logs: dict[str, Any], tmp_path: Path) -> None:
    with pytest.raises(MedprobeError, match="these are sdak results"):
        rescore("multifacet", Path(inspect_logs["sdak"].location), "inspect-log", BuildOptions(), out=tmp_path, reference_compatible=False)


# --- lm-evaluation-harness ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def lm_eval_output(kb: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """``medprobe export lm-eval`` of the four tasks, then ``lm_eval`` on them with --log_samples."""
    pytest.importorskip("lm_eval", reason=f"lm-evaluation-harness is not installed: {INSTALL}")
    folder, out = tmp_path_factory.mktemp("lm-eval-tasks"), tmp_path_factory.mktemp("lm-eval-out")
    medprobe = [sys.executable, "-m", "medprobe", "export", "lm-eval", str(folder), "--data", str(kb), "--limit", str(LIMIT)]
    subprocess.run(medprobe, check=True, capture_output=True, text=True)
    mock = MockOpenAI(reply=varied_reply, keep_bodies=True)
    with serve_in_thread(mock) as url:
        command = [
            sys.executable, "-m", "lm_eval", "--model", "local-chat-completions",
            "--model_args", f"model=mock,base_url={url}/chat/completions,num_concurrent=4,max_retries=1,tokenized_requests=False",
            "--include_path", str(folder), "--tasks", ",".join(f"medprobe_{task}" for task in TASKS),
            "--apply_chat_template", "--log_samples", "--output_path", str(out),
        ]
        done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "HF_DATASETS_OFFLINE": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    return {"sent": sent(mock), "folder": out / "mock"}


@pytest.mark.parametrize("task", list(TASKS))
def test_lm_eval_metrics_equal_medprobe_run(task: str, lm_eval_output: dict[str, Any], runs: dict[str, dict[str, Any]]) -> None:
    (results,) = lm_eval_output["folder"].glob("results_*.json")
    reported = json.loads(results.read_text())["results"][f"medprobe_{task}"]
    expected = headline_numbers(TASKS[task][0], runs[task]["metrics"])
    shown = {k.removesuffix(",none") for k in reported if k.endswith(",none") and "_stderr" not in k} - {"acc"}
    assert shown == set(expected), "lm-eval reports exactly the method's headline numbers"
    assert _close({k: reported[f"{k},none"] for k in expected}, expected)


@pytest.mark.parametrize("task", list(TASKS))
def test_lm_eval_samples_rescored_are_the_run(task: str, lm_eval_output: dict[str, Any], runs: dict[str, dict[str, Any]], tmp_path: Path) -> None:
    (samples,) = lm_eval_output["folder"].glob(f"samples_medprobe_{task}_*.jsonl")
    outcome = rescore(TASKS[task][0], samples, "lm-eval-samples", BuildOptions(), out=tmp_path, reference_compatible=False)
    assert outcome.summary["metrics"] == runs[task]["metrics"]
    assert outcome.summary["reading"] == runs[task]["reading"]


def test_lm_eval_samples_of_part_of_a_task_are_refused(lm_eval_output: dict[str, Any], tmp_path: Path) -> None:
    """An lm_eval --limit run holds part of the task: p(M) over part of a knowledge point would be wrong."""
    (samples,) = lm_eval_output["folder"].glob("samples_medprobe_multifacet_*.jsonl")
    part = tmp_path / samples.name
    part.write_text("".join(samples.read_text().splitlines(keepends=True)[:-1]))
    with pytest.raises(MedprobeError, match="of the task's"):
        rescore("multifacet", part, "lm-eval-samples", BuildOptions(), out=tmp_path, reference_compatible=False)


def test_an_lm_eval_aggregate_over_part_of_a_task_is_nan_not_a_number(kb: Path, tmp_path: Path) -> None:
    from medprobe.integrations.lm_eval_tasks import aggregate, export_task

    export_task(build_harness_set("multifacet", data=str(kb), limit=LIMIT), tmp_path)
    documents = tmp_path / "medprobe_multifacet.jsonl"
    first = json.loads(documents.read_text().splitlines()[0])
    assert math.isnan(aggregate(str(documents), "average", [json.dumps({"probe_id": first["probe_id"], "reply": "A"})]))


def test_lm_eval_tasks_say_which_numbers_are_better_lower(kb: Path, tmp_path: Path) -> None:
    """MedDisKEval's Completely Wrong share and its level (1 best) rank the other way round."""
    from medprobe.integrations.lm_eval_tasks import export_task

    yaml = export_task(build_harness_set("meddisk", data=str(kb), limit=LIMIT), tmp_path).read_text()
    better = dict(re.findall(r'metric: "([^"]+)"\n    aggregation: [^\n]+\n    higher_is_better: (\w+)', yaml))
    assert better == {"acc": "true", "CW": "false", "PC": "true", "BC": "true", "total_score": "true", "level": "false"}


def test_lm_eval_sends_the_requests_medprobe_run_sends(lm_eval_output: dict[str, Any], runs: dict[str, Any]) -> None:
    assert lm_eval_output["sent"] == runs["sent"]


# --- Hugging Face datasets ------------------------------------------------------------------------------


def test_hf_export_loads_with_datasets_and_keeps_probes_and_gold(kb: Path, tmp_path: Path) -> None:
    datasets = pytest.importorskip("datasets", reason=f"datasets is not installed: {INSTALL}")
    from typer.testing import CliRunner

    from medprobe.cli import app

    folder = tmp_path / "hf"
    result = CliRunner().invoke(app, ["export", "hf", str(folder), "--method", "multifacet", "--data", str(kb), "--limit", str(LIMIT)])
    assert result.exit_code == 0, result.output
    loaded = datasets.load_dataset("parquet", data_dir=str(folder))["test"]
    built = build_harness_set("multifacet", data=str(kb), limit=LIMIT).probe_set.probes
    assert loaded["id"] == [p.id for p in built]
    assert [json.loads(g) for g in loaded["gold"]] == [p.gold for p in built]
    card = (folder / "README.md").read_text()
    assert f"| size | {len(built)} probes, {LIMIT} knowledge points |" in card
    assert "| seed | 0 |" in card and "medprobe run multifacet" in card
    assert "not measured" in card  # a user's KB: no blind reading measured its questions


def test_hf_export_of_a_platform_pack_has_no_gold(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow", reason=f"pyarrow is not installed: {INSTALL}")
    import pyarrow.parquet

    from medprobe.integrations.hf_dataset import export_pack

    pack = tmp_path / "pack.jsonl"
    row = {"id": "q0123", "facet": "MCQ", "language": "en", "samples": 1, "system": None, "prompt": "Question: …",
           "answer_format": {"kind": "option_letter", "options": ["A", "B"]}}
    pack.write_text(json.dumps(row) + "\n")
    folder = export_pack(pack, tmp_path / "hf")
    table = pyarrow.parquet.read_table(folder / "test.parquet")
    assert "gold" not in table.column_names and table.column("id").to_pylist() == ["q0123"]
    assert "no gold answers" in (folder / "README.md").read_text()


def test_hf_export_refuses_a_pack_row_without_a_prompt(tmp_path: Path) -> None:
    from medprobe.integrations.hf_dataset import pack_rows

    pack = tmp_path / "pack.jsonl"
    pack.write_text(json.dumps({"id": "q1", "facet": "MCQ", "language": "en", "samples": 1, "answer_format": {}}) + "\n")
    with pytest.raises(MedprobeError, match="not a platform pack row"):
        pack_rows(pack)
