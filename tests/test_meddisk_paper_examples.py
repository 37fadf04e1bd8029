"""MedDisKEval post-processing on the paper's worked examples (paper 000, Table 16: the model's reply,
the post-processed reply, its tier), in English as printed and in a Chinese rendering of each.

The paper's post-processing used a medical NER model; medprobe's is rule-based. Each example states
the text medprobe scores and the BLEU-1 and ROUGE-1 tiers it gets against the ground truth (paper
Table 12 thresholds). Where either differs from the paper, ``differs`` says why (the MedDisKEval page,
docs/methods/meddisk.md, shows the same table with the cosine column).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from medprobe.aspects import get_aspect
from medprobe.methods.meddisk.grading import Thresholds, tier
from medprobe.methods.meddisk.postprocess import LEAD_IN, postprocess
from medprobe.metrics.similarity import score_pairs


@dataclass(frozen=True)
class Example:
    paper_tier: str
    aspect: str
    disease: str
    truth: tuple[str, ...]
    reply: str
    #: what medprobe scores: entities (enumerated aspects) or the text (declarative); () for nothing
    scored: tuple[str, ...] | str
    rule: str
    bleu1: str
    rouge1: str
    differs: str = ""


EN = [
    Example("CW", "patient_population", "rheumatoid arthritis of the hand interphalangeal joints",
            ("higher prevalence in females", "middle-age", "elderly"), "Ok, I see.", (), "unparsed", "CW", "CW"),
    Example("CW", "anatomical_sites", "wart of brass players", ("skin",),
            "The anatomical site of wart of brass players includes the bone marrow.", ("bone marrow",), "answer pattern", "CW", "CW"),
    Example("CW", "departments", "temporal lobe abscess", ("urology", "neurosurgery"),
            "Departments involved in temporal lobe abscess include: None", (), "none", "CW", "CW"),
    Example("PC", "affected_sites", "tracheobronchial amyloidosis", ("trachea", "bronchi", "lung"),
            "The affected areas of amyloidosis in the bronchi include the lungs and chest.", ("lungs", "chest"), LEAD_IN, "CW", "CW",
            differs="the paper's NER gives 'lung' for 'lungs'; no word is then shared with the truth"),
    Example("PC", "treatment_principles", "fascial necrosis",
            ("anti-infection", "antibacterial", "anti-swelling", "analgesic", "medication"),
            "The treatment principles for fascial necrosis include liver protection, gastric protection, antidiarrheal, and pain relief.",
            ("liver protection", "gastric protection", "antidiarrheal", "pain relief"), "answer pattern", "CW", "CW",
            differs="no word is shared with the truth: the paper's tier can only come from the M3E cosine"),
    Example("PC", "laboratory_examinations", "punctate urethral opening",
            ("urinalysis (elevated white blood cell count, visible hematuria upon microscopic examination)",),
            "Hello, based on your description, typically, abnormal laboratory test results for a punctate urethral opening include: "
            "Complete Blood Count (CBC): Elevated white blood cell count and neutrophil count, with a bone marrow examination "
            "showing an increase in immature granulocyte count.",
            "Complete Blood Count (CBC): Elevated white blood cell count and neutrophil count, with a bone marrow examination "
            "showing an increase in immature granulocyte count.", LEAD_IN, "PC", "PC"),
    Example("BC", "affected_body_systems", "esophageal abscess", ("digestive system",), "Digestive system.",
            ("Digestive system",), "whole reply", "BC", "BC"),
    Example("BC", "auxiliary_examinations", "humerus greater tuberosity fracture",
            ("X-ray Examination (Humerus Greater Tuberosity Fracture).",),
            "X-ray Examination (Visible fracture line in the humerus greater tuberosity area on the film).",
            "X-ray Examination (Visible fracture line in the humerus greater tuberosity area on the film).", "whole reply", "BC", "BC"),
    Example("BC", "primary_symptoms", "interferential atrioventricular dissociation",
            ("fatigue", "weakness", "dizziness", "syncope", "angina", "palpitations", "chest tightness", "shortness of breath"),
            "Common symptoms of interferential atrioventricular dissociation include palpitations; tachycardia or irregular heart "
            "rhythm; dizziness; fatigue; chest tightness; shortness of breath; syncope; chest pain; fatigue; weakness.",
            ("palpitations", "tachycardia", "irregular heart rhythm", "dizziness", "fatigue", "chest tightness",
             "shortness of breath", "syncope", "chest pain", "weakness"), "answer pattern", "BC", "PC",
            differs="the paper's NER drops 'tachycardia' and keeps 'fatigue' twice; ROUGE-1 0.74 falls just under 0.75"),
]

ZH = [
    Example("CW", "patient_population", "手指间关节类风湿关节炎", ("女性多见", "中年", "老年"), "好的，我明白了。", (), "unparsed", "CW", "CW"),
    Example("CW", "anatomical_sites", "铜管乐器演奏者疣", ("皮肤",), "铜管乐器演奏者疣的解剖部位包括骨髓。", ("骨髓",), "answer pattern", "CW", "CW"),
    Example("CW", "departments", "颞叶脓肿", ("泌尿外科", "神经外科"), "颞叶脓肿涉及的科室包括：无", (), "none", "CW", "CW"),
    Example("PC", "affected_sites", "气管支气管淀粉样变", ("气管", "支气管", "肺部"), "支气管淀粉样变的影响区域包括肺部和胸部。",
            ("肺部", "胸部"), LEAD_IN, "BC", "PC"),
    Example("PC", "treatment_principles", "筋膜坏死", ("抗感染", "抗菌", "消肿", "止痛", "药物治疗"), "筋膜坏死的治疗原则包括保肝、护胃、止泻和止痛。",
            ("保肝", "护胃", "止泻", "止痛"), "answer pattern", "PC", "PC"),
    Example("PC", "laboratory_examinations", "尿道口点状", ("尿常规（白细胞计数升高，镜下可见血尿）",),
            "您好，根据您的描述，一般来说，尿道口点状的实验室检查异常结果包括：血常规：白细胞计数及中性粒细胞计数升高，骨髓检查显示幼稚粒细胞增多。",
            "血常规：白细胞计数及中性粒细胞计数升高，骨髓检查显示幼稚粒细胞增多。", "answer pattern", "PC", "PC"),
    Example("BC", "affected_body_systems", "食管脓肿", ("消化系统",), "消化系统。", ("消化系统",), "whole reply", "BC", "BC"),
    Example("BC", "auxiliary_examinations", "肱骨大结节骨折", ("X线检查（肱骨大结节骨折）",), "X线检查（片上可见肱骨大结节区骨折线）。",
            "X线检查（片上可见肱骨大结节区骨折线）。", "whole reply", "BC", "BC"),
    Example("BC", "primary_symptoms", "干扰性房室脱节", ("乏力", "虚弱", "头晕", "晕厥", "心绞痛", "心悸", "胸闷", "气短"),
            "干扰性房室脱节的常见症状包括心悸；心动过速或心律不齐；头晕；乏力；胸闷；气短；晕厥；胸痛；乏力；虚弱。",
            ("心悸", "心动过速", "心律不齐", "头晕", "乏力", "胸闷", "气短", "晕厥", "胸痛", "虚弱"), "answer pattern", "BC", "BC"),
]


def _tiers(example: Example, language: str) -> tuple[str, str]:
    """BLEU-1 and ROUGE-1 tiers of the reply as scoring computes them (reference: entities joined by spaces)."""
    answer = postprocess(example.reply, example.aspect, example.disease, language)
    if not answer.text:
        return "CW", "CW"
    (bleu,), (rouge,) = score_pairs([answer.text], [" ".join(example.truth)], language)
    kind = get_aspect(example.aspect).type
    thresholds = Thresholds.default()
    return tier(float(bleu), "bleu1", kind, thresholds), tier(float(rouge), "rouge1", kind, thresholds)


CASES = [("en", e) for e in EN] + [("zh", e) for e in ZH]


@pytest.mark.parametrize(("language", "example"), CASES, ids=[f"{lang}-{e.aspect}" for lang, e in CASES])
def test_table_16_post_processing(language: str, example: Example) -> None:
    answer = postprocess(example.reply, example.aspect, example.disease, language)
    scored = answer.entities if isinstance(example.scored, tuple) else answer.text
    assert (scored, answer.rule) == (example.scored, example.rule)


@pytest.mark.parametrize(("language", "example"), CASES, ids=[f"{lang}-{e.aspect}" for lang, e in CASES])
def test_table_16_tiers(language: str, example: Example) -> None:
    assert _tiers(example, language) == (example.bleu1, example.rouge1)
    agrees = example.paper_tier in (example.bleu1, example.rouge1)
    assert agrees or example.differs, "a tier that disagrees with the paper's says why"


def test_table_16_agreement_with_the_paper() -> None:
    """English: the paper's tier from BLEU-1 or ROUGE-1 in 7 of 9 examples; Chinese: 9 of 9."""
    assert sum(e.paper_tier in (e.bleu1, e.rouge1) for e in EN) == 7
    assert sum(e.paper_tier in (e.bleu1, e.rouge1) for e in ZH) == 9


