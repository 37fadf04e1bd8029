"""MultiCogEval low and mid levels: the golden vectors of REFERENCE_METHODS.md §6 (MCE MR, SV, AE, MCQ, mean/SE,
normalization), the parsers, scoring modes, the builders on fixtures written here (release, raw MedQA / MedMCQA,
hub, knowledge base, generator via the mock server), the raw-result importer, and the real data when present."""

from __future__ import annotations

import asyncio
import json
import math
import os
import re
import subprocess
import sys
import time
import types
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from conftest import shared

from medprobe.engine.runner import execute
from medprobe.errors import MedprobeError
from medprobe.methods.multicog.lowmid import build_lowmid, import_raw, score_lowmid
from medprobe.methods.multicog.lowmid.generate import parse_distractor, parse_statement
from medprobe.methods.multicog.lowmid.metrics import (
    macro,
    mid_level,
    random_baseline,
    rectification_item_score,
    task_estimate,
)
from medprobe.methods.multicog.lowmid.reference_yes_no import parse_answer_existence
from medprobe.methods.multicog.lowmid.sources import load_raw
from medprobe.models import make_backend
from medprobe.parsing.base import EMPTY_REPLY, Parsed, Revision, Unparsed
from medprobe.parsing.reference_option_letter import BLANK_REPLY, parse_option_letter_mce
from medprobe.parsing.reference_true_false import parse_statement_mce
from medprobe.parsing.reference_verdict_letter import parse_rectification_mce
from medprobe.records import GenerationParams, Message, Probe, Request, Response
from testing.fixtures import write_tiny_kb, write_tiny_zh_kb
from testing.mock_server import MockOpenAI, serve_in_thread
from testing.releases import medqa_rows, write_jsonl

OPTS = {"A": "alpha", "B": "beta", "C": "gamma", "D": "delta", "E": "epsilon"}
LETTERS5, LETTERS4 = list("ABCDE"), list("ABCD")
AE_TAIL = ". There is a 50% chance that the correct answer is not included in the options. Please determine if the correct answer is among the given options and respond with yes or no."
MR_TAIL = ". Alice's answer: {}. Please determine whether her answer is correct, and if it's incorrect, provide the correct answer."


# --- fixtures written here -----------------------------------------------------------------------------


def mcq(stem: str, options: list[str]) -> str:
    return f"Question: {stem}\nOptions: " + "\t".join(f"{letter}: {o}" for letter, o in zip("ABCDE", options, strict=False))


def release_rows(ids: list[int], n_options: int, ae_labels: tuple[Any, Any]) -> dict[str, list[list[Any]]]:
    """Release-layout rows (§1.1) for made-up items; every text names its item so none is a substring of another."""
    rows: dict[str, list[list[Any]]] = {t: [] for t in ("MCQ", "SV", "AE", "MR")}
    for k, i in enumerate(ids):
        options = [f"option {i}-{j}" for j in range(n_options)]
        gold = "ABCDE"[k % n_options]
        wrong = "ABCDE"[(k + 1) % n_options]
        q = mcq(f"Case {i}: which option is right for item {i}?", options)
        replaced = mcq(f"Case {i}: which option is right for item {i}?", [o if "ABCDE"[j] != gold else f"decoy {i}" for j, o in enumerate(options)])
        rows["MCQ"].append([i, q, gold])
        rows["SV"].append([i, f"Item {i} statement that is true.", f"Item {i} statement that is false.", "T", "F"])
        rows["AE"].append([i, q + AE_TAIL, replaced + AE_TAIL, *ae_labels])
        rows["MR"].append([i, q + MR_TAIL.format(gold), q + MR_TAIL.format(wrong), ["T", gold], ["F", gold]])
    return rows


def write_release(folder: Path, rows: dict[str, list[list[Any]]]) -> Path:
    for task, items in rows.items():
        (folder / task).mkdir(parents=True, exist_ok=True)
        (folder / task / "test.json").write_text(json.dumps(items), encoding="utf-8")
    return folder


@pytest.fixture
def release_root(tmp_path: Path) -> Path:
    """A tiny release: medqa (ids 5..14, 5 options, int AE labels) and medmcqa (ids 0..9, 4 options, "T"/"F")."""
    root = tmp_path / "multicogeval"
    write_release(root / "medqa", release_rows(list(range(5, 15)), 5, (1, 0)))
    write_release(root / "medmcqa", release_rows(list(range(10)), 4, ("T", "F")))
    return root


def medmcqa_rows(n: int = 8) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [
        {"question": f"Which drug {i} is used?", "choices": [f"{letter}. drug {i}-{j}" for j, letter in enumerate("ABCD")], "answer": i % 4}
        for i in range(n)
    ]
    rows[2]["choice_type"] = "multi"
    return rows


def per_repeat(items: list[Any], dataset: str, task: str) -> list[float]:
    by_repeat: dict[int, list[float]] = defaultdict(list)
    for item in items:
        if item.meta["dataset"] == dataset and item.facet == task:
            by_repeat[item.meta["repeat"]].append(item.score)
    return [sum(v) / len(v) for _, v in sorted(by_repeat.items())]


def write_results(root: Path, dataset: str, task: str, model: str, lines: list[list[Any]]) -> Path:
    folder = root / f"{dataset}_repeat" / task
    folder.mkdir(parents=True, exist_ok=True)
    return write_jsonl(folder / f"{model}_{task}_results.json", lines)


def score(probes: list[Probe], responses: list[Response], reference: bool = False, seed: int = 0) -> tuple[list[Any], dict[str, Any]]:
    scored = score_lowmid(probes, responses, seed=seed, reference_compatible=reference)
    return scored.items, scored.metrics.model_dump(exclude_unset=True)  # as summary.json holds them


# --- golden vectors (§6), end to end through the importer and the scorer -------------------------------


