"""MultiCogEval high level: cases, the diagnostic dialogue protocol, scoring by replay, importers."""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import shared

from medprobe.contract import BuildOptions
from medprobe.engine.pipeline import RunPlan, rescore, run
from medprobe.errors import MedprobeError
from medprobe.methods.multicog.dialogue.agent import MAX_INVALID_IN_A_ROW, MAX_TURNS, Episode
from medprobe.methods.multicog.dialogue.cases import Case, Exam, exam_type, load_cases
from medprobe.methods.multicog.dialogue.diagnosis import grade_diagnosis
from medprobe.methods.multicog.dialogue.episodes import DEFAULT_GENERATION
from medprobe.methods.multicog.dialogue.mimic import import_mimic
from medprobe.records import GenerationParams, Response
from testing.mock_server import MockOpenAI, serve_in_thread

PARAMS = GenerationParams(temperature=0.8, max_tokens=64)


def episode(case: Case, **kwargs: Any) -> Episode:
    return Episode.start("ep", case, 0, 0, PARAMS, kwargs.pop("context_tokens", 4096), **kwargs)


def say(ep: Episode, text: str | None, error: str | None = None) -> str:
    request = ep.request()
    ep.feed(Response(probe_id="ep", turn=request.turn, text=text or "", error=error))
    return ep.messages[-1].content if ep.messages else ""


def doctor(diagnosis: str = "community-acquired pneumonia") -> Any:
    """A scripted model: examines, orders broad panels of each exam type, then decides."""

    def reply(body: dict[str, Any]) -> str:
        last = body["messages"][-1]["content"]
        if "Lab Tests:" in last:
            return "Rationale: screen\nLab Tests: CBC, BMP, CRP, urinalysis, D-dimer, glucose"
        if "Imaging scans:" in last:
            return "Rationale: look\nImaging scans: chest x-ray\nCT abdomen\nultrasound of the abdomen\nCT head"
        if "Microbiology tests:" in last:
            return "Rationale: organism\nMicrobiology tests: blood cultures, urine culture"
        if "Diagnosis:" in last:
            return f"Diagnosis: {diagnosis}\nTreatment: antibiotics"
        match = re.search(r"Choose your next action from \[([^\]]*)\]", last)
        actions = match[1].split(", ") if match else ["OUTPUT"]
        return f"Rationale: next\nAction: {actions[0]}"

    return reply


@pytest.fixture
def pneumonia() -> Case:
    return next(c for c in load_cases("builtin:cases") if c.id == "demo-pneumonia")


# --- cases -----------------------------------------------------------------------------------------


def test_builtin_cases_cover_all_exam_types() -> None:
    cases = load_cases("builtin:cases")
    assert len(cases) == 8 and len({c.disease for c in cases}) == 8
    assert all(c.history and c.physical_exam and c.exams_of("LAB") and c.exams_of("IMAGE") for c in cases)
    assert sum(1 for c in cases if c.exams_of("MICRO")) >= 4


def test_agentclinic_import_maps_results_to_exam_types(tmp_path: Path) -> None:
    record = {"OSCE_Examination": {
        "Objective_for_Doctor": "Diagnose.", "Patient_Actor": {"Demographics": "30-year-old man", "History": "Fever for 3 days.",
            "Symptoms": {"Primary_Symptom": "Fever", "Secondary_Symptoms": ["Cough"]}},
        "Physical_Examination_Findings": {"Vital_Signs": {"Temperature": "39 C"}},
        "Test_Results": {
            "Complete_Blood_Count": {"WBC": "15,000/mm3", "Hemoglobin": "13 g/dL"},
            "Imaging": {"Chest_X-ray": {"Findings": "Right lower lobe consolidation"}},
            "Blood_Tests": {"Procalcitonin": "2.1 ng/mL"},
            "Sputum_Culture": {"Findings": "Streptococcus pneumoniae"},
        },
        "Correct_Diagnosis": "Pneumococcal pneumonia"}}
    path = tmp_path / "ac.jsonl"
    path.write_text(json.dumps(record) + "\n")
    (case,) = load_cases(str(path))
    assert case.diagnosis == "Pneumococcal pneumonia" and "Fever for 3 days" in case.history and "39 C" in case.physical_exam
    kinds = {e.name: (e.type, e.panel) for e in case.exams}
    assert kinds == {
        "WBC": ("LAB", "Complete Blood Count"), "Hemoglobin": ("LAB", "Complete Blood Count"),
        "Chest X-ray": ("IMAGE", None), "Procalcitonin": ("LAB", None), "Sputum Culture": ("MICRO", None),
    }


