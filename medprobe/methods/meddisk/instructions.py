"""What medprobe asks for each MedDisK aspect, in English and Chinese (our wording).

The structure follows the paper's Appendix C (Tables 9-10): every instruction says what the aspect
means; list aspects ask for as many items as the model can give, separated by semicolons;
examination aspects ask for "test (abnormal result)"; the severity level gives the four-level scale
and asks for the number. Only the aspects for which the paper offers it may be answered "None" (无):
a disease always has symptoms, sites, body systems, treatment principles and examination signs, so
for those "None" is not offered. The answer sentence — "The <aspect> of <disease> include: …" /
"<disease>的<aspect>包括：…", with the verb agreeing with the aspect — is the pattern that the solved
examples show and that post-processing looks for (Appendix D).
"""

from __future__ import annotations

import hashlib

from medprobe.aspects import ASPECTS, AspectType, get_aspect

_AGES_EN = "perinatal, neonatal, infant, toddler, child, adolescent, adult, young adult, middle-aged, elderly"
_AGES_ZH = "围生期、新生儿、婴儿、幼儿、儿童、少年、成人、青年、中年、老年"

_EN: dict[str, str] = {
    "patient_population": "List as many groups of people commonly affected by {disease} as you can, such as age bands with a high incidence, people with a particular medical history, or one sex.",
    "prevalence_ages": f"List as many age groups in which {{disease}} is common as you can, choosing from: {_AGES_EN}.",
    "onset_ages": f"List as many age groups to which {{disease}} is confined as you can, i.e. it starts in these groups and in no others, choosing from: {_AGES_EN}.",
    "primary_symptoms": "List as many primary symptoms of {disease} as you can: what patients feel, and the objective changes the disease causes.",
    "associated_symptoms": "List as many associated symptoms of {disease} as you can: the further complaints that come with its main symptoms, such as effects on organs involved secondarily.",
    "differential_symptoms": "List as many differential symptoms of {disease} as you can: the characteristic symptoms, mainly of the organ it affects, that set it apart from diseases with a similar presentation.",
    "physical_examination": "Give the findings on physical examination that matter for diagnosing {disease}, naming each examination and writing its finding in parentheses, e.g. lung auscultation (crackles); abdominal palpation (tenderness).",
    "anatomical_sites": "List as many anatomical sites of {disease} as you can: the body sites it involves most directly.",
    "affected_sites": "List as many sites affected by {disease} as you can: every part of the body it affects.",
    "affected_body_systems": "List as many body systems affected by {disease} as you can.",
    "treatment_principles": "List as many treatment principles for {disease} as you can, each as a specific therapeutic aim such as pain relief, liver protection or infection control.",
    "secondary_diseases": "List as many secondary diseases of {disease} as you can: diseases it directly causes and whose course follows its own (not sequelae or unrelated complications).",
    "medications": "List as many medications used to treat {disease} as you can, by their specific drug names.",
    "surgical_procedures": "List as many surgical procedures used to treat {disease} as you can.",
    "laboratory_examinations": "Give the abnormal laboratory results of {disease}, each as the test followed by its abnormal result in parentheses, e.g. complete blood count (raised white cell count); there may be several.",
    "auxiliary_examinations": "Give the abnormal results of {disease} on examinations other than laboratory tests (imaging, ECG, endoscopy, rating scales), each as the test followed by its abnormal result in parentheses, e.g. chest X-ray (consolidation); there may be several.",
    "departments": "List as many hospital departments that treat {disease} as you can.",
    "severity_level": (
        "Rate how critical {disease} is on this scale: 1 = life-threatening now or imminently, needs immediate intervention; "
        "2 = critical or rapidly worsening, delay may threaten life or organs, or prompt treatment greatly changes the outcome; "
        "3 = potentially life-threatening if not treated soon; 4 = potentially serious, chronic or mild. Answer with the number only."
    ),
}

