"""The last MCQ rules, which need our question: a Chinese stem completed by an option's text, and one option named
alone by its text in a reply that writes no letter."""

from __future__ import annotations

import pytest

from medprobe.parsing.answers import read_strict
from medprobe.parsing.question_rules import asked_word
from medprobe.parsing.reply_text import stem_of
from medprobe.records import AnswerFormat
from testing.mcq import option_format, question
from testing.mcq import statement_question as _statement

LUNG = {"A": "Small cell carcinoma", "B": "Adenocarcinoma", "C": "Large cell carcinoma", "D": "Squamous cell carcinoma", "E": "Carcinoid tumor"}
SPUTUM = {"A": "铁锈色痰", "B": "砖红色胶冻样痰", "C": "黄绿色脓痰", "D": "粉红色泡沫痰", "E": "白色黏痰"}
SITE = {"A": "脑叶", "B": "基底节区", "C": "丘脑", "D": "脑桥", "E": "小脑"}
ULCER = {"A": "上消化道出血", "B": "穿孔", "C": "幽门梗阻", "D": "癌变", "E": "贫血"}


def _read(reply: str, texts: dict[str, str], stem: str | None) -> object:
    return read_strict(reply, option_format(texts), None if stem is None else question(stem, texts)).value


def _allowed(expected: object) -> tuple:
    """The readings a case allows: one, or (a tuple) any of a few ("C" or unread, never another letter)."""
    return expected if isinstance(expected, tuple) else (expected,)


EN_STEM = "A 64-year-old smoker has a central cavitating mass and hypercalcemia. Which type of lung cancer is most likely?"
EXCEPT_STEM = "Each of the following is a type of non-small cell lung cancer EXCEPT:"


@pytest.mark.parametrize(("reply", "stem", "expected"), [
    ("Squamous cell carcinoma of the lung.", EN_STEM, "D"),
    ("Squamous cell carcinoma of the lung.", None, None),  # without the question the rule does not run
    ("Squamous cell carcinoma, because of the cavitation and the PTHrP.", EN_STEM, "D"),
    ("Squamous cell carcinoma or a metastasis.", EN_STEM, None),
    ("It is not squamous cell carcinoma.", EN_STEM, None),
    ("Lung cancers include squamous cell carcinoma, which is central.", EN_STEM, None),
    ("Maybe squamous cell carcinoma.", EN_STEM, None),
    ("The central mass fits. Squamous cell carcinoma is my answer.", EN_STEM, None),  # not in the first sentence
    ("Squamous cell carcinoma of the lung.", EXCEPT_STEM, None),
    ("Squamous cell carcinoma of the lung, unlike A.", EN_STEM, None),  # a reply writing a letter is for the letter rules
    ("Please consult a doctor about squamous cell carcinoma.", EN_STEM, None),
])
def test_one_option_named_alone_in_english(reply: str, stem: str | None, expected: object) -> None:
    assert _read(reply, LUNG, stem) == expected


@pytest.mark.parametrize(("reply", "texts", "stem", "expected"), [
    ("消化性溃疡最常见的并发症是上消化道出血。出血多来自溃疡底部的血管。", ULCER, "消化性溃疡最常见的并发症是", "A"),
    ("高血压脑出血后死亡多由脑桥受压引起。", SITE, "高血压性脑出血最常见的部位是（ ）", None),  # not what is asked
    ("高血压脑出血最常见的部位是基底节区。", SITE, "高血压性脑出血最常见的部位是（ ）", "B"),
    ("上消化道出血，上消化道出血，上消化道出血，并发症", ULCER, "消化性溃疡最常见的并发症是", None),  # a loop
    ("肺炎链球菌肺炎的典型痰液是铁锈色痰。砖红色胶冻样痰见于克雷伯杆菌肺炎，粉红色泡沫痰见于肺水肿。", SPUTUM, "肺炎链球菌肺炎的典型痰液是", "A"),
    ("肺炎链球菌肺炎的典型痰液是铁锈色痰，砖红色胶冻样痰，黄绿色脓痰。", SPUTUM, "肺炎链球菌肺炎的典型痰液是", None),  # a list
    ("肺炎链球菌肺炎的典型痰液是铁锈色痰。", SPUTUM, None, None),
])
def test_a_chinese_stem_completed_or_one_option_named_alone(reply: str, texts: dict, stem: str | None, expected: object) -> None:
    assert _read(reply, texts, stem) == expected


@pytest.mark.parametrize(("stem", "word"), [
    ("高血压性脑出血最常见的部位是（ ）", "部位"), ("氨基糖苷类抗生素的主要不良反应是", "反应"), ("首选的治疗应为：", "治疗"),
    ("Which of the following is the most likely diagnosis?", ""),
])
def test_what_a_stem_asks_for(stem: str, word: str) -> None:
    assert asked_word(stem) == word


def test_the_stem_is_our_question_without_its_options_and_label() -> None:
    assert stem_of(question("肺炎链球菌肺炎的典型痰液是", SPUTUM)) == "肺炎链球菌肺炎的典型痰液是"


TF = AnswerFormat(kind="true_false", options=[], option_texts={})


@pytest.mark.parametrize(("reply", "claim", "expected"), [
    ("True — most emboli come from the deep veins of the legs, not the upper extremities.",
     "Most pulmonary emboli come from thrombosis of the upper extremities.", None),
    ("True. They are cleared by the kidney, so the dose changes in renal failure, not in liver failure.",
     "Aminoglycosides need a lower dose in liver failure.", None),
    ("True. They are cleared by the kidney, so the dose is not changed in liver failure.",
     "Aminoglycosides need no dose change in liver failure; they are not changed in liver failure.", True),
    ("True. The dose changes in renal failure, not in heart failure.", "Aminoglycosides need a lower dose in renal failure.", True),
    ("False — they come from the legs, not the upper extremities.", "Most pulmonary emboli come from the upper extremities.", False),
])
def test_a_true_whose_explanation_denies_the_statement_is_unread(reply: str, claim: str, expected: object) -> None:
    assert read_strict(reply, TF, _statement(claim)).value == expected


CIRRHOSIS = {"A": "肝性脑病", "B": "上消化道出血", "C": "自发性细菌性腹膜炎", "D": "肝肾综合征", "E": "原发性肝癌"}
IG = {"A": "IgG", "B": "IgA", "C": "IgM", "D": "IgD", "E": "IgE"}


@pytest.mark.parametrize(("reply", "texts", "stem", "expected"), [
    ("答案：B. 上消化道出血\n\n解析：出血常诱发肝性脑病；肝性脑病是肝硬化最严重的并发症。", CIRRHOSIS, "肝硬化最常见的并发症是", "B"),
    ("答案：B. 上消化道出血\n\n解析：出血常诱发肝性脑病；肝性脑病是肝硬化最严重的并发症。", CIRRHOSIS, None, None),  # question unknown
    ("答案：B\n\n解析：肝性脑病是肝硬化最常见的并发症。", CIRRHOSIS, "肝硬化最常见的并发症是", None),  # the same superlative
    ("答案：A\n\n解析：IgG是唯一能通过胎盘的Ig。IgM是分子量最大的Ig。", IG, "能通过胎盘的免疫球蛋白是", "A"),
])
def test_an_option_named_after_the_letter_by_another_superlative_is_a_fact_beside_the_question(
    reply: str, texts: dict, stem: str | None, expected: object
) -> None:
    assert _read(reply, texts, stem) == expected


VITAMINS = {"A": "Pyridoxine (vitamin B6)", "B": "Thiamine (vitamin B1)", "C": "Folate", "D": "Apical displacement of the tricuspid "
            "valve leaflets (Ebstein anomaly)", "E": "Pyrimethamine, sulfadiazine, and leucovorin"}
LEADS = {"A": "V1～V3", "B": "V3～V5", "C": "Ⅰ、aVL", "D": "Ⅱ、Ⅲ、aVF", "E": "V1～V6"}


@pytest.mark.parametrize(("reply", "texts", "stem", "expected"), [
    ("Wernicke encephalopathy is caused by a deficiency of thiamine. Give it before glucose.", VITAMINS, "Which vitamin is deficient?", "B"),
    ("Ebstein anomaly.\n\nLithium in the first trimester is linked with Ebstein anomaly, a downward displacement of the valve.",
     VITAMINS, "Which defect is linked with lithium?", "D"),
    ("Start pyrimethamine, sulfadiazine and leucovorin now.", VITAMINS, "What is the next step?", "E"),
    ("下壁心肌梗死的ST段抬高见于Ⅱ、Ⅲ、aVF导联。", LEADS, "下壁心肌梗死时ST段抬高见于哪些导联", "D"),
])
def test_one_option_named_alone_by_either_name_a_list_with_and_or_beside_chinese(
    reply: str, texts: dict, stem: str, expected: object
) -> None:
    fmt = AnswerFormat(kind="option_letter", options=list(texts), option_texts=texts, language="zh" if texts is LEADS else "en")
    assert read_strict(reply, fmt, question(stem, texts)).value == expected


MENINGITIS = {"A": "Oral fluconazole alone", "B": "Amphotericin B plus flucytosine", "C": "Ceftriaxone plus vancomycin",
              "D": "Intramuscular methotrexate", "E": "HLA-B27"}


@pytest.mark.parametrize(("reply", "stem", "expected"), [
    ("Amphotericin B + flucytosine for induction, followed by consolidation.", "Which regimen should be started?", "B"),
    ("Intramuscular methotrexate is the best choice here, since she is stable and has no cardiac activity.",
     "Her mass does not show cardiac activity. What is the most appropriate management?", "D"),
    ("This picture is classic for ankylosing spondylitis, strongly associated with HLA-B27.", "Which marker is associated?", "E"),
    ("Amphotericin B + flucytosine, or B instead.", "Which regimen should be started?", None),
])
def test_named_alone_with_capitals_in_names_plus_signs_and_a_vignette_that_says_not(reply: str, stem: str, expected: object) -> None:
    assert _read(reply, MENINGITIS, stem) == expected


CHEST = {"A": "Pneumonia", "B": "Pulmonary embolism", "C": "Pneumothorax", "D": "Pericarditis", "E": "Aortic dissection"}
CHEST_STEM = "A 60-year-old has chest pain and dyspnea. What is the most likely diagnosis?"


