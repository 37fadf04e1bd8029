"""Building MultifacetEval probes: from the release format (REFERENCE_METHODS.md §1.2, §2.2, §2.3) and
MultiDiseK-style from a knowledge base."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest
from conftest import shared

from medprobe.contract import BuildOptions, ProbeSet, ScoreOptions
from medprobe.errors import MedprobeError
from medprobe.methods.multifacet import METHOD
from medprobe.methods.multifacet.templates import EN, ZH
from medprobe.records import Probe, Response
from medprobe.sources.kb import load_kb
from testing.fixtures import (
    DEV_MAQ_GOLD,
    DEV_MCQ_GOLD,
    DEV_RQ_VERDICT,
    DEV_TFQ_LABEL,
    RELEASE_TEST,
    gold_reply,
    release_files,
    write_tiny_kb,
    write_tiny_release,
    write_tiny_zh_kb,
)

PER_ITEM = {"MCQ": 1, "RQ": 2, "MAQ": 2, "TFQ": 4}


@pytest.fixture
def release(tmp_path: Path) -> Path:
    return write_tiny_release(tmp_path / "medqa")


def build(data: Path | str, **kwargs: Any) -> ProbeSet:
    return METHOD.build(BuildOptions(data=str(data), **kwargs))


def by_id(probes: list[Probe]) -> dict[str, Probe]:
    return {p.id: p for p in probes}


def pid(kp: int, task: str, variant: str) -> str:
    return f"multifacet/medqa-{kp}/{task}/{variant}"


# --- the release format ---------------------------------------------------------------------------------


def test_release_probe_counts_per_task(release: Path) -> None:
    probe_set = build(release)
    counts = Counter(p.facet for p in probe_set.probes)
    n = len(RELEASE_TEST)
    assert counts == {t: k * n for t, k in PER_ITEM.items()}
    assert probe_set.info["questions"] == {t: k * n for t, k in PER_ITEM.items()}
    assert probe_set.info["knowledge_points"] == n
    assert probe_set.samples == 1 and probe_set.setting == "ao"
    assert probe_set.generation.temperature == 0
    per_kp = Counter((p.knowledge_point, p.facet) for p in probe_set.probes)
    assert all(per_kp[(f"medqa-{it['id']}", t)] == k for it in RELEASE_TEST for t, k in PER_ITEM.items())
    assert len({p.id for p in probe_set.probes}) == len(probe_set.probes)


def _demo_answer(task: str, one: list[Any], negated: bool) -> tuple[str, str]:
    """(question, answer text) of one dev item, as the reference writes the demo (§2.2)."""
    if task == "MCQ":
        return one[1], one[2]
    if task == "RQ":
        verdict, letter = one[2]
        return one[1], "correct" if verdict == "T" else f"incorrect, the correct answer is {letter}"
    if task == "MAQ":
        return (one[2], ",".join(one[4])) if negated else (one[1], ",".join(one[3]))
    label = one[4] if negated else one[3]
    return (one[2] if negated else one[1]), ("true" if label == "T" else "false")


def test_release_prompts_are_instruction_five_demos_and_question(release: Path) -> None:
    files = release_files()
    probes = build(release).probes
    assert len(probes) == 27
    for probe in probes:
        task, negated = probe.facet, probe.meta["negated"]
        dev = files[task]["dev.json"]
        expected = EN.instruction_ao + "".join(f"{q}\nAnswer: {a}\n\n" for q, a in (_demo_answer(task, one, negated) for one in dev))
        assert probe.prompt.startswith(expected), probe.id
        question = probe.prompt[len(expected):]
        assert question.endswith("\nAnswer: ")
        assert probe.prompt.count("\nAnswer: ") == 6, "exactly five solved examples plus the question"
        assert probe.meta["demos"] == 5
        # the question is the test item's text, verbatim
        kp = int(probe.knowledge_point.removeprefix("medqa-"))
        item = next(one for one in files[task]["test.json"] if one[0] == kp)
        slot = {"base": 1, "given_right": 1, "given_wrong": 2, "pos": 1, "neg": 2, "s1": 1, "s2": 2, "s3": 3, "s4": 4}[probe.variant]
        assert question == item[slot] + "\nAnswer: "


def test_negated_questions_get_negated_demos(release: Path) -> None:
    files = release_files()
    probes = by_id(build(release).probes)
    for kp in (5, 6, 7):
        for task, variant, negated in (("TFQ", "s1", False), ("TFQ", "s2", True), ("TFQ", "s3", False), ("TFQ", "s4", True),
                                       ("MAQ", "pos", False), ("MAQ", "neg", True)):
            prompt = probes[pid(kp, task, variant)].prompt
            assert probes[pid(kp, task, variant)].meta["negated"] is negated
            for one in files[task]["dev.json"]:
                plain, neg = one[1], one[2]
                assert (neg in prompt) is negated and (plain in prompt) is not negated, (kp, variant)
    # the labels written into the demos: negated TFQ demos carry the negated labels (F,F,F,T,F)
    s2 = probes[pid(5, "TFQ", "s2")].prompt
    s1 = probes[pid(5, "TFQ", "s1")].prompt
    assert re.findall(r"\nAnswer: (true|false)\n\n", s1) == ["true" if lab == "T" else "false" for lab in DEV_TFQ_LABEL]
    assert re.findall(r"\nAnswer: (true|false)\n\n", s2) == ["false" if lab == "T" else "true" for lab in DEV_TFQ_LABEL]
    neg = probes[pid(5, "MAQ", "neg")].prompt
    complements = [",".join(x for x in "ABCDE" if x not in gold) for gold in DEV_MAQ_GOLD]
    assert re.findall(r"\nAnswer: ([A-E,]+)\n\n", neg) == complements
    assert re.findall(r"\nAnswer: ([A-E,]+)\n\n", probes[pid(5, "MAQ", "pos")].prompt) == [",".join(g) for g in DEV_MAQ_GOLD]
    assert re.findall(r"\nAnswer: ([A-E])\n\n", probes[pid(5, "MCQ", "base")].prompt) == DEV_MCQ_GOLD
    rq = re.findall(r"\nAnswer: (correct|incorrect, the correct answer is [A-E])\n\n", probes[pid(5, "RQ", "given_wrong")].prompt)
    assert [r == "correct" for r in rq] == [v == "T" for v in DEV_RQ_VERDICT]


def test_cot_prompts_contain_rationales(release: Path) -> None:
    files = release_files()
    probe_set = build(release, setting="cot-sc")
    assert probe_set.samples == 5 and probe_set.setting == "cot-sc"
    assert probe_set.generation.temperature == pytest.approx(0.8) and probe_set.generation.top_p == pytest.approx(0.8)
    probes = by_id(probe_set.probes)
    for (task, variant), cot_index in {("MCQ", "base"): 3, ("RQ", "given_right"): 3, ("MAQ", "pos"): 5, ("MAQ", "neg"): 6,
                                        ("TFQ", "s1"): 5, ("TFQ", "s2"): 6}.items():
        probe = probes[pid(6, task, variant)]
        assert probe.prompt.startswith(EN.instruction_cot)
        assert probe.prompt.count(" Therefore, the answer is: ") == 5
        assert probe.prompt.endswith("\nAnswer: ")
        for i, one in enumerate(files[task]["dev_cot.json"]):
            rationale = one[cot_index]
            assert rationale.startswith(f"Dev rationale {i}")
            # a rationale without a full stop gets one (§2.3)
            shown = rationale if rationale.endswith(".") else rationale + "."
            assert f"\nAnswer: {shown} Therefore, the answer is: " in probe.prompt
        other = 6 if cot_index == 5 else 5 if cot_index == 6 else None
        if other is not None:  # the other polarity's rationale is not used
            assert files[task]["dev_cot.json"][0][other] not in probe.prompt


def test_release_golds_and_given_letters(release: Path) -> None:
    probes = by_id(build(release).probes)
    for it in RELEASE_TEST:
        kp, gold, wrong = it["id"], it["gold"], it["alice_wrong"]
        assert probes[pid(kp, "MCQ", "base")].gold == gold
        assert probes[pid(kp, "MCQ", "base")].answer_format.option_texts == dict(zip("ABCDE", it["options"], strict=True))
        right, wrong_q = probes[pid(kp, "RQ", "given_right")], probes[pid(kp, "RQ", "given_wrong")]
        assert right.gold == [True, gold] and right.answer_format.given == gold
        assert wrong_q.gold == [False, gold] and wrong_q.answer_format.given == wrong
        assert probes[pid(kp, "MAQ", "pos")].gold == it["maq_gold"]
        assert probes[pid(kp, "MAQ", "neg")].gold == [x for x in "ABCDE" if x not in it["maq_gold"]]
        assert probes[pid(kp, "MAQ", "pos")].answer_format.option_texts == dict(zip("ABCDE", it["maq_options"], strict=True))
        assert [probes[pid(kp, "TFQ", f"s{s}")].gold for s in range(1, 5)] == [True, False, False, True]
        assert [probes[pid(kp, "TFQ", f"s{s}")].meta["negated"] for s in range(1, 5)] == [False, True, False, True]
        assert probes[pid(kp, "MAQ", "neg")].meta["negated"] and not probes[pid(kp, "MAQ", "pos")].meta["negated"]
        assert not any(probes[pid(kp, "RQ", v)].meta["negated"] for v in ("given_right", "given_wrong"))


def test_limit_picks_a_seeded_subset_of_knowledge_points(release: Path) -> None:
    def kps(seed: int) -> list[str]:
        probes = build(release, limit=2, seed=seed).probes
        assert Counter(p.facet for p in probes) == {t: 2 * k for t, k in PER_ITEM.items()}
        return sorted({p.knowledge_point for p in probes})

    first = kps(0)
    assert len(first) == 2 and first == kps(0)
    assert len({tuple(kps(seed)) for seed in range(12)}) > 1, "the subset depends on the seed"
    assert len({p.knowledge_point for p in build(release, limit=99).probes}) == 3


# --- bad release input ------------------------------------------------------------------------------------


def _rewrite(release: Path, task: str, name: str, edit: Any) -> Path:
    path = release / task / name
    items = json.loads(path.read_text())
    edit(items)
    path.write_text(json.dumps(items))
    return path


def test_malformed_json_names_the_file(release: Path) -> None:
    path = release / "TFQ" / "test.json"
    path.write_text('[[5, "Statement", \n oops]]')
    with pytest.raises(MedprobeError, match="malformed JSON") as info:
        build(release)
    assert info.value.file == str(path) and info.value.line == 2
    assert f"{path}:2" in str(info.value)


def test_bad_mcq_gold_letter_names_file_and_item(release: Path) -> None:
    path = _rewrite(release, "MCQ", "test.json", lambda items: items[1].__setitem__(2, "F"))
    with pytest.raises(MedprobeError, match=r"item 1: expected an option letter A-E, got 'F'") as info:
        build(release)
    assert info.value.file == str(path) and info.value.field == "[1][2]"


def test_rq_item_without_alice_names_file_and_item(release: Path) -> None:
    def drop(items: list[Any]) -> None:
        items[2][2] = items[2][2].replace("Alice's answer: B.", "Bob's answer: B.")

    path = _rewrite(release, "RQ", "test.json", drop)
    with pytest.raises(MedprobeError, match="item 2: no \"Alice's answer: X.\"") as info:
        build(release)
    assert info.value.file == str(path) and info.value.field == "[2][2]"


def test_ids_that_differ_between_files_are_refused(release: Path) -> None:
    path = _rewrite(release, "MAQ", "test.json", lambda items: items[1].__setitem__(0, 60))
    with pytest.raises(MedprobeError, match="must list the same ids") as info:
        build(release)
    assert info.value.file == str(path)
    assert "item 1: id 60 where MCQ/test.json has 6" in str(info.value)


def test_missing_task_folder_is_named(release: Path) -> None:
    for name in ("test.json", "dev.json", "dev_cot.json"):
        (release / "RQ" / name).unlink()
    (release / "RQ").rmdir()
    with pytest.raises(MedprobeError, match="missing file of the MultifacetEval release") as info:
        build(release)
    assert info.value.file == str(release / "RQ" / "test.json")


def test_missing_dev_cot_is_named_only_for_cot(release: Path) -> None:
    (release / "MAQ" / "dev_cot.json").unlink()
    assert build(release).probes
    with pytest.raises(MedprobeError, match="missing file") as info:
        build(release, setting="cot-sc")
    assert info.value.file == str(release / "MAQ" / "dev_cot.json")


def test_dev_item_with_wrong_layout_names_file_and_item(release: Path) -> None:
    path = _rewrite(release, "TFQ", "dev_cot.json", lambda items: items[3].__delitem__(slice(5, None)))
    with pytest.raises(MedprobeError, match="item 3: does not have the TFQ dev_cot layout") as info:
        build(release, setting="cot-sc")
    assert info.value.file == str(path)


def test_unknown_setting_is_refused(release: Path) -> None:
    with pytest.raises(MedprobeError, match="unknown setting 'fewshot'"):
        build(release, setting="fewshot")


# --- MultiDiseK-style questions from a knowledge base ---------------------------------------------------------

KB_VARIANTS = {
    ("MCQ", "base"), ("MCQ", "neg"),
    ("RQ", "given_right"), ("RQ", "given_wrong"), ("RQ", "neg_given_right"), ("RQ", "neg_given_wrong"),
    ("MAQ", "pos"), ("MAQ", "neg"), ("TFQ", "stmt"), ("TFQ", "neg_stmt"),
}


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    return write_tiny_kb(tmp_path / "kb.jsonl")


def kb_values(path: Path) -> dict[str, set[str]]:
    """knowledge point id -> the disease's entities for that aspect."""
    return {kp.id: set(kp.values) for kp in load_kb(path).knowledge_points()}


