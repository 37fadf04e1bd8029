"""Which symptom values of a CMeKG disease a question may key (medprobe.sources.cmekg_symptoms), and the
builder's use of them: the classes of wrong keys a clinician's blind reading found (溃疡 and 结节
cut out of longer phrases, 疲劳晨僵 glued, 患儿烦躁不安 for adults, the causes listed by 恶心与呕吐)."""

from __future__ import annotations

from collections import Counter

from medprobe.sources import cmekg_symptoms as symptoms
from medprobe.sources.cmekg_values import canonical
from medprobe.sources.cmekg_vocab import Vocabulary
from medprobe.sources.kb_cmekg import build_cmekg_kb

COMMON = ["疲劳", "晨僵", "头晕", "乏力", "恶心", "呕吐", "发热"]
GRAPH: dict[str, dict[str, list[str]]] = {
    # three diseases name the common symptoms, so they are symptoms by usage and confirmed
    **{f"病{i}": {"常见症状": COMMON, "就诊科室": ["内科"]} for i in range(3)},
    "类风湿关节炎": {"常见症状": ["疲劳晨僵", "关节痛", "溃疡", "结节", "斑块或肿瘤", "患儿烦躁不安", "肩部酸痛"], "ICD10": ["M06"]},
    "烦躁症": {"常见症状": ["烦躁不安", "关节痛"]},
    "结节性痒疹": {"常见症状": ["结节", "瘙痒", "恶心"], "就诊科室": ["皮肤科"]},
    "皮炎": {"常见症状": ["瘙痒"]},
    "恶心与呕吐": {"常见症状": ["溃疡病", "肠梗阻", "恶心"]},
    "水肿": {"常见症状": ["乏力"], "ICD10": ["R60.9"]},
    "胸膜炎": {"常见症状": ["发热"], "ICD10": ["R09.1"]},
}


def test_a_bare_lesion_needs_the_skin_for_a_site() -> None:
    assert symptoms.unplaced_lesion("溃疡", skin=False) and symptoms.unplaced_lesion("结节", skin=False)
    assert not symptoms.unplaced_lesion("溃疡", skin=True) and not symptoms.unplaced_lesion("口腔溃疡", skin=False)
    assert symptoms.unplaced_lesion("痉挛", skin=True)  # no skin lesion
    assert symptoms.is_skin_disease({"就诊科室": ["皮肤性病科"]}) and symptoms.is_skin_disease({"ICD10": ["L20.9"]})
    assert not symptoms.is_skin_disease({"就诊科室": ["眼科"], "ICD10": ["H20.0"]})


def test_two_common_symptoms_run_together_are_split() -> None:
    vocabulary = Vocabulary(GRAPH)
    assert symptoms.split_glued("疲劳晨僵", vocabulary) == ["乏力", "晨僵"]  # in the KB's spelling
    assert symptoms.split_glued("头晕乏力", vocabulary) == ["头晕", "乏力"]
    assert symptoms.split_glued("关节痛", vocabulary) == ["关节痛"]  # named twice: a symptom of its own


def test_pages_about_a_symptom_are_no_diseases() -> None:
    vocabulary = Vocabulary(GRAPH)
    assert symptoms.symptom_page("恶心与呕吐", GRAPH["恶心与呕吐"], vocabulary)  # two symptoms joined
    assert symptoms.symptom_page("水肿", GRAPH["水肿"], vocabulary)  # coded in chapter R
    assert not symptoms.symptom_page("胸膜炎", GRAPH["胸膜炎"], vocabulary)  # coded R, but named as a disease
    assert not symptoms.symptom_page("类风湿关节炎", GRAPH["类风湿关节炎"], vocabulary)


def test_the_sufferer_is_no_part_of_a_symptom() -> None:
    assert canonical("患儿烦躁不安") == "烦躁不安" and canonical("小儿") == "小儿"


def test_confirmations_count_diseases_in_the_kbs_spelling() -> None:
    named = symptoms.confirmations(GRAPH, Vocabulary(GRAPH))
    assert named["烦躁不安"] == 2  # 患儿烦躁不安 is one naming of it
    assert named["恶心"] == 5 and named["肩部酸痛"] == 1


def test_the_builder_keys_only_confirmed_placed_single_symptoms() -> None:
    noise: Counter[str] = Counter()
    diseases = {d.name: d for d in build_cmekg_kb(GRAPH, noise=noise)}
    assert "恶心与呕吐" not in diseases and "水肿" not in diseases and "胸膜炎" in diseases
    # glued split, lesions and the joined phrase out, the sufferer dropped, 肩部酸痛 (one page's word) out
    assert diseases["类风湿关节炎"].values("primary_symptoms") == ["乏力", "晨僵", "关节痛", "烦躁不安"]
    assert diseases["结节性痒疹"].values("primary_symptoms") == ["瘙痒", "恶心"]  # 结节 restates the name
    assert noise["lesion without a site"] == 2 and noise["joined phrase"] == 1 and noise["one-off description"] == 1
    assert noise["subject: a symptom page"] == 2 and noise["split (glued findings)"] == 1


def test_a_babys_finding_needs_a_disease_of_children() -> None:
    assert symptoms.is_child_disease("小儿腹泻", {}) and symptoms.is_child_disease("肠套叠", {"多发群体": ["2岁以下婴幼儿"]})
    assert symptoms.is_child_disease("佝偻病", {"就诊科室": ["儿科"]}) and not symptoms.is_child_disease("缺铁性吞咽困难", {"多发群体": ["中年女性"]})
    assert symptoms.child_only("易烦躁哭闹", child=False) and not symptoms.child_only("易烦躁哭闹", child=True) and not symptoms.child_only("腹痛", child=False)
    graph = {name: {"常见症状": ["呕吐", "吃奶困难"]} for name in ("缺铁性贫血", "小儿食管异物", "新生儿肺炎")}
    kept = {d.name: d.values("primary_symptoms") for d in build_cmekg_kb(graph)}
    assert kept == {"缺铁性贫血": ["呕吐"], "小儿食管异物": ["呕吐", "吃奶困难"], "新生儿肺炎": ["呕吐", "吃奶困难"]}