@pytest.mark.parametrize("reply", [
    "Pulmonary embolism is associated with hypoxia, but the fever points to a different cause.",
    "Pulmonary embolism was my first thought, but the consolidation makes it improbable.",
    "Pulmonary embolism would be the concern if the x-ray were clear.",
    "It cannot be pulmonary embolism.",
    "It can't be pulmonary embolism.",
])
def test_a_name_the_reply_sets_aside_turns_from_or_conditions_is_not_read(reply: str) -> None:
    assert _read(reply, CHEST, CHEST_STEM) is None


def test_a_chinese_first_sentence_ends_at_a_full_width_exclamation_mark() -> None:
    chest = {"A": "肺炎", "B": "肺栓塞", "C": "气胸", "D": "心包炎", "E": "主动脉夹层"}
    stem = "患者胸痛、呼吸困难，最可能的诊断是"
    assert _read("这道题问的是诊断！肺栓塞。", chest, stem) is None  # "肺栓塞" stands in the second sentence
    assert _read("肺栓塞。这道题问的是诊断！", chest, stem) == "B"


def test_a_name_given_by_another_kind_of_superlative_is_not_read() -> None:
    complications = {"A": "Bleeding", "B": "Perforation", "C": "Obstruction", "D": "Malignancy", "E": "Anaemia"}
    reply = "Perforation is the most dangerous complication of peptic ulcer."
    assert _read(reply, complications, "What is the most common complication of peptic ulcer?") is None
    assert _read(reply, complications, "Without treatment, this patient is at greatest risk for which complication?") == "B"


@pytest.mark.parametrize("reply", [
    "很多人误以为肺炎链球菌肺炎的典型痰液是砖红色胶冻样痰，其实那是克雷伯杆菌肺炎的特点。",
    "如果说肺炎链球菌肺炎的典型痰液是砖红色胶冻样痰，那就错了。",
    "有人认为肺炎链球菌肺炎的典型痰液是砖红色胶冻样痰，这种说法是错误的。",
])
def test_a_stem_completed_as_someone_elses_mistake_is_not_the_answer(reply: str) -> None:
    assert _read(reply, SPUTUM, "肺炎链球菌肺炎的典型痰液是") is None


@pytest.mark.parametrize(("reply", "claim"), [
    ("True. Type 2 diabetes results from insulin resistance, not from autoimmune destruction of beta cells.",
     "Type 2 diabetes is not the result of autoimmune destruction of beta cells."),
    ("True. It is caused by insulin resistance rather than autoimmune destruction of beta cells.",
     "Type 2 diabetes isn't caused by autoimmune destruction of beta cells."),
    ("True. Lithium is cleared by the kidney, not the liver.", "Lithium is cleared renally, unlike valproate, which is cleared by the liver."),
])
def test_a_true_that_agrees_with_a_negated_statement_stays_read(reply: str, claim: str) -> None:
    assert read_strict(reply, TF, _statement(claim)).value is True


MORPHINE = {"A": "心源性哮喘", "B": "支气管哮喘", "C": "癌症晚期剧痛", "D": "急性心肌梗死剧痛", "E": "严重创伤疼痛"}
LIDOCAINE = {"A": "100 mg", "B": "200 mg", "C": "400 mg", "D": "600 mg", "E": "1000 mg"}


@pytest.mark.parametrize(("reply", "texts", "stem", "expected"), [
    ("答案是A。吗啡禁用于支气管哮喘，但可用于心源性哮喘。", MORPHINE, "吗啡禁用于", None),
    ("答案是B。吗啡禁用于支气管哮喘。", MORPHINE, "吗啡禁用于", "B"),
    ("利多卡因局部浸润麻醉为400 mg。普鲁卡因一次限量为1000 mg。\n\n所以本题选 C。", LIDOCAINE, "利多卡因用于局部浸润麻醉时，成人一次限量为", "C"),
])
def test_a_letter_against_our_stem_completed_with_another_option(reply: str, texts: dict, stem: str, expected: object) -> None:
    assert _read(reply, texts, stem) == expected


@pytest.mark.parametrize(("reply", "claim", "expected"), [
    ("True — loop diuretics cause hypocalcemia, not hypercalcemia, because they increase calcium loss.",
     "Loop diuretics cause hypercalcemia.", None),
    ("True. Screening is recommended for men who smoked; it is not recommended for women who never smoked.",
     "Screening is recommended for men aged 65 to 75 who have ever smoked.", True),
])
def test_a_single_denied_word_and_a_denial_of_another_group(reply: str, claim: str, expected: object) -> None:
    assert read_strict(reply, TF, _statement(claim)).value == expected


def test_named_alone_does_not_read_a_reply_weighing_possibilities() -> None:
    viruses = {"A": "Cryptococcus neoformans", "B": "JC virus", "C": "Epstein-Barr virus", "D": "Toxoplasma gondii", "E": "Cytomegalovirus"}
    reply = "Ring-enhancing lesions raise two possibilities: toxoplasmosis and a lymphoma linked to Epstein-Barr virus."
    assert _read(reply, viruses, "Which organism is most likely responsible?") is None


PNEUMOCOCCUS = {"A": "青霉素G", "B": "红霉素", "C": "庆大霉素", "D": "万古霉素", "E": "氯霉素"}
CPR = {"A": "60-80次/分", "B": "至少100次/分", "C": "100-120次/分", "D": "120-140次/分", "E": "140次/分以上"}


@pytest.mark.parametrize(("reply", "texts", "stem", "expected"), [
    ("答案：A。肺炎链球菌肺炎治疗首选青霉素G；如果患者对青霉素过敏，首选药物是红霉素。", PNEUMOCOCCUS, "肺炎链球菌肺炎治疗的首选药物是", "A"),
    ("答案：C（100-120次/分）。2010年版指南，胸外按压的频率是至少100次/分。", CPR, "成人心肺复苏时胸外按压的频率是", "C"),
    ("该病的典型痰液是铁锈色痰，而砖红色胶冻样痰见于克雷伯杆菌肺炎。", SPUTUM, "肺炎链球菌肺炎的典型痰液是", "A"),
    ("大叶性肺炎的典型痰液是铁锈色痰，砖红色胶冻样痰见于克雷伯杆菌肺炎。", SPUTUM, "肺炎链球菌肺炎的典型痰液是", "A"),
])
def test_a_completion_under_a_condition_or_another_name_for_the_subject(reply: str, texts: dict, stem: str, expected: object) -> None:
    assert _read(reply, texts, stem) == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ('{"answer": "Both B and D fit this presentation equally well in my view", "choice": "D"}', None),
    ('{"answer": "D", "evaluation": "B and D are both plausible here; I cannot decide between them"}', None),
    ("Squamous cell carcinoma of the lung. Metastatic disease is a less likely possibility.", "D"),
    ("Squamous cell carcinoma of the lung. You cannot tell for certain without a biopsy.", "D"),
])
def test_hedging_answer_fields_stay_answers_and_a_later_possibility_leaves_the_answer(reply: str, expected: object) -> None:
    assert _read(reply, LUNG, EN_STEM) == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ('{"evaluation": "The statement is partially true and partially false as it is written", "answer": "true"}', None),
    ('{"verdict": "It depends on the dose and the duration of the treatment given", "answer": "true"}', None),
    ("False. The statement is partially true and partially false: they cause hypokalemia, but hypocalcemia.", False),
    ("错误。该说法部分正确，部分错误：袢利尿剂导致低钾血症，但会导致低钙血症。", False),
    ("Answer: False. The statement cannot be considered true or even approximately correct, because they lower calcium.", False),
])
def test_partly_true_statements_with_and_without_a_verdict_of_their_own(reply: str, expected: object) -> None:
    fmt = TF if not any("\u4e00" <= ch <= "\u9fff" for ch in reply) else AnswerFormat(kind="true_false", options=[], option_texts={}, language="zh")
    assert read_strict(reply, fmt, _statement("Loop diuretics cause hypokalemia and hypercalcemia.")).value == expected


FIBROID = {"A": "红色变性", "B": "肉瘤样变", "C": "钙化", "D": "玻璃样变", "E": "囊性变"}
PREVENTION = {"A": "病因预防", "B": "临床前期预防", "C": "临床预防", "D": "康复治疗", "E": "三早预防"}


@pytest.mark.parametrize(("reply", "texts", "stem", "expected"), [
    ("子宫肌瘤红色变性多见于妊娠期，表现为剧烈腹痛伴发热。", FIBROID, "子宫肌瘤最常见的变性是", None),  # describes, does not give
    ("子宫肌瘤最常见的变性是玻璃样变，其次为囊性变。", FIBROID, "子宫肌瘤最常见的变性是", "D"),
    ("一级预防又称病因预防，是在疾病尚未发生时针对病因采取的措施。", PREVENTION, "疾病的一级预防又称为", "A"),
])
def test_a_chinese_name_stands_where_an_answer_does(reply: str, texts: dict, stem: str, expected: object) -> None:
    assert _read(reply, texts, stem) == expected


ABSENCE = {"A": "Phenytoin", "B": "Ethosuximide", "C": "Carbamazepine", "D": "Phenobarbital"}
ABSENCE_ZH = {"A": "苯妥英钠", "B": "乙琥胺", "C": "卡马西平", "D": "苯巴比妥"}
STORM = {"A": "普萘洛尔", "B": "丙硫氧嘧啶", "C": "碘剂", "D": "氢化可的松"}
CONSTIPATION = {"A": "多饮水", "B": "多吃粗纤维食物", "C": "肥皂水灌肠", "D": "适当运动"}
NONSMOKERS = {"A": "Squamous cell carcinoma", "B": "Adenocarcinoma", "C": "Small cell carcinoma", "D": "Large cell carcinoma"}
STRIDOR = {"A": "Croup", "B": "Epiglottitis", "C": "Asthma", "D": "Foreign body"}
ULCER_SITE = {"A": "胃底", "B": "胃小弯", "C": "胃大弯", "D": "贲门"}


