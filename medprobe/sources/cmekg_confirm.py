"""Chinese symptoms that a second, independent source confirms: the hand-curated English catalogue of common diseases.

The graph's symptom lists were made by linking terms in a page's text, and blind readers reject a keyed symptom
about one time in ten even after every check of the graph against itself (``cmekg_keys``): 腹泻 for 胆道蛔虫病,
心悸 for 病毒性肺炎 are on the pages, but no clinician calls them common. No check inside one source can tell a
common symptom from a mentioned one. A second source can: faker-healthcare-provider's catalogue (``kb_common``)
lists four to six textbook symptoms for each of 157 common diseases. Where a Chinese disease is one of them, a
symptom that both the graph and the catalogue name is one two sources agree on, and only such a symptom is keyed.

* The disease: one of the page's English names (英文名称, 英文别名, …, the KB's synonyms) equals a catalogue
  disease's name or synonym, compared as ``en_names.name_key`` (case and filler words aside: "Crohn's disease" = "crohn's disease"). An ICD-10
  code is no match: codes group different diseases (G25.8 holds both restless legs and stiff-person syndrome).
* The symptom: ``ZH_SPELLINGS`` gives, for each catalogue symptom, the Chinese spellings of the same finding in the
  KB's spelling (``cmekg_values.canonical``). A translation names the same finding, never a broader or narrower
  one: "Weakness" is 无力, not 乏力; "Blood in stool" is 便血, not 黑便; a catalogue symptom without a Chinese
  finding of the same scope ("Negative symptoms", "Gastrointestinal issues") has none.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from medprobe.sources.en_names import name_key
from medprobe.sources.kb import Disease

#: catalogue symptom -> the KB's Chinese spellings of the same finding
ZH_SPELLINGS: dict[str, tuple[str, ...]] = {
    "Abdominal bloating": ("腹胀",), "Bloating": ("腹胀",), "Abdominal swelling": ("腹胀", "腹部膨隆"),
    "Abdominal pain": ("腹痛",), "Anal pain": ("肛门痛", "肛门疼痛"), "Pain during bowel movements": ("排便痛", "便时疼痛"),
    "Back pain": ("背痛", "腰背痛"), "Flank pain": ("腰痛", "肾区痛"), "Pelvic pain": ("盆腔痛", "下腹痛"),
    "Chest pain": ("胸痛",), "Chest discomfort": ("胸部不适", "胸闷"), "Eye pain": ("眼痛",), "Ear pain": ("耳痛",),
    "Joint pain": ("关节痛",), "Bone pain": ("骨痛",), "Muscle aches": ("肌痛", "肌肉酸痛"), "Neck pain": ("颈痛", "颈部疼痛"),
    "Facial pain": ("面部疼痛", "面痛"), "Leg pain": ("下肢痛", "腿痛"), "Hand pain": ("手痛",), "Headache": ("头痛",),
    "Headaches": ("头痛",), "Sore throat": ("咽痛",), "Painful urination": ("尿痛",), "Painful intercourse": ("性交痛",),
    "Dysmenorrhea": ("痛经",), "Heartburn": ("烧心", "胃灼热"), "Burning sensation": ("烧灼感",),
    "Fatigue": ("乏力", "易疲劳", "疲劳", "疲乏", "易倦"), "Weakness": ("无力",), "Muscle weakness": ("肌无力", "肌肉无力"),
    "Fever": ("发热",), "Night sweats": ("盗汗",), "Sweating": ("出汗", "多汗"), "Heat intolerance": ("怕热",),
    "Weight loss": ("体重减轻", "消瘦", "体重下降"), "Unexplained weight loss": ("体重减轻", "消瘦", "体重下降"),
    "Weight gain": ("体重增加",), "Loss of appetite": ("食欲减退", "食欲不振", "厌食"), "Increased thirst": ("口渴", "多饮"),
    "Extreme hunger": ("多食",), "Increased appetite": ("多食",), "Frequent urination": ("尿频",), "Urinary frequency": ("尿频",),
    "Urinary urgency": ("尿急",), "Nocturia": ("夜尿多", "夜尿增多"), "Blood in urine": ("血尿",), "Hematuria": ("血尿",),
    "Incontinence": ("尿失禁",), "Decreased urine output": ("少尿",), "Proteinuria": ("蛋白尿",),
    "Nausea": ("恶心",), "Vomiting": ("呕吐",), "Diarrhea": ("腹泻",), "Bloody diarrhea": ("血便", "脓血便"),
    "Constipation": ("便秘",), "Blood in stool": ("便血",), "Rectal bleeding": ("便血",), "Regurgitation": ("反流", "反胃"),
    "Difficulty swallowing": ("吞咽困难",), "Jaundice": ("黄疸",), "Intestinal gas": ("排气增多",),
    "Cough": ("咳嗽",), "Persistent cough": ("咳嗽",), "Chronic cough": ("咳嗽",), "Dry cough": ("干咳",),
    "Coughing blood": ("咯血",), "Hemoptysis": ("咯血",), "Shortness of breath": ("呼吸困难", "气短", "气促", "气急"),
    "Difficulty breathing": ("呼吸困难",), "Wheezing": ("喘息", "哮鸣", "喘鸣"), "Stridor": ("喘鸣",),
    "Cyanosis": ("发绀",), "Decreased breath sounds": ("呼吸音减弱",),
    "Nasal congestion": ("鼻塞",), "Runny nose": ("流涕", "流鼻涕"), "Sneezing": ("喷嚏",), "Postnasal drip": ("鼻后滴漏",),
    "Nosebleeds": ("鼻出血", "鼻衄"), "Loss of smell": ("嗅觉减退", "嗅觉丧失"), "Hoarseness": ("声音嘶哑", "声嘶"),
    "Swollen lymph nodes": ("淋巴结肿大",), "Palpitations": ("心悸",), "Rapid heart rate": ("心动过速",),
    "Rapid pulse": ("脉速", "心动过速"), "Irregular heartbeat": ("心律不齐",), "Syncope": ("晕厥",),
    "Hypotension": ("低血压", "血压下降"), "Low blood pressure": ("低血压", "血压下降"), "High blood pressure": ("高血压",),
    "Hypertension": ("高血压",), "Edema": ("水肿",), "Swelling in legs": ("下肢水肿",), "Swelling": ("肿胀", "水肿"),
    "Dizziness": ("头晕",), "Lightheadedness": ("头晕",), "Vertigo": ("眩晕",), "Tinnitus": ("耳鸣",),
    "Hearing loss": ("听力下降", "耳聋", "听力减退"), "Ear fullness": ("耳闷", "耳闷胀感"), "Balance issues": ("平衡障碍",),
    "Blurred vision": ("视物模糊", "视力模糊"), "Vision loss": ("视力下降", "视力减退"),
    "Halos around lights": ("虹视",), "Red eyes": ("眼红", "结膜充血"), "Itchy eyes": ("眼痒",), "Dry eyes": ("眼干",),
    "Double vision": ("复视",), "Light sensitivity": ("畏光",), "Floaters": ("飞蚊症",),
    "Itching": ("瘙痒",), "Rash": ("皮疹",), "Skin rash": ("皮疹",), "Redness": ("红斑", "发红"), "Red patches": ("红斑",),
    "Facial redness": ("面部潮红", "面部红斑"), "Pimples": ("丘疹",), "Dry skin": ("皮肤干燥",), "Skin scaling": ("脱屑", "鳞屑"),
    "Skin thickening": ("皮肤增厚",), "Thickened skin": ("皮肤增厚",), "Visible blood vessels": ("毛细血管扩张",),
    "Hair loss": ("脱发",), "Pale skin": ("苍白", "皮肤苍白", "面色苍白"), "Bruising": ("瘀斑", "淤斑"),
    "Easy bruising": ("瘀斑", "淤斑"), "Petechiae": ("皮肤出血点", "出血点"), "Bleeding gums": ("牙龈出血",),
    "Raynaud's phenomenon": ("雷诺现象",), "Mouth ulcers": ("口腔溃疡",), "Dry mouth": ("口干",),
    "Heavy periods": ("月经过多",), "Heavy menstrual bleeding": ("月经过多",), "Irregular periods": ("月经不调",),
    "Infertility": ("不孕", "不孕症"), "Hemarthrosis": ("关节积血",), "Prolonged bleeding": ("出血不止",),
    "Numbness": ("麻木",), "Tingling": ("刺痛", "针刺感"), "Tremor": ("震颤",), "Seizures": ("抽搐", "癫痫发作"),
    "Convulsions": ("抽搐", "惊厥"), "Loss of consciousness": ("意识丧失",), "Confusion": ("意识模糊",),
    "Difficulty speaking": ("言语困难", "失语"), "Hallucinations": ("幻觉",), "Delusions": ("妄想",),
    "Anxiety": ("焦虑",), "Severe anxiety": ("焦虑",), "Depression": ("抑郁",), "Irritability": ("易激惹",),
    "Insomnia": ("失眠",), "Nightmares": ("噩梦",), "Memory loss": ("记忆力减退", "健忘"), "Forgetfulness": ("健忘",),
    "Pulsatile mass": ("搏动性肿块",), "Change in bowel habits": ("排便习惯改变",),
}


@cache
def _catalogue() -> dict[frozenset[str], tuple[str, ...]]:
    """Each catalogue disease's name and synonyms (as ``name_key``) -> its symptoms."""
    from medprobe.sources.kb_common import common_diseases

    return {name_key(name): tuple(d.values("primary_symptoms")) for d in common_diseases() for name in (d.name, *d.synonyms)}