_ZH: dict[str, str] = {
    "patient_population": "请尽量多地列出{disease}的常见患病人群，例如高发年龄段、有某种病史的人群或某一性别。",
    "prevalence_ages": f"请尽量多地列出{{disease}}的好发年龄段，从以下选择：{_AGES_ZH}。",
    "onset_ages": f"请尽量多地列出{{disease}}的特发年龄段，即该病只在这些年龄段发病、在其他年龄段不发病。从以下选择：{_AGES_ZH}。",
    "primary_symptoms": "请尽量多地列出{disease}的常见症状，即患者主观感到的不适和疾病引起的客观病理改变。",
    "associated_symptoms": "请尽量多地列出{disease}的伴随症状，即主要症状之外随之出现的不适，例如继发累及其他器官引起的表现。",
    "differential_symptoms": "请尽量多地列出{disease}的鉴别性症状，即主要由受累器官引起、能把本病与表现相似的疾病区分开的特征性症状。",
    "physical_examination": "请写出对诊断{disease}有意义的体格检查发现，写出检查项目并把发现写在括号里，例如：肺部听诊（湿啰音）；腹部触诊（压痛）。",
    "anatomical_sites": "请尽量多地列出{disease}的解剖部位，即该病最直接累及的身体部位。",
    "affected_sites": "请尽量多地列出{disease}的影响部位，即该病影响到的全部身体部位。",
    "affected_body_systems": "请尽量多地列出{disease}累及的人体系统。",
    "treatment_principles": "请尽量多地列出{disease}的治疗原则，尽量具体到治疗作用，例如止痛、护肝、抗感染。",
    "secondary_diseases": "请尽量多地列出{disease}的继发疾病，即由该病直接引起、病程随原发病变化的疾病（不要写后遗症或无关的并发症）。",
    "medications": "请尽量多地列出治疗{disease}的常用药物，写具体的药物名称。",
    "surgical_procedures": "请尽量多地列出治疗{disease}的常见手术名称。",
    "laboratory_examinations": "请写出{disease}的实验室检查异常结果，每项写成“检查项目（异常结果）”，例如：血常规（白细胞升高），可能有多项。",
    "auxiliary_examinations": "请写出{disease}在实验室以外检查（影像、心电图、内镜、量表等）中的异常结果，每项写成“检查项目（异常结果）”，例如：胸片（片状阴影），可能有多项。",
    "departments": "请尽量多地列出诊治{disease}的医院科室。",
    "severity_level": (
        "请按以下标准评估{disease}的危重等级：1级＝正在或即将危及生命，需要立即积极干预；"
        "2级＝病情危重或迅速恶化，延误治疗可能危及生命或导致器官衰竭，或及时治疗可显著改善预后；"
        "3级＝存在潜在生命威胁，短期内不干预可能进展为危及生命；4级＝存在潜在严重性、慢性或症状很轻。只输出等级数字。"
    ),
}

# The aspects the paper lets the model answer "None" (Tables 9-10): some diseases truly have none.
NONE_ALLOWED: frozenset[str] = frozenset({
    "patient_population", "prevalence_ages", "onset_ages", "associated_symptoms", "differential_symptoms",
    "secondary_diseases", "medications", "surgical_procedures", "laboratory_examinations", "auxiliary_examinations",
    "departments",
})
_SEPARATE = {"en": " Separate the items with semicolons (;).", "zh": "请用分号（；）分隔各项。"}
_NONE = {"en": ' If there are none, or none is clearly established, answer only "None".', "zh": "若没有或不明确，只回答“无”。"}

_TEXTS = {"en": _EN, "zh": _ZH}
# Verbs of the answer sentence and the question: singular aspects take "includes" / "is".
_VERB = {"patient_population": ("includes", "is"), "severity_level": ("is", "is")}
_VERB_ZH = {"severity_level": "为"}
ANSWER_PATTERN = {"en": "The {aspect} of {disease} {verb}: ", "zh": "{disease}的{aspect}{verb}："}
QUESTION = {"en": "Question: What {verb} the {aspect} of {disease}?", "zh": "问题：{disease}的{aspect}是什么？"}
EXAMPLES = {"en": "Solved examples:", "zh": "示例："}
SEPARATOR = {"en": "; ", "zh": "；"}

assert set(_EN) == set(_ZH) == {a.key for a in ASPECTS}


def instruction(aspect: str, disease: str, language: str) -> str:
    """The aspect's instruction, its list format (enumerated aspects) and, where the paper offers it, "None"."""
    text = _TEXTS[language][aspect].format(disease=disease)
    if get_aspect(aspect).type is AspectType.ENUMERATED:
        text += _SEPARATE[language]
    return text + (_NONE[language] if aspect in NONE_ALLOWED else "")


def answer_prefix(aspect: str, disease: str, language: str) -> str:
    verb = _VERB_ZH.get(aspect, "包括") if language == "zh" else _VERB.get(aspect, ("include", "are"))[0]
    return ANSWER_PATTERN[language].format(aspect=get_aspect(aspect).name(language), disease=disease, verb=verb)


def question(aspect: str, disease: str, language: str) -> str:
    verb = _VERB.get(aspect, ("include", "are"))[1]
    return QUESTION[language].format(aspect=get_aspect(aspect).name(language), disease=disease, verb=verb)


def template_hash() -> str:
    blob = repr((sorted(_EN.items()), sorted(_ZH.items()), sorted(NONE_ALLOWED), _SEPARATE, _NONE, _VERB, _VERB_ZH, ANSWER_PATTERN, QUESTION))
    return hashlib.sha256(blob.encode()).hexdigest()[:12]
