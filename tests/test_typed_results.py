"""Each method's metrics are a typed results model (``medprobe.methods.<m>.summary``): summary.json holds
exactly what the model dumps (same keys, values and key order), the terminal table, leaderboard row and
report.md section are read from the model (``medprobe.methods.<m>.report``), and the documentation
publishes the model's JSON Schema."""

from __future__ import annotations

import importlib
import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel

from medprobe.contract import BuildOptions, ScoreOptions, get_method
from medprobe.engine.pipeline import RunPlan, run
from medprobe.errors import MedprobeError
from medprobe.jsonl import write_records
from medprobe.methods.multicog.summary import HighMetrics
from medprobe.records import Response
from testing.fixtures import write_tiny_kb

ROOT = Path(__file__).resolve().parents[1]
METHODS = ("meddisk", "multifacet", "multicog", "sdak")


@pytest.fixture(scope="module")
def summaries(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """One small run per method on a tiny KB (and the demo cases for the dialogue): the random model, and for
    MedDisKEval's free-text recall a replay of reference answers, half of them "None"."""
    tmp = tmp_path_factory.mktemp("typed")
    kb = str(write_tiny_kb(tmp / "kb.jsonl"))
    builds = {
        "meddisk": BuildOptions(data=kb, seed=1, limit=3),
        "multifacet": BuildOptions(data=kb, seed=1, limit=4),
        "multicog": BuildOptions(data=f"{kb},builtin:cases", seed=1, limit=3, repeats=2, options={"cases": "1", "runs": "2"}),
        "sdak": BuildOptions(data=kb, seed=1, limit=2),
    }
    probes = get_method("meddisk").build(builds["meddisk"]).probes
    answers = tmp / "answers.jsonl"
    write_records(answers, [Response(probe_id=p.id, text=f"Answer: {p.gold['reference']}" if i % 2 else "None") for i, p in enumerate(probes)])
    models = {"meddisk": f"replay:{answers}"}
    return {method: run(RunPlan(method=method, build=build, model=models.get(method, "random"), out=tmp / "runs", progress=False,
                                use_cache=False)).summary
            for method, build in builds.items()}


def _results_model(method: str) -> type[BaseModel]:
    model: type[BaseModel] = get_method(method).results_model  # type: ignore[attr-defined]
    return model


@pytest.mark.parametrize("method", METHODS)
def test_summary_metrics_are_exactly_the_results_model(summaries: dict[str, dict[str, Any]], method: str) -> None:
    """Read back and dumped again, the metrics are the same bytes: no key added, dropped, moved or retyped."""
    metrics = summaries[method]["metrics"]
    typed = _results_model(method).model_validate(metrics)
    assert json.dumps(typed.model_dump(exclude_unset=True)) == json.dumps(metrics)


@pytest.mark.parametrize("method", METHODS)
def test_the_report_module_shows_what_the_method_shows(summaries: dict[str, dict[str, Any]], method: str) -> None:
    """The method's table, headline and report are those of its report module, read from typed metrics."""
    shown: Any = importlib.import_module(f"medprobe.methods.{method}.report")
    summary, found = summaries[method], get_method(method)
    assert found.report(summary) == shown.report(summary) and found.report(summary)
    assert found.headline(summary) == shown.headline(summary)
    assert found.table(summary).title == shown.table(summary).title


@pytest.mark.parametrize("method", METHODS)
def test_a_summary_that_does_not_fit_the_model_is_refused(summaries: dict[str, dict[str, Any]], method: str) -> None:
    """A summary whose metrics lack what the model requires (another version's, or edited) is refused, naming
    what is missing and how to get one that fits, not shown in part."""
    metrics = dict(summaries[method]["metrics"])
    missing = next(name for name, field in _results_model(method).model_fields.items() if field.is_required())
    del metrics[missing]
    for show in (get_method(method).report, get_method(method).headline, get_method(method).table):
        with pytest.raises(MedprobeError, match=f"metrics.{missing}: Field required") as refused:
            show({**summaries[method], "metrics": metrics})
        assert refused.value.hint == f"score its responses again with this medprobe: medprobe score {method} --responses RUN_DIR"


def _docs_hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "scripts" / "docs_hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("method", METHODS)
def test_the_docs_publish_each_results_schema(method: str) -> None:
    """The method's page asks for its schema, and the hook writes the results model's JSON Schema there."""
    page = (ROOT / "docs" / "methods" / f"{method}.md").read_text(encoding="utf-8")
    assert f"<!-- metrics-schema {method} -->" in page
    block = _docs_hooks().on_page_markdown(f"<!-- metrics-schema {method} -->")
    assert block.startswith("```json\n") and block.endswith("\n```")
    assert json.loads(block.removeprefix("```json\n").removesuffix("\n```")) == _results_model(method).model_json_schema()


def test_sdak_lists_the_reader_that_scored_first() -> None:
    """summary.json lists the scoring reader's IFR and FactAcc first, the other reader's second."""
    kb = "builtin:en"
    found = get_method("sdak")
    probes = found.build(BuildOptions(data=kb, seed=0, limit=1, include_unmeasured=True)).probes
    for reference, first in ((False, "strict"), (True, "reference")):
        readers = found.score(probes, [], ScoreOptions(reference_compatible=reference)).metrics["readers"]
        assert list(readers)[:2] == [first, {"strict": "reference", "reference": "strict"}[first]]


def test_dialogue_recalls_keep_their_keys_and_place() -> None:
    """Each exam type's recall stays a ``recall_<type>`` key of its own, between the full-path numbers and
    exam_recall, and the schema says so."""
    spread = {"mean": 0.5, "se": None, "runs": 1}
    high = {"macro_full_path": spread, "recall_LAB": spread, "recall_IMAGE": spread, "exam_recall": spread, "episodes": 1,
            "finished": 1, "stopped": {}, "grading": "strict", "diagnosis_kinds": {"match": 1}, "rolled_back": 0, "summaries": 0}
    typed = HighMetrics.model_validate(high)
    assert list(typed.recall) == ["LAB", "IMAGE"]
    assert json.dumps(typed.model_dump(exclude_unset=True)) == json.dumps(high)
    schema = HighMetrics.model_json_schema()
    assert "recall" not in schema["properties"] and "^recall_" in schema["patternProperties"]