@pytest.mark.parametrize(("reply", "texts", "stem", "expected"), [
    ("A. Phenytoin: ineffective for absences, so this is not correct.\nB. Ethosuximide: first-line.\nC. Carbamazepine: may worsen "
     "absences.\nD. Phenobarbital: too sedating.", ABSENCE, "Which drug is first-line for absence seizures?", None),
    ("A. 苯妥英钠：对失神发作无效，不太正确\nB. 乙琥胺：失神发作首选药物\nC. 卡马西平：可加重失神发作", ABSENCE_ZH, "失神发作的首选药物是", None),
    ("答案：B。丙硫氧嘧啶可抑制T4转化为T3，A、C、D均为辅助治疗。", STORM, "治疗甲状腺危象首选的药物是", "B"),
    ("C 肥皂水灌肠是错误的，便秘患者一般先用开塞露等。", CONSTIPATION, "下列关于便秘的护理措施，错误的是", "C"),
    ("C肥皂水灌肠是错误的；另外D也不宜。故C、D均错误。", CONSTIPATION, "下列关于便秘的护理措施，错误的是", None),
    ("A. Squamous cell carcinoma. Strongly linked to smoking.\nB. Adenocarcinoma. Most common in non-smokers.\nC. Small cell "
     "carcinoma. Strongly linked to smoking.\nD. Large cell carcinoma. Strongly linked to smoking.\n\nSo the answer is B. "
     "Adenocarcinoma.\n\nFinal answer: B. Adenocarcinoma", NONSMOKERS, "Which lung cancer is most common in non-smokers?", "B"),
    ("Both interpretations are understandable, but the drooling makes epiglottitis the best fit. Answer: B", STRIDOR,
     "What is the most likely diagnosis?", "B"),
    ("胃溃疡最常见的部位在胃小弯。", ULCER_SITE, "胃溃疡最常见的部位是", "B"),
])
def test_third_review_replies_judged_wrong_explained_or_restated(reply: str, texts: dict, stem: str, expected: object) -> None:
    assert _read(reply, texts, stem) == expected


@pytest.mark.parametrize("reply", [
    "The statement is partially true and partially false: it is far more potent on COX-1. Therefore, the answer is: False.",
    "This statement is partly true and partly false. It inhibits both, but not equally.\n\nAnswer: False",
])
def test_a_closing_answer_after_partly_true_and_partly_false_stands(reply: str) -> None:
    assert read_strict(reply, TF, _statement("Aspirin irreversibly inhibits COX-1 and COX-2 equally.")).value is False


@pytest.mark.parametrize(("reply", "claim", "expected"), [
    ("True. A capable adult may refuse any treatment; the underlying disease — not the physician — is the cause of death.",
     "A physician must honour a competent patient's request to withdraw ventilation.", True),
    ("True. Flumazenil, not naloxone, is the antidote for benzodiazepine overdose.",
     "Naloxone is the antidote for benzodiazepine overdose.", None),
])
def test_a_denied_word_of_the_statements_subject_counts_only_for_its_claim(reply: str, claim: str, expected: object) -> None:
    assert read_strict(reply, TF, _statement(claim)).value == expected


CHOLANGITIS = {"A": "Elective cholecystectomy in 6 weeks", "B": "HIDA scan", "C": "Urgent ERCP with biliary decompression",
               "D": "Oral antibiotics and discharge", "E": "Percutaneous liver biopsy"}
CHOLANGITIS_STEM = "A woman with fever, jaundice, hypotension and confusion has a dilated common bile duct. What is the next step?"


@pytest.mark.parametrize(("reply", "expected"), [
    ("ERCP. She has Reynolds pentad, so the duct needs urgent decompression.", "C"),
    ("Urgent ERCP.", "C"),
    ("Not ERCP. A HIDA scan first.", None),  # ruled out, and another option named
    ("ERCP. A HIDA scan would only delay it.", None),  # another option named
    ("ERCP (C).", "C"),  # the letter reads it
    ("Antibiotics.", None),  # one of the two things "Oral antibiotics and discharge" joins names no option
])
def test_a_short_first_line_in_the_words_of_one_option(reply: str, expected: object) -> None:
    assert _read(reply, CHOLANGITIS, CHOLANGITIS_STEM) == expected


PHEO = {"A": "普萘洛尔", "B": "酚苄明", "C": "卡托普利", "D": "硝苯地平", "E": "呋塞米"}


@pytest.mark.parametrize(("reply", "stem", "expected"), [
    ("首选α受体阻滞剂酚苄明。", "嗜铬细胞瘤术前准备首选的药物是", "B"),
    ("α受体阻滞剂酚苄明。", "嗜铬细胞瘤术前准备首选的药物是", None),  # neither 药物 nor 首选 repeated
    ("首选α受体阻滞剂，不用酚苄明。", "嗜铬细胞瘤术前准备首选的药物是", None),
])
def test_a_first_choice_asked_and_named_by_the_same_word(reply: str, stem: str, expected: object) -> None:
    assert _read(reply, PHEO, stem) == expected


CUSHING = {"A": "血ACTH测定", "B": "小剂量地塞米松抑制试验", "C": "大剂量地塞米松抑制试验", "D": "肾上腺CT", "E": "垂体MRI"}
CUSHING_STEM = "为明确库欣综合征的定性诊断，最有意义的检查是"


@pytest.mark.parametrize(("reply", "expected"), [
    ("选B。大剂量地塞米松抑制试验可以鉴别库欣病与肾上腺肿瘤，是最有意义的检查。", None),  # the letter against the text
    ("选B。小剂量地塞米松抑制试验不被抑制即可定性，是最有意义的检查。", "B"),
    ("选B。大剂量地塞米松抑制试验用于定位，但题目问的是最有意义的检查。", "B"),
])
def test_a_letter_against_an_option_called_what_the_stem_asks(reply: str, expected: object) -> None:
    assert _read(reply, CUSHING, CUSHING_STEM) == expected


def test_a_restated_statement_with_words_left_out_is_ours() -> None:
    claim = "Metformin is contraindicated in patients with an estimated glomerular filtration rate (eGFR) below 30 mL/min/1.73 m²."
    reply = 'Statement: "Metformin is contraindicated in patients with an eGFR below 30 mL/min/1.73 m²."\n\nYes, this is true.'
    assert read_strict(reply, TF, _statement(claim)).value is True
    other = 'Statement: "Metformin is contraindicated in patients with an eGFR below 45 mL/min."\n\nYes, this is true.'
    assert read_strict(other, TF, _statement(claim)).value is None