def grouped(probes: list[Probe]) -> dict[str, dict[str, Probe]]:
    out: dict[str, dict[str, Probe]] = defaultdict(dict)
    for p in probes:
        out[p.knowledge_point][f"{p.facet}/{p.variant}"] = p
    return out


def test_kb_gives_ten_questions_per_knowledge_point(kb: Path) -> None:
    probe_set = build(kb)
    groups = grouped(probe_set.probes)
    assert len(groups) == probe_set.info["knowledge_points"] >= 10
    for kp, questions in groups.items():
        assert {tuple(k.split("/")) for k in questions} == KB_VARIANTS, kp
    assert Counter(p.facet for p in probe_set.probes) == {t: k * len(groups) for t, k in {"MCQ": 2, "RQ": 4, "MAQ": 2, "TFQ": 2}.items()}
    for p in probe_set.probes:
        assert p.prompt.count("\nAnswer: ") == 6 and p.prompt.endswith("\nAnswer: ")
        assert p.answer_format.options in ([], ["A", "B", "C", "D"])


def test_kb_options_and_golds_follow_the_knowledge_base(kb: Path) -> None:
    values = kb_values(kb)
    for kp, q in grouped(build(kb).probes).items():
        own = values[kp]
        mcq = q["MCQ/base"]
        assert len(mcq.answer_format.option_texts) == 4
        for letter, text in mcq.answer_format.option_texts.items():
            assert (text in own) is (letter == mcq.gold), (kp, letter, text)
        neg = q["MCQ/neg"]
        for letter, text in neg.answer_format.option_texts.items():
            assert (text in own) is (letter != neg.gold), (kp, letter, text)
        for prefix, base in (("", mcq), ("neg_", neg)):
            right, wrong = q[f"RQ/{prefix}given_right"], q[f"RQ/{prefix}given_wrong"]
            assert right.gold == [True, base.gold] and right.answer_format.given == base.gold
            assert wrong.gold == [False, base.gold] and wrong.answer_format.given not in (None, base.gold)
            assert right.answer_format.option_texts == base.answer_format.option_texts
            assert f"The given answer is {wrong.answer_format.given}." in wrong.prompt
        pos, negm = q["MAQ/pos"], q["MAQ/neg"]
        assert pos.answer_format.option_texts == negm.answer_format.option_texts
        in_kb = sorted(letter for letter, text in pos.answer_format.option_texts.items() if text in own)
        assert pos.gold == in_kb and 1 <= len(in_kb) <= 3
        assert negm.gold == [x for x in "ABCD" if x not in in_kb]
        stmt, neg_stmt = q["TFQ/stmt"], q["TFQ/neg_stmt"]
        entity = re.search(r'Statement: "(.+?) belongs to the', stmt.prompt[stmt.prompt.rindex("Statement:"):])
        neg_entity = re.search(r'Statement: "(.+?) does not belong to the', neg_stmt.prompt[neg_stmt.prompt.rindex("Statement:"):])
        assert entity and neg_entity and entity[1] == neg_entity[1]
        assert stmt.gold is (entity[1] in own)
        assert neg_stmt.gold is (entity[1] not in own)
        assert neg_stmt.meta["negated"] and not stmt.meta["negated"]


