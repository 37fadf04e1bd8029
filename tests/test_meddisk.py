"""MedDisKEval: instructions, post-processing, probes, scoring through the pipeline, grading and
comparison commands."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from medprobe.aspects import ASPECTS
from medprobe.cli import app
from medprobe.contract import BuildOptions
from medprobe.engine.pipeline import RunPlan, run
from medprobe.errors import MedprobeError
from medprobe.jsonl import write_records
from medprobe.methods.meddisk.alignment import read_sheet, write_sheet
from medprobe.methods.meddisk.build import build_probes
from medprobe.methods.meddisk.entities import rule_entities
from medprobe.methods.meddisk.instructions import answer_prefix, instruction, question
from medprobe.methods.meddisk.postprocess import Span, answer_span, load_extractor, postprocess
from medprobe.records import Probe, Response
from medprobe.sources.kb import load_kb

SYMPTOMS = ["fever", "cough", "rash", "headache", "nausea", "vomiting", "jaundice", "seizure", "dyspnea", "palpitations",
            "syncope", "hematuria", "pruritus", "tremor", "hoarseness", "dysphagia", "tinnitus", "vertigo", "insomnia", "edema"]


def write_kb(path: Path, language: str = "en", n: int = 12) -> Path:
    records = []
    for i in range(n):
        name = f"test disease {i}" if language == "en" else f"测试病{i}号"
        records.append({
            "id": f"T:{i:02d}", "name": name, "language": language,
            "aspects": {
                "primary_symptoms": [SYMPTOMS[(i * 2 + k) % len(SYMPTOMS)] for k in range(3)] if language == "en" else ["发热", "咳嗽", f"症状{i}"],
                "laboratory_examinations": f"complete blood count (white cells {10 + i} x10^9/L)" if language == "en" else f"血常规（白细胞{10 + i}）",
                "severity_level": 1 + i % 4,
            },
        })
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


# --- instructions and post-processing ---------------------------------------------------------------


# The aspects for which the paper's instructions offer "None" (Tables 9-10); the others always have an answer.
PAPER_NONE_ASPECTS = {
    "patient_population", "prevalence_ages", "onset_ages", "associated_symptoms", "differential_symptoms",
    "secondary_diseases", "medications", "surgical_procedures", "laboratory_examinations", "auxiliary_examinations",
    "departments",
}


def test_instructions_follow_the_papers_structure() -> None:
    for aspect in ASPECTS:
        en, zh = instruction(aspect.key, "gout", "en"), instruction(aspect.key, "痛风", "zh")
        assert "gout" in en and "痛风" in zh
        assert ('"None"' in en) == ("“无”" in zh) == (aspect.key in PAPER_NONE_ASPECTS), aspect.key
        if aspect.type == "enumerated":
            assert "as many" in en and "尽量多" in zh and "semicolons (;)" in en and "分号" in zh, aspect.key


@pytest.mark.parametrize(
    ("aspect", "prefix", "asked"),
    [
        ("primary_symptoms", "The primary symptoms of gout include: ", "Question: What are the primary symptoms of gout?"),
        ("patient_population", "The patient population of gout includes: ", "Question: What is the patient population of gout?"),
        ("severity_level", "The severity level of gout is: ", "Question: What is the severity level of gout?"),
        ("laboratory_examinations", "The abnormal laboratory findings of gout include: ",
         "Question: What are the abnormal laboratory findings of gout?"),
    ],
)
def test_answer_sentence_agrees_with_the_aspect(aspect: str, prefix: str, asked: str) -> None:
    assert answer_prefix(aspect, "gout", "en") == prefix
    assert question(aspect, "gout", "en") == asked


def test_chinese_answer_sentence() -> None:
    assert answer_prefix("primary_symptoms", "痛风", "zh") == "痛风的常见症状包括："
    assert answer_prefix("severity_level", "痛风", "zh") == "痛风的危重等级为："


@pytest.mark.parametrize(
    ("reply", "expected", "source"),
    [
        ("The primary symptoms of gout include: joint pain; swelling.\n\nQuestion: next", "joint pain; swelling.", "answer pattern"),
        ("the primary symptoms of Gout are redness, heat", "redness, heat", "answer pattern"),
        ("Joint pain and swelling", "Joint pain and swelling", "whole reply"),
        ("The primary symptoms of some other disease include: rash", "rash", "pattern, other name"),
    ],
)
def test_answer_span(reply: str, expected: str, source: str) -> None:
    assert answer_span(reply, "primary_symptoms", "gout", "en") == Span(expected, source)


def test_answer_span_in_chinese() -> None:
    assert answer_span("痛风的常见症状包括：关节痛；红肿", "primary_symptoms", "痛风", "zh") == Span("关节痛；红肿", "answer pattern")


def test_rule_entities() -> None:
    text = "1. Joint pain\n2. Swelling; redness, heat and tenderness etc.\n- fever (low grade)"
    assert rule_entities(text, "en") == ["Joint pain", "Swelling", "redness", "heat", "tenderness", "fever (low grade"]
    assert rule_entities("关节痛、红肿和发热等", "zh") == ["关节痛", "红肿", "发热"]
    assert rule_entities("None", "en") == []


def test_postprocess_by_type() -> None:
    enumerated = postprocess("The primary symptoms of gout include: pain; swelling; pain", "primary_symptoms", "gout", "en")
    assert enumerated.entities == ("pain", "swelling") and enumerated.text == "pain swelling"
    assert postprocess("None.", "primary_symptoms", "gout", "en").said_none
    assert postprocess("The severity level of gout is: level 3", "severity_level", "gout", "en").number == 3.0
    assert postprocess("危重等级为二级", "severity_level", "痛风", "zh").number == 2.0
    assert math.isnan(postprocess("I am not sure", "severity_level", "gout", "en").number)
    text = "Complete blood count (raised white cells)"
    assert postprocess(text, "laboratory_examinations", "gout", "en").text == text


def test_pluggable_extractor() -> None:
    assert load_extractor("json:loads") is json.loads
    with pytest.raises(MedprobeError, match="cannot load the entity extractor"):
        load_extractor("no_such_module:f")


# --- probes ------------------------------------------------------------------------------------------


def test_probes_ask_every_aspect_with_demos_from_other_diseases(tmp_path: Path) -> None:
    kb = load_kb(write_kb(tmp_path / "kb.jsonl"))
    probes, info = build_probes(kb, limit=None, seed=0, setting="instruct")
    demo = set(info["demo_diseases"])
    assert probes and not {p.meta["disease_id"] for p in probes} & demo
    assert info["per_type"] == {"enumerated": len(probes) // 3, "declarative": len(probes) // 3, "numeric": len(probes) // 3}
    first = probes[0]
    assert first.prompt.count(answer_prefix(first.facet, "", "en").split(" of ")[0]) >= 5
    assert first.prompt.endswith("\n\n" + question(first.facet, first.meta["disease"], "en"))
    assert first.prompt.splitlines()[-1].startswith("Question: What are the")
    again, _ = build_probes(kb, limit=None, seed=0, setting="instruct")
    assert [p.prompt for p in again] == [p.prompt for p in probes]
    base, _ = build_probes(kb, limit=3, seed=0, setting="base")
    assert len({p.meta["disease_id"] for p in base}) == 3
    assert all(p.prompt.endswith(answer_prefix(p.facet, p.meta["disease"], "en").rstrip()) for p in base)


# --- scoring end to end ----------------------------------------------------------------------------


def answers(probes: list[Probe], reply: Any) -> list[Response]:
    return [Response(probe_id=p.id, text=reply(p)) for p in probes]


def perfect(probe: Probe) -> str:
    value = probe.gold["value"]
    text = "; ".join(value) if isinstance(value, list) else str(value)
    return answer_prefix(probe.facet, probe.meta["disease"], probe.language) + text


def meddisk_run(tmp_path: Path, kb: Path, reply: Any, name: str) -> Path:
    probes, _ = build_probes(load_kb(kb), limit=None, seed=0, setting="instruct")
    path = tmp_path / f"{name}.jsonl"
    write_records(path, answers(probes, reply))
    plan = RunPlan(method="meddisk", build=BuildOptions(data=str(kb)), model=f"replay:{path}", out=tmp_path / "runs", progress=False)
    return run(plan).path


@pytest.mark.parametrize("language", ["en", "zh"])
def test_perfect_and_empty_answers(tmp_path: Path, language: str) -> None:
    kb = write_kb(tmp_path / "kb.jsonl", language)
    good = json.loads((meddisk_run(tmp_path, kb, perfect, "good") / "summary.json").read_text())["metrics"]
    assert good["mean_distribution"] == pytest.approx({"CW": 0.0, "PC": 0.0, "BC": 1.0})
    assert good["total_score"] == pytest.approx(10.0) and good["level"] == 1
    assert good["postprocess"]["pattern_found_rate"] == 1.0
    none = json.loads((meddisk_run(tmp_path, kb, lambda p: "无" if language == "zh" else "None", "none") / "summary.json").read_text())["metrics"]
    assert none["mean_distribution"]["CW"] == 1.0 and none["total_score"] == 0.0 and none["level"] == 4
    assert none["postprocess"]["said_none_rate"] == 1.0 and none["postprocess"]["empty_answer_rate"] == 1.0


def test_run_dir_has_charts_and_item_details(tmp_path: Path) -> None:
    path = meddisk_run(tmp_path, write_kb(tmp_path / "kb.jsonl"), perfect, "good")
    assert (path / "tiers.svg").read_text().startswith("<svg") and (path / "aspects.svg").exists()
    item = json.loads((path / "scores.jsonl").read_text().splitlines()[0])
    assert set(item["meta"]["scores"]) == {"bleu1", "rouge1", "cosine"} and set(item["meta"]["tiers"]) == {"bleu1", "rouge1", "cosine"}
    assert "Level" in (path / "report.md").read_text()


# --- grading and comparison commands ------------------------------------------------------------------


def test_grade_sample_fit_validate_and_compare(tmp_path: Path) -> None:
    kb = write_kb(tmp_path / "kb.jsonl", n=30)
    good = meddisk_run(tmp_path, kb, perfect, "good")
    half = meddisk_run(tmp_path, kb, lambda p: ";".join(perfect(p).split(";")[: 1 + int(p.meta["disease_id"][-1]) % 2]), "half")
    cli = CliRunner()
    sheet = tmp_path / "sheet.csv"
    result = cli.invoke(app, ["grade", "sample", str(good), str(half), "-o", str(sheet), "--per-interval", "5"])
    assert result.exit_code == 0, result.output
    rows = read_sheet(sheet)
    assert rows and all(not r.get("label") for r in rows)
    write_sheet([{**r, "label": "BC" if r["score"] >= 0.5 else "CW"} for r in rows], sheet)
    fitted = tmp_path / "t.json"
    result = cli.invoke(app, ["grade", "fit", str(sheet), "-o", str(fitted)])
    assert result.exit_code == 0, result.output
    assert json.loads(fitted.read_text())["thresholds"]
    result = cli.invoke(app, ["grade", "validate", str(sheet), "--thresholds", str(fitted)])
    assert result.exit_code == 0, result.output
    result = cli.invoke(app, ["compare", str(good), str(half), "--metric", "rouge1"])
    assert result.exit_code == 0, result.output
    assert "*" in result.stdout, "the perfect run scores significantly higher on some aspect"