def catalogue_symptoms(names: Iterable[str]) -> tuple[str, ...] | None:
    """The catalogue's symptoms of the disease one of ``names`` names, or None where the catalogue has no such disease."""
    catalogue = _catalogue()
    for name in names:
        symptoms = catalogue.get(name_key(name))
        if symptoms is not None:
            return symptoms
    return None


def confirmed_symptoms(disease: Disease, values: Iterable[str]) -> list[str] | None:
    """The ``values`` (the KB's symptoms of ``disease``) that the catalogue also names, one per catalogue symptom
    (呼吸困难 or 气短 for "Shortness of breath", never both: two options that are one finding make a question
    ambiguous), in the catalogue's order; None where the catalogue does not know the disease."""
    symptoms = catalogue_symptoms((disease.name, *disease.synonyms))
    if symptoms is None:
        return None
    kept: list[str] = []
    values = set(values)
    for symptom in symptoms:
        spellings = ZH_SPELLINGS.get(symptom, ())
        first = next((z for z in spellings if z in values), None)
        if first is not None and first not in kept and not any(k in spellings for k in kept):
            kept.append(first)
    return kept


@cache
def _known_names() -> frozenset[str]:
    from medprobe.sources.kb_cmekg import disease_synonyms, load_cmekg_graph

    graph = load_cmekg_graph()
    return frozenset(name for name, po in graph.items() if catalogue_symptoms((name, *disease_synonyms(name, po))) is not None)


def catalogue_knows(disease_id: str) -> bool:
    """Whether the built-in Chinese KB's disease ``CMeKG:<name>`` is one of the catalogue's (its keys are confirmed)."""
    return disease_id.removeprefix("CMeKG:") in _known_names()