def test_golden_mce_mr(tmp_path: Path) -> None:
    golds, wrongs = "EBC", "DAB"
    t_replies = ["correct", "correct\n\nQuestion: x", "incorrect, the correct answer is A"]
    f_replies = ["incorrect, the correct answer is E", "incorrect, the correct answer is C", "correct"]
    lines = []
    for i, (gold, wrong) in enumerate(zip(golds, wrongs, strict=True)):
        q = mcq(f"mr item {i}", list(OPTS.values()))
        lines.append([i, q + MR_TAIL.format(gold), q + MR_TAIL.format(wrong), ["T", gold], ["F", gold], t_replies[i], f_replies[i]])
    write_results(tmp_path, "medqa", "MR", "m", lines)
    probes, responses, info = import_raw(tmp_path, None, None)
    items, metrics = score(probes, responses)
    row = metrics["datasets"]["medqa"]["tasks"]["MR"]
    assert info["repeats"] == [1] and row["repeats"] == 1 and row["se"] is None
    assert row["accuracy"] == pytest.approx(0.4)  # 0.2·(2/3) + 0.8·(1/3)
    assert row["normalized"] == pytest.approx(0.25)
    assert [i.correct for i in sorted(items, key=lambda i: i.knowledge_point)] == [[True, True], [True, False], [False, False]]
    # MedMCQA weighting (w = 1/4) on the same verdicts
    t_ok, f_ok = [1, 1, 0], [1, 0, 0]
    assert sum(rectification_item_score(bool(t), bool(f), 4) for t, f in zip(t_ok, f_ok, strict=True)) / 3 == pytest.approx(0.416667, abs=1e-6)


def test_golden_mce_sv(tmp_path: Path) -> None:
    write_results(tmp_path, "medmcqa", "SV", "m", [
        [0, "Statement 0 true.", "Statement 0 false.", "T", "F", " true", "true", " false", "The statement is incorrect"],
        [1, "Statement 1 true.", "Statement 1 false.", "T", "F", "False.", " true\n", "No", "Yes"],
    ])
    items, metrics = score(*import_raw(tmp_path / "medmcqa_repeat", None, None)[:2])
    assert per_repeat(items, "medmcqa", "SV") == [0.75, 0.75]
    row = metrics["datasets"]["medmcqa"]["tasks"]["SV"]
    assert row["accuracy"] == pytest.approx(0.75) and row["se"] == pytest.approx(0.0)
    assert row["repeats"] == 2 and row["questions"] == 4


@pytest.mark.parametrize("labels", [(1, 0), ("T", "F")])
def test_golden_mce_ae(tmp_path: Path, labels: tuple[Any, Any]) -> None:
    q5, q6 = mcq("ae 5", list(OPTS.values())), mcq("ae 6", list(OPTS.values()))
    write_results(tmp_path, "medqa", "AE", "m", [
        [5, q5 + AE_TAIL, q5.replace("gamma", "decoy") + AE_TAIL, *labels, " yes", " Yes, the answer is B", " no", "No."],
        [6, q6 + AE_TAIL, q6.replace("gamma", "decoy") + AE_TAIL, *labels, " no", "Answer: yes", " yes", "none of them"],
    ])
    items, metrics = score(*import_raw(tmp_path, "m", 2)[:2])
    assert per_repeat(items, "medqa", "AE") == [0.5, 1.0]
    row = metrics["datasets"]["medqa"]["tasks"]["AE"]
    assert row["accuracy"] == pytest.approx(0.75) and row["se"] == pytest.approx(0.25)


def test_golden_mce_mcq(tmp_path: Path) -> None:
    lines = [
        [0, mcq("mcq 0", list(OPTS.values())), "E", " E\n\nQuestion: next", " epsilon"],
        [1, mcq("mcq 1", list(OPTS.values())), "C", "The correct answer is C", " Option B"],
        [2, mcq("mcq 2", list(OPTS.values())), "A", " A: alpha", " B)"],
    ]
    write_results(tmp_path, "medqa", "MCQ", "m", lines)
    items, metrics = score(*import_raw(tmp_path, None, None)[:2])
    assert per_repeat(items, "medqa", "MCQ") == pytest.approx([1.0, 1 / 3])
    assert metrics["datasets"]["medqa"]["low"]["normalized"] == pytest.approx((2 / 3 - 0.2) / 0.8)


def test_golden_mean_se_and_normalization() -> None:
    est = task_estimate([0.60, 0.62, 0.58, 0.61, 0.59], random_baseline("MCQ", 5))
    assert est["accuracy"] == pytest.approx(0.60)
    assert est["se"] == pytest.approx(0.0070711, abs=1e-7)
    assert est["normalized"] == pytest.approx(0.5)
    assert est["normalized_se"] == pytest.approx(0.0088388, abs=1e-7)
    assert task_estimate([0.6], random_baseline("MCQ", 5))["normalized"] == pytest.approx(0.5)
    assert task_estimate([0.55], random_baseline("MCQ", 4))["normalized"] == pytest.approx(0.4)
    assert task_estimate([0.7], random_baseline("SV", 4))["normalized"] == pytest.approx(0.4)


def test_random_baselines_follow_the_option_count() -> None:
    assert [random_baseline(t, 5) for t in ("MCQ", "SV", "AE", "MR")] == [0.2, 0.5, 0.5, 0.2]
    assert [random_baseline(t, 4) for t in ("MCQ", "SV", "AE", "MR")] == [0.25, 0.5, 0.5, 0.25]
    assert random_baseline("SV", None) == 0.5
    with pytest.raises(ValueError):
        random_baseline("MCQ", None)
    # the MR weight makes a guesser score 1/No whatever its share p of "correct" verdicts (Appendix B)
    for p in (0.0, 0.3, 1.0):
        assert rectification_item_score(True, False, 5) * p + rectification_item_score(False, True, 5) * (1 - p) / 4 == pytest.approx(0.2)


