"""Entity kinds of Chinese medical terms (medprobe.sources.cmekg_vocab): on a hand-written graph, and
on the installed CMeKG graph for the terms a clinician's blind reading tripped over."""

from __future__ import annotations

import pytest

from medprobe.sources.cmekg_vocab import KINDS, Vocabulary, entity_kind, subject_kind

GRAPH: dict[str, dict[str, list[str]]] = {
    "肺炎": {"常见症状": ["发热", "咳嗽、咳痰", "脉速"], "就诊科室": ["呼吸科"], "常见发病部位": ["肺"]},
    "支气管炎": {"常见症状": ["咳嗽", "脉速", "奔跑"], "多发地区": ["日本北部"]},
    "心肌炎": {"常见症状": ["脉速", "奔跑"]},
    "阿莫西林胶囊": {"成份": ["阿莫西林"], "适应症": ["肺炎"]},
    "陈皮": {"界": ["植物界"], "科": ["芸香科"]},
    "血常规": {"所属分类": ["血"], "相关症状": ["贫血"]},
    "广藿香": {"分布区域": ["广东", "海南等地"]},
}


@pytest.fixture(scope="module")
def vocabulary() -> Vocabulary:
    return Vocabulary(GRAPH)


def test_subjects_are_typed_by_their_predicates() -> None:
    assert subject_kind(GRAPH["肺炎"]) == "disease"
    assert subject_kind(GRAPH["阿莫西林胶囊"]) == "drug"
    assert subject_kind(GRAPH["陈皮"]) == "herb"
    assert subject_kind(GRAPH["血常规"]) == "test"  # 相关症状 does not make an examination a disease
    assert subject_kind({"注意事项": ["见说明书"]}) is None


@pytest.mark.parametrize(("text", "kind"), [
    ("阿莫西林胶囊", "drug"), ("陈皮", "herb"), ("血常规", "test"), ("肺炎", "disease"),
    ("呼吸科", "department"), ("芸香科", None),  # a plant family, not a department
    ("胸部X线检查", "test"), ("血糖测定", "test"), ("阑尾切除术", "procedure"), ("抗感染治疗", "treatment"),
    ("控制感染", "treatment"), ("腹痛", "symptom"), ("白细胞计数增高", "symptom"), ("脉速", "symptom"),
    ("关节炎", "disease"), ("金黄色葡萄球菌", "organism"), ("肺", "body part"), ("左氧氟沙星", "drug"),
    ("小儿", "population"), ("中年以上男性", "population"), ("纽约和日本", "place"), ("海南", "place"),
    ("dL", "unit"), ("mg", "unit"), ("体温40℃", "measurement"), ("空腹血糖＞140 mg", "measurement"),
    ("120", "measurement"), ("球赛", None), ("", None),
])
def test_kinds_of_hand_made_terms(vocabulary: Vocabulary, text: str, kind: str | None) -> None:
    assert vocabulary.kind(text) == kind
    assert kind is None or kind in KINDS


def test_a_deficiency_is_no_symptom() -> None:
    assert entity_kind("缺钙") != "symptom" and entity_kind("缺氧") == "symptom"


def test_a_symptom_by_usage_needs_three_diseases(vocabulary: Vocabulary) -> None:
    assert vocabulary.symptom_uses["脉速"] == 3 and vocabulary.kind("脉速") == "symptom"
    assert vocabulary.symptom_uses["奔跑"] == 2 and vocabulary.kind("奔跑") is None
    assert vocabulary.symptom_uses["咳痰"] == 1  # split out of "咳嗽、咳痰"; typed by its pattern instead
    assert vocabulary.kind("咳痰") == "symptom"


@pytest.mark.parametrize(("text", "kind"), [
    ("纽约和日本", "place"), ("球赛", None), ("dL", "unit"), ("小儿", "population"), ("CDK4", None),
    ("发热", "symptom"), ("食欲下降", "symptom"), ("骨科", "department"), ("心脏", "body part"),
    ("胸部X线片", "test"), ("利奈唑胺片", "drug"), ("胰岛素注射液", "drug"), ("腹水", "symptom"),
    ("肝硬化", "disease"), ("经颈静脉肝内门体分流术", "procedure"),
    # from a clinician's blind reading: gout is a disease (痛风 holds 痛), 乳晕 no dizziness (晕), 低平 (flat)
    # no low anything, and a deficiency (缺钙) is a cause, not a finding
    ("痛风", "disease"), ("假性痛风", "disease"), ("乳头及乳晕", None), ("低平", None),
    ("下降", None), ("模糊", None), ("高处", None), ("肿大", None), ("肝肿大", "symptom"), ("不适", None), ("腹部不适", "symptom"), ("弹性差", None), ("视物模糊", "symptom"),  # a bare change names no finding
    ("痛觉", None), ("带状疱疹病毒", "organism"), ("包皮", "body part"), ("脱皮", "symptom"), ("上唇", "body part"), ("齿龈", "body part"), ("舌根", "body part"), ("鼻翼", "body part"), ("鼻翼扇动", "symptom"),
    ("常因围生期窒息", None), ("影响美观部位", None), ("回盲部", "body part"),  # one page's "site" is typed by its form  # a sense, not its loss; a virus, though 疱 is a finding's word
])
def test_kinds_on_the_installed_graph(text: str, kind: str | None) -> None:
    assert entity_kind(text) == kind