@pytest.mark.parametrize(
    ("reply", "aspect", "disease", "language", "scored", "rule"),
    [
        # a first sentence that names neither the aspect nor the disease is no lead-in: kept whole
        ("Complete Blood Count (CBC): raised white cells.", "laboratory_examinations", "gout", "en",
         "Complete Blood Count (CBC): raised white cells.", "whole reply"),
        ("Treatments include rest and ice.", "departments", "gout", "en", ("Treatments include rest", "ice"), "whole reply"),
        ("通常包括：休息、冰敷", "departments", "痛风", "zh", ("通常包括：休息", "冰敷"), "whole reply"),
        # acknowledgements are dropped only as words of their own
        ("Okra allergy; rash", "primary_symptoms", "gout", "en", ("Okra allergy", "rash"), "whole reply"),
        ("好发于中年男性", "patient_population", "痛风", "zh", ("好发于中年男性",), "whole reply"),
        ("Sure. Fever; cough", "primary_symptoms", "flu", "en", ("Fever", "cough"), "whole reply"),
        # an article opens an entity only before a word
        ("The main symptoms of flu are: a fever, the cough", "primary_symptoms", "flu", "en", ("fever", "cough"), "answer pattern"),
    ],
)
def test_lead_ins_and_acknowledgements_only_where_they_are(
    reply: str, aspect: str, disease: str, language: str, scored: tuple[str, ...] | str, rule: str
) -> None:
    answer = postprocess(reply, aspect, disease, language)
    assert (answer.entities if isinstance(scored, tuple) else answer.text, answer.rule) == (scored, rule)