def test_mid_level_se_over_per_repeat_averages_and_macro() -> None:
    mid = mid_level({"SV": [0.2, 0.4], "AE": [0.0, 0.2], "MR": [0.1, 0.3]})
    assert mid["normalized"] == pytest.approx(0.2)
    assert mid["se"] == pytest.approx(0.1)  # averages 0.1 and 0.3
    both = macro([{"normalized": 0.7833, "se": 0.03}, {"normalized": 0.6578, "se": 0.04}])
    assert both["normalized"] == pytest.approx((0.7833 + 0.6578) / 2)
    assert both["se"] == pytest.approx(0.025)
    assert macro([{"normalized": 0.1, "se": None}, {"normalized": 0.3, "se": 0.1}])["se"] is None


# --- parsers -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (" E\n\nQuestion: next", Parsed("E")), ("The correct answer is C", Parsed("C")), (" A: alpha", Parsed("A")),
        (" epsilon", Parsed("E")), (" Option B", Parsed("B")), (" B)", Parsed("B")),
        ("", Unparsed(EMPTY_REPLY)), ("  \n ", Unparsed(BLANK_REPLY)), ("\n\nB", Parsed("B")),
        ("Answer: B\n\nAnswer: C", Parsed("B")),
        ("(C)", Unparsed("no option letter found")), ("I think\n\nAnswer: D", Unparsed("no option letter found")),
    ],
)
def test_parse_option_letter_mce(reply: str, expected: object) -> None:
    assert parse_option_letter_mce(reply, OPTS) == expected


def test_parse_option_letter_mce_chinese() -> None:
    assert parse_option_letter_mce("答案是C\n\n问题：下一题答案是A", OPTS, "zh") == Parsed("C")
    with pytest.raises(ValueError):
        parse_option_letter_mce("A", OPTS, "fr")


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (" true", True), ("true", True), (" false", False), ("The statement is incorrect", False),
        ("False.", False), (" true\n", True), ("No", False), ("Yes", True), ("TRUE, since", True), ("Not sure", False),
    ],
)
def test_parse_statement_mce(reply: str, expected: bool) -> None:
    assert parse_statement_mce(reply) == Parsed(expected)


def test_parse_statement_mce_unparsed_and_chinese() -> None:
    assert parse_statement_mce("") == Unparsed(EMPTY_REPLY)
    assert isinstance(parse_statement_mce("maybe"), Unparsed)
    assert parse_statement_mce("正确。", "zh") == Parsed(True)
    assert parse_statement_mce("错误", "zh") == Parsed(False)
    assert parse_statement_mce("该陈述不正确", "zh") == Parsed(False)


@pytest.mark.parametrize(
    ("reply", "expected"),
    [(" yes", True), (" Yes, the answer is B", True), (" no", False), ("No.", False), ("Answer: yes", True),
     ("none of them", False), ("I think the answer: no", False)],
)
def test_parse_answer_existence(reply: str, expected: bool) -> None:
    assert parse_answer_existence(reply) == Parsed(expected)


def test_parse_answer_existence_unparsed_and_chinese() -> None:
    assert parse_answer_existence("  ") == Unparsed(EMPTY_REPLY)
    assert isinstance(parse_answer_existence("maybe"), Unparsed)
    assert parse_answer_existence("是的", "zh") == Parsed(True)
    assert parse_answer_existence("不在选项中", "zh") == Parsed(False)
    assert parse_answer_existence("我认为答案：否", "zh") == Parsed(False)


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("correct", Parsed(Revision(True, None))),
        ("correct\n\nQuestion: x", Parsed(Revision(True, None))),
        ("incorrect, the correct answer is A", Parsed(Revision(False, "A"))),
        (" The reply. Answer: incorrect, the correct answer is B", Parsed(Revision(False, "B"))),
        ("So. answer: correct", Parsed(Revision(True, None))),
        ("Correct.", Unparsed("no verdict in the expected form")),  # case-sensitive, as in the reference
        ("Answer: Correct", Unparsed("no verdict in the expected form")),
        ("incorrect", Unparsed("no verdict in the expected form")),
        ("", Unparsed(EMPTY_REPLY)),
    ],
)
def test_parse_rectification_mce(reply: str, expected: object) -> None:
    assert parse_rectification_mce(reply) == expected


def test_parse_rectification_mce_chinese() -> None:
    assert parse_rectification_mce("正确") == Unparsed("no verdict in the expected form")
    assert parse_rectification_mce("正确", "zh") == Parsed(Revision(True, None))
    assert parse_rectification_mce("错误，正确答案是D", "zh") == Parsed(Revision(False, "D"))
    assert parse_rectification_mce("分析……答案：错误，正确答案是B", "zh") == Parsed(Revision(False, "B"))


# --- scoring modes -------------------------------------------------------------------------------------


def fixture_probes(release_root: Path, **kwargs: Any) -> list[Probe]:
    return build_lowmid([str(release_root)], limit=None, seed=0, repeats=kwargs.pop("repeats", 1), **kwargs)[0]


def test_strict_and_reference_compatible_fills(release_root: Path) -> None:
    probes = fixture_probes(release_root)
    unreadable = [Response(probe_id=p.id, text="(unreadable)") for p in probes]
    _, strict = score(probes, unreadable)
    _, reference = score(probes, unreadable, reference=True)
    for ds in ("medqa", "medmcqa"):
        for task in ("MCQ", "SV", "AE", "MR"):
            assert strict["datasets"][ds]["tasks"][task]["accuracy"] == 0.0
            assert strict["datasets"][ds]["tasks"][task]["parse_failure_rate"] == 1.0
            assert reference["datasets"][ds]["tasks"][task]["parse_failure_rate"] == 1.0
        assert reference["datasets"][ds]["tasks"]["SV"]["accuracy"] == 0.0  # SV is never filled
        assert reference["datasets"][ds]["tasks"]["AE"]["accuracy"] > 0.0
    # fills are seeded per question: the same seed gives the same scores, whatever the order of replies
    again = score(probes, list(reversed(unreadable)), reference=True)[1]
    assert again == reference
    # the exactly empty MCQ reply stays wrong; a request with no reply reads as the empty reply
    mcqs = [p for p in probes if p.facet == "MCQ"]
    assert score(mcqs, [Response(probe_id=p.id, text="") for p in mcqs], reference=True)[1]["levels"]["low"]["normalized"] < -0.2
    assert score(mcqs, [], reference=True)[1] == score(mcqs, [Response(probe_id=p.id, text="") for p in mcqs], reference=True)[1]


