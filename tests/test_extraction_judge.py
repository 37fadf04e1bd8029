"""The extraction judge (``-X extractor=judge:MODEL``): asked only about replies no strict rule reads,
cached, recorded in the run directory, and counted apart in the report."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from medprobe.cli import app
from medprobe.contract import BuildOptions
from medprobe.engine.pipeline import RunPlan, run
from medprobe.errors import MedprobeError
from medprobe.methods.multifacet import METHOD
from testing.fixtures import gold_reply, write_tiny_release
from testing.mock_server import MockOpenAI, serve_in_thread

_PROBES = {}


def _probes(release: Path) -> dict[str, Any]:
    if release not in _PROBES:
        _PROBES[release] = {p.prompt: p for p in METHOD.build(BuildOptions(data=str(release))).probes}
    return _PROBES[release]


def model_reply(release: Path):
    """Right answers everywhere; MCQ answers in a form no rule reads ("My pick would be the C one")."""

    def reply(body: dict[str, Any]) -> str:
        probe = _probes(release)[body["messages"][-1]["content"]]
        if probe.facet == "MCQ":
            return f"My pick would be the {probe.gold} one"
        return gold_reply(probe)

    return reply


def judge_reply(body: dict[str, Any]) -> str:
    found = re.search(r"My pick would be the ([A-E]) one", body["messages"][-1]["content"])
    return found.group(1) if found else "NONE"


@pytest.fixture
def release(tmp_path: Path) -> Path:
    return write_tiny_release(tmp_path / "medqa")


def test_the_judge_reads_only_what_no_rule_reads(release: Path, tmp_path: Path) -> None:
    model, judge = MockOpenAI(reply=model_reply(release)), MockOpenAI(reply=judge_reply, keep_bodies=True)
    with serve_in_thread(model) as model_url, serve_in_thread(judge) as judge_url:
        def plan(extractor: bool) -> RunPlan:
            options = {"extractor": f"judge:openai:judge@{judge_url}"} if extractor else {}
            return RunPlan(method="multifacet", build=BuildOptions(data=str(release), options=options),
                           model=f"openai:mock@{model_url}", out=tmp_path / "runs", progress=False)

        without = run(plan(extractor=False))
        judged = run(plan(extractor=True))
        asked = judge.requests
        again = run(plan(extractor=True))

    # without the judge the three MCQ replies are unparsed; with it they are read, and counted apart
    assert without.summary["metrics"]["facets"]["comparison"]["accuracy"] == 0
    assert without.summary["reading"]["MCQ"] == {"unparsed": 3}
    assert judged.summary["metrics"]["facets"]["comparison"]["accuracy"] == 1
    assert judged.summary["reading"]["MCQ"] == {"judge": 3}
    assert judged.summary["metrics"]["average"] == 1
    # only the 3 unreadable replies were sent to the judge, each with the question and the reply but no demos
    assert asked == 3
    prompt = judge.bodies[0]["messages"][-1]["content"]
    assert "My pick would be the" in prompt and "Question:" in prompt and prompt.count("Answer:") == 1
    # recorded in the run directory, shown in the report, and cached: the repeat asks the judge nothing
    lines = [json.loads(line) for line in (judged.path / "judge.jsonl").read_text().splitlines()]
    assert sorted(line["judge"] for line in lines) == ["A", "A", "C"]
    assert json.loads((judged.path / "config.json").read_text())["build_info"]["extraction_judge"].startswith("openai:judge@")
    report = (judged.path / "report.md").read_text()
    assert "| task | replies | bare | leading | judge | parse failures |" in report
    assert "| MCQ | 3 | 0.0 | 0.0 | 100.0 | 0.0 |" in report
    assert judge.requests == asked
    assert again.summary["run"]["sent"] == 0 and again.summary["reading"] == judged.summary["reading"]


def test_a_judge_answer_of_none_stays_unparsed(release: Path, tmp_path: Path) -> None:
    with serve_in_thread(MockOpenAI(reply=model_reply(release))) as model_url, serve_in_thread(MockOpenAI(reply=lambda b: "NONE")) as judge_url:
        outcome = run(RunPlan(method="multifacet", build=BuildOptions(data=str(release), options={"extractor": f"judge:openai:j@{judge_url}"}),
                              model=f"openai:mock@{model_url}", out=tmp_path / "runs", progress=False))
    assert outcome.summary["reading"]["MCQ"] == {"unparsed": 3}
    assert outcome.summary["metrics"]["facets"]["comparison"]["parse_failure_rate"] == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["multifacet", "--reference-compatible"], "reference-compatible mode keeps the published extractors"),
        (["sdak"], "sdak has no option or verdict answers"),
    ],
)
def test_the_judge_is_refused_where_it_cannot_apply(release: Path, tmp_path: Path, args: list[str], message: str) -> None:
    # sdak builds from builtin:zh, gated (medprobe.gating): unmeasured aspects included so the judge is what refuses
    data = ["--data", str(release)] if args[0] == "multifacet" else ["--limit", "2", "--include-unmeasured"]
    result = CliRunner().invoke(app, ["run", *args, *data, "--model", "random", "-X", "extractor=judge:random", "--out", str(tmp_path), "-q"])
    assert result.exit_code == 2, result.output
    assert message in result.output


def test_the_judge_needs_a_model() -> None:
    from medprobe.engine.extraction import judge_model

    with pytest.raises(MedprobeError, match="needs a model"):
        judge_model({"extractor": "judge:"})
    assert judge_model({"extractor": "rules"}) is None


def test_the_judge_is_told_the_strict_reader_s_refusals() -> None:
    """The judge reads only what the rules left unread, so it must refuse what they refuse: an option
    weighed while reasoning, both verdicts, none of the above, a letter with another option's text."""
    from medprobe.engine.extraction import extraction_prompt
    from medprobe.records import AnswerFormat, Probe

    fmt = AnswerFormat(kind="option_letter", options=["A", "B"], option_texts={"A": "x", "B": "y"})
    prompt = extraction_prompt(Probe(id="p", method="multifacet", knowledge_point="k", facet="MCQ", prompt="Q?", answer_format=fmt), "r")
    for refusal in ("finally commits", "both verdicts", "none of the options", "text of another option"):
        assert refusal in prompt