def test_exam_type_rules() -> None:
    assert exam_type("CT Abdomen") == exam_type("Echocardiogram") == "IMAGE" and exam_type("ECG") == "OTHER"
    assert exam_type("Blood Cultures") == exam_type("Gram stain") == exam_type("HIV viral load") == "MICRO"
    assert exam_type("Liver Function Tests") == exam_type("Skin Biopsy") == "LAB"


def test_bad_case_files_are_clear_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x", "source": "s", "disease": "d", "diagnosis": "d"}\n')
    with pytest.raises(MedprobeError, match=r"bad.jsonl:1: field 'history': missing required field"):
        load_cases(str(bad))
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"OSCE_Examination": {"Patient_Actor": {}}}\n')
    with pytest.raises(MedprobeError, match="broken.jsonl:1.*not an AgentClinic OSCE record"):
        load_cases(str(broken))


def test_real_agentclinic_cases() -> None:
    cases = load_cases(str(shared("agentclinic", "agentclinic_medqa_extended.jsonl")))
    assert len(cases) == 214
    assert sum(len(c.exams_of("LAB")) for c in cases) > 500
    assert all(c.diagnosis for c in cases)


# --- the protocol ----------------------------------------------------------------------------------


def test_invalid_replies_are_warned_then_rolled_back(pneumonia: Case) -> None:
    ep = episode(pneumonia)
    warning = say(ep, "I would like some tests please")
    assert "not in the required format" in warning and ep.done_actions == ["WRONG"]
    say(ep, "Rationale: look\nAction: PE")
    assert ep.rolled_back == 1 and ep.done_actions == ["PE"]
    assert [m.role for m in ep.messages] == ["system", "user", "assistant", "user"], "bad reply and warning removed"


def test_a_list_with_no_valid_item_is_invalid(pneumonia: Case) -> None:
    ep = episode(pneumonia)
    say(ep, "Rationale: x\nAction: LAB")
    assert "no valid tests found" in say(ep, "Rationale: x\nLab Tests: serum unobtainium")
    say(ep, "Rationale: x\nLab Tests: CBC")
    assert ep.requested["LAB"] == ["cbc.hemoglobin", "cbc.platelets", "cbc.white_blood_cells"]
    assert "PE" in ep.messages[-1].content and "LAB" not in ep.messages[-1].content.split("[")[-1]


def test_a_type_the_case_lacks_and_the_forced_diagnosis() -> None:
    case = Case(id="c", source="t", disease="flu", diagnosis="Influenza", history="Fever.", physical_exam="",
                exams=[Exam(id="x", type="LAB", name="CBC", result="normal")])
    ep = episode(case)
    assert "No microbiology tests are available" in say(ep, "Rationale: x\nAction: MICRO")
    assert "No physical examination findings" in say(ep, "Rationale: x\nAction: PE")
    say(ep, "Rationale: x\nAction: IMAGE")
    say(ep, "Rationale: x\nAction: LAB")
    assert say(ep, "Rationale: x\nLab Tests: CBC").endswith("Choose your next action from [OUTPUT].")
    assert "time to decide" in say(ep, "Rationale: nothing left\nAction: PE")
    assert "contains no diagnosis" in say(ep, "I am not sure.")
    say(ep, "Diagnosis: influenza A\nTreatment: oseltamivir")
    assert ep.status == "done" and "influenza A" in ep.final_text