def test_reference_fills_stay_within_the_question_options(release_root: Path) -> None:
    probes = [p for p in fixture_probes(release_root, repeats=3) if p.meta["dataset"] == "medmcqa" and p.facet in ("MCQ", "MR")]
    items, _ = score(probes, [Response(probe_id=p.id, text="?") for p in probes], reference=True)
    letters = {x for item in items for x in (item.parsed if item.facet == "MCQ" else [pair[1] for pair in item.parsed])}
    assert letters <= set(LETTERS4)  # the reference can draw E for 4-option MedMCQA; we draw from the options


def perfect_reply(p: Probe) -> str:
    if p.facet == "MCQ":
        return f" {p.gold}"
    if p.facet in ("SV", "AE"):
        return {"SV": {True: "true", False: "false"}, "AE": {True: "yes", False: "no"}}[p.facet][p.gold]
    return "correct" if p.gold[0] else f"incorrect, the correct answer is {p.gold[1]}"


def test_perfect_replies_score_one(release_root: Path) -> None:
    probes = fixture_probes(release_root, repeats=2)
    items, metrics = score(probes, [Response(probe_id=p.id, text=perfect_reply(p)) for p in probes])
    for ds, block in metrics["datasets"].items():
        assert {t: row["accuracy"] for t, row in block["tasks"].items()} == {"MCQ": 1.0, "SV": 1.0, "AE": 1.0, "MR": 1.0}, ds
        assert block["low"] == {"normalized": 1.0, "se": 0.0, "se_repeats": 0.0} and block["mid"]["normalized"] == pytest.approx(1.0)
    assert metrics["levels"]["low"]["normalized"] == 1.0 and metrics["levels"]["mid"]["normalized"] == pytest.approx(1.0)
    assert len(items) == 2 * 4 * (10 + 10)


# --- builders on fixtures ------------------------------------------------------------------------------


def demo_answers(prompt: str) -> list[str]:
    """The answers of the demos of a prompt (each demo ends "\\nAnswer: X\\n\\n"; the query ends "Answer:")."""
    return re.findall(r"\nAnswer: (.*)\n\n", prompt)


def test_release_probe_counts_fields_and_prompt_shape(release_root: Path) -> None:
    probes, info = build_lowmid([str(release_root)], limit=None, seed=0, repeats=3)
    per_item = {"MCQ": 1, "SV": 2, "AE": 2, "MR": 2}
    assert len(probes) == 3 * 7 * (10 + 10)
    assert info["datasets"]["medqa"]["probes"] == {t: 3 * n * 10 for t, n in per_item.items()}
    assert info["datasets"]["medqa"]["n_options"] == 5 and info["datasets"]["medmcqa"]["n_options"] == 4
    assert [s["kind"] for s in info["sources"]] == ["release-root"]
    variants = {p.facet: set() for p in probes}
    for p in probes:
        variants[p.facet].add(p.variant)
        assert p.method == "multicog" and p.knowledge_point.startswith(p.meta["dataset"] + ":")
        assert set(p.meta) >= {"dataset", "repeat", "level", "n_options"} and p.meta["level"] == ("low" if p.facet == "MCQ" else "mid")
        assert p.prompt.endswith("\nAnswer:") and p.prompt.count("\nAnswer: ") == 5
    assert variants == {"MCQ": {"base"}, "SV": {"true", "false"}, "AE": {"present", "replaced"}, "MR": {"given_right", "given_wrong"}}
    mr = next(p for p in probes if p.facet == "MR" and p.variant == "given_wrong" and p.meta["dataset"] == "medmcqa")
    assert mr.answer_format.kind == "verdict_letter" and mr.answer_format.options == LETTERS4
    assert mr.answer_format.given != mr.gold[1] and mr.gold[0] is False
    ae = next(p for p in probes if p.facet == "AE" and p.variant == "present" and p.meta["dataset"] == "medmcqa")
    assert ae.answer_format.kind == "yes_no" and ae.gold is True  # "T" read by its meaning


def test_demos_never_include_the_test_item(release_root: Path) -> None:
    probes = fixture_probes(release_root, repeats=5)
    for p in probes:
        item = p.knowledge_point.split(":")[1]
        demos = p.prompt[: p.prompt.rfind("\n\n") + 2]
        assert f"item {item}?" not in demos and f"Item {item} statement" not in demos and f"Case {item}:" not in demos


def test_demo_polarity_mix(release_root: Path) -> None:
    first_answer = {"SV": "true", "AE": "yes", "MR": "correct"}
    for p in fixture_probes(release_root, repeats=5):
        answers = demo_answers(p.prompt)
        assert len(answers) == 5
        if p.facet in first_answer:
            assert sum(a == first_answer[p.facet] for a in answers) in (2, 3), (p.id, answers)
        else:
            assert all(a in LETTERS5 for a in answers)


def test_build_is_deterministic_and_repeats_differ_only_in_demos(release_root: Path) -> None:
    first = fixture_probes(release_root, repeats=3)
    assert first == fixture_probes(release_root, repeats=3)
    other = build_lowmid([str(release_root)], limit=None, seed=1, repeats=3)[0]
    assert [p.id for p in other] == [p.id for p in first] and [p.prompt for p in other] != [p.prompt for p in first]
    by_question: dict[str, list[Probe]] = defaultdict(list)
    for p in first:
        by_question[p.id.rsplit("/", 1)[0]].append(p)
    differing = 0
    for group in by_question.values():
        assert [p.meta["repeat"] for p in group] == [0, 1, 2]
        queries = {p.prompt[p.prompt.rfind("\n\n") + 2 :] for p in group}
        assert len(queries) == 1
        assert len({(json.dumps(p.gold), p.answer_format.model_dump_json()) for p in group}) == 1
        differing += len({p.prompt for p in group}) > 1
    assert differing == len(by_question)