def test_kb_demo_diseases_never_appear_among_test_questions(kb: Path) -> None:
    probe_set = build(kb)
    demo_kps = probe_set.info["demo_knowledge_points"]
    assert len(demo_kps) == 5
    demo_diseases = {kp.split("/")[0] for kp in demo_kps}
    assert len(demo_diseases) == 5
    tested = {p.knowledge_point.split("/")[0] for p in probe_set.probes}
    assert tested and not tested & demo_diseases
    names = {d.id: d.name for d in load_kb(kb).diseases}
    for p in probe_set.probes:  # the demos are about the demo diseases, the question is not
        question = p.prompt.rsplit("\n\n", 1)[1]
        assert not any(f"of {names[d]}?" in question or f"of {names[d]}." in question for d in demo_diseases)


def test_kb_build_is_reproducible_per_seed(kb: Path) -> None:
    dump = lambda probes: [p.model_dump() for p in probes]  # noqa: E731
    first = dump(build(kb, seed=3).probes)
    assert first == dump(build(kb, seed=3).probes)
    assert first != dump(build(kb, seed=4).probes)


def test_kb_limit(kb: Path) -> None:
    probe_set = build(kb, limit=4)
    assert probe_set.info["knowledge_points"] == 4 == len({p.knowledge_point for p in probe_set.probes})


