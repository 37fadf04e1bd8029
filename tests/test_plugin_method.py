"""A fifth method plugs in through the ``medprobe.methods`` entry point alone: written here into a
folder of its own (a module and its distribution's entry_points.txt, as ``pip install`` would leave
them), it is listed, run, mounted with its own command and profiled with the four built-in methods,
without a line of medprobe changed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from medprobe.cli import app
from medprobe.contract import get_method
from medprobe.jsonl import read_json, write_records
from medprobe.profile.oracle import oracle_responses
from medprobe.profile.points import profile_builds
from testing.fixtures import write_tiny_kb

ENV = {"HF_HUB_OFFLINE": "1", "COLUMNS": "200"}
LIMIT = 6

TOY = '''
"""A toy method: one true/false statement per knowledge point, read as the exact answer word."""

from rich.table import Table
import typer

from medprobe.contract import PointTest, ProbeSet, ProfileRole, ScoreResult, Way
from medprobe.errors import MedprobeError
from medprobe.parsing.strict_exact import ANSWER_WORDS
from medprobe.records import AnswerFormat, GenerationParams, ItemScore, Probe
from medprobe.sources.builtin import resolve_kb


class ToyMethod:
    name = "toy"
    title = "Toy"
    default_data = "builtin:en"
    settings = ("zero-shot",)
    raw_formats = ()
    profile = ProfileRole(rank=50, ways=(Way("toy", "toy", "Toy statements"),), question_types=("TFQ",))

    def build(self, options):
        kb = resolve_kb(options.data or self.default_data)
        points = [kb.knowledge_point(d, key) for d, key, n in kb.point_sizes() if n]
        wanted = options.point_ids()
        points = [kp for kp in points if kp.id in wanted] if wanted is not None else points[: options.limit or 3]
        fmt = AnswerFormat(kind="true_false", language=kb.language)
        probes = [
            Probe(id=f"toy/{kp.id}", method="toy", knowledge_point=kp.id, facet="TF", language=kb.language,
                  prompt=f"True or false: {kp.values[0]} is among the {kp.aspect} of {kp.disease}.", gold=True, answer_format=fmt)
            for kp in points
        ]
        return ProbeSet(probes, GenerationParams(max_tokens=8), info={"source": kb.name})

    def score(self, probes, responses, options):
        replies = {r.probe_id: r.text.strip() for r in responses if r.error is None}
        items = []
        for probe in probes:
            words = ANSWER_WORDS[probe.language]
            read = {words["true"]: True, words["false"]: False}.get(replies.get(probe.id, ""))
            right = read == probe.gold
            items.append(ItemScore(knowledge_point=probe.knowledge_point, facet="TF", score=float(right), correct=[right],
                                   unparsed=int(read is None)))
        return ScoreResult(items, {"accuracy": sum(i.score for i in items) / len(items)})

    def table(self, summary):
        table = Table("accuracy", title="toy")
        table.add_row(f"{summary['metrics']['accuracy']:.3f}")
        return table

    def headline(self, summary):
        return {"accuracy": f"{summary['metrics']['accuracy']:.3f}", "_sort": summary["metrics"]["accuracy"]}

    def report(self, summary):
        return f"Toy accuracy: {summary['metrics']['accuracy']:.3f}"

    def import_raw(self, path, fmt, options):
        raise MedprobeError("the toy method imports nothing")

    def profile_points(self, kb, seed):
        return PointTest(lambda kp: bool(kp.values))

    def commands(self):
        app = typer.Typer()

        @app.command("toy-hello")
        def hello() -> None:
            print("hello from the toy method")

        return app


METHOD = ToyMethod()
'''


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy method installed as a distribution of its own would be: on sys.path, with an entry point."""
    folder = tmp_path / "site"
    info = folder / "toy_method-0.1.dist-info"
    info.mkdir(parents=True)
    (folder / "toy_method.py").write_text(TOY, encoding="utf-8")
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-method\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[medprobe.methods]\ntoy = toy_method:METHOD\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.delitem(__import__("sys").modules, "toy_method", raising=False)
    yield


def invoke(*args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(app, [str(a) for a in args], env=ENV)
    return result.exit_code, result.output


def test_the_toy_method_is_listed_and_brings_its_command(toy: None) -> None:
    code, output = invoke("models")
    assert code == 0 and "methods: meddisk, multicog, multifacet, sdak, toy" in output
    code, output = invoke("toy-hello")
    assert code == 0, output
    assert "hello from the toy method" in output


def test_the_toy_method_runs(toy: None, tmp_path: Path) -> None:
    kb = write_tiny_kb(tmp_path / "kb.jsonl")
    code, output = invoke("run", "toy", "--data", kb, "--model", "random", "--limit", 3, "--out", tmp_path / "runs", "-q")
    assert code == 0, output
    summary = read_json(Path(output.strip().splitlines()[-1]) / "summary.json")
    assert summary["method"] == "toy" and summary["run"]["answered"] == 3
    assert 0.0 <= summary["metrics"]["accuracy"] <= 1.0


def test_the_toy_method_is_profiled_with_the_others(toy: None, tmp_path: Path) -> None:
    """A model that knows every other point: the toy's way finds exactly those known, as the others' do."""
    kb = write_tiny_kb(tmp_path / "kb.jsonl", n=48)
    points, builds = profile_builds(str(kb), limit=LIMIT, seed=0)
    assert [method for method, _ in builds] == ["meddisk", "multifacet", "multicog", "sdak", "toy"]
    known = set(points.ids[::2])
    answers = tmp_path / "answers.jsonl"
    write_records(answers, oracle_responses([get_method(m).build(o) for m, o in builds], points, known))
    code, output = invoke("run", "profile", "--data", kb, "--limit", LIMIT, "--model", f"replay:{answers}", "--out", tmp_path / "runs", "-q")
    assert code == 0, output
    profile = read_json(Path(output.strip().splitlines()[-1]) / "profile.json")
    assert "toy" in profile["runs"] and profile["ways"][-1] == {"key": "toy", "method": "toy", "title": "Toy statements"}
    assert set(profile["known_points"]["toy"]) == set(profile["known_points"]["facets"]) == known