def test_limit_samples_items_per_dataset_and_levels(release_root: Path) -> None:
    probes, info = build_lowmid([str(release_root)], limit=3, seed=0, repeats=1, levels={"low"})
    assert {p.facet for p in probes} == {"MCQ"} and len(probes) == 6
    assert info["datasets"]["medqa"]["asked_items"] == {"MCQ": 3}
    assert probes == build_lowmid([str(release_root)], limit=3, seed=0, repeats=1, levels={"low"})[0]
    mid = build_lowmid([str(release_root / "medqa")], limit=2, seed=0, repeats=1, levels={"mid"})[0]
    assert {p.facet for p in mid} == {"SV", "AE", "MR"} and len({p.knowledge_point for p in mid}) == 2
    with pytest.raises(MedprobeError, match="low and mid"):
        build_lowmid([str(release_root)], limit=None, seed=0, levels={"high"})


def test_length_guard_trims_demos(release_root: Path) -> None:
    probes, info = build_lowmid([str(release_root / "medqa")], limit=None, seed=0, repeats=1, max_prompt_tokens=200)
    assert all(len(p.prompt) / 4 < 200 or p.meta["demos"] == 0 for p in probes)
    assert any(0 < p.meta["demos"] < 5 for p in probes) and info["datasets"]["medqa"]["prompts_with_fewer_demos"]
    assert all(p.meta["demos"] == 5 for p in build_lowmid([str(release_root / "medqa")], limit=None, seed=0, repeats=1, max_prompt_tokens=None)[0])


@pytest.mark.parametrize(
    ("task", "mutate", "message"),
    [
        ("MCQ", lambda rows: rows[1].pop(), r"item 1: a MCQ row is a list of at least 3 fields \(missing field\)"),
        ("MCQ", lambda rows: rows[2].__setitem__(2, "F"), "item 2: bad gold: expected one of the question's letters ABCDE"),
        ("SV", lambda rows: rows[0].__setitem__(3, "F"), "item 0: bad gold"),
        ("AE", lambda rows: rows[0].__setitem__(3, True), "item 0: bad gold"),
        ("MR", lambda rows: rows[0].__setitem__(4, ["F", "C"]), "item 0: bad gold"),
        ("MR", lambda rows: rows[0].__setitem__(2, rows[0][1]), "Alice's answer A should not be the gold A"),
        ("SV", lambda rows: rows.reverse(), "id 14 where MCQ/test.json has 5"),
        ("MCQ", lambda rows: rows[1].__setitem__(0, 5), "id 5 repeats item 0"),
    ],
)
def test_malformed_release_is_located(tmp_path: Path, task: str, mutate: Any, message: str) -> None:
    rows = release_rows(list(range(5, 15)), 5, (1, 0))
    mutate(rows[task])
    folder = write_release(tmp_path / "medqa", rows)
    with pytest.raises(MedprobeError, match=message) as caught:
        build_lowmid([str(folder)], limit=None, seed=0)
    assert caught.value.file == str(folder / task / "test.json")


def test_malformed_json_and_unknown_sources(tmp_path: Path, release_root: Path) -> None:
    (release_root / "medqa" / "AE" / "test.json").write_text("[[5, ", encoding="utf-8")
    with pytest.raises(MedprobeError, match="malformed JSON") as caught:
        build_lowmid([str(release_root / "medqa")], limit=None, seed=0)
    assert caught.value.file.endswith("AE/test.json")
    with pytest.raises(MedprobeError, match="no such file"):
        build_lowmid([str(tmp_path / "absent.jsonl")], limit=None, seed=0)
    odd = write_jsonl(tmp_path / "odd.jsonl", [{"text": "hello"}])
    with pytest.raises(MedprobeError, match="cannot tell what this file holds"):
        build_lowmid([str(odd)], limit=None, seed=0)
    with pytest.raises(MedprobeError, match="no MultiCogEval release"):
        build_lowmid([str(tmp_path)], limit=None, seed=0)


def test_raw_medqa_and_medmcqa_without_generator(tmp_path: Path) -> None:
    qa = write_jsonl(tmp_path / "medqa.jsonl", medqa_rows())
    mc = write_jsonl(tmp_path / "medmcqa.jsonl", medmcqa_rows())
    probes, info = build_lowmid([str(qa), str(mc)], limit=None, seed=0, repeats=2)
    assert {p.facet for p in probes} == {"MCQ"}
    assert info["datasets"]["medqa"]["probes"] == {"MCQ": 16} and info["datasets"]["medmcqa"]["probes"] == {"MCQ": 14}
    assert info["datasets"]["medmcqa"]["several_answer_items_dropped"] == 1
    assert len(info["notes"]) == 2 and "generator" in info["notes"][0]
    first = next(p for p in probes if p.knowledge_point == "medmcqa:0")
    assert first.prompt.endswith("Question: Which drug 0 is used?\nOptions: A: drug 0-0\tB: drug 0-1\tC: drug 0-2\tD: drug 0-3\nAnswer:")
    assert first.gold == "A" and first.answer_format.options == LETTERS4
    assert "medmcqa:2" not in {p.knowledge_point for p in probes}  # the several-answer row, dropped


def test_raw_rows_with_errors_are_located(tmp_path: Path) -> None:
    bad = write_jsonl(tmp_path / "bad.jsonl", [medqa_rows()[0], {"question": "q", "options": {"A": "x", "B": "y"}, "answer_idx": "C"}])
    with pytest.raises(MedprobeError, match="bad gold") as caught:
        build_lowmid([str(bad)], limit=None, seed=0)
    assert (caught.value.line, caught.value.field) == (2, "answer_idx")
    mc = medmcqa_rows()
    mc[4]["answer"] = 4
    with pytest.raises(MedprobeError, match="bad gold") as caught:
        build_lowmid([str(write_jsonl(tmp_path / "mc.jsonl", mc))], limit=None, seed=0)
    assert (caught.value.line, caught.value.field) == (5, "answer")
    mc = medmcqa_rows()
    del mc[1]["question"]
    with pytest.raises(MedprobeError, match="missing field") as caught:
        build_lowmid([str(write_jsonl(tmp_path / "mc2.jsonl", mc))], limit=None, seed=0)
    assert (caught.value.line, caught.value.field) == (2, "question")