def test_a_model_that_never_diagnoses_is_stopped(pneumonia: Case) -> None:
    ep = episode(pneumonia, max_turns=12)
    for _ in range(12):
        if ep.status != "open":
            break
        say(ep, "hmm")
    assert ep.status == "failed" and "early stop" in ep.reason


def test_an_overlong_chat_is_summarized(pneumonia: Case) -> None:
    ep = episode(pneumonia, context_tokens=700)
    assert ep.messages[1].content.count("[…]") <= 1
    say(ep, "Rationale: x\nAction: PE")
    say(ep, "Rationale: x\nAction: LAB")
    say(ep, "Rationale: x\nLab Tests: CBC, BMP, CRP, procalcitonin")
    assert ep.awaiting == "summary"
    request = ep.request()
    assert "Summarize our conversation" in request.messages[-1].content
    say(ep, "Summary: 67-year-old woman, fever, cough, right lower crackles, WBC 17.4, CRP 182.")
    assert ep.summaries == 1 and len(ep.messages) == 2 and "Summary of the consultation so far" in ep.messages[1].content
    assert ep.status == "open"
    ep2 = episode(pneumonia, context_tokens=700)
    for text in ("Rationale: x\nAction: PE", "Rationale: x\nAction: LAB", "Rationale: x\nLab Tests: CBC, BMP, CRP"):
        say(ep2, text)
    assert ep2.awaiting == "summary"
    say(ep2, "Summary:")
    assert ep2.status == "failed" and ep2.reason == "failed to summarize the chat"


def test_a_context_error_from_the_model_triggers_a_summary(pneumonia: Case) -> None:
    ep = episode(pneumonia)
    say(ep, "Rationale: x\nAction: PE")
    say(ep, None, error="llama.cpp: Requested tokens exceed context window")
    assert ep.awaiting == "summary" and ep.status == "open"
    say(ep, None, error="HTTP 500: boom")
    assert ep.status == "failed" and "model error" in ep.reason


# --- end to end ------------------------------------------------------------------------------------


def plan(tmp_path: Path, model: str, **build: Any) -> RunPlan:
    options = BuildOptions(data="builtin:cases", level="high", seed=0, **build)
    return RunPlan(method="multicog", build=options, model=model, out=tmp_path / "runs", progress=False)


def test_dialogues_end_to_end_with_transcripts_and_rescore(tmp_path: Path) -> None:
    mock = MockOpenAI(reply=doctor())
    with serve_in_thread(mock) as url:
        outcome = run(plan(tmp_path, f"openai:doc@{url}", repeats=2))
        sent = mock.requests
        again = run(plan(tmp_path, f"openai:doc@{url}", repeats=2))
    h = outcome.summary["metrics"]["high"]
    assert h["episodes"] == 16 and h["finished"] == 16
    assert h["macro_end_point"]["mean"] == pytest.approx(1 / 8) and h["macro_end_point"]["se"] == 0.0
    # the pneumonia case: CBC (3) + BMP (5, glucose among them) + CRP of its 10 lab items (not procalcitonin),
    # blood culture of its 4 microbiology items, its one chest x-ray
    items = [json.loads(line) for line in (outcome.path / "scores.jsonl").open()]
    item = next(i for i in items if i["knowledge_point"] == "case:demo-pneumonia")
    assert item["meta"]["recalls"] == {"LAB": 9 / 10, "MICRO": 1 / 4, "IMAGE": 1.0}
    assert item["score"] == pytest.approx((9 / 10 + 1 / 4 + 1) / 3)
    transcripts = [json.loads(line) for line in (outcome.path / "transcripts.jsonl").open()]
    assert len(transcripts) == 16 and transcripts[0]["transcript"][0]["role"] == "assistant"
    reading = outcome.summary["reading"]["high: dialogue turns"]
    assert sum(reading.values()) == sum(t["turns"] for t in transcripts) and reading["diagnosis"] == 16
    assert "unparsed" not in reading and "How answers were read" in (outcome.path / "report.md").read_text()
    assert sent == mock.requests and again.summary["run"]["sent"] == 0, "a rerun replays every turn from the cache"
    assert again.summary["metrics"] == outcome.summary["metrics"]
    re_scored = rescore("multicog", outcome.path, "medprobe", BuildOptions(), out=tmp_path / "re", reference_compatible=False)
    assert re_scored.summary["metrics"]["high"] == h