# Replies a review wrote against this stop's rules: each must read as a careful examiner reads it (None where the reply
# commits to no option of ours, or where the reader may rightly leave it: never another option).
P = {"A": "结核性腹膜炎", "B": "肝硬化腹水", "C": "卵巢癌", "D": "自发性细菌性腹膜炎", "E": "缩窄性心包炎"}
PS = "患者，女，35岁，腹胀伴低热、盗汗2个月，腹部柔韧感，腹水为渗出液，ADA升高。最可能的诊断是"
PS2 = "患者，女，58岁，腹胀、消瘦3个月，腹水为血性渗出液，CA125明显升高。最可能的诊断是"
M = {"A": "肌内注射阿托品", "B": "肌内注射东莨菪碱", "C": "口服地西泮", "D": "静脉注射氯丙嗪", "E": "口服苯海拉明"}
MS = "晕动病的预防首选"
G = {"A": "B超", "B": "CT", "C": "MRCP", "D": "腹部X线平片", "E": "ERCP"}
CAP = {"A": "肺炎链球菌", "B": "流感嗜血杆菌", "C": "肺炎支原体", "D": "金黄色葡萄球菌", "E": "肺炎克雷伯杆菌"}
MI = {"A": "心电图", "B": "血清心肌酶", "C": "冠状动脉造影", "D": "超声心动图", "E": "胸部X线"}
COX = {"A": "Irreversible inhibition of COX-1", "B": "Selective inhibition of COX-2", "C": "Inhibition of phospholipase A2", "D": "Inhibition of 5-lipoxygenase", "E": "Leukotriene receptor antagonism"}
SCC = {"A": "Observation", "B": "Conservative management with bracing", "C": "Urgent surgical decompression", "D": "High-dose intravenous methylprednisolone", "E": "Lumbar puncture"}
SARC = {"A": "Noncaseating granulomas", "B": "Bilateral hilar lymphadenopathy", "C": "Decreased serum calcium", "D": "Elevated serum ACE level", "E": "Erythema nodosum"}
NEURO = {"A": "Myasthenia gravis", "B": "Guillain-Barré syndrome", "C": "Botulism", "D": "Lambert-Eaton myasthenic syndrome", "E": "Multiple sclerosis"}
GENE = {"A": "CFTR", "B": "DNAH5", "C": "SERPINA1", "D": "FBN1", "E": "PKD1"}
SHOCK = {"A": "Norepinephrine", "B": "Intravenous crystalloid bolus", "C": "Dobutamine", "D": "Hydrocortisone", "E": "Packed red blood cell transfusion"}
PA = {"A": "Pernicious anemia", "B": "Dietary folate deficiency in chronic alcohol use", "C": "Iron deficiency anemia", "D": "Anemia of chronic disease", "E": "Myelodysplastic syndrome"}
REVIEWED = [
    (P, PS, "患者有结核中毒症状、腹壁柔韧感、渗出性腹水及ADA升高，诊断考虑结核性腹膜炎。因此选项E（缩窄性心包炎）可除外。", "A"),
    (P, PS, "最可能的诊断是结核性腹膜炎。卵巢癌亦可出现渗出性腹水，故选项C仍需警惕。", "A"),
    (P, PS, "符合结核性腹膜炎。腹水为渗出液，故选项B可除外。", None),
    (P, PS, "逐项分析：\nA. 结核性腹膜炎：症状体征及ADA升高均符合。\nB. 肝硬化腹水：为漏出液，故选项B可除外。\nC. 卵巢癌：多为血性腹水。\nD. 自发性细菌性腹膜炎：多在肝硬化基础上发生。\nE. 缩窄性心包炎：腹水为漏出液。\n\n综上，最可能的诊断为结核性腹膜炎。", "A"),
    (M, MS, "A 阿托品 ✗ 中枢作用弱\n\n晕动病预防首选东莨菪碱。", None),
    (M, MS, "C 地西泮不是首选\n晕动病的预防首选东莨菪碱，它能抑制前庭神经。", None),
    (M, MS, "A 阿托品不行\n\n应选择东莨菪碱。", None),
    (P, PS, "逐项分析：\nA. 结核性腹膜炎：低热盗汗、腹壁柔韧感、ADA升高，符合。\nB. 肝硬化腹水：为漏出液，不符合。\nC. 卵巢癌：也可有渗出性腹水及消瘦，不能完全排除。\nD. 自发性细菌性腹膜炎：多在肝硬化基础上，不符合。\nE. 缩窄性心包炎：不符合。\n\n答案：A\n\nA、C 均为正确答案，本题应为多选题。", None),
    (P, PS, "本题需鉴别以下两个选项：\n选项A\n选项C", None),
    (G, "胆囊结石首选的检查是", "胆囊结石首选的治疗方法是腹腔镜胆囊切除术；若合并胆总管结石，首选ERCP取石。", None),
    (CAP, "社区获得性肺炎最常见的病原体是", "答案：A。\n\n肺炎链球菌仍是社区获得性肺炎的首要致病菌。流感嗜血杆菌也是最常见的病原体之一，多见于COPD患者；肺炎支原体多见于青少年。", "A"),
    (MI, "急性心肌梗死早期诊断最有价值的检查是", "答案：A。\n冠状动脉造影虽是最有价值的检查，但为有创检查，早期诊断仍依靠心电图。", "A"),
    (MI, "急性心肌梗死早期诊断最有价值的检查是", "答案是A，因为心肌酶在发病早期尚未升高，很难说明问题。", "A"),
    (P, PS2, "本题考查渗出性腹水的鉴别，即选项A~E中哪一个最符合。血性腹水+CA125明显升高+中老年女性，首先考虑卵巢癌。", "C"),
    (P, PS, "本题答案：A\n\n解析：结核中毒症状+腹壁柔韧感+ADA升高。卵巢癌同样可以出现渗出性腹水，所以选项C也需鉴别。", "A"),
    (P, PS, "所以选项D是干扰项，正确答案是A。", "A"),
    (M, MS, "A 阿托品 错\n\n答案B", "B"),
    (M, MS, "E 苯海拉明也可以\n但首选仍是东莨菪碱，答案是B。", "B"),
    (COX, "A man is started on celecoxib. What is the mechanism of action of this drug?", "1. Celecoxib is a coxib, a class designed to spare the gastric mucosa.\n2. It selectively blocks the inducible cyclooxygenase isoform expressed at sites of inflammation, while sparing the constitutive gastroprotective isoform.\n\nSo the mechanism is selective cyclooxygenase-2 inhibition.", None),
    (SCC, "Malignant spinal cord compression with weakness. What is the most appropriate next step?", "**Management**\n\nThis is malignant spinal cord compression with neurologic deficits. Give dexamethasone immediately and arrange emergency neurosurgical decompression followed by radiotherapy.", None),
    (SARC, "All of the following are typical features of sarcoidosis EXCEPT:", "Let's check each statement:\n\nA is correct - noncaseating granulomas are the histologic hallmark.\nB is correct - seen in most patients.\nC is incorrect - sarcoidosis causes hypercalcemia, not hypocalcemia.\nD is correct - ACE is often elevated.\n\nE is correct.", None),
    (SARC, "Which finding fits sarcoidosis best?", "A is correct - granulomas.\nB is wrong.\nC is wrong.\nD is correct - ACE.\n\nA is correct.\nD is correct.", None),
    (NEURO, "Ascending areflexic weakness after diarrhea. Most likely diagnosis?", "The absence of ptosis and fluctuating fatigability argues against myasthenia, which is option A. The preceding diarrheal illness (Campylobacter) and areflexia point to an acute inflammatory demyelinating polyneuropathy.", None),
    (NEURO, "Ascending areflexic weakness after diarrhea. Most likely diagnosis?", "This is not botulism, which is option C.\n\nBotulism causes a descending paralysis.", None),
    (NEURO, "Ascending areflexic weakness after diarrhea. Most likely diagnosis?", "Many students jump to myasthenia gravis, which is option A. However, MG preserves reflexes; the areflexia points to Guillain-Barré syndrome.", None),
    (NEURO, "Ascending areflexic weakness after diarrhea. Most likely diagnosis?", "Descending paralysis with dilated pupils would suggest botulism, which is option C; here, though, the weakness ascends, so the diagnosis is Guillain-Barré syndrome.", "B"),
    (NEURO, "Ascending areflexic weakness after diarrhea. Most likely diagnosis?", "Working diagnosis: A (myasthenia gravis) given the weakness.\n\nBut wait — areflexia and the preceding diarrhea don't fit MG at all. This is Guillain-Barré syndrome after Campylobacter infection.", None),
    (NEURO, "Ascending areflexic weakness after diarrhea. Most likely diagnosis?", "Least likely diagnosis: E (Multiple sclerosis) — MS does not cause areflexic ascending weakness.", None),
    (GENE, "Sinusitis, bronchiectasis and situs inversus: mutation in which gene?", "Chronic sinusitis and bronchiectasis could suggest cystic fibrosis, where the gene is CFTR. However, the situs inversus makes primary ciliary dyskinesia (Kartagener syndrome) the diagnosis, most often due to mutations in the dynein arm gene DNAH5.", None),
    (GENE, "Sinusitis, bronchiectasis and situs inversus: mutation in which gene?", "This is Kartagener syndrome (commonly DNAH5 mutations). In cystic fibrosis, by contrast, the affected gene is CFTR.", None),
    (SHOCK, "Septic shock, no fluids given yet. Next step?", "Aggressive fluid resuscitation comes first (30 mL/kg within 3 hours). Should MAP stay below 65 despite fluids, the vasopressor would be norepinephrine.", None),
    (PA, "Anti-intrinsic factor antibodies. Most likely diagnosis?", "The answer is A. Autoantibodies against intrinsic factor block vitamin B12 absorption in the ileum; the resulting deficiency impairs DNA synthesis and myelin (folate metabolism is also disrupted through the methyl-folate trap).", "A"),
]


@pytest.mark.parametrize(("opts", "stem", "reply", "expected"), REVIEWED)
def test_replies_written_against_this_stops_rules(opts: dict, stem: str, reply: str, expected: object) -> None:
    assert _read(reply, opts, stem) == expected


@pytest.mark.parametrize(("claim", "reply", "expected"), [
    ("Metformin should not be used in patients with an eGFR below 30.", "Statement: Metformin should be used in patients with an eGFR below 30.\nAnswer: False. Metformin is contraindicated when eGFR falls below 30 because of the risk of lactic acidosis.", None),
    ("Naloxone is the antidote for benzodiazepine overdose.", "True. The specific antidote is flumazenil, not naloxone; naloxone reverses opioids.", None),
])
def test_true_false_replies_written_against_this_stops_rules(claim: str, reply: str, expected: object) -> None:
    assert read_strict(reply, TF, _statement(claim)).value == expected


# Replies a second review wrote against this stop's later rules: none may be read as an option (or verdict) the reply
# does not commit to; where the reply commits in words no rule reads, the reading is None.
SVT = {"A": "Amiodarone", "B": "Adenosine", "C": "Synchronized cardioversion", "D": "Metoprolol", "E": "Digoxin"}
SVTS = "A 64-year-old man with palpitations has a narrow-complex tachycardia at 180/min, BP 118/76. Vagal maneuvers fail. What is the most appropriate next step?"
HYPONATREMIA = {"A": "Fluid restriction", "B": "0.9% normal saline", "C": "3% hypertonic saline", "D": "Demeclocycline", "E": "Tolvaptan"}
HYPONATREMIAS = "A 58-year-old woman with small cell lung cancer has a generalized seizure. Serum sodium is 112 mEq/L. What is the most appropriate next step in management?"
TP = {"A": "Chest x-ray", "B": "Needle thoracostomy", "C": "Endotracheal intubation", "D": "Pericardiocentesis", "E": "FAST examination"}
TPS = "After a motorcycle crash he is hypotensive with absent breath sounds on the right and tracheal deviation to the left. What is the most appropriate next step in management?"
QT = {"A": "Hypothyroidism", "B": "Hypercalcemia", "C": "Hyperkalemia", "D": "Hypomagnesemia", "E": "Hyponatremia"}
QTS = "Which of the following electrolyte disturbances is least likely to cause a prolonged QT interval?"
TR = {"A": "手术治疗", "B": "保守治疗", "C": "抗结核治疗", "D": "放射治疗", "E": "化学治疗"}
TRS = "患者，女，78岁，诊断为胆囊结石，无症状。该患者最合适的处理是"
LDH = {"A": "手术治疗", "B": "卧床休息、非手术治疗", "C": "牵引治疗", "D": "理疗", "E": "推拿"}
LDHS = "患者，男，35岁，腰椎间盘突出症，首次发作，无马尾神经症状。首选的治疗是"
ANTI = {"A": "庆大霉素", "B": "青霉素", "C": "红霉素", "D": "头孢曲松", "E": "阿奇霉素"}
ANTIS = "孕妇，28岁，妊娠20周，患社区获得性肺炎。首选的抗生素是"
DX = {"A": "缺铁性贫血", "B": "铁粒幼细胞性贫血", "C": "再生障碍性贫血", "D": "巨幼细胞贫血", "E": "溶血性贫血"}
DXS = "患者，女，30岁，乏力，血清铁升高，骨髓可见环形铁粒幼细胞。最可能的诊断是"
GI = {"A": "急诊手术治疗", "B": "内镜下止血治疗", "C": "抗生素保守治疗", "D": "胃肠减压观察", "E": "介入栓塞治疗"}
GIS = "患者，男，82岁，上消化道大出血，合并严重心肺疾病。该患者最合适的治疗是"
BIL = {"A": "急性胰腺炎", "B": "急性胆管炎", "C": "胆总管结石", "D": "急性肠梗阻", "E": "肠系膜动脉栓塞"}
BILS = "患者，男，50岁，右上腹痛、寒战高热、黄疸1天。最可能的诊断是"
PU = {"A": "幽门螺杆菌感染", "B": "胃酸分泌过多", "C": "非甾体抗炎药", "D": "精神因素", "E": "吸烟"}
PUS = "消化性溃疡最主要的病因是"
REVIEWED_AGAIN = [
    (HYPONATREMIA, HYPONATREMIAS, "**Answer: C. 3% hypertonic saline**\n\nRate of correction: no more than 8 mEq/L in 24 h. Once the seizure has stopped, the treatment is fluid restriction.", None),
    (SVT, SVTS, "Correct answer: B\n\nCorrection: option D (metoprolol) is the second-line agent, not E as I stated earlier.", None),
    (SVT, SVTS, "The answer is B.\n\nHmm, let me reconsider. Synchronized cardioversion is the treatment of choice when a patient is unstable. He isn't, so my answer stands.", None),
    (SVT, SVTS, "The answer is not amiodarone (option A).", None),
    (SVT, SVTS, "The answer is not digoxin (option E), which takes hours to act; a rapid AV-nodal blocker is needed.", None),
    (SVT, SVTS, "The answer is unlikely to be cardioversion (option C), since he is stable. I'd give a 6 mg rapid IV push of the AV-nodal blocker.", None),
    (SVT, SVTS, "If he were unstable, the answer would be C, so the key question is stability. He is stable, so we give adenosine next.", None),
    (TP, TPS, "This is a tension pneumothorax, which is a clinical diagnosis.\n\nManagement: A. Secure the airway and give oxygen. Then immediately decompress the chest with a large-bore needle.", None),
    (SVT, SVTS, "First-line if unstable: synchronized cardioversion (C). This patient is stable, so give adenosine.", None),
    (SVT, SVTS, "Best avoided: digoxin (E) — onset too slow.", None),
    (SVT, SVTS, "Adenosine (or amiodarone) is the most appropriate next step.", None),
    (SVT, SVTS, "**Answer: B. Adenosine**\n\nLet me reconsider the other options briefly:\n- A. Amiodarone – not first line\n- C. Cardioversion – for unstable patients", 'B'),
    (SVT, SVTS, "Answer: B\n\nLet me reconsider option D. Metoprolol is slower and can cause hypotension. My answer remains B.", 'B'),
    (HYPONATREMIA, HYPONATREMIAS, "**Answer: C. 3% hypertonic saline**\n\nRate of correction: aim for 4–6 mEq/L in the first few hours and no more than 8 mEq/L in 24 hours.", 'C'),
    (QT, QTS, "The least likely cause is hypercalcemia (B), which actually shortens the QT interval.", 'B'),
    (SVT, SVTS, "Best to avoid: digoxin (E), whose onset is too slow. The drug of choice is adenosine.", 'B'),
    (LDH, LDHS, "腰椎间盘突出症出现马尾综合征时应手术治疗；本例为首次发作、无马尾症状，首选卧床休息和非手术治疗。", None),
    (TR, TRS, "对于年轻患者应手术治疗，而本例高龄且无症状，宜保守治疗。", None),
    (TR, TRS, "这位患者年龄大，不太建议手术治疗。", None),
    (DX, DXS, "小细胞低色素性贫血伴血清铁降低对应缺铁性贫血；本例血清铁升高，骨髓见环形铁粒幼细胞，诊断应为铁粒幼细胞贫血。", None),
    (ANTI, ANTIS, "孕妇可以选用B 青霉素，也可选用C 红霉素。", None),
    (ANTI, ANTIS, "孕期用药需谨慎，禁止选用A 庆大霉素（耳毒性），也不宜用喹诺酮类。", None),
    (GI, GIS, "该患者的治疗选用急诊手术治疗不适宜，应首先考虑内镜下止血。", None),
    (GI, GIS, "该患者的治疗采用急诊手术治疗效果不良，死亡率高。", None),
    (DX, DXS, "这是缺铁性贫血吗？不是。虽然患者乏力，但血清铁升高、骨髓见环形铁粒幼细胞，支持铁粒幼细胞贫血。", None),
    (ANTI, ANTIS, "{\"answer\": {\"option\": \"B\", \"text\": \"红霉素\"}}", None),
    (BIL, BILS, "答案是B。急性胰腺炎，一般以持续上腹痛和淀粉酶升高为主，本例不符合。", 'B'),
    (TR, TRS, "正确答案是B。保守治疗6-8小时无效者，应手术治疗。", 'B'),
    (ANTI, ANTIS, "正确答案是B。不选择A 庆大霉素，因为有耳肾毒性。", 'B'),
    (ANTI, ANTIS, "答案：B\n\n有同学认为C或E均有道理，但大环内酯类并非首选。", 'B'),
    (ANTI, ANTIS, "同学问：为什么不选A？ 答：A是氨基糖苷类，孕妇禁用。本题选B。", 'B'),
    (ANTI, ANTIS, "答案：B\n\n（注：若上面的答案有误，请以教材为准。）", 'B'),
    (PU, PUS, "目前认为幽门螺杆菌感染是消化性溃疡最主要的病因。", 'A'),
]