def test_hub_dataset_needs_the_datasets_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "datasets", None)  # import fails as if not installed
    with pytest.raises(MedprobeError, match="'datasets' package is not installed"):
        build_lowmid(["hf:openlifescienceai/medmcqa@validation"], limit=None, seed=0)


def test_hub_dataset_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def load_dataset(name: str, split: str) -> list[dict[str, Any]]:
        calls.append((name, split))
        return [{"question": f"q{i}", "opa": f"a{i}", "opb": f"b{i}", "opc": f"c{i}", "opd": f"d{i}", "cop": i % 4,
                 "choice_type": "multi" if i == 3 else "single"} for i in range(9)]

    monkeypatch.setitem(sys.modules, "datasets", types.SimpleNamespace(load_dataset=load_dataset))
    probes, info = build_lowmid(["openlifescienceai/medmcqa@validation"], limit=None, seed=0, repeats=1)
    assert calls == [("openlifescienceai/medmcqa", "validation")]
    assert info["sources"][0]["kind"] == "hub" and info["datasets"]["medmcqa"]["probes"] == {"MCQ": 8}
    assert next(p for p in probes if p.knowledge_point == "medmcqa:1").gold == "B"


def test_knowledge_base_source(tmp_path: Path) -> None:
    kb = write_tiny_kb(tmp_path / "kb.jsonl")
    probes, info = build_lowmid([str(kb)], limit=4, seed=0, repeats=2)
    block = info["datasets"]["kb"]
    assert block["n_options"] == 4 and block["kind"] == "knowledge-base"
    assert block["asked_items"] == {"MCQ": 4, "SV": 4, "AE": 4, "MR": 4} and block["items"]["MCQ"] == 9  # 4 asked + 5 for demos
    assert len(probes) == 2 * 7 * 4
    sv = next(p for p in probes if p.facet == "SV" and p.variant == "false")
    assert "belongs to the primary symptoms of" in sv.prompt or "belongs to the departments of" in sv.prompt
    mcq_probe = next(p for p in probes if p.facet == "MCQ")
    assert mcq_probe.answer_format.options == LETTERS4 and len(mcq_probe.answer_format.option_texts) == 4
    perfect = [Response(probe_id=p.id, text=p.gold if p.facet == "MCQ" else {True: "true", False: "false"}[p.gold] if p.facet == "SV"
                        else {True: "yes", False: "no"}[p.gold] if p.facet == "AE"
                        else ("correct" if p.gold[0] else f"incorrect, the correct answer is {p.gold[1]}")) for p in probes]
    metrics = score(probes, perfect)[1]
    assert metrics["datasets"]["kb"]["tasks"]["MCQ"]["random_baseline"] == 0.25
    assert metrics["levels"]["mid"]["normalized"] == pytest.approx(1.0)
    assert probes == build_lowmid([str(kb)], limit=4, seed=0, repeats=2)[0]


def test_chinese_knowledge_base_scores_through_the_chinese_parsers(tmp_path: Path) -> None:
    kb = write_tiny_zh_kb(tmp_path / "zh.jsonl")
    probes, _ = build_lowmid([str(kb)], limit=3, seed=0, repeats=1)
    assert {p.language for p in probes} == {"zh"} and all(p.prompt.endswith("\n答案：") for p in probes)
    responses = asyncio.run(random_responses(probes, seed=0))
    _, metrics = score(probes, responses)
    assert all(row["parse_failure_rate"] == 0.0 for row in metrics["datasets"]["zh"]["tasks"].values())


# --- the generator step (mock OpenAI-compatible server) ------------------------------------------------


def generator_reply(body: dict[str, Any]) -> str:
    """Writes "Statement: … Label: …" with the right label, or a distractor; item 3 gets nothing usable
    (a label with nothing after it: an empty completion would be a failed request, retried, never cached)."""
    text = body["messages"][-1]["content"]
    if "patient 3 " in text:
        return "Distractor:"
    if text.rstrip().endswith("Distractor:"):
        return "Distractor: " + "made-up cause " + text.split("What is the cause ")[1].split("?")[0]
    given = text.rsplit("Given option: ", 1)[1][0]
    gold = text.rsplit("Correct answer: ", 1)[1][0]
    return f'Statement: "The cause is option {given} of {text.rsplit("Question: ", 1)[1][:20]}."\nLabel: {given == gold}'


def test_generator_writes_statements_and_distractors_and_is_cached(tmp_path: Path) -> None:
    qa = write_jsonl(tmp_path / "medqa.jsonl", medqa_rows())
    mock = MockOpenAI(reply=generator_reply, keep_bodies=True)
    with serve_in_thread(mock) as url:
        model = f"openai:mock@{url}"
        probes, info = build_lowmid([str(qa)], limit=None, seed=0, repeats=1, generator=model)
        sent = mock.requests
        again, info_again = build_lowmid([str(qa)], limit=None, seed=0, repeats=1, generator=model)
    assert sent == 3 * 8 and mock.requests == sent, "the second build must come from the response cache"
    assert again == probes
    generation = info["datasets"]["medqa"]["generation"]
    assert generation["generated"] == {"SV": 7, "AE": 7} and generation["failed"] == {"SV": 1, "AE": 1}
    assert generation["generator"]["model"] == model and generation["requests"]["sent"] == 24
    assert info_again["datasets"]["medqa"]["generation"]["requests"] == {"total": 24, "from_cache": 24, "sent": 0, "errors": 0}
    assert info["datasets"]["medqa"]["asked_items"] == {"MCQ": 8, "SV": 7, "AE": 7, "MR": 8}
    ae = next(p for p in probes if p.facet == "AE" and p.variant == "replaced" and p.knowledge_point == "medqa:0")
    assert "B: made-up cause 0\tC: cause 0-2" in ae.prompt.rsplit("\n\n", 1)[1] and ae.prompt.endswith("respond with yes or no.\nAnswer:")
    sv = next(p for p in probes if p.facet == "SV" and p.variant == "false" and p.knowledge_point == "medqa:1")
    assert sv.prompt.rsplit("\n\n", 1)[1].startswith("The cause is option ") and sv.gold is False
    asked = [b["messages"][-1]["content"].rsplit("Correct answer: ", 1)[-1] for b in mock.bodies if "Given option:" in b["messages"][-1]["content"]]
    assert sorted(text[0] == text.split("Given option: ")[1][0] for text in asked) == [False] * 8 + [True] * 8