def test_judge_accepts_what_no_rule_matches(tmp_path: Path) -> None:
    with serve_in_thread(MockOpenAI(reply=doctor("lobar consolidation due to pneumococcus"))) as url, \
            serve_in_thread(MockOpenAI(reply=lambda body: "yes" if "pneumonia" in body["messages"][-1]["content"] else "no")) as judge:
        outcome = run(plan(tmp_path, f"openai:doc@{url}", repeats=1, limit=8, options={"judge": f"openai:j@{judge}"}))
    h = outcome.summary["metrics"]["high"]
    assert h["diagnosis_kinds"].get("judge") == 1 and h["macro_end_point"]["mean"] == pytest.approx(1 / 8)


def test_end_points_are_counted_by_kind_and_a_hedge_scores_only_in_reference_mode(tmp_path: Path) -> None:
    with serve_in_thread(MockOpenAI(reply=doctor("community-acquired pneumonia vs pulmonary embolism"))) as url:
        outcome = run(plan(tmp_path, f"openai:doc@{url}", repeats=1))
    h = outcome.summary["metrics"]["high"]
    assert h["grading"] == "strict" and h["diagnosis_kinds"] == {"hedged": 2, "other": 6} and h["macro_end_point"]["mean"] == 0.0
    report = (outcome.path / "report.md").read_text()
    assert "End points by kind (strict: a hedge" in report and "| hedged | 2 | no |" in report
    lenient = rescore("multicog", outcome.path, "medprobe", BuildOptions(), out=tmp_path / "re", reference_compatible=True)
    high = lenient.summary["metrics"]["high"]
    assert high["grading"] == "reference-compatible" and high["macro_end_point"]["mean"] == pytest.approx(2 / 8)
    transcripts = [json.loads(line) for line in (outcome.path / "transcripts.jsonl").open()]
    assert {t["diagnosis_kind"] for t in transcripts} == {"hedged", "other"}


def test_the_random_model_is_the_baseline_doctor(tmp_path: Path) -> None:
    """It orders random exams among those the case has and names a diagnosis of the case set, in
    the dialogue's format: every turn is read, every episode ends with a diagnosis."""
    outcome = run(plan(tmp_path, "random", repeats=3))
    h = outcome.summary["metrics"]["high"]
    assert h["episodes"] == h["finished"] == 24 and h["rolled_back"] == 0 and outcome.summary["run"]["errors"] == 0
    assert h["macro_end_point"]["mean"] == pytest.approx(2 / 24) and h["diagnosis_kinds"] == {"other": 22, "match": 2}
    assert h["exam_recall"]["mean"] == pytest.approx(0.416, abs=5e-4)
    assert h["macro_full_path"]["mean"] == pytest.approx(0.049, abs=5e-4)
    assert set(outcome.summary["reading"]["high: dialogue turns"]) == {"action line", "exam list", "diagnosis"}
    pool = {c.diagnosis for c in load_cases("builtin:cases")}
    transcripts = [json.loads(line) for line in (outcome.path / "transcripts.jsonl").open()]
    assert {t["diagnosis"] for t in transcripts} <= pool


# --- MIMIC-IV-CDM style records (synthetic fixture in that shape; not patient data) ------------------