@pytest.mark.parametrize(("opts", "stem", "reply", "expected"), REVIEWED_AGAIN)
def test_replies_written_against_this_stops_later_rules(opts: dict, stem: str, reply: str, expected: object) -> None:
    assert _read(reply, opts, stem) == expected


@pytest.mark.parametrize(("claim", "reply", "expected"), [
    ("Metformin is contraindicated in all patients with chronic kidney disease.", "Breaking it down:\n✅ True — metformin is contraindicated when eGFR < 30.\n❌ Not true — it can be continued with dose reduction at eGFR 30–45.\n\nOverall: ❌ **False**", None),
    ("ARBs cause dry cough as frequently as ACE inhibitors.", "**FALSE**\n\nKey facts:\n✅ True — ACE inhibitors cause cough via bradykinin.\n✅ True — ARBs are the usual switch.", False),
    ("Metformin is contraindicated in all patients with chronic kidney disease.", "**False.** A blanket statement like this can't simply be classified as true or false by memory alone, but the guidelines are clear.", False),
])
def test_true_false_replies_written_against_this_stops_later_rules(claim: str, reply: str, expected: object) -> None:
    assert read_strict(reply, TF, _statement(claim)).value == expected


PE = {"A": "CT pulmonary angiography", "B": "D-dimer", "C": "Ventilation-perfusion scan", "D": "Lower extremity ultrasound",
      "E": "Pulmonary angiography"}
PES = "A man with suspected pulmonary embolism has a creatinine of 3.1 mg/dL. What is the most appropriate next step?"
SPECIFICITY_EN = {"A": "60%", "B": "70%", "C": "80%", "D": "90%", "E": "95%"}
SHOCK_ZH = {"A": "血压下降", "B": "有效循环血量减少", "C": "组织灌注不足", "D": "心输出量减少", "E": "外周阻力增加"}
PYELO = {"A": "大肠埃希菌", "B": "变形杆菌", "C": "铜绿假单胞菌", "D": "粪肠球菌", "E": "金黄色葡萄球菌"}


@pytest.mark.parametrize(("opts", "stem", "reply", "expected"), [
    (PE, PES, "Ordinarily, CT pulmonary angiography would be the best next step. However, his creatinine is 3.1, so contrast "
     "should be avoided and a ventilation-perfusion scan should be ordered.", None),
    (PE, PES, "He is stable with a high pretest probability. In a patient with renal failure, ventilation-perfusion scan would "
     "be the best next step.", None),
    (SPECIFICITY_EN, "What is the specificity of the test?", "Specificity = TN/(TN+FP) = 270/300. (If instead we wanted "
     "sensitivity, it would be 80/100 = 80%", None),
    (SPECIFICITY_EN, "What is the negative predictive value?", "Step 1: Sensitivity = TP/(TP+FN) = 45/50, i.e., 90%", None),
    (SHOCK_ZH, "休克的本质是", "休克的定义是有效循环血量减少，但其本质是组织灌注不足和细胞缺氧。", None),
    (PYELO, "急性肾盂肾炎最常见的致病菌是", "尿路感染的病原体中以大肠埃希菌最为常见，但本题患者有长期留置导尿管史，应考虑铜绿假单胞菌。",
     "C"),
])
def test_replies_written_against_the_last_rules(opts: dict, stem: str, reply: str, expected: object) -> None:
    assert _read(reply, opts, stem) == expected


@pytest.mark.parametrize("reply", ["True. That said, this is uncertain and I might be wrong.",
                                   "False. But the evidence here remains uncertain, so I could be wrong either way."])
def test_a_verdict_called_uncertain_is_hedged(reply: str) -> None:
    assert read_strict(reply, TF, _statement("Vitamin D supplementation prevents fractures in community-dwelling adults.")).value is None


# Replies a fourth review wrote against the round-21 rules.
PREGNANCY_BP = {"A": "Methimazole", "B": "Lisinopril", "C": "Labetalol", "D": "Hydralazine", "E": "Nifedipine"}
PREGNANCY_BPS = "A 28-year-old pregnant woman at 12 weeks has BP 160/100 mm Hg. Which is the most appropriate antihypertensive?"
PANCREATITIS = {"A": "急性阑尾炎", "B": "急性胆囊炎", "C": "急性胰腺炎", "D": "消化性溃疡穿孔", "E": "肠梗阻"}
PANCREATITISS = "患者饮酒后上腹剧痛向腰背部放射，血淀粉酶显著升高。最可能的诊断是"
EFFUSION = {"A": "CT", "B": "超声心动图", "C": "心电图", "D": "胸部X线", "E": "冠状动脉造影"}
SENSITIVITY_ZH = {"A": "真阳性率", "B": "真阴性率", "C": "假阳性率", "D": "假阴性率", "E": "阳性预测值"}
PLAQUES = {"A": "Pityriasis rosea", "B": "Seborrheic dermatitis", "C": "Tinea corporis", "D": "Psoriasis vulgaris", "E": "Lichen planus"}


@pytest.mark.parametrize(("opts", "stem", "reply", "expected"), [
    (PREGNANCY_BP, PREGNANCY_BPS, "Avoid lisinopril (B). It is teratogenic; labetalol is the first-line agent in pregnancy.", 'C'),
    (PREGNANCY_BP, PREGNANCY_BPS, "Never lisinopril (B). ACE inhibitors cause fetal renal damage; labetalol is preferred.", None),
    (PREGNANCY_BP, PREGNANCY_BPS, "Classic board trap (B). ACE inhibitors are teratogenic, so choose labetalol.", None),
    (PREGNANCY_BP, PREGNANCY_BPS, "The answer is C... wait, if she had asthma the answer would be E. She does not, so labetalol stays.", None),
    (PANCREATITIS, PANCREATITISS, "患者上腹痛向腰背部放射，血淀粉酶升高。需要鉴别的是急性胆囊炎，故选C。", 'C'),
    (PANCREATITIS, PANCREATITISS, "首先要排除的是消化性溃疡穿孔，所以选C，因为立位腹平片未见膈下游离气体。", 'C'),
    (PANCREATITIS, PANCREATITISS, "本题最容易误选的是急性胆囊炎，因此选C。", 'C'),
    (EFFUSION, "诊断心包积液最简便可靠的检查是", "答案：B超声心动图。超声心动图可以直接显示心包腔内液性暗区。", 'B'),
    (PANCREATITIS, PANCREATITISS, "答案：B\n\n解析：Murphy征阳性提示急性胆囊炎。C也可正确吗？不可以，因为淀粉酶正常。", 'B'),
    (PANCREATITIS, PANCREATITISS, "答案：C。急性胰腺炎。B也可正确地解释右上腹痛，但不能解释淀粉酶升高。", 'C'),
    (SENSITIVITY_ZH, "灵敏度是指", "灵敏度是指真阳性率，特异度指真阴性率。", 'A'),
    (PLAQUES, "Which is the most likely diagnosis?", "The findings are classic for psoriasis vulgaris (D). Tinea corporis (C) would show central clearing, and lichen planus (E) presents with violaceous papules.", 'D'),
])
def test_replies_written_against_the_round_21_rules(opts: dict, stem: str, reply: str, expected: object) -> None:
    assert _read(reply, opts, stem) == expected


