"""What medprobe asks for each MedDisK aspect, in English and Chinese (our wording).

Following the paper's Appendix C, every instruction says what the aspect means, how to write the
answer (entities separated by semicolons; "test (abnormal result)" for examinations; a single
number for the severity level) and to answer "None" (无) when nothing is known. The answer
sentence — "The <aspect> of <disease> include: …" / "<disease>的<aspect>包括：…" — is the pattern
that the solved examples show and that post-processing looks for (Appendix D).
"""

from __future__ import annotations

import hashlib

from medprobe.aspects import ASPECTS, AspectType, get_aspect

_EN: dict[str, str] = {
    "patient_population": "List the groups of people most often affected by {disease}, such as age bands, people with a particular history, or one sex.",
    "prevalence_ages": "List the age groups in which {disease} is common. Use these groups: perinatal, neonatal, infant, toddler, child, adolescent, adult, young adult, middle-aged, elderly.",
    "onset_ages": "List the age groups to which {disease} is confined, i.e. it starts in these groups and not in others. Use these groups: perinatal, neonatal, infant, toddler, child, adolescent, adult, young adult, middle-aged, elderly.",
    "primary_symptoms": "List the main symptoms of {disease}: what patients feel, and the objective changes the disease causes.",
    "associated_symptoms": "List the symptoms that accompany the main symptoms of {disease}, such as effects on organs that are involved secondarily.",
    "differential_symptoms": "List the symptoms that set {disease} apart from other diseases with similar presentations.",
    "physical_examination": "Describe the findings on physical examination that matter for diagnosing {disease}, naming each examination and its finding, e.g. lung auscultation (crackles).",
    "anatomical_sites": "List the body sites that {disease} involves most directly.",
    "affected_sites": "List all body sites that {disease} affects.",
    "affected_body_systems": "List the body systems that {disease} damages or affects.",
    "treatment_principles": "List the principles for treating {disease}, as specific therapeutic aims such as pain relief, liver protection or infection control.",
    "secondary_diseases": "List diseases directly caused by {disease} whose course follows it (not sequelae or unrelated complications).",
    "medications": "List specific drugs used to treat {disease}.",
    "surgical_procedures": "List operations used to treat {disease}.",
    "laboratory_examinations": "Describe the abnormal laboratory results typical of {disease}, each as the test followed by its abnormal result in parentheses, e.g. complete blood count (raised white cell count).",
    "auxiliary_examinations": "Describe the abnormal results of non-laboratory examinations (imaging, ECG, endoscopy, rating scales) typical of {disease}, each as the test followed by its abnormal result in parentheses, e.g. chest X-ray (consolidation).",
    "departments": "List the hospital departments that treat {disease}.",
    "severity_level": (
        "Rate how critical {disease} is on this scale: 1 = life-threatening now or imminently, needs immediate intervention; "
        "2 = critical or rapidly worsening, delay may threaten life or organs, or prompt treatment greatly changes the outcome; "
        "3 = potentially life-threatening if not treated soon; 4 = potentially serious, chronic or mild. Answer with the number only."
    ),
}

_ZH: dict[str, str] = {
    "patient_population": "请列出{disease}最常见的患病人群，例如高发年龄段、有某种病史的人群或某一性别。",
    "prevalence_ages": "请列出{disease}的好发年龄段，从以下选择：围生期、新生儿、婴儿、幼儿、儿童、少年、成人、青年、中年、老年。",
    "onset_ages": "请列出{disease}的特发年龄段，即该病只在这些年龄段发病、在其他年龄段不发病。从以下选择：围生期、新生儿、婴儿、幼儿、儿童、少年、成人、青年、中年、老年。",
    "primary_symptoms": "请列出{disease}的主要症状，即患者主观感到的不适和疾病引起的客观病理改变。",
    "associated_symptoms": "请列出{disease}在主要症状之外伴随出现的症状，例如继发累及其他器官引起的表现。",
    "differential_symptoms": "请列出能把{disease}与表现相似的其他疾病区分开的症状。",
    "physical_examination": "请描述对诊断{disease}有意义的体格检查发现，写出检查项目及其发现，例如：肺部听诊（湿啰音）。",
    "anatomical_sites": "请列出{disease}最直接累及的解剖部位。",
    "affected_sites": "请列出{disease}影响到的全部身体部位。",
    "affected_body_systems": "请列出{disease}累及的人体系统。",
    "treatment_principles": "请列出{disease}的治疗原则，尽量具体到治疗作用，例如止痛、护肝、抗感染。",
    "secondary_diseases": "请列出由{disease}直接引起、病程随原发病变化的继发疾病（不要写后遗症或无关的并发症）。",
    "medications": "请列出治疗{disease}常用的具体药物名称。",
    "surgical_procedures": "请列出治疗{disease}的常见手术名称。",
    "laboratory_examinations": "请描述{disease}典型的实验室检查异常结果，每项写成“检查项目（异常结果）”，例如：血常规（白细胞升高）。",
    "auxiliary_examinations": "请描述{disease}在实验室以外检查（影像、心电图、内镜、量表等）中的典型异常结果，每项写成“检查项目（异常结果）”，例如：胸片（片状阴影）。",
    "departments": "请列出诊治{disease}的医院科室。",
    "severity_level": (
        "请按以下标准评估{disease}的危重等级：1级＝正在或即将危及生命，需要立即积极干预；"
        "2级＝病情危重或迅速恶化，延误治疗可能危及生命或导致器官衰竭，或及时治疗可显著改善预后；"
        "3级＝存在潜在生命威胁，短期内不干预可能进展为危及生命；4级＝存在潜在严重性、慢性或症状很轻。只输出等级数字。"
    ),
}

_FORMAT = {
    ("en", AspectType.ENUMERATED): ' Separate the items with semicolons (;). If nothing is known, answer only "None".',
    ("en", AspectType.DECLARATIVE): ' If there is no such finding, answer only "None".',
    ("en", AspectType.NUMERIC): "",
    ("zh", AspectType.ENUMERATED): "请用分号（；）分隔各项。若不明确，只回答“无”。",
    ("zh", AspectType.DECLARATIVE): "若没有此类结果，只回答“无”。",
    ("zh", AspectType.NUMERIC): "",
}

_TEXTS = {"en": _EN, "zh": _ZH}
ANSWER_PATTERN = {"en": "The {aspect} of {disease} include: ", "zh": "{disease}的{aspect}包括："}
QUESTION = {"en": "Question: What are the {aspect} of {disease}?", "zh": "问题：{disease}的{aspect}是什么？"}
EXAMPLES = {"en": "Solved examples:", "zh": "示例："}
NONE_WORDS = {"en": "None", "zh": "无"}
SEPARATOR = {"en": "; ", "zh": "；"}

assert set(_EN) == set(_ZH) == {a.key for a in ASPECTS}


def instruction(aspect: str, disease: str, language: str) -> str:
    kind = get_aspect(aspect).type
    return _TEXTS[language][aspect].format(disease=disease) + _FORMAT[(language, kind)]


def answer_prefix(aspect: str, disease: str, language: str) -> str:
    return ANSWER_PATTERN[language].format(aspect=get_aspect(aspect).name(language), disease=disease)


def question(aspect: str, disease: str, language: str) -> str:
    return QUESTION[language].format(aspect=get_aspect(aspect).name(language), disease=disease)


def template_hash() -> str:
    blob = repr((sorted(_EN.items()), sorted(_ZH.items()), sorted(_FORMAT.items()), ANSWER_PATTERN, QUESTION))
    return hashlib.sha256(blob.encode()).hexdigest()[:12]