def test_generator_reply_parsing() -> None:
    assert parse_statement("Statement: Scurvy is due to lack of vitamin C.\nLabel: True", True) == Parsed("Scurvy is due to lack of vitamin C.")
    assert parse_statement("Statement: x\n\n  y\nLabel: false.", False) == Parsed("x y")
    assert parse_statement("Statement: x Label: True", False) == Unparsed("label disagrees with the answer key")
    assert parse_statement("no format", True) == Unparsed("no 'Statement: … Label: …'")
    assert parse_statement(None, True) == Unparsed("no reply")
    assert parse_distractor('Distractor: "C: Tyrosine aminotransferase"\nextra', {"A": "x"}) == Parsed("Tyrosine aminotransferase")
    assert parse_distractor("**Homogentisate**", {"A": "x"}) == Parsed("Homogentisate")
    assert parse_distractor("x", {"A": "X "}) == Unparsed("distractor repeats an option")
    assert parse_distractor("  \n", {}) == Unparsed("empty distractor")


def test_random_model_cannot_generate(tmp_path: Path) -> None:
    qa = write_jsonl(tmp_path / "medqa.jsonl", medqa_rows())
    with pytest.raises(MedprobeError, match="generator model 'random' failed"):
        build_lowmid([str(qa)], limit=2, seed=0, generator="random")


# --- importing the reference's result files ------------------------------------------------------------


def test_import_raw_models_counts_and_folders(tmp_path: Path) -> None:
    results = tmp_path / "results"
    rows = release_rows([5, 6], 5, (1, 0))
    for model in ("llama", "qwen"):
        write_results(results, "medqa", "MCQ", model, [[*row, "A", "B", "C"] for row in rows["MCQ"]])
        write_results(results, "medqa", "MR", model, [[*row, "correct", "correct", "correct", "x", "y", "z"] for row in rows["MR"]])
    with pytest.raises(MedprobeError, match="2 models") as caught:
        import_raw(results, None, None)
    assert "llama, qwen" in (caught.value.hint or "")
    with pytest.raises(MedprobeError, match="no results for model 'gpt'"):
        import_raw(results, "gpt", None)
    probes, responses, info = import_raw(results, "llama", None)
    assert len(probes) == len(responses) == 2 * 3 + 2 * 2 * 3
    assert info["missing"] == ["medqa/SV", "medqa/AE"] and info["repeats"] == [3]
    assert all(p.prompt == p.prompt.split("\nAnswer")[0] for p in probes)  # the question alone, no demos
    mr = {r.probe_id: r.text for r in responses}
    assert mr["multicog/medqa/MR/5/given_wrong/r0"] == "x" and mr["multicog/medqa/MR/5/given_right/r2"] == "correct"
    assert import_raw(results / "medqa_repeat", "llama", 3)[0] == probes
    with pytest.raises(MedprobeError, match=r"expected 1 x 2 replies after the MCQ row, found 3") as caught:
        import_raw(results, "llama", 2)
    assert caught.value.line == 1 and caught.value.file.endswith("llama_MCQ_results.json")
    write_results(results, "medqa", "MCQ", "llama", [[*rows["MCQ"][0], "A", "B", "C"], [*rows["MCQ"][1], "A"]])
    with pytest.raises(MedprobeError, match="found 1") as caught:
        import_raw(results, "llama", None)
    assert caught.value.line == 2


# --- real data (skipped when ../shared/data is absent) -------------------------------------------------


async def random_responses(probes: list[Probe], seed: int) -> list[Response]:
    backend = make_backend("random", seed=seed)
    requests = [Request(id=f"{p.id}#0", probe_id=p.id, messages=[Message(role="user", content=p.prompt)],
                        params=GenerationParams(), answer_format=p.answer_format) for p in probes]
    out: list[Response] = []
    await execute(backend, requests, out.append, progress=False)
    return out


def test_real_release_loads_and_random_model_is_at_chance() -> None:
    root = shared("multicogeval")
    started = time.perf_counter()
    probes, info = build_lowmid([str(root)], limit=None, seed=0, repeats=1)
    for name, n in (("medqa", 795), ("medmcqa", 2816)):
        assert info["datasets"][name]["items"] == {"MCQ": n, "SV": n, "AE": n, "MR": n}
        assert info["datasets"][name]["probes"] == {"MCQ": n, "SV": 2 * n, "AE": 2 * n, "MR": 2 * n}
    assert info["datasets"]["medqa"]["n_options"] == 5 and info["datasets"]["medmcqa"]["n_options"] == 4
    items, metrics = score(probes, asyncio.run(random_responses(probes, seed=0)))
    for name, block in metrics["datasets"].items():
        for task, row in block["tasks"].items():
            scores = [i.score for i in items if i.meta["dataset"] == name and i.facet == task]
            mean = sum(scores) / len(scores)
            se = math.sqrt(sum((s - mean) ** 2 for s in scores) / (len(scores) - 1) / len(scores)) / (1 - row["random_baseline"])
            assert abs(row["normalized"]) < 3 * se, (name, task, row["normalized"], se)
            assert row["parse_failure_rate"] == 0.0
    assert time.perf_counter() - started < 30


