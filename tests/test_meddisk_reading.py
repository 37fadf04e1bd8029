"""MedDisKEval: reading chat replies — severity numbers, answers after a blank line,
entity splitting, chatter, and the per-aspect tally of how replies were read."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from medprobe.contract import BuildOptions
from medprobe.engine.pipeline import RunPlan, run
from medprobe.jsonl import write_records
from medprobe.methods.meddisk.build import BASE, INSTRUCT, build_probes
from medprobe.methods.meddisk.entities import rule_entities
from medprobe.methods.meddisk.instructions import answer_prefix
from medprobe.methods.meddisk.postprocess import cut_at_stops, level_number, postprocess
from medprobe.records import Probe, Response
from medprobe.sources.kb import load_kb
from testing.fixtures import write_tiny_kb

# --- severity level: the number the sentence gives -----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "number", "rule"),
    [
        ("戊病一般属于4级", 4.0, "number"),
        ("戊病的危重等级一般为三级。", 3.0, "number"),
        ("一般为3级，需要尽快治疗。", 3.0, "number"),
        ("危重等级：第二级", 2.0, "number"),
        ("三", 3.0, "number"),
        ("3", 3.0, "number"),
        ("Level 2: critical, needs treatment within 24 hours.", 2.0, "number"),
        ("4. It is chronic and rarely needs care within 24 hours.", 4.0, "number"),
        ("It lies between level 2 and level 3.", math.nan, "unparsed: several numbers"),
        ("I cannot say.", math.nan, "unparsed: no number"),
        ("一般不危及生命。", math.nan, "unparsed: no number"),
    ],
)
def test_level_number(text: str, number: float, rule: str) -> None:
    got, got_rule = level_number(text)
    assert (got == number or (math.isnan(got) and math.isnan(number))) and got_rule == rule


def test_severity_reply_in_chinese_reads_the_level_not_a_numeral_in_a_word() -> None:
    read = postprocess("戊病一般属于4级，需要定期随访。", "severity_level", "戊病", "zh")
    assert read.number == 4.0 and read.text == "4" and read.rule == "number"


# --- the whole answer: no blank-line stop, cut after the answer ----------------------------------------

LIST_AFTER_BLANK = (
    "The primary symptoms of gout include:\n\n- **Joint pain**\n- Swelling\n- Redness and warmth\n\n"
    "These usually start at night.\n\nI hope this helps!"
)


def test_no_blank_line_stop_and_post_processing_cuts_where_generation_stops() -> None:
    assert all(stop.strip() for stop in INSTRUCT.stop), "a blank line must not end a chat answer"
    answer = "The primary symptoms of gout include: joint pain; swelling"
    for setting, params in (("instruct", INSTRUCT), ("base", BASE)):
        for stop in params.stop:
            live = postprocess(answer, "primary_symptoms", "gout", "en", setting=setting)
            replayed = postprocess(answer + stop + " What are the departments of gout? rash", "primary_symptoms", "gout", "en", setting=setting)
            assert replayed == live and live.entities == ("joint pain", "swelling")


def test_a_list_after_a_blank_line_is_scored() -> None:
    read = postprocess(LIST_AFTER_BLANK, "primary_symptoms", "gout", "en")
    assert read.entities == ("Joint pain", "Swelling", "Redness", "warmth") and read.rule == "answer pattern"
    lead_in = postprocess("Sure! Here are the primary symptoms of gout:\n\n1. Joint pain\n2. Swelling", "primary_symptoms", "gout", "en")
    assert lead_in.entities == ("Joint pain", "Swelling") and lead_in.rule == "answer pattern"
    lab = postprocess(
        "The abnormal laboratory findings of gout include:\n\n1. Serum uric acid (raised)\n2. Complete blood count (raised white cells)"
        "\n\nThese findings support the diagnosis.",
        "laboratory_examinations", "gout", "en",
    )
    assert lab.text == "1. Serum uric acid (raised)\n2. Complete blood count (raised white cells)"


def test_a_restated_question_is_not_the_answer_pattern() -> None:
    read = postprocess("痛风的常见症状是什么？\n\n痛风的常见症状是：关节痛；红肿", "primary_symptoms", "痛风", "zh")
    assert read.entities == ("关节痛", "红肿") and read.rule == "answer pattern"
    empty = postprocess("痛风的常见症状是什么？\n\n痛风的常见症状是：\n\n痛风的常见症状是：", "primary_symptoms", "痛风", "zh")
    assert empty.rule == "unparsed" and empty.text == ""


def test_a_bold_line_is_no_list_item() -> None:
    reply = "joint pain; swelling.\n\n**Gout is more common in men.**"
    assert postprocess(reply, "primary_symptoms", "gout", "en").entities == ("joint pain", "swelling")


def test_a_repeated_answer_sentence_ends_the_answer() -> None:
    reply = ("The primary symptoms of gout include: joint pain; swelling.\n"
             "The primary symptoms of flu include: fever; cough.\nThe primary symptoms of gout include: rash")
    assert postprocess(reply, "primary_symptoms", "gout", "en").entities == ("joint pain", "swelling")


def test_headings_and_lists_continue_the_answer_and_are_not_entities() -> None:
    text = "Common ones:\n\n- fever\n- cough\n\n**Less common:**\n- rash\n\nMost patients recover."
    assert postprocess(text, "primary_symptoms", "flu", "en").entities == ("fever", "cough", "rash")


# --- entities and chatter ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "language", "entities"),
    [
        ("建议及时就医", "zh", ["建议及时就医"]),
        ("中和抗体阳性、发热及皮疹", "zh", ["中和抗体阳性", "发热", "皮疹"]),
        ("高血压和糖尿病以及冠心病或者肾病", "zh", ["高血压", "糖尿病", "冠心病", "肾病"]),
        ("发热、咳嗽等。", "zh", ["发热", "咳嗽"]),
        ("发热；咳嗽；等等", "zh", ["发热", "咳嗽"]),
        ("关节痛；红肿。夜间加重", "zh", ["关节痛", "红肿", "夜间加重"]),
        ("fever, cough, and so on", "en", ["fever", "cough"]),
        ("fever; cough; etc.", "en", ["fever", "cough"]),
        ("fever, rash and more", "en", ["fever", "rash"]),
    ],
)
def test_entities(text: str, language: str, entities: list[str]) -> None:
    assert rule_entities(text, language) == entities


@pytest.mark.parametrize(
    ("reply", "language", "entities"),
    [
        ("The primary symptoms of gout include: joint pain; swelling. I hope this helps! Let me know if you need more.", "en", ("joint pain", "swelling")),
        ("joint pain; swelling\nNote: symptoms vary between patients.", "en", ("joint pain", "swelling")),
        ("joint pain, swelling. Please consult a doctor for a diagnosis.", "en", ("joint pain", "swelling")),
        ("痛风的常见症状包括：关节痛；红肿。希望对您有帮助！", "zh", ("关节痛", "红肿")),
        ("关节痛、红肿，建议及时就医。", "zh", ("关节痛", "红肿")),
        ("注意力不集中；乏力", "zh", ("注意力不集中", "乏力")),
    ],
)
def test_chatter_after_the_answer_is_not_scored(reply: str, language: str, entities: tuple[str, ...]) -> None:
    disease = "gout" if language == "en" else "痛风"
    assert postprocess(reply, "primary_symptoms", disease, language).entities == entities


@pytest.mark.parametrize(
    "reply",
    [
        "痛风的常见症状包括：1、关节疼痛；2、关节肿胀；3、发热。",  # numbering inside a line
        "痛风的常见症状包括：（1）关节疼痛；（2）关节肿胀；（3）发热",
        "痛风的常见症状包括：①关节疼痛②关节肿胀③发热",
        "痛风的常见症状包括：\n１．关节疼痛\n２．关节肿胀\n３．发热",  # full-width digits
        "痛风的常见症状包括：\n一、关节疼痛\n二、关节肿胀\n三、发热",
        "痛风的常见症状包括：第一，关节疼痛；第二，关节肿胀；第三，发热",
        "【常见症状】\n关节疼痛、关节肿胀、发热",  # a heading line
        "【症状】关节疼痛、关节肿胀、发热",  # a label before its text
        "痛风的常见症状：\n\n【典型症状】\n关节疼痛\n关节肿胀\n\n【其他症状】\n发热",
        "痛风的常见症状包括：「关节疼痛」、『关节肿胀』、【发热】",  # quotes and brackets around items
        "痛风的常见症状包括：关节疼痛，关节肿胀，发热。",  # full-width punctuation
    ],
)
def test_chinese_list_layouts_give_the_items(reply: str) -> None:
    assert postprocess(reply, "primary_symptoms", "痛风", "zh").entities == ("关节疼痛", "关节肿胀", "发热")


def test_chinese_numbers_inside_items_are_kept() -> None:
    """Look-alikes of numbering that belong to the item: 第一跖趾关节, 2型, B1, 3.5倍, 一过性, 十二指肠."""
    reply = "痛风的常见症状包括：第一跖趾关节疼痛、2型糖尿病、维生素B1缺乏、血尿酸升高3.5倍、一过性黑矇、十二指肠溃疡"
    assert postprocess(reply, "primary_symptoms", "痛风", "zh").entities == (
        "第一跖趾关节疼痛", "2型糖尿病", "维生素B1缺乏", "血尿酸升高3.5倍", "一过性黑矇", "十二指肠溃疡")


def test_reasoning_block_is_stripped() -> None:
    reply = "<think>The primary symptoms of gout include: rash? No.</think>The primary symptoms of gout include: joint pain"
    read = postprocess(reply, "primary_symptoms", "gout", "en")
    assert read.entities == ("joint pain",) and read.rule == "answer pattern"
    assert postprocess("<think>Still thinking about rash", "primary_symptoms", "gout", "en").rule == "unparsed"


# --- replay and live score the same; the reading tally --------------------------------------------------


def _replay_run(tmp_path: Path, kb: Path, replies: dict[str, str]) -> Path:
    """A meddisk run whose answers are ``replies`` by probe facet (a facet missing there fails)."""
    probes, _ = build_probes(load_kb(kb), limit=None, seed=0, setting="instruct")
    path = tmp_path / "replies.jsonl"
    write_records(path, [Response(probe_id=p.id, text=_fill(replies[p.facet], p)) for p in probes if p.facet in replies])
    plan = RunPlan(method="meddisk", build=BuildOptions(data=str(kb)), model=f"replay:{path}", out=tmp_path / "runs", progress=False)
    return run(plan).path


def _fill(reply: str, probe: Probe) -> str:
    value = probe.gold["value"]
    gold = "\n".join(f"- {v}" for v in value) if isinstance(value, list) else str(value)
    return reply.format(prefix=answer_prefix(probe.facet, probe.meta["disease"], "en").rstrip(), gold=gold)


def test_replayed_answers_score_as_post_processing_reads_them(tmp_path: Path) -> None:
    kb = write_tiny_kb(tmp_path / "kb.jsonl", n=8)
    reply = "{prefix}\n\n{gold}\n\nI hope this helps!\nQuestion: What are the departments of flu? rash"
    path = _replay_run(tmp_path, kb, {"primary_symptoms": reply})
    items = [json.loads(line) for line in (path / "scores.jsonl").read_text().splitlines()]
    scored = [i for i in items if i["facet"] == "primary_symptoms"]
    probes = {p.knowledge_point: p for p in build_probes(load_kb(kb), limit=None, seed=0, setting="instruct")[0]}
    for item in scored:
        probe = probes[item["knowledge_point"]]
        full = _fill(reply, probe)
        live = cut_at_stops(full, INSTRUCT.stop)
        direct = postprocess(live, probe.facet, probe.meta["disease"], "en")
        assert item["meta"]["answer"] == direct.text == " ".join(probe.gold["value"])
        assert item["meta"]["tiers"] == {"bleu1": "BC", "rouge1": "BC", "cosine": "BC"}


def test_reading_is_tallied_per_aspect(tmp_path: Path) -> None:
    kb = write_tiny_kb(tmp_path / "kb.jsonl", n=8)
    replies = {"primary_symptoms": "<think>fever?</think>{prefix} {gold}", "severity_level": "I would say level {gold}."}
    path = _replay_run(tmp_path, kb, replies)
    summary = json.loads((path / "summary.json").read_text())
    assert summary["reading"] == {
        "primary symptoms": {"answer pattern": 3},
        "departments": {"no reply": 3},
        "severity level": {"number": 3},
    }
    assert summary["metrics"]["per_aspect"]["severity_level"]["distribution"]["bleu1"]["BC"] == 1.0
    assert "## How answers were read" in (path / "report.md").read_text()