def test_cot_sc_with_a_knowledge_base_is_refused(kb: Path) -> None:
    with pytest.raises(MedprobeError, match="cot-sc needs worked rationales"):
        build(kb, setting="cot-sc")


def test_zh_kb_questions_are_chinese_and_parse_with_chinese_answers(tmp_path: Path) -> None:
    path = write_tiny_zh_kb(tmp_path / "zh.jsonl")
    probe_set = build(path)
    probes = probe_set.probes
    assert probes and all(p.language == "zh" and p.answer_format.language == "zh" for p in probes)
    assert all(p.prompt.startswith(ZH.instruction_ao) and p.prompt.endswith("\n答案： ") for p in probes)
    assert all(p.prompt.count("\n答案： ") == 6 for p in probes)
    texts = {f"{p.facet}/{p.variant}": p.prompt for p in probes}
    assert "以下哪一项属于" in texts["MCQ/base"] and "以下哪一项不属于" in texts["MCQ/neg"]
    assert "以下哪些属于" in texts["MAQ/pos"] and "以下哪些不属于" in texts["MAQ/neg"]
    assert "陈述：" in texts["TFQ/stmt"] and "不属于" in texts["TFQ/neg_stmt"].rsplit("\n\n", 1)[1]
    assert "给出的答案是" in texts["RQ/given_wrong"] and "Which" not in "".join(texts.values())
    # the solved examples are written with the Chinese answer words
    assert re.search(r"\n答案： (正确|错误)\n\n", texts["TFQ/stmt"])
    assert re.search(r"\n答案： 错误，正确答案是[A-D]\n\n", texts["RQ/given_right"])
    assert "\n答案： 正确\n\n" in texts["RQ/given_right"]
    # a model answering with those words scores perfectly (so the zh parsers read them)
    responses = [Response(probe_id=p.id, text=gold_reply(p)) for p in probes]
    assert {gold_reply(p) for p in probes if p.facet == "TFQ"} == {"正确", "错误"}
    result = METHOD.score(probes, responses, ScoreOptions())
    assert result.metrics["parse_failure_rate"] == 0
    assert all(row["accuracy"] == 1.0 for row in result.metrics["facets"].values())


# --- the real release (skipped when ../shared/data is absent) ---------------------------------------------------


def test_full_release_counts() -> None:
    probe_set = build(shared("multifaceteval", "medqa"))
    assert probe_set.info["knowledge_points"] == 795
    assert probe_set.info["questions"] == {"MCQ": 795, "RQ": 1590, "MAQ": 1590, "TFQ": 3180}
    assert len(probe_set.probes) == 7155
    given = [p for p in probe_set.probes if p.facet == "RQ"]
    assert all(p.answer_format.given in "ABCDE" for p in given)
    assert all((p.answer_format.given == p.gold[1]) is p.gold[0] for p in given)
    maq = grouped([p for p in probe_set.probes if p.facet == "MAQ"])
    assert all(sorted(q["MAQ/pos"].gold + q["MAQ/neg"].gold) == list("ABCDE") for q in maq.values())
