"""Distractors, which must be wrong: for Chinese KBs never another spelling or a hedged form of one of the
disease's own entities (轻度食欲下降 beside 食欲不振); in any KB never an entity so common among
the aspect's diseases that an unlisted one may well be right, nor one of a disease that shares a
department with it."""

from __future__ import annotations

import random

import pytest

from medprobe.methods.multifacet.from_kb import NONSPECIFIC_MIN, distractors, index_kb
from medprobe.sources.cmekg_values import regions, related_to_any
from medprobe.sources.kb import Disease, KnowledgeBase

SPELLINGS = ["轻度食欲下降", "发烧", "全身乏力", "反复头晕"]
UNRELATED = ["关节痛", "瘙痒", "鼻出血", "视物模糊"]


def _disease(i: int, values: list[str]) -> Disease:
    return Disease(id=f"D:{i}", name=f"疾病{i}", language="zh", aspects={"primary_symptoms": values})


def _entry_and_kp(kb: KnowledgeBase):  # type: ignore[no-untyped-def]
    kp = next(kb.knowledge_points(aspects=["primary_symptoms"]))
    return index_kb(kb, {"primary_symptoms"})["primary_symptoms"], kp


def test_other_spellings_of_own_entities_are_never_distractors() -> None:
    own = _disease(0, ["食欲不振", "发热", "乏力", "头晕"])
    kb = KnowledgeBase(name="t", diseases=[own, *(_disease(i, [v]) for i, v in enumerate(SPELLINGS + UNRELATED, start=1))])
    entry, kp = _entry_and_kp(kb)
    for seed in range(20):
        picked = distractors(entry, kp, random.Random(seed), n=len(SPELLINGS) + len(UNRELATED))
        assert sorted(picked) == sorted(UNRELATED)


def test_entities_many_diseases_share_are_never_distractors() -> None:
    own = _disease(0, ["晕厥", "腹水", "黄疸"])
    common = [_disease(i, ["食欲减退"]) for i in range(1, NONSPECIFIC_MIN + 1)]  # listed for 20 of 25 diseases
    rare = [_disease(NONSPECIFIC_MIN + i, [v]) for i, v in enumerate(UNRELATED, start=1)]
    entry, kp = _entry_and_kp(KnowledgeBase(name="t", diseases=[own, *common, *rare]))
    for seed in range(20):
        assert sorted(distractors(entry, kp, random.Random(seed), n=5)) == sorted(UNRELATED)



def test_entities_of_diseases_sharing_a_department_are_never_distractors() -> None:
    """甘草酸二铵 belongs to another liver disease: for hepatitis B it may well be right. Nor is a drug of
    broad use (阿莫西林, 甲硝唑, 布洛芬, 奥美拉唑, 华法林, 氯雷他定: ``drug_classes.BROAD_USE``) a safe wrong drug."""
    own = Disease(id="D:0", name="慢性乙型肝炎", language="zh",
                  aspects={"medications": ["恩替卡韦", "干扰素", "替诺福韦"], "departments": ["消化内科"]})
    liver = Disease(id="D:1", name="药物性肝损伤", language="zh", aspects={"medications": ["甘草酸二铵"], "departments": ["消化内科"]})
    others = [
        Disease(id=f"D:{i}", name=f"疾病{i}", language="zh", aspects={"medications": [drug], "departments": [dept]})
        for i, (drug, dept) in enumerate(zip(["阿托品", "布洛芬", "氯雷他定", "阿莫西林", "甲硝唑", "左甲状腺素", "奥美拉唑", "二甲双胍", "华法林"],
                                             ["眼科", "骨科", "皮肤科", "耳鼻喉科", "口腔科", "内分泌科", "胃肠外科", "肾内科", "心内科"], strict=True), start=2)
    ]
    kb = KnowledgeBase(name="t", diseases=[own, liver, *others])
    kp = next(kb.knowledge_points(aspects=["medications"]))
    entry = index_kb(kb, {"medications"})["medications"]
    for seed in range(20):
        picked = distractors(entry, kp, random.Random(seed), n=10)
        assert sorted(picked) == sorted(["阿托品", "左甲状腺素", "二甲双胍"])


def test_entities_of_diseases_of_one_body_system_are_never_distractors() -> None:
    """A finding of a 心外科 disease is no safe wrong answer for a 心血管内科 one (nor for one coded I);
    two departments of one system relate their diseases as one department does."""
    def disease(i: int, symptom: str, **aspects: list[str]) -> Disease:
        return Disease(id=f"D:{i}", name=f"疾病{i}", language="zh", aspects={"primary_symptoms": [symptom, f"皮疹{i}", f"耳鸣{i}"], **aspects})

    own = Disease(id="D:0", name="疾病0", language="zh", aspects={"primary_symptoms": ["心悸", "胸闷", "咯血"], "departments": ["心血管内科"]})
    heart = [disease(1, "关节僵硬", departments=["心外科"]), disease(2, "眼干", affected_body_systems=["循环系统"])]
    far = ["眼科", "骨科", "皮肤科", "口腔科", "精神科", "血液科"] * 3  # enough diseases that no system is broad (BROAD_DEPARTMENT)
    others = [disease(i, f"{UNRELATED[i % 4]}{i}", departments=[d]) for i, d in enumerate(far, start=3)]
    kb = KnowledgeBase(name="t", diseases=[own, *heart, *others])
    entry, kp = _entry_and_kp(kb)
    for seed in range(20):
        picked = set(distractors(entry, kp, random.Random(seed), n=100))
        assert picked.isdisjoint({"关节僵硬", "眼干", "皮疹1", "耳鸣2"}) and len(picked) > 2 * len(others)


