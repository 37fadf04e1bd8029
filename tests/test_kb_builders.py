"""The built-in KB builders: the CMeKG noise filters on a hand-written graph, the HPO builder on the real
hpo3 data, and the built-in KB cache."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from medprobe.errors import MedprobeError
from medprobe.sources import builtin
from medprobe.sources.kb import Disease, KnowledgeBase
from medprobe.sources.kb_cmekg import MAX_MEDICATIONS, build_cmekg_kb, disease_subjects
from medprobe.sources.kb_hpo import build_hpo_kb

GRAPH: dict[str, dict[str, list[str]]] = {
    "阑尾炎": {
        "常见症状": [
            "腹痛", "恶心、呕吐", "食欲减退；脉速", "急性阑尾炎", "发热等", "伴高热", "无", "病因不明",
            "典型急性阑尾炎有转移右下腹痛", "患儿出生后无呼吸和哭声", "无压痛", "压痛", "腹痛", "溃疡病", "心",
        ],
        "相关症状": ["腹痛", "厌食（食欲差）"],
        "临床症状及体征": ["白细胞增多"],
        "就诊科室": ["外科"],
        "ICD10": ["K37，K35.9"],
        "别称": ["盲肠炎；蚓突炎"],
        "英文名称": ["appendicitis"],
        "多发群体": ["青年男性", "儿童和青少年"],
        "常见发病部位": ["右下腹", "腹"],
        "并发症": ["腹膜炎", "阑尾周围脓肿", "盲肠炎"],
        "药物治疗": ["抗生素治疗", "安慰剂"],
        "相关药物": ["一君", "乳酸左氧氟沙星氯化钠注射液", "左氧氟沙星片", "硝酸甘油片", "三清片", "说明书"],
        "治疗": ["手术治疗", "阑尾切除术", "抗感染", "肺炎"],
        "手术治疗": ["手术"],
        "检查": ["血常规", "腹部B超", "实验室检查", "尿沉渣检查"],
        "诊断依据_体征": ["右下腹固定压痛"],
        "传染性": ["无"],
        "常见病因": ["粪石", "病因不明", "多因感染引起"],
        "高危因素": ["低纤维饮食"],
    },
    "肺炎": {"常见症状": ["发热", "咳嗽"], "就诊科室": ["呼吸科"], "传染性": ["有"]},
    "左心衰": {"就诊科室": ["心内科"], "并发症": ["肺水肿"]},  # no symptom: too thin
    "一君": {"成份": ["哌拉西林"], "通用名": ["注射用哌拉西林钠舒巴坦钠"]},  # a brand name
    "乳酸左氧氟沙星氯化钠注射液": {"成份": ["左氧氟沙星"], "分类": ["喹诺酮类"]},
    "左氧氟沙星片": {"成份": ["左氧氟沙星"], "适应症": ["阑尾炎"]},
    "硝酸甘油片": {"成份": ["硝酸甘油"], "适应症": ["心绞痛"]},
    "三清片": {"成份": ["黄连"], "分类": ["中成药"]},
    "说明书": {"注意事项": ["见说明书"]},  # in the graph, but no drug
    "血常规": {"所属分类": ["血"], "相关症状": ["贫血"], "就诊科室": ["检验科"]},  # an examination
    "尿沉渣检查": {"所属分类": ["尿"], "相关疾病": ["肾炎"]},
}


@pytest.fixture(scope="module")
def cmekg() -> tuple[dict[str, Disease], Counter[str]]:
    noise: Counter[str] = Counter()
    return {d.name: d for d in build_cmekg_kb(GRAPH, noise=noise)}, noise


def test_cmekg_diseases_are_the_disease_subjects_with_symptoms(cmekg: tuple[dict[str, Disease], Counter[str]]) -> None:
    diseases, _ = cmekg
    assert sorted(disease_subjects(GRAPH)) == ["左心衰", "肺炎", "阑尾炎"]  # not drugs, not examinations
    assert list(diseases) == ["肺炎", "阑尾炎"]  # sorted; 左心衰 has no symptom
    assert diseases["肺炎"].id == "CMeKG:肺炎" and diseases["肺炎"].language == "zh"
    assert diseases["肺炎"].extra == {"infectivity": ["有传染性"]}
    assert [d.name for d in build_cmekg_kb(GRAPH, limit=1)] == ["肺炎"]


def test_cmekg_symptoms_are_split_cleaned_and_deduplicated(cmekg: tuple[dict[str, Disease], Counter[str]]) -> None:
    appendicitis = cmekg[0]["阑尾炎"]
    assert appendicitis.aspects["primary_symptoms"] == ["腹痛", "恶心", "呕吐", "食欲减退", "脉速", "发热", "高热", "压痛", "溃疡"]
    # already primary (腹痛) is left out; the aside in parentheses is dropped
    assert appendicitis.aspects["associated_symptoms"] == ["厌食", "白细胞增多"]


def test_cmekg_noise_filters_each_fire(cmekg: tuple[dict[str, Disease], Counter[str]]) -> None:
    assert +cmekg[1] == {
        "split (extra parts)": 2,  # 恶心、呕吐 and 食欲减退；脉速 (the synonyms are split apart too, uncounted)
        "connective (rewritten)": 2,  # 发热等, 伴高热
        "alias (rewritten)": 1,  # 溃疡病 -> 溃疡
        "placeholder": 6,  # 无, 病因不明 twice, 安慰剂, 手术 as an operation, 实验室检查
        "sentence": 3,  # two long sentences, and 多因感染引起 (a clause word)
        "fragment": 1,  # 心 as a symptom
        "own name": 2,  # 急性阑尾炎 contains the name, 盲肠炎 is a synonym
        "negated": 1,  # 无压痛
        "duplicate": 1,  # the second 腹痛
        "in primary": 1,  # 腹痛 again among the associated symptoms
        "brand": 1,  # 一君
        "tcm": 1,  # 三清片
        "not a drug": 1,  # 说明书
        "disease as treatment": 1,  # 肺炎 listed as a treatment
    }


def test_cmekg_aspect_mapping(cmekg: tuple[dict[str, Disease], Counter[str]]) -> None:
    appendicitis = cmekg[0]["阑尾炎"]
    assert appendicitis.codes == {"ICD10": ["K37", "K35.9"]}
    assert appendicitis.synonyms == ["盲肠炎", "蚓突炎", "appendicitis"]
    aspects = appendicitis.aspects
    assert aspects["patient_population"] == ["青年男性", "儿童和青少年"]
    assert aspects["prevalence_ages"] == ["儿童", "少年", "青年"]
    assert aspects["anatomical_sites"] == ["右下腹", "腹"]  # one-character organs are sites
    assert aspects["departments"] == ["外科"]
    assert aspects["secondary_diseases"] == ["腹膜炎", "阑尾周围脓肿"]
    assert aspects["treatment_principles"] == ["手术治疗", "抗感染"]
    assert aspects["surgical_procedures"] == ["阑尾切除术"]
    assert aspects["laboratory_examinations"] == "血常规；尿沉渣检查"
    assert aspects["auxiliary_examinations"] == "腹部B超"
    assert aspects["physical_examination"] == "右下腹固定压痛"
    assert appendicitis.extra == {"cause": ["粪石"], "risk_factors": ["低纤维饮食"], "infectivity": ["无传染性"]}


def test_cmekg_medications_are_generic_substances(cmekg: tuple[dict[str, Disease], Counter[str]]) -> None:
    # 药物治疗 first (抗生素治疗 -> 抗生素), then substances by product count; brands, patent
    # medicines and non-drugs out; salts and dosage forms stripped, but 硝酸甘油 stays whole
    assert cmekg[0]["阑尾炎"].aspects["medications"] == ["抗生素", "左氧氟沙星", "硝酸甘油"]


def test_cmekg_medications_are_capped() -> None:
    drugs = {f"药物{i:02d}片": {"成份": [f"药物{i:02d}"]} for i in range(MAX_MEDICATIONS + 5)}
    graph = {"某病": {"常见症状": ["发热"], "相关药物": list(drugs)}, **drugs}
    noise: Counter[str] = Counter()
    (disease,) = build_cmekg_kb(graph, noise=noise)
    assert disease.aspects["medications"] == [f"药物{i:02d}" for i in range(MAX_MEDICATIONS)]
    assert noise["over cap"] == 5


@pytest.fixture(scope="module")
def hpo() -> dict[str, Disease]:
    return {d.id: d for d in build_hpo_kb()}


def test_hpo_marfan_syndrome(hpo: dict[str, Disease]) -> None:
    marfan = hpo["ORPHA:558"]  # merged with OMIM:154700, which is therefore not a disease of its own
    assert marfan.name == "Marfan syndrome" and marfan.language == "en"
    assert marfan.codes == {"OMIM": ["154700"], "ORPHA": ["558"]} and "OMIM:154700" not in hpo
    assert "Arachnodactyly" in marfan.aspects["primary_symptoms"]  # the skeleton is the main branch
    assert {"Ectopia lentis", "Lens subluxation"} & set(marfan.aspects["associated_symptoms"])
    assert {"cardiovascular system", "musculoskeletal system"} <= set(marfan.aspects["affected_body_systems"])
    assert "eye" in marfan.aspects["affected_sites"]
    assert marfan.extra == {"inheritance": ["Autosomal dominant inheritance"]}


def test_hpo_onset_labs_and_inheritance(hpo: dict[str, Disease]) -> None:
    duchenne = hpo["ORPHA:98896"]
    assert duchenne.aspects["onset_ages"] == ["toddler", "child"]  # HPO: childhood onset (1-5 years)
    assert "Elevated circulating creatine kinase concentration" in duchenne.aspects["laboratory_examinations"]
    assert duchenne.extra["inheritance"] == ["X-linked recessive inheritance"]
    pku = hpo["ORPHA:716"]
    assert "Hyperphenylalaninemia" in str(pku.aspects["laboratory_examinations"])
    assert "Hyperphenylalaninemia" not in pku.values("primary_symptoms") + pku.values("associated_symptoms")


def test_hpo_kb_invariants(hpo: dict[str, Disease]) -> None:
    assert len(hpo) > 10_000
    ids = list(hpo)
    rare, common = [i for i in ids if not i.startswith("ICD10:")], [i for i in ids if i.startswith("ICD10:")]
    assert ids == sorted(rare, key=lambda i: (i.split(":")[0], int(i.split(":")[1]))) + sorted(common)
    for disease in hpo.values():
        primary, associated = disease.values("primary_symptoms"), disease.values("associated_symptoms")
        assert primary and not set(primary) & set(associated)
        assert disease.name.lower() not in {v.lower() for v in primary + associated}
    assert [d.id for d in build_hpo_kb(limit=3)] == ids[:3]


def test_builtin_kb_is_built_once_then_reused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEDPROBE_HOME", str(tmp_path))
    calls: list[int] = []

    def small_hpo_kb() -> list[Disease]:
        calls.append(1)
        return build_hpo_kb(limit=20)

    monkeypatch.setitem(builtin.BUILDERS, "en", small_hpo_kb)
    path = builtin.builtin_kb_path("hpo")
    assert path.parent == tmp_path / "kb" and path.name.startswith(f"en-{builtin.VERSIONS['en']}-")
    assert builtin.builtin_kb_path("en") == path and calls == [1]
    assert list(path.parent.iterdir()) == [path]  # no scratch files left behind

    kb = builtin.resolve_kb("builtin:en")
    assert isinstance(kb, KnowledgeBase) and kb.name == "builtin:en" and len(kb.diseases) == 20
    assert builtin.resolve_kb("en").diseases == kb.diseases and calls == [1]
    assert builtin.resolve_kb(str(path)).diseases == kb.diseases


def test_builtin_failed_build_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEDPROBE_HOME", str(tmp_path))

    def broken() -> list[Disease]:
        raise RuntimeError("interrupted")

    monkeypatch.setitem(builtin.BUILDERS, "zh", broken)
    with pytest.raises(RuntimeError):
        builtin.builtin_kb_path("cmekg")
    assert list((tmp_path / "kb").iterdir()) == []


def test_unknown_builtin_names_list_the_valid_ones(tmp_path: Path) -> None:
    with pytest.raises(MedprobeError) as info:
        builtin.load_builtin_kb("fr")
    assert "'fr'" in info.value.message and "builtin:en" in str(info.value) and "builtin:zh" in str(info.value)
    with pytest.raises(MedprobeError) as info:
        builtin.resolve_kb(str(tmp_path / "missing.jsonl"))
    assert "no such file" in info.value.message and "builtin:en" in str(info.value)