@pytest.mark.parametrize(("claim", "reply", "expected"), [
    ("Hypertension is the most important modifiable risk factor for stroke.", "It is true that hypertension is the most important modifiable risk factor for stroke, and this is not an oversimplification.", True),
    ("Hypertension is the most important modifiable risk factor for stroke.", "This is not an oversimplification. The statement is true.", True),
    ("IgM is the first antibody produced in a primary immune response.", "True. In a primary response IgM appears first; in a secondary response it is IgG, not IgM, that predominates.", True),
    ("Metformin is contraindicated in patients with an eGFR below 30.", "{\"statement_assessment\": \"Mostly true but incomplete\", \"answer\": \"True\"}", True),
    ("Metformin is contraindicated in patients with an eGFR below 30.", "{\"statement_assessment\": \"partially correct\", \"answer\": \"False\"}", False),
])
def test_true_false_replies_written_against_the_round_21_rules(claim: str, reply: str, expected: object) -> None:
    assert read_strict(reply, TF, _statement(claim)).value == expected


FEVER = {"A": "Blood cultures", "B": "Dengue serology", "C": "Thick and thin blood smears", "D": "IV artesunate", "E": "CT of the abdomen"}
FEVER_Q = "A man back from Ghana has fever every 48 hours and splenomegaly. Which is the most appropriate next step?"
HEPATITIS = {"A": "Fecal-oral", "B": "Blood transfusion", "C": "Sexual contact", "D": "Vertical transmission", "E": "Needle-stick injury"}
ECLAMPSIA = {"A": "立位腹部X线平片", "B": "胃镜检查及活检", "C": "硫酸镁", "D": "地西泮", "E": "腹部B超"}
PREGNANCY_BP = {"A": "拉贝洛尔", "B": "硝苯地平", "C": "甲基多巴", "D": "卡托普利", "E": "肼屈嗪"}


@pytest.mark.parametrize(("opts", "stem", "reply", "expected"), [
    # a final answer only where the reply gives its own, opening a sentence or a line (never a wrong letter)
    (FEVER, FEVER_Q, "The answer is C. Had he not been abroad, my final answer would be A.", ("C", None)),
    (FEVER, FEVER_Q, "The answer is C.\n\nOne could argue the final answer is A; however, the fever cycle points to malaria.", ("C", None)),
    (FEVER, FEVER_Q, "Answer: C\n\nHow I reached the final answer:\n- Blood cultures (A) are less useful here.\n"
     "- Dengue serology (B) is the most appropriate test when there is a rash.", ("C", None)),
    (FEVER, FEVER_Q, "C. Thick and thin blood smears\n\nA note on the final answer: the most appropriate test would be B (dengue "
     "serology) if the fever were not cyclic.", ("C",)),
    # a bracketed gloss must share words with the letter's own option
    (HEPATITIS, "Which is the most likely route of infection?", "The most likely virus is E (HEV), spread by contaminated water, "
     "so the fecal-oral route.", ("A", None)),
    (FEVER, FEVER_Q, "The most likely grade is C (score 14). Given the parasitemia, the answer is D.", ("D",)),
    # a heading of a step beside the answer, or under a condition, is no answer
    (FEVER, FEVER_Q, "Answer: D. IV artesunate\n\nBest next diagnostic step: A. Blood cultures (to rule out bacteremia)", ("D",)),
    (FEVER, FEVER_Q, "Answer: C. Thick and thin blood smears\n\nIf three smears are negative:\nBest next diagnostic step: B. Dengue serology", ("C",)),
    (FEVER, FEVER_Q, "Next diagnostic step: A. Blood cultures — not needed before treatment.", (None,)),
    # one-word findings in JSON are no verdict; a lower-case letter ending a reply cut off is an article
    (FEVER, FEVER_Q, 'Findings:\n[{"statement": "Fever"}, {"statement": "Splenomegaly"}]\n\nThe answer is C.', ("C",)),
    (FEVER, FEVER_Q, "The cycle points to malaria.\n\nThe correct answer is a", (None,)),
    (FEVER, FEVER_Q, "So the answer would be A if we think of sepsis and C if we think of malaria.", (None,)),
    # Chinese
    (PREGNANCY_BP, "妊娠期高血压疾病降压治疗，禁用的药物是", "卡托普利孕期禁用；孕期降压首选拉贝洛尔，故答案为D。", ("D",)),
    (PREGNANCY_BP, "妊娠期高血压疾病降压治疗，禁用的药物是", "拉贝洛尔和硝苯地平两种药物都可以使用，卡托普利孕期禁用，答案为D。", ("D",)),
    (ECLAMPSIA, "子痫抽搐时最常用的药物是", "硫酸镁和地西泮两种药物都可以使用，但首选硫酸镁，故选C。", ("C",)),
    (ECLAMPSIA, "子痫抽搐时最常用的药物是", "在我国C、D两个答案均有道理，但题目问最常用，因此答案为C。", ("C",)),
    (ECLAMPSIA, "子痫抽搐时最常用的药物是", "答案：C\n\n思路：第一反应是地西泮……不对，子痫抽搐要用硫酸镁。", ("C",)),
    (ECLAMPSIA, "子痫抽搐时最常用的药物是", "答案：C\n\n说明：旧版题库给出的最终答案是D，现行指南推荐硫酸镁。", ("C", None)),
    (ECLAMPSIA, "为明确溃疡性质，应首选的检查是", "A 立位腹平片，只能发现穿孔\nE 腹部B超，受气体干扰\n胃镜检查及活检可明确性质，故选B。", ("B",)),
    (ECLAMPSIA, "为明确溃疡性质，应首选的检查是", "A 立位腹平片，仅用于发现穿孔。\n为明确性质，应做胃镜并取活检。", ("B", None)),
    (ECLAMPSIA, "为明确溃疡性质，应首选的检查是", "A 立位腹平片，或者E", (None,)),
    (ECLAMPSIA, "子痫抽搐时最常用的药物是", "镁离子可解痉止抽，综上，正确答案是 c。", ("C",)),
    (ECLAMPSIA, "子痫抽搐时最常用的药物是", "子痫时最先用的是硫酸镁，然后才是地西泮，故选C。", ("C",)),  # the letter's own text in its sentence
])
def test_replies_written_against_the_round_22_rules(opts: dict, stem: str, reply: str, expected: tuple) -> None:
    assert _read(reply, opts, stem) in _allowed(expected)


@pytest.mark.parametrize(("claim", "reply", "expected"), [
    ("Anti-D immune globulin is given to Rh-negative pregnant women at 28 weeks.",
     'Statement: "Anti-D immune globulin is given to Rh-negative pregnant women at 28 weeks." – true or false?\n\nThe statement is true.', True),
    ("Anti-D immune globulin is never given during pregnancy.",
     "False. Some sources call it neither entirely true nor entirely false, but the guidelines are clear: it is false.", False),
    ("阿司匹林属于痛风的常用药物。", '```json\n{"statement": "阿司匹林属于痛风的常用药物", "是否正确": "错误", "理由": "抑制尿酸排泄"}\n```', False),
    ("阿司匹林属于痛风的常用药物。", "陈述：“阿司匹林属于痛风的常用药物。”——错误。小剂量阿司匹林会抑制尿酸排泄。", False),
])
def test_true_false_replies_written_against_the_round_22_rules(claim: str, reply: str, expected: object) -> None:
    assert read_strict(reply, TF, _statement(claim)).value == expected


LOBAR = {"A": "充血水肿期", "B": "红色肝样变期", "C": "灰色肝样变期", "D": "溶解消散期", "E": "纤维化期"}
NUTRITION = {"A": "肠内营养", "B": "肠外营养", "C": "经口进食", "D": "静脉补液", "E": "禁食观察"}
ABDOMEN_PAIN = {"A": "急性阑尾炎", "B": "急性胆囊炎", "C": "急性胰腺炎", "D": "消化性溃疡穿孔", "E": "肠梗阻"}
PYELONEPHRITIS = {"A": "Acute pyelonephritis", "B": "Renal cell carcinoma", "C": "Nephrolithiasis", "D": "Perinephric abscess", "E": "Cystitis"}


@pytest.mark.parametrize(("opts", "stem", "reply", "expected"), [
    (LOBAR, "下列哪项不是大叶性肺炎的病理分期", "大叶性肺炎分为四期，最后一期是溶解消散期，故选E。", "E"),  # a true item listed, then the exception
    (NUTRITION, "重症急性胰腺炎禁食期间首选的营养支持方式是", "早期应首选肠外营养，故选A。", None),  # 禁食 asks for no exception
    (ECLAMPSIA, "子痫抽搐时首选的药物是", "地西泮只能镇静，真正能止抽的是硫酸镁，故选D。", None),  # D's text, set aside
    (ECLAMPSIA, "子痫抽搐时首选的药物是", "答案：C。硫酸镁是首选药物。\n\n更正一下：硫酸镁的负荷剂量是4～6g。", "C"),  # a dose corrected
    (ECLAMPSIA, "子痫抽搐时首选的药物是", "### 分析与答案\n\na. 孕妇抽搐，诊断为子痫；\nb. 首选硫酸镁\n\n故选C。", "C"),
    (ECLAMPSIA, "子痫抽搐时首选的药物是", "初步考虑选D。不过地西泮只是辅助，本题最终答案为C。", "C"),
    (ECLAMPSIA, "子痫抽搐时首选的药物是", "答案是D……不对，子痫应该用硫酸镁。", (None, "C")),
    (ECLAMPSIA, "子痫抽搐时首选的药物是", "硫酸镁和地西泮两者都可以考虑使用，但指南首选硫酸镁，故选C。", "C"),
    (ABDOMEN_PAIN, "最可能的诊断是", "先查血淀粉酶，因为急性胰腺炎可能引起类似表现，结果出来前不宜下诊断。", None),
    (PYELONEPHRITIS, "What is the most likely diagnosis?", "The most likely diagnosis is A. However, failure of antibiotics and a "
     "collection on CT favour an abscess. Therefore, my final answer would be D.", "D"),
    (PYELONEPHRITIS, "What is the most likely diagnosis?", "The answer is D unless the CT shows no collection.", None),
    (PYELONEPHRITIS, "What is the most likely diagnosis?", "The most likely diagnosis if he had hematuria would be B, but with "
     "fever and a collection the answer is D.", "D"),
    (PYELONEPHRITIS, "What is the most likely diagnosis?", "None of the options provided is the most appropriate on its own. Of "
     "those listed, D is the best answer.", "D"),
    (PYELONEPHRITIS, "What is the most likely diagnosis?", "Answer: A–Acute pyelonephritis", "A"),  # a dash after a lone capital
])
def test_replies_written_against_the_round_23_rules(opts: dict, stem: str, reply: str, expected: object) -> None:
    assert _read(reply, opts, stem) in _allowed(expected)