def test_body_regions() -> None:
    assert regions("腹泻") == {"abdomen"} and regions("烧灼") == frozenset() and related_to_any("红斑", ["发红"])
    assert not related_to_any("耳鸣", ["腹泻"]) and related_to_any("神经迟钝", ["抽搐"]) and related_to_any("腰背部痛", ["血尿"]) and related_to_any("左臂", ["踝"])
    assert regions("精神科") == {"nerves and mind"} and regions("急性腹痛") == {"abdomen"} and regions("精力不足") == frozenset()


@pytest.mark.parametrize(("aspect", "own", "general", "specific"), [
    # 干呕 keyed wrong for 恶心与呕吐, 身重困倦 for a pregnancy with 乏力, 排便次数增多 beside 恶心: a finding of
    # a body region where the disease has one, a general one, or one of no region (烧灼感)
    ("primary_symptoms", ["恶心", "乏力", "头晕"], ["干呕", "反胃", "身重困倦", "体力减退", "软弱", "排便次数增多", "烧灼感"], UNRELATED),
    # 焦虑不安, 四肢发凉 or 局部皮肤红肿 may be true of any disease whatever its page lists
    ("primary_symptoms", ["咳嗽", "咯血", "胸闷"], ["焦虑不安", "性格改变", "四肢发凉", "局部皮肤红肿", "心率加快", "眼部异常", "溃疡", "毛细血管充盈差",
      "自主神经功能紊乱"],
     UNRELATED),
    # 急症科 or 中西医结合科 may well see hyponatraemia: only a department of a body system is safely wrong
    ("departments", ["肾内科", "消化科", "心血管科"], ["急症科", "中西医结合科", "儿科", "病理科"],
     ["眼科", "皮肤科", "耳鼻喉科", "口腔科", "骨科", "精神科"] * 2),
    # 针灸 or 心理治疗 may well be given for depression
    ("treatment_principles", ["抗抑郁药物治疗", "认知行为疗法", "电休克治疗"], ["针灸治疗", "心理治疗", "物理疗法", "饮食疗法"],
     ["放射碘治疗", "人工肝治疗", "透析疗法", "抗凝治疗"]),
    # 50岁以上患者 may well have type 2 diabetes: ages and sexes overlap from disease to disease
    ("patient_population", ["肥胖者", "有家族史者", "中老年人"], ["50岁以上患者", "30～50岁男性", "6个月至3岁小儿", "孕妇"],
     ["矿工", "吸烟者", "养鸽者", "长期卧床者"]),
])
def test_what_any_disease_may_have_is_never_a_distractor(aspect: str, own: list[str], general: list[str], specific: list[str]) -> None:
    diseases = [Disease(id=f"D:{i}", name=f"疾病{i}", language="zh", aspects={aspect: values})
                for i, values in enumerate([own, *([v] for v in general + specific)])]
    kb = KnowledgeBase(name="t", diseases=diseases)
    kp = next(kb.knowledge_points(aspects=[aspect]))
    entry = index_kb(kb, {aspect})[aspect]
    for seed in range(20):
        assert set(distractors(entry, kp, random.Random(seed), n=20)) == set(specific)


def test_question_points_of_a_builtin_chinese_kb_ask_coded_diseases_and_confirmed_findings_only() -> None:
    """The rules the blind readings were measured on hold for every method that asks MCQs of a built-in KB
    (MultifacetEval, MultiCogEval, the profile's sample); a user's KB is asked as it is."""
    from medprobe.methods.multifacet.from_kb import QuestionPoints

    def disease(i: int, symptoms: list[str], code: str | None) -> Disease:
        return Disease(id=f"CMeKG:病{i}", name=f"病{i}", language="zh", codes={"ICD10": [code]} if code else {},
                       aspects={"primary_symptoms": symptoms})

    chest = ["咳嗽", "胸痛", "咯血"]
    diseases = [disease(0, [*chest, "腹痛"], "J18"), disease(1, chest, "J20"), disease(2, chest, "J40"), disease(3, chest, None)]
    builtin = QuestionPoints(KnowledgeBase(name="builtin:zh", diseases=diseases))
    assert [kp.meta["disease_id"] for kp in builtin.every()] == ["CMeKG:病0", "CMeKG:病1", "CMeKG:病2"]  # 病3 has no code
    assert builtin.point(diseases[0], "primary_symptoms").values == chest  # 腹痛: no other J disease lists it
    own = QuestionPoints(KnowledgeBase(name="mine", diseases=diseases))
    assert len(own.every()) == 4 and own.point(diseases[0], "primary_symptoms").values == [*chest, "腹痛"]