def test_mimic_import_and_matching_with_item_ids(tmp_path: Path) -> None:
    meta = tmp_path / "meta"
    meta.mkdir()
    (meta / "meta_lab_tests_UMLS_ext.json").write_text(json.dumps(
        {"CBC": [51301, 51222, 51265], "Complete Blood Count": [51301, 51222, 51265], "Lipase": [50956], "Blood Culture": [90001]}))
    (meta / "radiology_name_dict.json").write_text(json.dumps(
        {"CT ABDOMEN W/ CONTRAST": {"modalities": ["CT"], "regions": ["Abdomen"]}, "CHEST (PA & LAT)": {"modalities": ["Radiograph"], "regions": ["Chest"]}}))
    record = {"Patient History": "Synthetic fixture: epigastric pain radiating to the back.", "Physical Examination": "Epigastric tenderness.",
              "Laboratory Tests": {51301: "14.0", 50956: "900", 51222: "13.1"}, "Microbiology": {90001: "no growth"},
              "Radiology": [{"Exam Name": "CT ABDOMEN W/ CONTRAST", "Modality": "CT", "Region": "Abdomen", "Report": "Peripancreatic stranding."},
                            {"Exam Name": "CHEST (PA & LAT)", "Modality": "Radiograph", "Region": "Chest", "Report": "Clear."}]}
    records = tmp_path / "records.pkl"
    records.write_bytes(pickle.dumps({"pancreatitis": {"29000001": record}}))
    labels = tmp_path / "d_labitems.csv"
    labels.write_text("itemid,label\n51301,White Blood Cells\n50956,Lipase\n51222,Hemoglobin\n")
    (case,) = import_mimic(records, meta_dir=meta, lab_labels=labels)
    assert case.disease == "pancreatitis" and {e.name for e in case.exams_of("LAB")} == {"White Blood Cells", "Lipase", "Hemoglobin"}
    ep = episode(case)
    say(ep, "Rationale: x\nAction: LAB")
    say(ep, "Rationale: x\nLab Tests: lipase")
    assert ep.requested["LAB"] == ["50956"]
    say(ep, "Rationale: x\nAction: IMAGE")
    say(ep, "Rationale: x\nImaging scans: CT of the abdomen")
    assert ep.requested["IMAGE"] == ["rad:CT ABDOMEN W/ CONTRAST"]
    with pytest.raises(MedprobeError, match="flat records need the disease"):
        flat = tmp_path / "flat.json"
        flat.write_text(json.dumps({"29000001": record}, default=str))
        import_mimic(flat, meta_dir=meta)


# --- error bars, exam typing, panels and diagnosis matching --------------------------------------