@pytest.mark.parametrize(("claim", "reply", "expected"), [
    ("Gout is more common in men than in women.", "True. Gout is less common in women, because estrogen promotes uric acid excretion.", True),
    ("The right lung has three lobes.", "True. The right lung has three lobes, whereas the left lung has two.", True),
    ("Cystic fibrosis is autosomal recessive.", "True. CF is autosomal recessive. Huntington disease, by contrast, is autosomal dominant.", True),
    ("The most common site of ectopic pregnancy is the ampulla.", "True. Most implant in the ampulla; the least common sites include the cervix.", True),
    ("Warfarin is safe to use during pregnancy.", "True. Unlike heparin, warfarin is not safe to use during pregnancy.", None),
    ("β受体阻滞剂会掩盖糖尿病患者的低血糖症状。", "正确。但在一些情况下，该说法正确与否取决于所用β受体阻滞剂是否为选择性。", None),
    ("阿司匹林属于痛风的常用药物。", '陈述："阿司匹林属于痛风的常用药物。"——错误。是否停用需权衡获益。', False),
])
def test_true_false_replies_written_against_the_round_23_rules(claim: str, reply: str, expected: object) -> None:
    assert read_strict(reply, TF, _statement(claim)).value == expected


PANCREAS = {"A": "急性阑尾炎", "B": "急性胆囊炎", "C": "急性胰腺炎", "D": "消化性溃疡穿孔", "E": "肠梗阻"}
NECROTIZING = {"A": "Oral clindamycin", "B": "IV vancomycin alone", "C": "MRI of the leg", "D": "Urgent surgical debridement", "E": "Observation"}
HERNIA_Q = {"A": "腹股沟斜疝", "B": "腹股沟直疝", "C": "脐疝", "D": "股疝", "E": "切口疝"}
DISSECTION = {"A": "Myocardial infarction", "B": "Aortic dissection", "C": "Pulmonary embolism", "D": "Pericarditis", "E": "Pneumothorax"}


@pytest.mark.parametrize(("opts", "stem", "reply", "expected"), [
    (HERNIA_Q, "最易发生嵌顿的腹外疝是",
     "答案：D（股疝最容易嵌顿）。\n\n很多人会选A，因为斜疝最常见，但常见不等于最易嵌顿。", "D"),
    (HERNIA_Q, "最易发生嵌顿的腹外疝是", "答案：A\n\n更正一下：股疝最容易发生嵌顿，正确答案为D。", "D"),
    (HERNIA_Q, "最易发生嵌顿的腹外疝是", "答案：A\n\n修正：股疝最容易嵌顿，正确答案为D。", "D"),
    (PANCREAS, "最可能的诊断是", "急腹症中最常见的是急性阑尾炎，但本例血淀粉酶显著升高，应诊断为急性胰腺炎。", (None, "C")),
    (LOBAR, "下列哪项不是大叶性肺炎的病理分期", "因此答案是纤维化期，故选D。", None),
    (PANCREAS, "最可能的诊断是", "根据右上腹痛、Murphy征阳性，诊断为急性胆囊炎（即选项C）。", None),
    (PANCREAS, "最可能的诊断是", "综上，本例最可能的诊断为急性胰腺炎（即选项C）。", "C"),
    (ECLAMPSIA, "子痫抽搐时首选的药物是", "答案：C。\n\n有人可能会想到D……不对，地西泮只能短暂镇静。", "C"),
    (PREGNANCY_BP, "妊娠期禁止使用的降压药是", "卡托普利孕期禁止使用；孕期降压首选拉贝洛尔，故答案为D。", "D"),
    (PANCREAS, "最可能的诊断是", "本例为急性胰腺炎。暴饮暴食可能诱发胰酶提前激活。", "C"),
    (PANCREAS, "最可能的诊断是", "答案：C\n\n解析：急性胆囊炎和急性胰腺炎两者都可出现上腹痛，但淀粉酶升高支持胰腺炎。", "C"),
    (PANCREAS, "最可能的诊断是", "从症状看，A、B、C都可能，但血淀粉酶1200U/L强烈提示胰腺炎。答案：C", "C"),
    (PANCREAS, "最可能的诊断是", "答案：C\n\n解析：A、B、E均可导致腹痛，但淀粉酶升高提示胰腺炎。", "C"),
    (PANCREAS, "最可能的诊断是", "这三个都常见，故A、B、C均可。", None),
    (NECROTIZING, "What is the most appropriate next step?", "None of the options are correct except D, urgent surgical debridement.", (None, "D")),
    (DISSECTION, "What is the most likely diagnosis?", "Tearing pain and unequal pulses. The most likely diagnosis unless proven otherwise is B.", "B"),
    (DISSECTION, "What is the most likely diagnosis?", "The answer would be C assuming the D-dimer is raised; if it is not, it would be A.", None),
    (DISSECTION, "What is the most likely diagnosis?", "A–a gradient: normal.\n\nAnswer: B. Aortic dissection", "B"),
])
def test_replies_written_against_the_round_24_rules(opts: dict, stem: str, reply: str, expected: object) -> None:
    assert _read(reply, opts, stem) in _allowed(expected)


@pytest.mark.parametrize(("claim", "reply", "expected"), [
    ("Gout is less common in men than in women.", "True. Gout is more common in men than in women, as estrogen promotes uric acid excretion.", None),
    ("Fetal hemoglobin has a lower affinity for oxygen than adult hemoglobin.", "True. Fetal hemoglobin has a higher affinity for oxygen compared to adult hemoglobin.", None),
    ("Loop diuretics can cause hypokalemia.", "True. Loop diuretics waste potassium. Potassium-sparing diuretics such as spironolactone can cause hyperkalemia.", True),
    ("Heparin is safe to use in pregnancy.", "True. Unlike warfarin, which is not safe to use in pregnancy, heparin does not cross the placenta.", True),
    ("Beta-blockers are contraindicated in heart failure.", "**Verdict: False**\n\nThis is not entirely accurate: they are avoided only in acute decompensation.", False),
    ("Warfarin is safe to use in pregnancy.", "The statement is not entirely accurate. Warfarin crosses the placenta. Therefore, the statement is false.", False),
    ("Beta-blockers are contraindicated in heart failure.", "Some clinicians would say this is neither true nor false. By current guidelines, however, the statement is false.", False),
    ("β受体阻滞剂会掩盖低血糖症状。", "正确。有些文献指出该说法正确与否取决于药物的选择性，但总体而言成立。", True),
    ("阿司匹林属于痛风的常用药物。", '{"是否正确": "错误，痛风急性发作首选NSAIDs"}', False),
])
def test_true_false_replies_written_against_the_round_24_rules(claim: str, reply: str, expected: object) -> None:
    assert read_strict(reply, TF, _statement(claim)).value == expected


ENCEPHALITIS = {"A": "Oral acyclovir", "B": "Intravenous acyclovir", "C": "Intravenous ceftriaxone", "D": "Lumbar puncture only", "E": "Oral valacyclovir"}
HEPATITIS_TX = {"A": "Start oral prednisone", "B": "Start oral prednisone and azathioprine", "C": "Intravenous methylprednisolone",
                "D": "Plasmapheresis", "E": "Observation"}
PREGNANCY_BP_NOT = "下列哪项不是妊娠期常用的降压药"


@pytest.mark.parametrize(("opts", "stem", "reply", "expected"), [
    (HEPATITIS_TX, "What is the next step?", "A. Start oral prednisone and azathioprine — combination therapy is standard.", None),
    (ENCEPHALITIS, "What is the next step?", "The answer is C. Start intravenous acyclovir now and avoid waiting for the PCR.", None),
    (DISSECTION, "What is the most likely diagnosis?", "I would say D is unlikely without ECG changes. The most likely diagnosis is B.", "B"),
    (DISSECTION, "What is the most likely diagnosis?", "I would go with B assuming a classic vignette: PE until proven otherwise.", "B"),
    (PANCREAS, "最可能的诊断是", "让我们逐一分析每个选项：\n\nA. 急性阑尾炎：转移性右下腹痛，不符合。\n\nB.", None),
    (PANCREAS, "最可能的诊断是", "本例需与急性胆囊炎（即选项B）鉴别，但淀粉酶1200U/L，应诊断为胰腺炎。", (None, "C")),
    (PREGNANCY_BP, "妊娠期禁止使用ACEI类药物，此时首选的口服降压药是", "妊娠期降压首选甲基多巴，故选A。", None),
    (PREGNANCY_BP, PREGNANCY_BP_NOT, "答案是D，拉贝洛尔、硝苯地平、甲基多巴都是孕期常用降压药。", "D"),
    (HERNIA_Q, "最易发生嵌顿的腹外疝是", "答案：D，腹股沟斜疝是最常见的腹外疝，但股疝最容易嵌顿。", "D"),
    (HERNIA_Q, "最易发生嵌顿的腹外疝是", "腹外疝中最常见的是腹股沟斜疝（A），但最易嵌顿的是股疝，选D。", "D"),
    (HERNIA_Q, "最易发生嵌顿的腹外疝是", "答案：D（股疝）。\n\n补充：最容易复发的是腹股沟直疝（B）。", "D"),
    (PREGNANCY_BP, "妊娠期禁止使用的降压药是", "答案：D。拉贝洛尔和硝苯地平都可选，但ACEI类孕期禁用。", "D"),
    (PANCREAS, "最可能的诊断是", "饮酒后上腹痛、淀粉酶升高，这种组合最常见于急性胰腺炎，因而本例诊断为急性胰腺炎。", "C"),
    (HERNIA_Q, "最易发生嵌顿的腹外疝是", "很多人会选A但正确答案是D，股疝最容易嵌顿。", "D"),
    (PREGNANCY_BP, PREGNANCY_BP_NOT, "答案：D\n\n解析：A、B、C都对，D卡托普利孕期禁用。", "D"),
])
def test_replies_written_against_the_round_25_rules(opts: dict, stem: str, reply: str, expected: object) -> None:
    assert _read(reply, opts, stem) in _allowed(expected)