def test_real_raw_mcqs_reproduce_the_release_questions() -> None:
    raw = load_raw(str(shared("medqa_us", "test_5options.jsonl")), "medqa", ["MCQ"], limit=None, seed=0, generator=None)
    release = json.loads(shared("multicogeval", "medqa", "MCQ", "test.json").read_text(encoding="utf-8"))
    built = {row[1]: row[2] for row in raw.tables["MCQ"]}
    assert all(built.get(text) == gold for _, text, gold in release)
    mc = load_raw(str(shared("medmcqa", "dev.jsonl")), "medmcqa", ["MCQ"], limit=None, seed=0, generator=None)
    release = json.loads(shared("multicogeval", "medmcqa", "MCQ", "test.json").read_text(encoding="utf-8"))
    built = {row[1]: row[2] for row in mc.tables["MCQ"]}
    assert len(mc.tables["MCQ"]) == 4183 and all(built.get(text) == gold for _, text, gold in release)


# --- error bars that include item sampling ----------------------------------------------------------------


def test_item_se_is_the_bootstrap_over_items_in_closed_form() -> None:
    """Four items x two repeats: the repeats agree exactly (SE over repeats 0), the items do not."""
    from medprobe.methods.multicog.lowmid.metrics import item_se, mid_item_se
    from medprobe.metrics.stats import bootstrap_se, mean

    by_item = {"a": [1.0, 1.0], "b": [1.0, 0.0], "c": [0.0, 1.0], "d": [0.0, 0.0]}
    # item means 1, .5, .5, 0: sd (ddof=1) = sqrt(1/6), SE = sqrt(1/6)/2
    assert item_se(by_item) == pytest.approx((1 / 6) ** 0.5 / 2)
    boot = bootstrap_se(list(by_item.values()), lambda s: {"acc": mean([sum(v) / 2 for v in s])}, resamples=20000, seed=1)
    assert boot["acc"] == pytest.approx(item_se(by_item) * (3 / 4) ** 0.5, rel=0.03)  # bootstrap SE uses 1/n, not 1/(n-1)
    # mid level: per item, the mean of its normalized SV and AE scores (baseline 0.5)
    mid = mid_item_se({"SV": {"a": [1.0], "b": [0.5]}, "AE": {"a": [1.0], "b": [0.0]}}, {"SV": 0.5, "AE": 0.5})
    assert mid == pytest.approx(abs(1.0 - (-0.5)) / 2)  # item values 1 and -0.5: sd = 1.5/sqrt(2), SE = 1.5/2


def test_the_mid_level_item_se_does_not_depend_on_string_hashing() -> None:
    """Python salts string hashes per process, so items taken from a set come in another order in each
    run; summed in that order, the SE changed in its last digits and summary.json with it."""
    code = (
        "from medprobe.methods.multicog.lowmid.metrics import mid_item_se\n"
        "scores = {t: {f'item {i}': [((i * k) % 7) / 7] for i in range(60)} for t, k in (('SV', 3), ('AE', 5), ('MR', 2))}\n"
        "print(repr(mid_item_se(scores, {'SV': 0.5, 'AE': 0.5, 'MR': 0.2})))"
    )
    root = Path(__file__).resolve().parents[1]
    printed = {subprocess.run([sys.executable, "-c", code], cwd=root, env={**os.environ, "PYTHONHASHSEED": str(seed)},
                              capture_output=True, text=True, check=True).stdout for seed in range(8)}
    assert len(printed) == 1, printed


def test_levels_report_item_sampling_beside_the_spread_over_repeats(release_root: Path) -> None:
    probes = fixture_probes(release_root, repeats=2)
    # right on even-numbered items only, in every repeat: repeats agree, items differ
    replies = [Response(probe_id=p.id, text=perfect_reply(p) if int(re.findall(r"\d+", p.knowledge_point)[-1]) % 2 == 0 else "?") for p in probes]
    _, metrics = score(probes, replies)
    low = metrics["datasets"]["medqa"]["low"]
    assert low["se_repeats"] == 0 and low["se"] > 0.1
    other = metrics["datasets"]["medmcqa"]["low"]["se"]
    assert metrics["levels"]["low"]["se"] == pytest.approx((low["se"] ** 2 + other**2) ** 0.5 / 2)  # macro over datasets


def test_a_task_the_generator_could_not_build_makes_the_run_incomplete(tmp_path: Path) -> None:
    """Every SV statement unusable: SV is reported as not built, the run exits 3 and the mid level is not
    the mean of AE and MR alone."""
    from typer.testing import CliRunner

    from medprobe.cli import app

    def no_statements(body: dict[str, Any]) -> str:
        text = body["messages"][-1]["content"]
        return generator_reply(body) if text.rstrip().endswith("Distractor:") else "I cannot write that."

    qa = write_jsonl(tmp_path / "medqa.jsonl", medqa_rows())
    with serve_in_thread(MockOpenAI(reply=no_statements)) as url:
        result = CliRunner().invoke(app, ["run", "multicog", "--level", "low,mid", "--data", str(qa), "--model", "random",
                                          "--repeats", "1", "-X", f"generator=openai:mock@{url}", "--out", str(tmp_path / "runs")],
                                    env={"COLUMNS": "1000", "NO_COLOR": "1"})
    assert result.exit_code == 3, result.output
    assert "medqa SV: 8 of 8 items could not be built" in " ".join(result.output.split())
    summary = json.loads((Path(result.stdout.strip().splitlines()[-1]) / "summary.json").read_text())
    assert summary["status"] == "incomplete: some items could not be built"
    assert [(r["task"], r["items"]) for r in summary["run"]["unbuilt"]] == [("SV", 8), ("AE", 1)]
    lowmid = summary["metrics"]["lowmid"]
    assert "SV" not in lowmid["datasets"]["medqa"]["tasks"] and lowmid["datasets"]["medqa"]["mid_missing"] == ["SV"]
    assert "mid" not in lowmid["levels"] and "low" in lowmid["levels"]
    assert "medqa: no mid level, since SV has no items" in " ".join(result.output.split())