def test_a_reply_after_a_summary_keeps_the_instructions_and_the_summary(pneumonia: Case) -> None:
    """An invalid reply whose warning was folded into a summary is not rolled back afterwards: the
    rollback would delete the system prompt and the summary (the reference skips it the turn the
    chat was summarized)."""
    ep = episode(pneumonia, context_tokens=800)
    say(ep, "Rationale: x\nAction: PE")
    say(ep, "Rationale: x\nAction: LAB")
    say(ep, "Rationale: x\nLab Tests: CBC, BMP, CRP, procalcitonin")
    assert ep.awaiting == "action"
    say(ep, "I am not sure what to do next, let me think about the whole picture once more.")
    assert ep.awaiting == "summary" and ep.done_actions[-1] == "WRONG"
    say(ep, "Summary: 67-year-old woman, fever, cough, right lower crackles, WBC 17.4, CRP 182.")
    say(ep, "Rationale: x\nAction: IMAGE")
    messages = ep.request().messages
    assert [m.role for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[0].content.startswith("You are a careful clinical")
    assert "Summary of the consultation so far: 67-year-old woman" in messages[1].content
    assert ep.rolled_back == 0 and "WRONG" not in ep.done_actions
    say(ep, "no idea")  # an invalid reply after the summary is rolled back as usual
    say(ep, "Rationale: x\nImaging scans: chest x-ray")
    assert [m.role for m in ep.request().messages] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert ep.rolled_back == 1 and "Summary of the consultation" in ep.request().messages[1].content


def test_reasoning_blocks_are_removed_before_the_reply_is_read(pneumonia: Case) -> None:
    ep = episode(pneumonia)
    say(ep, "<think>Lab Tests: CBC would help later.</think>\nAction: PE")
    assert ep.done_actions == ["PE"], "the thinking's list header must not make the reply an exam list"
    assert ep.messages[2].content == "Action: PE" and ep.transcript[0]["role"] == "reasoning"


def test_every_dialogue_turn_is_read_as_one_family(pneumonia: Case) -> None:
    ep = episode(pneumonia)
    for text in ("Rationale: x\nAction: LAB", "Rationale: x\nLab Tests: serum unobtainium", "Rationale: x\nLab Tests: CBC",
                 "let me think", "Rationale: x\nAction: OUTPUT", "I need more time", "Diagnosis: pneumonia"):
        say(ep, text)
    assert ep.readings == ["action line", "exam list, none available", "exam list", "unparsed", "action line",
                           "unparsed", "diagnosis"]
    ep = episode(pneumonia)
    say(ep, None, error="HTTP 500: boom")
    assert ep.readings == ["no reply"]


@pytest.mark.parametrize(("reply", "action"), [
    ("Rationale: examine\nAction：PE", "PE"),  # full-width colon
    ("Rationale: examine\nAction: ＰＥ", "PE"),  # full-width letters
    ("Rationale: examine\nAc\u200btion: \ufeffPE", "PE"),  # zero-width space, byte-order mark
    ("Rationale: x\nAction: PERFORM LAB", "LAB"),  # "PE" inside a word is no action (the reference read PE)
])
def test_an_action_line_is_read_by_the_action_it_names(pneumonia: Case, reply: str, action: str) -> None:
    ep = episode(pneumonia)
    say(ep, reply)
    assert ep.readings == ["action line"] and (ep.done_actions == ["PE"] if action == "PE" else ep.expecting == action)


@pytest.mark.parametrize("reply", [
    "Rationale: not sure\nAction: LAB or IMAGE",  # several actions: a hedge (the reference took LAB)
    "Rationale: the exam is done\nAction: LAB (PE is done)",  # the reference took PE, the first it tests
    "Rationale: x\nAction: none of the above",
])
def test_an_action_line_naming_several_actions_or_none_is_asked_again(pneumonia: Case, reply: str) -> None:
    ep = episode(pneumonia)
    warning = say(ep, reply)
    assert "not in the required format" in warning and ep.done_actions == ["WRONG"] and ep.readings == ["unparsed"]


def test_a_diagnosis_with_a_full_width_label_finishes_and_is_graded(pneumonia: Case) -> None:
    ep = episode(pneumonia)
    say(ep, "Rationale: x\nAction: OUTPUT")
    say(ep, "Diagnosis：community-acquired pneu\u00admonia\nTreatment：antibiotics")
    assert ep.status == "done" and ep.readings[-1] == "diagnosis"
    assert grade_diagnosis("community-acquired pneumonia", ep.final_text).correct


def test_the_stop_rule_budget_and_finish_are_what_the_docs_say(pneumonia: Case) -> None:
    ep = episode(pneumonia)
    for _ in range(MAX_INVALID_IN_A_ROW - 1):
        say(ep, "hmm")
    assert ep.status == "open"
    say(ep, "hmm")
    assert (ep.status, ep.reason, ep.turn) == ("failed", "early stop: 5 invalid replies in a row", 5)
    ep = episode(pneumonia)
    assert "Diagnosis:" in say(ep, "Rationale: x\nAction: OUTPUT")
    say(ep, "Diagnosis: pneumonia")
    assert ep.status == "done", "after OUTPUT a diagnosis without a treatment finishes"
    page = " ".join((Path(__file__).resolve().parents[1] / "docs" / "methods" / "multicog.md").read_text(encoding="utf-8").split())
    assert f"after {MAX_TURNS} model turns" in page and f"after {MAX_INVALID_IN_A_ROW} invalid replies in a row at any turn" in page
    assert f"Each reply may use up to {DEFAULT_GENERATION.max_tokens} tokens" in page
    assert "4 invalid replies" not in page