@pytest.mark.parametrize(("claim", "reply", "expected"), [
    ("Fetal hemoglobin has a higher affinity for oxygen than adult hemoglobin.",
     "True. Compared with fetal hemoglobin, adult hemoglobin has a lower affinity for oxygen.", True),
    ("Fetal hemoglobin has a higher affinity for oxygen than adult hemoglobin.",
     "True. Adult hemoglobin does not bind oxygen as tightly as fetal hemoglobin, so it has a lower affinity for oxygen.", True),
    ("Sepsis is defined by SIRS criteria plus a suspected infection.", "True. I'm still a bit uncertain, because Sepsis-3 no longer uses SIRS.", None),
    ("Sepsis is defined by SIRS criteria plus a suspected infection.",
     "This is true under the 1991 definition. Because some experts now use Sepsis-3, it depends on which definition is meant.", None),
    ("Aspirin should be avoided in children.", "Answer: 'This statement is true' — aspirin is linked to Reye syndrome.", True),
    ("华法林在妊娠期可以安全使用。", "判断：‘此说法不正确’。华法林可通过胎盘。", False),
    ("华法林在妊娠期可以安全使用。", "‘妊娠期可以安全使用华法林’——错误。华法林可致胎儿畸形。", False),
    ("β受体阻滞剂会掩盖低血糖症状。", "正确。\n\n但需说明：基于现有文献，该说法正确与否取决于β受体阻滞剂的类型。", None),
])
def test_true_false_replies_written_against_the_round_25_rules(claim: str, reply: str, expected: object) -> None:
    assert read_strict(reply, TF, _statement(claim)).value == expected


@pytest.mark.parametrize(("claim", "reply", "expected"), [
    ("Asymptomatic bacteriuria in non-pregnant women does not require antibiotic treatment.",
     "The statement is true and no antibiotics are needed unless the patient is pregnant or about to undergo a urologic procedure.", True),
    ("Serum ferritin is increased in iron deficiency anemia.", "The statement is false.\n\nBreaking it down:\n- Ferritin is increased in iron "
     "deficiency anemia. False, it is decreased.\n- Ferritin is an acute-phase reactant and can be raised by inflammation. True.", False),
    ("Vitamin K is given to reverse the effect of heparin.", "Heparin is reversed with protamine sulfate. The statement that vitamin K is given "
     "to reverse warfarin is correct; vitamin K has no role for heparin.", (None, False)),
    ("The radial nerve innervates the triceps brachii.", "**Statement:** The radial nerve innervates the triceps brachii.\n**Verdict:** ✅ True\n\n"
     "**Explanation:** All three heads are supplied by the radial nerve.", True),
])
def test_true_false_replies_written_against_the_round_28_rules(claim: str, reply: str, expected: object) -> None:
    assert read_strict(reply, TF, _statement(claim)).value in _allowed(expected)


PERFORATION = {"A": "Nasogastric decompression and observation", "B": "Upper endoscopy", "C": "Emergency laparotomy",
               "D": "Testing for Helicobacter pylori", "E": "CT scan of the abdomen with oral contrast"}
PREGNANCY_HTN = {"A": "Lisinopril", "B": "Labetalol", "C": "Hydrochlorothiazide", "D": "Losartan", "E": "Spironolactone"}
LIVER_LESION = {"A": "Pyogenic liver abscess", "B": "Amebic liver abscess", "C": "Hepatocellular carcinoma", "D": "Hydatid cyst", "E": "Simple hepatic cyst"}
DIABETES = {"A": "Metformin", "B": "Insulin glargine", "C": "Glipizide", "D": "Metformin plus glipizide", "E": "Lifestyle modification alone"}
DIGOXIN_TX = {"A": "Intravenous calcium gluconate", "B": "Transcutaneous pacing", "C": "Digoxin-specific antibody fragments",
              "D": "Hemodialysis", "E": "Atropine"}
PANCREATITIS = {"A": "急性胰腺炎", "B": "急性胆囊炎", "C": "胆总管结石", "D": "消化性溃疡穿孔", "E": "急性心肌梗死"}
LYMPHOMA = {"A": "弥漫大B细胞淋巴瘤", "B": "霍奇金淋巴瘤", "C": "伯基特淋巴瘤", "D": "滤泡性淋巴瘤", "E": "急性淋巴细胞白血病"}
THYROID = {"A": "甲巯咪唑", "B": "丙硫氧嘧啶", "C": "复方碘溶液", "D": "普萘洛尔", "E": "放射性碘治疗"}
ULCER_STEPS = {"A": "急诊胃镜", "B": "腹部立位X线平片", "C": "剖腹探查", "D": "静脉用质子泵抑制剂", "E": "输血"}
CAUSES = {"A": "胆石症", "B": "大量饮酒", "C": "高甘油三酯血症", "D": "ERCP术后", "E": "暴饮暴食"}
NEPHROTIC = {"A": "大量蛋白尿", "B": "低白蛋白血症", "C": "水肿", "D": "肉眼血尿", "E": "高脂血症"}
OSTEOPOROSIS = {"A": "双膦酸盐", "B": "钙剂+维生素D", "C": "雌激素替代治疗", "D": "降钙素", "E": "甲状旁腺激素类似物"}
PREGNANT_THYROID = "妊娠早期合并甲亢，首选的药物是"


@pytest.mark.parametrize(("opts", "stem", "reply", "expected"), [
    (PREGNANCY_HTN, "Which medication is most appropriate in pregnancy?", "For a non-pregnant patient with diabetes, lisinopril is the drug of "
     "choice. In pregnancy, however, ACE inhibitors are teratogenic, and labetalol is the preferred agent.", (None, "B")),
    (PERFORATION, "What is the most appropriate next step?", "**A** Emergency laparotomy\n\nFree air means a perforated viscus.", None),
    (PERFORATION, "What is the most appropriate next step?", "Answer: C. Emergency laparotomy.\n\nI apologize for the error in my reasoning "
     "above where I mentioned endoscopy; with free air, surgery is the right choice.", "C"),
    (LIVER_LESION, "What is the most likely diagnosis?", "If he had diabetes or biliary disease, the diagnosis is most likely a pyogenic liver "
     "abscess (A). With recent travel to Mexico, an amebic liver abscess is more likely.\n\nAnswer: B", "B"),
    (PERFORATION, "What is the most appropriate next step?", "The usual next step for upper GI bleeding is to perform upper endoscopy. This "
     "patient, however, has a perforation, so the answer is emergency laparotomy.", "C"),
    (DIABETES, "What is the most appropriate pharmacotherapy?", "Answer: D. Metformin plus glipizide is essentially a combination of A and C.", "D"),
    (DIGOXIN_TX, "What is the most appropriate treatment?", "The answer is C. A common mistake is to think that D is also correct. Digoxin is "
     "highly tissue-bound, so hemodialysis removes very little of it.", "C"),
    (DIGOXIN_TX, "What is the most appropriate treatment?", "Digoxin toxicity.\n\nTreatment options include:\n- Stopping digoxin\n- Correcting "
     "electrolytes\n\nC. Digoxin-specific antibody fragments", "C"),
    (PANCREATITIS, "该患者最可能的诊断是", "心电图无ST段抬高，可以排除心梗，也就是选项E。上腹痛向腰背部放射、血淀粉酶升高，考虑胰腺炎。", (None, "A")),
    (LYMPHOMA, "该患儿最可能的诊断是", "诊断：B细胞来源的Burkitt淋巴瘤\n\n依据：儿童颌面部迅速增大的肿块。", (None, "C")),
    (PANCREATITIS, "该患者最可能的诊断是", "初步诊断：B. 急性胆囊炎？\n\n进一步查血淀粉酶明显升高。\n\n最终诊断：A. 急性胰腺炎", "A"),
    (THYROID, PREGNANT_THYROID, "非妊娠患者首选甲巯咪唑（A），但妊娠早期因甲巯咪唑有致畸风险，应选丙硫氧嘧啶。答案：B", "B"),
    (THYROID, PREGNANT_THYROID, "妊娠早期不推荐首选甲巯咪唑（A），因其有致畸风险。\n\n答案：B", "B"),
    (ULCER_STEPS, "该患者下一步最合适的处理是", "考虑消化性溃疡急性穿孔。\n\n首选检查：B. 腹部立位X线平片\n首选治疗：C. 剖腹探查\n\n本题问处理，答案：C", "C"),
    (CAUSES, "我国急性胰腺炎最常见的病因是", "答案：A（胆石症）。\n\n补充：西方国家最常见病因：大量饮酒（B）。", "A"),
    (THYROID, "治疗甲亢危象首选的药物是", "答案：B。甲亢危象首选PTU而不是甲巯咪唑，因为PTU还能抑制外周T4向T3转化。", "B"),
    (THYROID, PREGNANT_THYROID, "答案：B。妊娠早期甲亢首选PTU，进入妊娠中晚期后首选的药物则换为甲巯咪唑。", "B"),
    (NEPHROTIC, "关于肾病综合征，下列说法错误的是", "答案：D。A、B两项是诊断必备条件，C项正确，E项也正确。", "D"),
    (PANCREATITIS, "该患者最可能的诊断是", "答案：A（急性胰腺炎）。心电图正常，E也可以排除。", "A"),
    (OSTEOPOROSIS, "绝经后骨质疏松症伴椎体骨折，首选的治疗药物是", "答案：A。钙剂和维生素D也可以用，但只是基础治疗。", "A"),
])
def test_replies_written_against_the_round_28_rules(opts: dict, stem: str, reply: str, expected: object) -> None:
    assert read_strict(reply, option_format(opts), question(stem, opts)).value in _allowed(expected)
