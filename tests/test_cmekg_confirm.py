"""Chinese keys confirmed by a second source: a symptom is keyed only where the English catalogue of common
diseases names it too, and wrong options are findings of other body regions that several diseases list."""

from __future__ import annotations

import random

from medprobe.methods.multifacet.from_kb import distractors, index_kb
from medprobe.precision import cell_aspect
from medprobe.sources.cmekg_confirm import ZH_SPELLINGS, catalogue_symptoms, confirmed_symptoms
from medprobe.sources.cmekg_keys import ChineseKeys, not_a_finding, systemic
from medprobe.sources.kb import Disease, KnowledgeBase


def _crohn(values: list[str]) -> Disease:
    return Disease(id="CMeKG:克罗恩病", name="克罗恩病", language="zh", synonyms=["Crohn's disease"], codes={"ICD10": ["K50.9"]},
                   aspects={"primary_symptoms": values})


def test_a_disease_is_matched_by_its_english_name_not_its_code() -> None:
    assert "Diarrhea" in (catalogue_symptoms(["Crohn's disease"]) or ())
    assert catalogue_symptoms(["胆道蛔虫病", "biliary ascariasis"]) is None


def test_only_symptoms_the_catalogue_names_are_keys_one_spelling_each() -> None:
    values = ["低热", "腹痛", "腹泻", "消瘦", "体重减轻", "里急后重", "肠鸣"]
    # 低热, 里急后重 and 肠鸣 are on the page but not in the catalogue; 消瘦 and 体重减轻 are one finding
    assert confirmed_symptoms(_crohn(values), values) == ["腹痛", "腹泻", "体重减轻"]
    unknown = Disease(id="CMeKG:胆道蛔虫病", name="胆道蛔虫病", language="zh", aspects={"primary_symptoms": values})
    assert confirmed_symptoms(unknown, values) is None


def test_the_keys_of_a_known_disease_come_from_the_catalogue_and_a_systemic_disease_has_none() -> None:
    values = ["低热", "腹痛", "腹泻", "消瘦"]
    keys = ChineseKeys([_crohn(values)], "primary_symptoms")
    assert keys.keyable(_crohn(values), values) == ["腹痛", "腹泻", "消瘦"]
    scleroderma = Disease(id="CMeKG:硬皮病", name="硬皮病", language="zh", synonyms=["scleroderma"], codes={"ICD10": ["M34.9"]},
                          aspects={"primary_symptoms": ["雷诺现象", "关节痛", "呼吸困难"]})
    assert systemic(scleroderma) and keys.keyable(scleroderma, ["雷诺现象", "关节痛", "呼吸困难"]) == []


def test_translations_name_the_same_finding_never_a_broader_one() -> None:
    assert "乏力" not in ZH_SPELLINGS["Weakness"] and "黑便" not in ZH_SPELLINGS["Blood in stool"]
    assert "失明" not in ZH_SPELLINGS["Vision loss"]


def test_a_body_part_a_disease_or_a_tongue_sign_is_never_a_wrong_finding() -> None:
    assert all(not_a_finding(t) for t in ("阴茎体", "湿疹", "咽后壁脓肿", "舌红苔黄", "脉弦数"))
    assert not any(not_a_finding(t) for t in ("头痛", "咳嗽", "关节痛", "舌痛"))


def test_wrong_findings_come_from_other_regions_and_are_listed_by_several_diseases() -> None:
    own = Disease(id="D:0", name="疾病0", language="zh", aspects={"primary_symptoms": ["腹痛", "腹泻", "呕吐"]})
    # 咳嗽 is listed by four diseases and names another region; 便秘 names the disease's own region; 视网膜僵硬
    # is one page's phrase
    listed = {"咳嗽": 4, "便秘": 4, "视网膜僵硬": 1}
    others = [Disease(id=f"D:{v}{i}", name=f"疾病{v}{i}", language="zh", aspects={"primary_symptoms": [v]})
              for v, n in listed.items() for i in range(n)]
    for name, wrong in (("builtin:zh", ["咳嗽"]), ("my-kb", ["咳嗽", "视网膜僵硬"])):  # a user's KB lists what its author meant
        kb = KnowledgeBase(name=name, diseases=[own, *others])
        kp = next(kb.knowledge_points(aspects=["primary_symptoms"]))
        entry = index_kb(kb, {"primary_symptoms"})["primary_symptoms"]
        for seed in range(10):
            assert sorted(distractors(entry, kp, random.Random(seed), n=3)) == wrong


def test_a_chinese_disease_outside_the_catalogue_has_cells_of_its_own() -> None:
    assert cell_aspect("zh", "CMeKG:克罗恩病", "primary_symptoms") == "primary_symptoms"
    assert cell_aspect("zh", "CMeKG:胆道蛔虫病", "primary_symptoms") == "primary_symptoms (unconfirmed)"


def test_meddisk_on_the_chinese_kb_asks_measured_diseases_and_scores_against_confirmed_symptoms() -> None:
    """A gated MedDisKEval build samples only diseases it will ask, and a recall is scored against the symptoms
    the readings measured, not the graph's whole list."""
    from medprobe.methods.meddisk.build import build_probes
    from medprobe.sources.builtin import resolve_kb

    zh = resolve_kb("builtin:zh")
    probes, _ = build_probes(zh, limit=5, seed=0, setting="instruct", aspects={"primary_symptoms"})
    assert len(probes) == 5  # drawn among the diseases with a confirmed symptom only
    diseases = [next(d for d in zh.diseases if d.id == probe.meta["disease_id"]) for probe in probes]
    for probe, disease in zip(probes, diseases, strict=True):
        assert probe.gold["value"] == confirmed_symptoms(disease, disease.values("primary_symptoms"))
    assert any(len(p.gold["value"]) < len(d.values("primary_symptoms")) for p, d in zip(probes, diseases, strict=True))
