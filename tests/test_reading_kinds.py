"""Each kind of reply that strict reading read wrongly or missed, in the words users reported it (English
and Chinese): false reads must stay unread (or read as shown), misses must be read. The reply corpus holds
many more forms of each kind (scripts/reply_forms.py); these are the reported examples themselves."""

from __future__ import annotations

import pytest

from medprobe.parsing.answers import jsonable, read_strict
from medprobe.records import AnswerFormat
from testing.mcq import option_format, statement_question
from testing.mcq import question as asked

EN = {"A": "Hemolytic transfusion reaction", "B": "Iron deficiency anemia", "C": "Riboflavin", "D": "Cholesterol embolization", "E": "Dabigatran"}
ZH = {"A": "缺铁性贫血", "B": "胸部CT", "C": "HCV", "D": "手术治疗", "E": "低血钾"}


_mcq = option_format


TF_EN = AnswerFormat(kind="true_false", options=[], option_texts={})
TF_ZH = AnswerFormat(kind="true_false", options=[], option_texts={}, language="zh")
CASES = [
    # both verdicts
    ("True / False", TF_EN, None), ("true\nfalse\ntrue", TF_EN, None),
    ("True - it is a transfusion reaction / False - stopping is not the treatment", TF_EN, None), ("正确\n错误", TF_ZH, None),
    # several options listed without a pick
    ("- Hemolytic transfusion reaction\n- Riboflavin\n- Dabigatran", _mcq(EN), None), ("A、B、D、E都是正确的", _mcq(ZH), None),
    ("缺铁性贫血\n胸部CT\nHCV", _mcq(ZH), None),
    # letter and text disagree
    ("The correct answer is D: Dabigatran", _mcq(EN), None), ("the answer is riboflavin (B)", _mcq(EN), None), ("答案是A：HCV", _mcq(ZH), None),
    # options judged during the analysis
    ("Option C is incorrect. Option D is also correct in part. So the answer is B.", _mcq(EN), "B"),
    ("Option A) Hemolytic transfusion reaction matches what we need. However, the final answer is E.", _mcq(EN), "E"),
    ("Now, let's analyse each option:\nA. Hemolytic transfusion reaction - unlikely\nB. Iron deficiency anemia - possible", _mcq(EN), None),
    ("选项A：……是正确的叙述。选项B：……也正确。……综上所述，选项D是错误的叙述。所以，正确答案是D。", _mcq(ZH), "D"),
    # none of the above
    ("the answer is none of the above", _mcq(EN), None), ("none of the options is correct", _mcq(EN), None),
    ('{"answer_choice": "None of the above"}', _mcq(EN), None), ("以上选项都不正确", _mcq(ZH), None), ("没有正确选项", _mcq(ZH), None),
    ("以上都不对", _mcq(ZH), None),
    # quoted statements with a negation
    ('The statement "Kawasaki disease is not the most likely diagnosis" is false.', TF_EN, False),
    ('The statement "Kawasaki disease is not the most likely diagnosis" is true.', TF_EN, True),
    ("该说法“糖尿病不是遗传病”是错误的。", TF_ZH, False),
    # replies about other questions
    ("I apologize for my previous response. Here are the answers:\n1. B\n2. C\n3. A", _mcq(EN), None),
    # invisible characters
    ("\u200bfalse", TF_EN, False), ("\u00adC", _mcq(EN), "C"), ("\ufeffC", _mcq(EN), "C"), ("\u00a0false", TF_EN, False),
    # structured answers
    ('{"answer": "C"}', _mcq(EN), "C"), ('{"step_by_step_thinking": "…", "answer_choice": "D. Cholesterol embolization"}', _mcq(EN), "D"),
    ('```json\n{"answer": "C"}\n```', _mcq(EN), "C"), ('Answer: {"choice": "B"}', _mcq(EN), "B"), ('{"answer": "Dabigatran"}', _mcq(EN), "E"),
    # enumerated restatement
    ("A) Hemolytic transfusion reaction\n2) Iron deficiency anemia\n3) Riboflavin\n4) Cholesterol embolization\n5) Dabigatran\nThe answer is Dabigatran", _mcq(EN), "E"),
    # verdicts in words, Chinese conclusion forms, full-width and bracketed letters
    ('The statement "aspirin is not indicated" is accurate.', TF_EN, True), ('Answer: "False"', TF_EN, False), ("答案：“错误”", TF_ZH, False), ("That is correct.", TF_EN, True), ("The claim is untrue.", TF_EN, False),
    ("该说法错误", TF_ZH, False), ("这个说法是对的", TF_ZH, True), ("这个说法不对", TF_ZH, False),
    ("答案：C", _mcq(ZH), "C"), ("故选C", _mcq(ZH), "C"), ("综上，选 C 项", _mcq(ZH), "C"), ("正确答案为（C）", _mcq(ZH), "C"),
    ("综上，我认为最好的选择是B：胸部CT。", _mcq(ZH), "B"), ("根据以上分析，最不常见的表现是E：低血钾。", _mcq(ZH), "E"),
    ("该患者应首选的治疗是D：手术治疗。", _mcq(ZH), "D"), ("……因此最可能的诊断是缺铁性贫血。", _mcq(ZH), "A"),
    ("（C）", _mcq(ZH), "C"), ("Ｃ项", _mcq(ZH), "C"), ("选C。", _mcq(ZH), "C"), ("答案为：C", _mcq(ZH), "C"), ("正确选项：C、HCV", _mcq(ZH), "C"),
]


@pytest.mark.parametrize(("reply", "fmt", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_the_reported_reply_is_read_as_its_reader_would(reply: str, fmt: AnswerFormat, expected: object) -> None:
    reading = read_strict(reply, fmt)
    assert jsonable(reading.value) == expected, reading


def test_an_inline_walk_through_the_options_is_never_read_as_its_first_option() -> None:
    """"A: no. B: no. C: yes. …" judges every option; it was read as A (the leading letter). It now stays
    unread: a false read is worse than a miss, and no rule yet reads the one "yes" among the "no"s."""
    assert read_strict("A: no. B: no. C: yes. D: no. E: no.", _mcq(EN)).value is None


_SET_ZH = AnswerFormat(kind="letter_set", options=list(ZH), option_texts=ZH, language="zh")
_SET_EN = AnswerFormat(kind="letter_set", options=list(EN), option_texts=EN)
_ZH_LIST = "A: 缺铁性贫血\tB: 胸部CT\tC: HCV\tD: 手术治疗\tE: 低血钾"
_EN_LIST = "\n".join(f"{letter}: {text}" for letter, text in EN.items())


@pytest.mark.parametrize(
    ("reply", "fmt", "expected"),
    [
        # a small model echoing the question: "选项：A: …" is the copied option list, not an answer
        (f"问题：以下哪一项是诊断？\n选项：{_ZH_LIST}\n答案：learnedmodel", _mcq(ZH), None),
        (f"问题：以下哪一项是诊断？\n选项：{_ZH_LIST}\n答案：\n请先简要说明理由。\n问题：以下哪一项是诊断？\n选项：A: 缺", _mcq(ZH), None),
        (f"问题：以下哪一项是诊断？\n选项：{_ZH_LIST}\n答案：C", _mcq(ZH), "C"),
        (f"Question: Which do NOT belong? One or more options may be right.\nOptions: {_EN_LIST}\nAnswer: \nFormat your reply", _SET_EN, None),
        (f"问题：以下哪些属于？\n选项：{_ZH_LIST}\n答案：", _SET_ZH, None),
        # some options with their texts is an answer, not the list
        ("A: Hemolytic transfusion reaction\nC: Riboflavin", _SET_EN, ["A", "C"]),
    ],
)
def test_a_copied_option_list_is_never_an_answer(reply: str, fmt: AnswerFormat, expected: object) -> None:
    """Gemma 3 270M's replies copy the question with its option list; "选项：A" read as labelled A, the
    first block's "问题：" kept every later invented block, and "Options: A" read as the set {A}."""
    assert jsonable(read_strict(reply, fmt).value) == expected


def test_a_copied_solved_example_is_not_the_answer_to_our_statement() -> None:
    """Gemma 3 270M copied the prompt's first solved example with its answer; "false" answered that
    statement, not ours (found by `medprobe readings audit` with a blind reviewer)."""
    reply = ('Answer the medical questions below. Follow the solved examples and reply with the answer only.\n\n'
             'Statement: "Rifaximin belongs to the medications of Otitis media." Is this statement true or false? '
             'Reply true or false.\nAnswer: false\n\n')
    assert read_strict(reply, TF_EN).value is None
    assert read_strict("False.\n\nStatement: \"X is Y.\" Is this statement true or false?\nAnswer: true", TF_EN).value is False
    assert read_strict("错误。\n陈述：“X属于Y。”该陈述正确还是错误？\n答案：正确", TF_ZH).value is False


@pytest.mark.parametrize(("reply", "fmt"), [
    ('\n[INST]Statement: "Aspirin belongs to the medications of Gout." Is this statement true or false?\nAnswer: true', TF_EN),
    ("[INST]陈述：“阿司匹林属于痛风的常用药物。”该陈述正确还是错误？\n答案：正确", TF_ZH),
    ("<start_of_turn>user\nQuestion: Which is a symptom of gout?\nOptions: A: Rash\tB: Fever\nAnswer: B", _mcq(EN)),
])
def test_a_question_of_its_own_behind_a_chat_template_marker_is_not_answered(reply: str, fmt: AnswerFormat) -> None:
    """Gemma 3 270M writes "[INST]" before a statement it made up; the marker hid the statement's head, and
    the made-up statement's "true" was read as the answer to ours (found on a fresh, blind-read round)."""
    question = 'Statement: "Ethambutol belongs to the medications of Pericarditis." Is this statement true or false?\nAnswer:'
    assert read_strict(reply, fmt, question).value is None


@pytest.mark.parametrize(("reply", "fmt", "expected"), [
    ("Answer: [INST]true", TF_EN, True), ("[INST] false [/INST]", TF_EN, False), ("<start_of_turn>model\nC<end_of_turn>", _mcq(EN), "C"),
    ("答案：  [INST]错误", TF_ZH, False),
])
def test_chat_template_markers_around_an_answer_are_no_part_of_it(reply: str, fmt: AnswerFormat, expected: object) -> None:
    assert jsonable(read_strict(reply, fmt).value) == expected


MCQ_Q = "Question: Which of the following belongs to the medications of Tuberculosis?\nOptions: A: Ribavirin\tB: Estrogen cream\tC: Rifampin\tD: Methylphenidate\nAnswer:"
MCQ_Q_ZH = "问题：以下哪一项属于先天性二尖瓣畸形的继发疾病？\n选项：A: 脊髓压迫症\tB: 单心室\tC: 肛门闭锁\tD: 阴道念珠菌病\n答案："
TB = {"A": "Ribavirin", "B": "Estrogen cream", "C": "Rifampin", "D": "Methylphenidate"}
CHD = {"A": "脊髓压迫症", "B": "单心室", "C": "肛门闭锁", "D": "阴道念珠菌病"}


@pytest.mark.parametrize(("reply", "question", "texts", "expected"), [
    # our question written out again with another answer: no commitment (Gemma 3 270M loops so)
    (f"{MCQ_Q} C\n\n{MCQ_Q} A\n\n", MCQ_Q, TB, None),
    (f"{MCQ_Q_ZH} B\n\n{MCQ_Q_ZH.replace('哪一项', '哪项')} C\n\n", MCQ_Q_ZH, CHD, None),  # a copy that drops a character
    (f"{MCQ_Q} C\n\n{MCQ_Q} I am not sure\n\n", MCQ_Q, TB, None),  # a copy answered in words that cannot be read
    # look-alikes that still read: the same answer each time, a last copy cut off by the token limit, and copies
    # left blank around the one answered (blind readers read C: a blank copy says nothing against it)
    (f"{MCQ_Q}\n\n{MCQ_Q} C\n\n{MCQ_Q}\n\nQuestion: Which", MCQ_Q, TB, "C"),
    (f"{MCQ_Q}\n\n{MCQ_Q}\n\n", MCQ_Q, TB, None),
    (f"{MCQ_Q} C\n\n{MCQ_Q} C\n\n", MCQ_Q, TB, "C"),
    (f"{MCQ_Q_ZH} B\n\n{MCQ_Q_ZH} B\n\n{MCQ_Q_ZH[:30]}", MCQ_Q_ZH, CHD, "B"),
    (f"{MCQ_Q} C\n\nQuestion: Which of the following belongs to the medications of Gout?\nOptions: A: Allopurinol\nAnswer: A", MCQ_Q, TB, "C"),
])
def test_a_reply_that_loops_over_our_question_commits_only_to_one_answer(reply: str, question: str, texts: dict, expected: object) -> None:
    fmt = AnswerFormat(kind="option_letter", options=list(texts), option_texts=texts, language="zh" if texts is CHD else "en")
    assert read_strict(reply, fmt, question).value == expected


def test_a_revision_question_with_another_given_answer_is_another_question() -> None:
    ours = "Question: Which is a symptom of gout?\nOptions: A: Rash\tB: Joint pain\tC: Cough\nThe given answer is B. Judge whether it is right.\nAnswer:"
    other = ours.replace("given answer is B", "given answer is C")
    fmt = AnswerFormat(kind="verdict_letter", options=["A", "B", "C"], option_texts={"A": "Rash", "B": "Joint pain", "C": "Cough"}, given="B")
    assert jsonable(read_strict(f"{ours} correct\n\n{other} incorrect, B\n\n", fmt, ours).value) == [True, "B"]


HALLUCINATIONS = {"A": "幻视", "B": "言语性幻听", "C": "幻嗅", "D": "幻触", "E": "幻味"}
SLE = {"A": "抗核抗体", "B": "抗双链DNA抗体", "C": "抗Sm抗体", "D": "抗SSA抗体", "E": "类风湿因子"}
APPENDICITIS = {"A": "转移性右下腹痛", "B": "恶心、呕吐", "C": "发热", "D": "腹泻", "E": "右下腹包块"}
LIST = "A.幻视 B.言语性幻听 C.幻嗅 D.幻触 E.幻味"


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # a model looping on the option list, cut off by the token limit inside a copy: no answer
    (f"精神分裂症最常见的幻觉是{LIST} {LIST} A.幻视 B.言语性幻听", HALLUCINATIONS, None),
    (f"{LIST} {LIST} A.幻视 B.言语性幻听 C.幻嗅", HALLUCINATIONS, None),
    # a conclusion naming the letter as what the question asks, or such a sentence ending the reply
    ("抗Sm抗体特异性高达99%；ANA敏感性最高但特异性低。\n\n所以特异性最高的是C。", SLE, "C"),
    ("抗Sm抗体是SLE的标志性抗体。特异性最高的是C。", SLE, "C"),
    # the answer named by the question's superlative and an option's whole text
    ("急性阑尾炎最典型的症状是转移性右下腹痛。恶心呕吐、发热等为伴随症状，缺乏特异性。", APPENDICITIS, "A"),
    # look-alikes that must not read: two letters, a letter not ending the sentence, a text that is no option's
    ("所以特异性最高的是C和D。", SLE, None),
    ("特异性最高的是C，敏感性最高的是A，二者用途不同，请结合临床。", SLE, None),
    ("急性阑尾炎最典型的症状是腹痛。", APPENDICITIS, None),
])
def test_chinese_conclusions_and_copied_lists(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "zh")
    assert read_strict(reply, fmt).value == expected


def test_a_looping_option_list_cut_after_a_letter_answers_nothing() -> None:
    texts = {"A": "咽喉肌", "B": "四肢近端肌", "C": "呼吸肌", "D": "眼外肌", "E": "面肌"}
    fmt = option_format(texts, "zh")
    copy = "A 咽喉肌 B 四肢近端肌 C 呼吸肌 D 眼外肌 E 面肌"
    assert read_strict(f"{copy} {copy} A 咽喉肌 B", fmt).value is None
    assert read_strict("A 咽喉肌", fmt).value == "A"  # one option with its text, no list copied: an answer


ANTITHYROID = {"A": "甲巯咪唑", "B": "丙硫氧嘧啶", "C": "放射性碘", "D": "手术", "E": "普萘洛尔"}
IRON = {"A": "血清铁", "B": "血清铁蛋白", "C": "总铁结合力", "D": "转铁蛋白饱和度", "E": "红细胞游离原卟啉"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # a letter, then an explanation that names another option's text as the answer: no commitment
    ("【答案】A\n【解析】妊娠早期首选丙硫氧嘧啶，因甲巯咪唑可能致胎儿皮肤发育不全。", ANTITHYROID, None),
    # ... but a text given up before the last letter does not count against it
    ("首选药物是甲巯咪唑……不对，更正一下：妊娠早期首选的是丙硫氧嘧啶。所以正确答案应为B。", ANTITHYROID, "B"),
    ("【答案】B\n【解析】妊娠早期首选丙硫氧嘧啶。", ANTITHYROID, "B"),  # letter and text agree
    # several Chinese sentences that are each an option's text: a list without a pick
    ("最敏感的指标是血清铁。血清铁蛋白。总铁结合力。", IRON, None),
])
def test_a_letter_against_a_later_text_and_sentences_listing_options(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "zh")
    assert read_strict(reply, fmt).value == expected


VESSELS = {"A": "Left anterior descending artery", "B": "Left circumflex artery", "C": "Right coronary artery",
           "D": "Left main coronary artery", "E": "First diagonal branch"}
WALK = ("A. Left anterior descending artery — anterior leads. Incorrect.\nB. Left circumflex artery — lateral leads. Incorrect.\n"
        "E. First diagonal branch — high lateral leads. Incorrect.\n\n")


@pytest.mark.parametrize(("reply", "expected"), [
    # a conclusion after an option-by-option analysis
    (WALK + "Conclusion: C", "C"),
    (WALK + "Conclusion: The right coronary artery (option C) is the most likely culprit.", "C"),
    (WALK + "Therefore the most likely diagnosis is C.", "C"),
    ("Option A, left anterior descending: anterior wall.\nOption B, left circumflex: lateral wall.\n\nSo the correct choice is option C.", "C"),
    ("(A) Left anterior descending artery – anterior leads. Incorrect.\n(C) Right coronary artery – inferior leads. Correct.\n\nAnswer: (C)", "C"),
    ("Leads I and aVL are normal (so A, B, and E are incorrect). Option D would be diffuse.\n\n**The answer is C.**", "C"),
    ("Given the inferior leads, the most likely culprit vessel would be C) Right coronary artery.", "C"),
    ("The most likely culprit vessel is the right coronary artery (option C). It supplies the inferior wall.", "C"),
    # look-alikes that must stay unread
    ("Let's go through the options:\n\nA. Left anterior descending artery — supplies the anterior wall, not", None),
    ("(A) Left anterior descending artery – anterior leads.\n(B) Left circumflex artery – lateral leads.", None),
    ("The most likely cause is E. coli bacteremia.", None),
    ("The most likely culprit vessel is the left circumflex artery (option C).", None),
    ("So A, B, and E are incorrect.", None),
    (WALK + "Conclusion: A or C", None),
    ("The most important vessel to exclude is A.", None),
    (WALK + "So the left main coronary artery (option D) is unlikely.", None),
    (WALK + "Thus not the left main coronary artery (option D), since aVR is normal.", None),
])
def test_a_conclusion_after_a_chain_of_thought(reply: str, expected: object) -> None:
    """Chain-of-thought replies end with a conclusion that names the letter or the option's text with its
    letter; the analysis before it names every option and must not be read as the answer."""
    assert read_strict(reply, _mcq(VESSELS)).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("**True** ✅\n\nFactors II, VII, IX and X depend on vitamin K.", True), ("False ✔", False),
    ("True ❌", None),  # does the cross mark the statement or the answer?
    ('```json\n{"statement_is": "false", "reason": "fetotoxic"}\n```', False),
    ('{"answer": "True", "explanation": "It spreads through blood, not stool, so the statement is false."}', None),
    ('{"answer": "True", "explanation": "Warfarin blocks vitamin K epoxide reductase, so the statement is true."}', True),
])
def test_verdict_marks_and_json_fields(reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN).value is expected


def test_a_verdict_headed_by_our_statement_quoted_answers_our_question() -> None:
    question = statement_question("ACE inhibitors are safe in pregnancy.")
    ours = 'Statement: "ACE inhibitors are safe in pregnancy."\n\nThis is incorrect. They are fetotoxic.'
    assert read_strict(ours, TF_EN, question).value is False
    assert read_strict(ours.replace("This is incorrect", "This statement is inaccurate"), TF_EN, question).value is False
    other = 'Statement: "Metformin is safe in pregnancy."\n\nThis is correct.'
    assert read_strict(other, TF_EN, question).value is None  # a statement of its own


AUSCULTATION = {"A": "胸骨左缘第2肋间", "B": "胸骨右缘第2肋间", "C": "心尖部", "D": "胸骨左缘第3肋间", "E": "剑突下"}
ORGANOPHOSPHATE = {"A": "阿托品", "B": "碘解磷定", "C": "新斯的明", "D": "毒扁豆碱", "E": "肾上腺素"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # the thing asked about located or defined by an option's text, or an option's text as the superlative's subject
    ("主动脉瓣听诊区位于胸骨右缘第2肋间。", AUSCULTATION, "B"),
    ("阿托品是解除M样症状的首选药物。", ORGANOPHOSPHATE, "A"),
    # a letter contradicted by such a text, a negated subject, two options accepted: no answer
    ("答案：A\n\n主动脉瓣听诊区即胸骨右缘第2肋间。", AUSCULTATION, None),
    ("答案：B\n\n主动脉瓣听诊区即胸骨右缘第2肋间。", AUSCULTATION, "B"),
    ("阿托品不是首选药物。", ORGANOPHOSPHATE, None),
    ("不宜立即手术治疗，应先纠正电解质紊乱。", ZH, None), ("随即手术治疗。", ZH, None),  # 立即, 随即: adverbs, not "is"
    ("阿托品是首选，碘解磷定也是首选，因此A和B都可以。", ORGANOPHOSPHATE, None),
])
def test_chinese_texts_that_name_the_answer(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "zh")
    assert read_strict(reply, fmt).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("This is iron deficiency anemia (microcytic, low ferritin). Oral iron is the first treatment.", "B"),
    ("This is not iron deficiency anemia (ferritin is normal). Thalassemia trait fits better.", None),
    ("This is iron deficiency anemia or a hemolytic transfusion reaction. More tests are needed.", None),
])
def test_a_reply_opening_with_the_option_text_as_its_diagnosis(reply: str, expected: object) -> None:
    assert read_strict(reply, _mcq(EN)).value == expected


GENOTYPES = {"A": "47,XXY", "B": "46,XY", "C": "45,X", "D": "47,XXX", "E": "46,XX"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # the first sentence is an option's whole text, then the explanation
    ("Right coronary artery. Inferior leads point to the RCA.", VESSELS, "C"),
    ("45,X — this is Turner syndrome (monosomy X).", GENOTYPES, "C"),
    ("低血糖昏迷。1型糖尿病患者依赖胰岛素治疗。", {"A": "乳酸性酸中毒", "B": "低血糖昏迷"}, "B"),
    ("0.5 mg. Higher doses cause QT prolongation.", {"A": "5 mg", "B": "0.5 mg"}, "B"),  # "0.5" ends no sentence
    # look-alikes: the sentence rules the option out, options discussed one by one, or more than the text
    ("Left circumflex artery — incorrect, it supplies the lateral wall.", VESSELS, None),
    ("Left circumflex artery. Lateral wall.\nRight coronary artery. Inferior wall.", VESSELS, None),
    ("Right coronary artery disease is common. Inferior leads are involved.", VESSELS, None),
])
def test_a_reply_opening_with_an_option_text_as_its_first_sentence(reply: str, texts: dict, expected: object) -> None:
    fmt = AnswerFormat(kind="option_letter", options=list(texts), option_texts=texts, language="zh" if "。" in reply else "en")
    assert read_strict(reply, fmt).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    # a chain of thought ending by naming the option after a dash, or its text as the most likely one
    (WALK + "So the culprit is the vessel of the inferior wall — option C.", "C"),
    (WALK + "**Conclusion:** The right coronary artery is the most likely culprit vessel.", "C"),
    # look-alikes: the dashed option ruled out, the text followed by more words, not ending the reply
    (WALK + "The anterior wall is not involved — option A.", None),
    (WALK + "The right coronary artery is the most likely culprit vessel in general, but here the circumflex is.", None),
    (WALK + "Right coronary artery occlusion is the most likely culprit vessel.", None),
])
def test_a_conclusion_naming_its_option_by_a_dash_or_as_the_most_likely(reply: str, expected: object) -> None:
    assert read_strict(reply, _mcq(VESSELS)).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("This statement is both true and false. In one sense it is false; in another it can also be true.", None),
    ("该说法既正确又错误：从发病机制看，该说法是错误的。", None),
    # look-alikes: the same verdict twice, or "both" naming two things the statement says
    ("The statement is true: both true hypertrophy and hyperplasia occur. It is true.", True),
])
def test_a_reply_calling_the_statement_both_true_and_false_gives_no_verdict(reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN).value is expected


JOINTS = {"A": "远端指间关节", "B": "第一跖趾关节", "C": "腕、掌指关节和近端指间关节", "D": "骶髂关节"}
IRON_ZH = {"A": "血清铁降低", "B": "总铁结合力升高", "C": "血清铁蛋白降低", "D": "骨髓铁染色示细胞外铁消失"}
ANEMIA = {"A": "贫血", "B": "白血病"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # a superlative clause ending with an option's whole text after a verb names that option
    ("类风湿关节炎最常累及腕、掌指关节和近端指间关节，呈对称性分布。", JOINTS, "C"),
    ("答案是C。类风湿关节炎最常累及腕、掌指关节和近端指间关节。", JOINTS, "C"),
    # ... so a letter followed by such a clause naming another option commits to nothing
    ("答案是A。类风湿关节炎最常累及腕、掌指关节和近端指间关节，呈对称性分布。", JOINTS, None),
    # look-alikes: the text is the end of a longer name, or the clause rules it out
    ("最常见的是缺铁性贫血。", ANEMIA, None),
    ("类风湿关节炎最不常累及远端指间关节。", JOINTS, None),
    # a superlative naming a text with its letter in brackets is an answer statement (here against 应选D)
    ("最可靠的无创指标是血清铁蛋白（C）。", IRON_ZH, "C"),
    ("从金标准角度看应选D，但临床上最常用、最可靠的无创指标是血清铁蛋白（C）。", IRON_ZH, None),
    ("最可靠的指标是血清铁降低（C）。", IRON_ZH, None),  # the text of A with the letter C
])
def test_chinese_superlatives_naming_an_option(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "zh")
    assert read_strict(reply, fmt).value == expected


NIGRA = {"A": "Caudate nucleus", "B": "Substantia nigra pars compacta", "C": "Locus coeruleus"}


@pytest.mark.parametrize(("reply", "expected"), [
    # an answer taken back: what follows the last retraction is the answer
    ("The answer is A. The caudate degenerates... wait, actually that is not correct. The caudate is Huntington's."
     "\n\nSo the correct answer is B. Substantia nigra pars compacta.", "B"),
    ("答案是A。不对，更正一下：正确答案是B。", "B"),
    # a reconsideration takes back what came before it, as blind readers take it ("Wait, let me reconsider. … The correct
    # answer is D")
    ("Final answer: A\nWait, let me reconsider. Final answer: B", "B"),
    ("答案：A\n\n抱歉，上面的回答可能有误。两者都是可能的并发症，请以教材为准。", None),
    # look-alikes: a retraction with no answer after it, a plain "actually"
    ("The answer is A. Wait, that is not correct. I am not sure.", None),
    ("The answer is A. Actually, B is also possible.", None),
])
def test_an_answer_taken_back_gives_way_to_the_one_after(reply: str, expected: object) -> None:
    fmt = AnswerFormat(kind="option_letter", options=list(NIGRA), option_texts=NIGRA, language="zh" if "。" in reply else "en")
    assert read_strict(reply, fmt).value == expected


ANTIBIOTICS = ('Statement: "Antibiotics shorten the duration of viral upper respiratory infections." Is this statement true '
               "or false? Reply true or false.\nAnswer:")


@pytest.mark.parametrize(("reply", "expected"), [
    # our statement written out after "The statement that …" carries the verdict
    ("Thank you! The statement that antibiotics shorten the duration of viral upper respiratory infections is not "
     "accurate. They only kill bacteria.", False),
    ("The claim that antibiotics shorten the duration of viral upper respiratory infections is correct.", True),
    # look-alikes: a statement of the reply's own, or a verdict word that is no verdict
    ("The statement that the test is accurate is false here. Rest and fluids help.", None),
    ("The statement that antibiotics shorten the duration of viral upper respiratory infections is a common myth.", None),
])
def test_our_statement_written_out_after_the_statement_that(reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN, ANTIBIOTICS).value is expected


VITAMINS = {"A": "Thiamine", "B": "Pyridoxine", "C": "Folic acid", "D": "Vitamin B12"}


@pytest.mark.parametrize(("reply", "expected"), [
    # an opening sentence that is an option's text with another name for it in brackets
    ("Vitamin B6 (pyridoxine). Isoniazid depletes it.", "B"),
    ("Pyridoxine (vitamin B6). Isoniazid depletes it.", "B"),
    # look-alikes: the two names are two options, the aside rules the option out, more than a name
    ("Thiamine (or pyridoxine). Both are B vitamins.", None),
    ("Folic acid (vitamin B12). Both are needed.", None),
    ("Thiamine (not pyridoxine). Isoniazid depletes it.", None),
    ("Vitamin B6 deficiency (pyridoxine) is unlikely here.", None),
])
def test_an_opening_name_with_another_name_in_brackets(reply: str, expected: object) -> None:
    assert read_strict(reply, _mcq(VITAMINS)).value == expected


HEMORRHAGE = {"A": "脑叶", "B": "小脑", "C": "脑桥", "D": "基底节区", "E": "丘脑"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("| 部位 | 比例 |\n|---|---|\n| 丘脑 | 约10% |\n| 脑叶 | 约10% |\n\n所以最常见的是 **D 基底节区**。", "D"),
    # look-alikes: the letter with another option's text, or with more than its text
    ("所以最常见的是 D 丘脑。", None),
    ("所以最常见的是 D 基底节区以外的部位。", None),
])
def test_a_letter_and_its_own_text_set_off_by_a_space(reply: str, expected: object) -> None:
    fmt = option_format(HEMORRHAGE, "zh")
    assert read_strict(reply, fmt).value == expected


IONS = {"A": "Na⁺", "B": "Cl⁻", "C": "Ca²⁺", "D": "HCO₃⁻", "E": "K⁺"}
BURNS = {"A": "9%", "B": "13%", "C": "18%", "D": "27%", "E": "36%"}
IRON_STORES = {"A": "血清铁降低", "B": "转铁蛋白饱和度降低", "C": "血红蛋白降低", "D": "骨髓细胞外铁（储存铁）减少或消失", "E": "红细胞游离原卟啉升高"}
HERNIA = {"A": "股疝", "B": "腹股沟斜疝", "C": "腹股沟直疝", "D": "切口疝", "E": "脐疝"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # a letter with another option's text, compared in one width (the reply is read folded: （）→(), ⁺→+)
    ("正确答案是 E. Na⁺。钠离子维持细胞外液渗透压。", IONS, None),
    ("答案是A：骨髓细胞外铁（储存铁）减少或消失。", IRON_STORES, None),
    ("答案是D：骨髓细胞外铁（储存铁）减少或消失。", IRON_STORES, "D"),
    ("正确答案是 A. Na⁺。", IONS, "A"),
    # another option's text in the letter's own sentence
    ("答案是B，即18%。双上肢共占18%。", BURNS, None),
    ("答案是C，即18%。", BURNS, "C"),
    # "下面逐一分析各选项：" announces an analysis: its first option is no answer
    ("腹外疝有多种类型。下面逐一分析各选项：\n\nA. 股疝：多见于中年以上妇女，", HERNIA, None),
])
def test_letters_against_their_texts_in_one_width_and_announced_analyses(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "zh")
    assert read_strict(reply, fmt).value == expected


def test_an_option_whose_text_is_letters_does_not_contradict_a_letter() -> None:
    """MedMCQA asks which of statements a–e are right, with options "c", "bc": the reply "C" is option C."""
    texts = {"A": "a", "B": "c", "C": "bc", "D": "ad"}
    fmt = AnswerFormat(kind="option_letter", options=list(texts), option_texts=texts)
    assert read_strict("C", fmt).value == "C"


GLUCOSE = {"A": "≥5.6 mmol/L", "B": "≥6.1 mmol/L", "C": "≥7.0 mmol/L", "D": "≥7.8 mmol/L", "E": "≥11.1 mmol/L"}
TRACTS = {"A": "眼外肌", "B": "咽喉肌", "C": "呼吸肌", "D": "四肢近端肌", "E": "颈肌"}
RATES = {"A": "60~80次/分", "B": "80~100次/分", "C": "100~120次/分", "D": "120~140次/分", "E": "≥140次/分"}
ANTIDOTES = {"A": "阿托品", "B": "碘解磷定", "C": "新斯的明", "D": "肾上腺素", "E": "毒扁豆碱"}
NOTIFIABLE = {"A": "艾滋病", "B": "流行性感冒", "C": "炭疽", "D": "狂犬病", "E": "鼠疫"}
ANTIBODIES = {"A": "IgG", "B": "IgM", "C": "IgA", "D": "IgE", "E": "IgD"}
CHEST = {"A": "大叶性肺炎", "B": "胸腔积液", "C": "急性心肌梗死", "D": "右侧自发性气胸", "E": "急性肺栓塞"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # a letter whose clause holds another option's whole text (and not its own): the two disagree
    ("答案是D：空腹血糖≥7.0 mmol/L。两次空腹血糖达到该值即可诊断。", GLUCOSE, None),
    ("答案是C：空腹血糖≥7.0 mmol/L。", GLUCOSE, "C"),
    ("答案是C，而不是≥6.1 mmol/L。", GLUCOSE, "C"),
    # an analysis cut off at its first heading ("A. 眼外肌：") answers nothing
    ("重症肌无力以易疲劳为特点。\n\n下面逐项分析：\n\nA. 眼外肌：", TRACTS, None),
    # a loop over the option list that the token limit caught mid-list at both ends
    ("C. 100~120次/分 D. 120~140次/分 E. ≥140次/分 A. 60~80次/分 B. 80~100次/分 C. 100~120次/分 D. 120~140次/分 "
     "E. ≥140次/分 A. 60~80次/分 B. 80~100次/分 C. 100~120次/分", RATES, None),
    # a letter named as an option by the verb, and a superlative used as a label
    ("鼻出血最常见的部位是E选项，即利特尔区。", {**TRACTS, "E": "鼻中隔前下部"}, "E"),
    ("鼻出血最常见的部位不是E选项。", {**TRACTS, "E": "鼻中隔前下部"}, None),
    ("体征符合气胸。\n\n**最可能的诊断：D. 右侧自发性气胸**", CHEST, "D"),
    # "更正：" and "不对，重新考虑一下：" take back the answer before them
    ("答案：E（鼠疫）……\n\n更正：审题有误，题目问的是乙类。因此最终答案应为 **B**。", NOTIFIABLE, "B"),
    ("正确答案是C。\n\n不对，重新考虑一下：应当选D。所以答案应为D。", NOTIFIABLE, "D"),
    # the next line of a bullet list is not the text that "首选" names
    ("**A. 阿托品** ✅\n\n- 阿托品：阻断M受体，首选\n- 碘解磷定：恢复胆碱酯酶活性", ANTIDOTES, "A"),
    # lines that open with each option's letter and text go through the options; the conclusion answers
    ("A 艾滋病：乙类\nB 流行性感冒：丙类\nC 炭疽：乙类\nD 狂犬病：乙类\nE 鼠疫：甲类\n\n甲类传染病只有鼠疫和霍乱，故选E。", NOTIFIABLE, "E"),
    # what the question asks, as the subject with a "主要" before its verb
    ("参与Ⅰ型超敏反应的抗体主要是IgE。", ANTIBODIES, "D"),
    ("参与Ⅱ型超敏反应的抗体主要是IgG和IgM。", ANTIBODIES, None),
])
def test_chinese_letters_headings_loops_retractions_and_lists(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "zh")
    assert read_strict(reply, fmt).value == expected


ENZYMES = {"A": "Glucose-6-phosphate dehydrogenase", "B": "Pyruvate kinase", "C": "Spectrin", "D": "Hexokinase", "E": "Substantia nigra pars compacta"}
NEWBORN = {"A": "Hypertrophic pyloric stenosis", "B": "Hirschsprung disease", "C": "Duodenal atresia", "D": "Meconium ileus", "E": "Intussusception"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # two options, each with its text in brackets, joined by "or"
    ("So the most likely answer is C (duodenal atresia) or B (Hirschsprung disease).", NEWBORN, None),
    ("So the most likely answer is C (duodenal atresia). B is less likely.", NEWBORN, "C"),
    # what the question asks, named by its superlative with a long subject, then the option's text
    ("The most likely deficient enzyme in this patient is glucose-6-phosphate dehydrogenase (G6PD). Avoid oxidants.", ENZYMES, "A"),
    ("The most likely deficient enzyme in this patient is not pyruvate kinase.", ENZYMES, None),
    # a letter with its own text after "by"
    ("The drug works by B. Pyruvate kinase, which is odd.", ENZYMES, "B"),
    ("The drug works by B. Spectrin, which is odd.", ENZYMES, None),
    # an opening sentence that is an option's text after "The"
    ("The substantia nigra pars compacta — loss of its neurons causes the tremor.", ENZYMES, "E"),
])
def test_english_pairs_in_brackets_long_superlatives_and_articles(reply: str, texts: dict, expected: object) -> None:
    assert read_strict(reply, _mcq(texts)).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    # a verdict on part of the statement is no verdict on it
    ("The first part of the statement is true: isoniazid causes neuropathy. The second part is false.", None),
    ("The first half of the statement is correct, the rest I cannot judge.", None),
    # one verdict for one case and its opposite for another
    ("So the statement is true for the first trimester but false for later pregnancy.", None),
    ("该说法正确，但对儿童而言是错误的。", None),
    # look-alikes: "but" that adds no opposite verdict
    ("The statement is false, but it is a common misconception.", False),
    ("The statement is true, but rarely tested.", True),
    # a cross after "False" agrees with it; after "True" it is unclear what it marks
    ("**False** ❌\n\nThe defect is ventricular, not atrial.", False),
    ("**True** ❌", None),
])
def test_partial_and_split_verdicts_and_crosses(reply: str, expected: object) -> None:
    fmt = TF_ZH if any("\u4e00" <= ch <= "\u9fff" for ch in reply) else TF_EN
    assert read_strict(reply, fmt).value == expected


DRUGS = {"A": "Sotalol", "B": "Amiodarone", "C": "Digoxin", "D": "Emergent hemodialysis", "E": "Flecainide"}
COUGH = {"A": "Increased angiotensin II concentration", "B": "Increased aldosterone secretion", "C": "Blockade of beta-2 receptors",
         "D": "Decreased degradation of bradykinin", "E": "Direct mast cell degranulation"}
SKIN = {"A": "Breslow thickness (depth of invasion)", "B": "Diameter of the lesion", "C": "Basal cell carcinoma",
        "D": "Syndrome of inappropriate antidiuretic hormone secretion", "E": "Hypochloremic, hypokalemic metabolic alkalosis"}
HERNIAS = {"A": "Indirect inguinal hernia", "B": "Direct inguinal hernia", "C": "Femoral hernia", "D": "Spigelian hernia", "E": "Glaucoma"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # an option's text after a verb with its own letter in brackets: an answer when the reply commits to nothing else
    ("Its toxicities fit the lungs, thyroid and liver.\n\nSo the drug responsible is amiodarone (B).", DRUGS, "B"),
    ("The definitive step is emergent hemodialysis (D), but it takes time.\n\nFinal answer: A. Sotalol", DRUGS, "A"),
    ("Options include a class III drug such as amiodarone (B), or a glycoside such as digoxin (C).", DRUGS, None),
    ("This is suggestive of amiodarone (C) toxicity.", DRUGS, None),
    # several letters accepted together, or one given with a hedge
    ("Amiodarone and sotalol both prolong QT. Both A and B are correct treatments.", DRUGS, None),
    ("Without an ECG, A or B could both be correct.", DRUGS, None),
    ("Without an ECG, the answer could be B.", DRUGS, None),
    # a sentence after the letter that explains another option in its own words
    ("The answer is B. ACE inhibitors decrease the degradation of bradykinin, which triggers the cough.", COUGH, None),
    ("The answer is D. ACE inhibitors decrease the degradation of bradykinin, which triggers the cough.", COUGH, "D"),
    ("The answer is D. Unlike increased aldosterone secretion, this explains the cough.", COUGH, "D"),
    # the option's text in the frames a diagnosis is stated with
    ("This patient most likely has the syndrome of inappropriate antidiuretic hormone secretion.\n\nHere's why: …", SKIN, "D"),
    ("This is a classic presentation of basal cell carcinoma. The pearly papule with rolled borders is typical.", SKIN, "C"),
    ("The expected finding is a hypochloremic, hypokalemic metabolic alkalosis. Vomiting removes HCl.", SKIN, "E"),
    ("Depth of invasion (Breslow thickness).", SKIN, "A"),
    # a letter glossed in brackets; an option heading glossed so is an analysis, and the article "A" is no letter
    ("E (glaucoma)", HERNIAS, "E"),
    ("Option A (Indirect inguinal hernia): lateral to the vessels. Not consistent.\n\nOption B (Direct inguinal hernia): medial. "
     "Consistent.\n\nBest answer: B — Direct inguinal hernia.", HERNIAS, "B"),
    ("B. Direct inguinal hernia\n\nA direct inguinal hernia pushes through a weak area of the wall.", HERNIAS, "B"),
])
def test_english_text_letter_pairs_and_paraphrased_conflicts(reply: str, texts: dict, expected: object) -> None:
    assert read_strict(reply, _mcq(texts)).value == expected


CLOTTING = {"A": "活化部分凝血活酶时间（APTT）", "B": "血小板计数", "C": "出血时间", "D": "凝血酶时间（TT）", "E": "国际标准化比值（INR）"}
EMBOLI = {"A": "上肢静脉", "B": "下肢深静脉", "C": "盆腔静脉", "D": "右心房附壁血栓", "E": "脂肪栓子"}
DIARRHOEA = {"A": "抗菌治疗", "B": "使用止泻药", "C": "应用糖皮质激素", "D": "及时足量补充液体和电解质", "E": "应用血管活性药物"}
VALVE = {"A": "咯血", "B": "声音嘶哑", "C": "支气管哮喘", "D": "劳力性呼吸困难", "E": "子宫收缩乏力"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # a letter with another option's whole text, bracketed names included; a letter with a longer name holding another's
    ("答案是A：国际标准化比值（INR）", CLOTTING, None),
    ("答案是E：国际标准化比值（INR）", CLOTTING, "E"),
    ("D. 下肢深静脉血栓", EMBOLI, None),
    ("B\n\n栓子多来自下肢深静脉，也可来自盆腔静脉。", EMBOLI, "B"),
    # options gone through one per line, each marked: the one checked is the pick
    ("- A 抗菌治疗：仅为辅助 ❌\n- B 止泻药：不推荐 ❌\n- C 糖皮质激素：无指征 ❌\n- **D 及时足量补液：治疗关键** ✅\n- E 血管活性药物：后用 ❌", DIARRHOEA, "D"),
    ("- A 抗菌治疗：辅助 ✅\n- B 止泻药：不推荐 ❌\n- C 糖皮质激素：无指征 ❌\n- D 补液：关键 ✅", DIARRHOEA, None),
    # conclusions in words
    ("咯血并不是最早出现的症状。所以正确答案应该是劳力性呼吸困难。", VALVE, "D"),
    ("β受体阻断药禁用于支气管哮喘。本题选项中只有C是禁忌证，其余都是适应证。", VALVE, "C"),
    ("逐项分析：\nA. 咯血：较晚出现。\nB. 声音嘶哑：少见。\n\n综上，最有意义的鉴别点是D。", VALVE, "D"),
    ("The most common cause is uterine atony（子宫收缩乏力）— option E. Remember the 4 T's.", VALVE, "E"),
    ("答案可能是A，也可能是B，取决于教材版本。", VALVE, None),
    ("因此A和D都有可能是标准答案。", VALVE, None),
    ("脾的主要生理功能是 **主运化**（E），为后天之本。", {**VALVE, "E": "主运化"}, "E"),
])
def test_chinese_names_marks_and_conclusions(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "zh")
    assert read_strict(reply, fmt).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("This statement is true in one sense and false in another.", None),
    ("Therefore the statement is true for some variants and false for others.", None),
    ("True. Girls are affected more often, partly because of relaxin.", True),
    ("True. But I am not sure about this.", None),
    ('```json\n{"statement_verdict": "false", "reasoning": "It has no activity."}\n```', False),
])
def test_verdicts_split_by_and_hedges_of_the_explanation_and_verdict_fields(reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN).value == expected


HYPERCALCAEMIA = {"A": "Hypocalcemia", "B": "Hypercalcemia", "C": "Decreased serum ACE", "D": "Positive c-ANCA", "E": "Secretion of PTH-related peptide"}
LYSIS = {"A": "Hyperkalemia, hyperphosphatemia, hypocalcemia, hyperuricemia", "B": "Hypokalemia, hyperphosphatemia, hypocalcemia",
         "C": "Long-term supplemental oxygen therapy", "D": "Intravenous sodium bicarbonate", "E": "Canalith repositioning (Epley) maneuver"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # a letter after what the question asks, then a comma and its text
    ("Based on the information provided, the most likely mechanism is E, secretion of PTH-related peptide (PTHrP).", HYPERCALCAEMIA, "E"),
    # a conclusion judging one option right, after an analysis of each
    ("A. Hypocalcemia — the opposite. Incorrect.\nB. Hypercalcemia — calcitriol from granulomas. Correct.\n"
     "C. Decreased serum ACE — it rises. Incorrect.\n\nTherefore, B is correct.", HYPERCALCAEMIA, "B"),
    # an opening line that is only a letter and its text, before a list of why not the others
    ("**B. Hypercalcemia**\n\nGranulomas make calcitriol.\n\n**Why not the others?**\n- **A. Hypocalcemia** – the opposite.\n"
     "- **C. Decreased serum ACE** – it rises.\n- **D. Positive c-ANCA** – vasculitis.", HYPERCALCAEMIA, "B"),
    ("Option-by-option:\n\nA. Hypocalcemia — no.\nB. Hypercalcemia — yes.\nC. Decreased serum ACE — no.\n\nCorrect answer: B", HYPERCALCAEMIA, "B"),
    # what the question asks, in the reply's own words, with the letter in brackets
    ("Conclusion: The most appropriate next step is IV sodium bicarbonate (D).", LYSIS, "D"),
    ("So the best answer would be both A and B — the acute change (B) on top of the old one (A).", LYSIS, None),
    # a list written with "and", and a text named as the intervention most likely to help
    ("Hyperkalemia, hyperphosphatemia, hypocalcemia, and hyperuricemia — the classic pattern.", LYSIS, "A"),
    ("Long-term supplemental oxygen therapy is the intervention most likely to reduce mortality.", LYSIS, "C"),
    # an answer taken back after "looking again"
    ("The answer is D.\n\nWait — looking again, the core antibody is negative.\n\nSo the correct answer is B.", LYSIS, "B"),
])
def test_english_letters_after_commas_conclusions_and_opening_lines(reply: str, texts: dict, expected: object) -> None:
    assert read_strict(reply, _mcq(texts)).value == expected


UREA = {"A": "肾", "B": "脑", "C": "肌肉", "D": "肝", "E": "小肠"}
KARYOTYPES = {"A": "t(9;22)", "B": "t(15;17)", "C": "t(8;21)", "D": "inv(16)", "E": "t(8;14)"}
JOINTS = {"A": "远端指间关节", "B": "近端指间关节、掌指关节及腕关节", "C": "膝关节", "D": "髋关节", "E": "脊柱小关节"}
STATS = {"A": "犯第Ⅱ类错误的概率", "B": "检验效能", "C": "允许犯第Ⅰ类错误的最大概率", "D": "可信度", "E": "P值"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # a one-character option named by a short word after another letter
    ("答案是A，肝脏。鸟氨酸循环在肝细胞中进行。", UREA, None),
    ("答案是D，肝脏。", UREA, "D"),
    # option texts holding ";" and "、…及…"
    ("答案：C. t(15;17)\n\n该患者为急性早幼粒细胞白血病。", KARYOTYPES, None),
    ("答案：B. t(15;17)", KARYOTYPES, "B"),
    ("类风湿关节炎最常累及的是近端指间关节、掌指关节和腕关节。", JOINTS, "B"),
    ("答案是A。类风湿关节炎最常累及近端指间关节、掌指关节及腕关节。", JOINTS, None),
    # "最大概率" is no hedge ("大概")
    ("选择C项，α为允许犯Ⅰ型错误的最大概率。", STATS, "C"),
    # several letters accepted, with "我觉得" between; other options set aside under "其他选项"
    ("题目没有说明时间，A和E我觉得都可以。", STATS, None),
    ("### 答案\n**E**\n\n### 解析\n其他选项：A、D为辅助措施；B、C无依据。", STATS, "E"),
    # a conclusion naming the letter a table row matches; an answer taken back with "再想一想"
    ("| 分度 | 氧合指数 |\n|---|---|\n| 中度 | 100～200 |\n\n因此中度对应 **B**。", STATS, "B"),
    ("答案是B……不对，再想一想。特异性最高的应是抗Sm抗体。所以最终答案是D。", STATS, "D"),
])
def test_chinese_short_names_lists_and_conclusions(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "zh")
    assert read_strict(reply, fmt).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ('"Alcohol-based sanitizers kill spores." — False.\n\nAlcohol is not sporicidal.', False),
    ("So the statement is correct about the recessive part but not about the autosomal part.", None),
    ("The claim is false because PMR is not a myopathy: pain rather than true weakness, and CK is normal.", False),
    ('```json\n{"statement_is_true": false, "reason": "It is autosomal recessive."}\n```', False),
])
def test_quoted_statements_with_a_dash_qualified_verdicts_and_boolean_fields(reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN).value == expected


MURMURS = {"A": "Aortic stenosis", "B": "Mitral valve prolapse", "C": "Hypertrophic cardiomyopathy", "D": "Ventricular septal defect",
           "E": "Carboprost tromethamine"}
NOSE = {"A": "Kiesselbach plexus", "B": "Sphenopalatine artery", "C": "Methylergonovine", "D": "Anterior ethmoidal artery", "E": "Nasopharynx"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # a sentence ending with an option's text, a comma and its letter
    ("A VSD (D) is holosystolic.\n\nTogether with the syncope, this points to hypertrophic cardiomyopathy, option C.", MURMURS, "C"),
    ("Together with the syncope, this points to mitral valve prolapse, option C.", MURMURS, None),
    # a conclusion line with a bare bracketed letter; one naming three options names several
    ("A. Aortic stenosis — no.\nB. Mitral valve prolapse — no.\nE. Carboprost tromethamine — contraindicated.\n\n"
     "Conclusion: Carboprost (E) should be avoided.", MURMURS, "E"),
    ("So the bleeding comes from Kiesselbach plexus (A), but it is fed by the sphenopalatine artery (B) and the anterior "
     "ethmoidal artery (D). Options A, B, and D are therefore all correct.", NOSE, None),
    # a short name after the letter that belongs to another option
    ("The answer is B, carboprost.\n\nIt causes bronchospasm.", MURMURS, None),
    ("The answer is E, carboprost.", MURMURS, "E"),
    # one case of a conditional is no answer, and "either A or B" names two
    ("If the child is stable → an enema (A).\nIf there is peritonitis → mitral valve prolapse (B).\n\n"
     "So the next step would be either A or B depending on the surgeons.", MURMURS, None),
    # "first-line" rules nothing out
    ('{"step_by_step_thinking": "First-line therapy is methylergonovine 0.2 mg.", "answer_choice": "A"}', NOSE, None),
    # an answer taken back after "However, looking again"
    ("The answer is A.\n\nHowever, looking again at the labs, potassium is low.\n\nSo the correct answer is E.", MURMURS, "E"),
    ("Most likely: **hypertrophic cardiomyopathy**, i.e. option **C**.", MURMURS, "C"),
])
def test_english_comma_letters_conclusion_lines_short_names_and_conditions(reply: str, texts: dict, expected: object) -> None:
    assert read_strict(reply, _mcq(texts)).value == expected


OVARY = {"A": "破裂", "B": "感染", "C": "恶变", "D": "蒂扭转", "E": "冠状动脉瘤"}
INFLAMMATION = {"A": "纤维素性炎", "B": "化脓性炎", "C": "出血性炎", "D": "浆液性炎", "E": "骨髓小粒可染铁消失"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # options gone through with "选项A 破裂：" lines, then a conclusion
    ("选项A 破裂：不是最常见。\n选项B 感染：较少见。\n选项C 恶变：不是最常见。\n选项D 蒂扭转：最常见。\n\n结论：D", OVARY, "D"),
    ("选项A 破裂：活动期 ✗\n选项B 感染：活动期 ✗\n选项D 蒂扭转：初期 ✓\n\n所以选D。", OVARY, "D"),
    # a superlative, a double dash, the letter and its own text
    ("诊断：川崎病。最严重的并发症——**E. 冠状动脉瘤**。", OVARY, "E"),
    # a text in quotes or after 【答案】; the question restated as "…的是"
    ("正确答案是“骨髓小粒可染铁消失”，这是最可靠的指标。", INFLAMMATION, "E"),
    ("【答案】纤维素性炎\n【解析】以纤维素渗出为主。", INFLAMMATION, "A"),
    ("大叶性肺炎属于的是纤维素性炎。", INFLAMMATION, "A"),
    ("需要注意的是化脓性炎少见。", INFLAMMATION, None),
    # an answer taken back with "等一下，我需要更正一下"
    ("答案是B。\n\n等一下，我需要更正一下：所以正确答案应该是A，纤维素性炎。", INFLAMMATION, "A"),
    # "即选项A" inside an aside is no answer; "选项A（感染）是正确的" is one
    ("正确答案：D. 蒂扭转\n\n后囟在生后6~8周闭合（即选项A描述的是后囟）。", OVARY, "D"),
    ("选项B（感染）是正确的。", OVARY, "B"),
])
def test_chinese_option_lines_dashes_quotes_and_retractions(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "zh")
    assert read_strict(reply, fmt).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("Simple seizures are benign, so in that sense the statement is false. In some cases it can be true.", None),
    ("It is largely true for the acute setting, with caveats.\n\nSo for exam purposes: **True**.", True),
    ('```json\n{"statement_evaluation": "false", "rationale": "Defibrillate first."}\n```', False),
])
def test_verdicts_in_a_sense_for_exam_purposes_and_evaluation_fields(reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN).value == expected


PE = {"A": "D-dimer assay", "B": "Chest x-ray", "C": "Increased serum methylmalonic acid", "D": "Cardiac tamponade", "E": "CT pulmonary angiography"}
EYES = {"A": "Acute angle-closure glaucoma", "B": "Anterior uveitis", "C": "Intravenous immunoglobulin and high-dose aspirin",
        "D": "Hyponatremia, hyperkalemia, and hypoglycemia", "E": "Primary open-angle glaucoma"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # "D-dimer", "C-reactive" are words, not letters
    ("D-dimer is the first test for PE.\n\nAnswer: A. D-dimer assay", PE, "A"),
    # conclusions in words
    ("Reticulocytes are low, not high. That leaves C, increased serum methylmalonic acid.", PE, "C"),
    ("- aldosterone lost → hyponatremia and hyperkalemia\n- cortisol lost → hypoglycemia\n\nThat combination matches option **D**.", EYES, "D"),
    ("That combination does not match option D.", EYES, None),
    ("The answer is glaucoma, option E. The eye is hard.", EYES, "E"),
    ("This patient has cardiac tamponade, as evidenced by Beck's triad.", PE, "D"),
    ("The most appropriate treatment would be intravenous immunoglobulin together with high-dose aspirin.", EYES, "C"),
    # a second option put forward after the first
    ("The best answer is A, D-dimer assay. However, given the high pretest probability, CT pulmonary angiography (E) would be "
     "preferred.", PE, None),
    ("Both answers are acceptable here: A for screening, E for confirmation.", PE, None),
])
def test_english_words_with_hyphens_conclusions_in_words_and_second_proposals(reply: str, texts: dict, expected: object) -> None:
    assert read_strict(reply, _mcq(texts)).value == expected


APPENDIX = {"A": "转移性右下腹痛", "B": "恶心、呕吐", "C": "发热", "D": "右下腹肌紧张", "E": "腹泻"}
ULCER = {"A": "诊断性腹腔穿刺", "B": "立位腹部X线平片见膈下游离气体", "C": "血清淀粉酶测定", "D": "出血", "E": "腹部B超"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    ("急性阑尾炎最典型的症状是转移性右下腹痛，恶心、呕吐，发热，右下腹肌紧张，腹泻。转移性右下腹痛，恶心、呕吐，", APPENDIX, None),
    ("最典型的应该是D，右下腹肌紧张是最重要的表现。", APPENDIX, "D"),
    ("答：转移性右下腹痛。", APPENDIX, "A"),
    ("主要是发热。", APPENDIX, "C"),
    ("A 穿刺：少用。\nB 平片：常用。\nC 淀粉酶：无关。\nD 出血：最常见。\n所以选择出血。", ULCER, "D"),
    ("选项E（腹部B超）是正确答案。", ULCER, "E"),
    ("最有意义的检查是：立位腹部X线平片见膈下游离气体（B项）。", ULCER, "B"),
    # a letter whose clause says another option in other words
    ("答案：E，立位腹平片可以发现膈下游离气体。", ULCER, None),
    ("答案：B，立位腹平片可以发现膈下游离气体。", ULCER, "B"),
    # conditions, second thoughts and no single answer
    ("如果考的是最早，可以考虑C；如果考的是最有价值，则应选B。", APPENDIX, None),
    ("我最初想选A，但仔细想想，最常见的病因是出血。\n\n最终答案：D", ULCER, "D"),
    ("最快起效的应该是B；但是最有效的是E。所以两个答案都可以接受。", ULCER, None),
    ("限速酶是诊断性腹腔穿刺（选项A）……综合考虑，A和B都参与，无法确定唯一答案。", ULCER, None),
])
def test_chinese_loops_short_conclusions_paraphrased_conflicts_and_no_single_answer(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "zh")
    assert read_strict(reply, fmt).value == expected


def test_our_statement_restated_after_the_prompts_instruction_line_is_answered() -> None:
    """A small model copies the prompt's first line, then our statement and its answer: it answers our statement."""
    question = statement_question("Isoniazid treats gout.")
    head = "Answer the medical questions below. Follow the solved examples and reply with the answer only.\n\n"
    assert read_strict(head + question + " false\n\n", TF_EN, question).value is False
    assert read_strict(head + "Two lines\nof text.\n\n" + question + " false", TF_EN, question).value is None


SHOCK = {"A": "Dopamine", "B": "Propylthiouracil", "C": "Stop heparin and begin argatroban", "D": "N-acetylcysteine", "E": "Norepinephrine"}
BP = {"A": "Normalize blood pressure", "B": "Bacillus cereus", "C": "Reduce mean arterial pressure by 50%", "D": "Serologic testing",
      "E": "Reduce mean arterial pressure by no more than 25%"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # an option's text as what the guidelines put first
    ("Norepinephrine is the first-line vasopressor in septic shock.", SHOCK, "E"),
    ("Propylthiouracil should be given first. Iodine comes later.", SHOCK, "B"),
    ("The antidote for acetaminophen overdose is N-acetylcysteine (NAC).", SHOCK, "D"),
    ("The most appropriate management is to stop heparin and begin argatroban, a direct thrombin inhibitor.", SHOCK, "C"),
    # a lone letter closing the reply; the next step named by its letter; "Therefore:"
    ("Nitroprusside lowers the pressure quickly. So the best drug is nitroprusside. B", SHOCK, "B"),
    ("Confirm the diagnosis first. So the next step is D.", BP, "D"),
    ("- A. Dopamine: no.\n- E. Norepinephrine: yes. Correct.\n- D. N-acetylcysteine: no.\n\nTherefore: E", SHOCK, "E"),
    # "B. cereus" is a germ, not option B; numbers tell two options apart
    ("This is the classic emetic *Bacillus cereus* food poisoning. *B. cereus* spores survive.\n\nSo the organism is Bacillus cereus.", BP, "B"),
    ("The correct answer is C – reduce the mean arterial pressure by no more than 25% in the first hour.", BP, None),
    # a first thought, and an answer taken back after "Wait —"
    ("My first thought was C, but the trigger is missing.\n\nSo the correct answer is E.", BP, "E"),
    ("The answer is A.\n\nWait — the stem says there is no trigger.\n\nSo the correct answer is D.", BP, "D"),
])
def test_english_first_line_texts_closing_letters_germs_and_first_thoughts(reply: str, texts: dict, expected: object) -> None:
    assert read_strict(reply, _mcq(texts)).value == expected


THYROID = {"A": "甲巯咪唑", "B": "丙硫氧嘧啶", "C": "HBeAg", "D": "t(9;22)", "E": "回纳疝块后压住深环，增加腹压时疝块是否再突出"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    ("妊娠早期的甲亢患者首选丙硫氧嘧啶治疗。", THYROID, "B"),
    ("HBeAg阳性。其存在表示病毒复制活跃。", THYROID, "C"),
    ("慢粒的特征性标志是Ph染色体，即t(9;22)，可检出BCR-ABL。", THYROID, "D"),
    ("答案是A，t(9;22)易位形成BCR-ABL融合基因。", THYROID, None),
    ('所以最有意义的是"回纳疝块后压住深环，增加腹压时疝块是否再突出"。', THYROID, "E"),
    ("是丙硫氧嘧啶。", THYROID, "B"),
    ("我一开始想到的是A。但是它起效较慢。\n\n所以首选应为B，而不是A。", THYROID, "B"),
])
def test_chinese_suffixes_bracketed_texts_commas_and_first_thoughts(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "zh")
    assert read_strict(reply, fmt).value == expected


def test_a_statement_heading_its_verdict_without_an_article() -> None:
    assert read_strict("**Statement is TRUE.**\n\nOverly rapid correction causes it.", TF_EN).value is True


ELECTROLYTES = {"A": "Hypocalcemia", "B": "Hypercalcemia", "C": "Hyperkalemia", "D": "Hyponatremia", "E": "Metabolic alkalosis"}
TREATMENTS = {"A": "手术治疗", "B": "保守治疗", "C": "抗生素治疗", "D": "放射治疗", "E": "化学治疗"}


@pytest.mark.parametrize(("reply", "expected"), [
    # look-alikes of the conclusions read above, found by a reviewer: none gives an answer
    ("Nothing in this vignette fits option C.", None),
    ("None of these findings matches option C.", None),
    ("This leaves A unexplained, and I cannot decide.", None),
    ("The findings point to a tumor. Now the options. A", None),
    # a genus is no letter, but a letter with its own text in lower case is one
    ("Answer: B. hypercalcemia", "B"),
    ("The culprit is B. cereus toxin, not an electrolyte.", None),
])
def test_english_look_alikes_of_conclusions_stay_unread(reply: str, expected: object) -> None:
    assert read_strict(reply, _mcq(ELECTROLYTES)).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("很多考生误认为A选项正确，但本题考查的是适应证。", None),
    ("很多考生误认为A选项正确，但本题应选保守治疗。", "B"),
    ("本题不应选择手术治疗，而应先观察病情变化。", None),
    ("避免选择手术治疗，先观察。", None),
    ("答案是C，如果出现感染则需要加用抗生素。", "C"),
    ("所以如果考的是最早，可以考虑C；如果考的是最有价值，则应选B。两者都有一定道理。", None),
])
def test_chinese_look_alikes_of_conclusions_stay_unread(reply: str, expected: object) -> None:
    fmt = option_format(TREATMENTS, "zh")
    assert read_strict(reply, fmt).value == expected


RV = {"A": "Sublingual nitroglycerin", "B": "Intravenous furosemide", "C": "Intravenous normal saline bolus", "D": "Liddle syndrome",
      "E": "Primary hyperaldosteronism"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("Preload matters here.\n\nThe most appropriate next step would be an intravenous normal saline bolus. It fills the RV.", "C"),
    ("I think the answer is D, Liddle syndrome.\n\nActually, wait — aldosterone is high here.\n\nSo the correct answer is E.", "E"),
    ("Right ventricular infarct → **intravenous normal saline bolus (C)**.\n\nAvoid nitrates.", "C"),
    ("If the patient is hypotensive → intravenous normal saline bolus (C).", None),
])
def test_english_next_steps_second_thoughts_and_arrows(reply: str, expected: object) -> None:
    assert read_strict(reply, _mcq(RV)).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("False — the serum level is high.\n\nHmm, actually that's not right. Total body stores are depleted.\n\nThe statement is true.", True),
    ("The statement is correct in that the toxin blocks release. Whether the statement is considered true or false therefore "
     "depends on the detail expected.", None),
])
def test_verdicts_taken_back_or_left_to_circumstances(reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN).value == expected


PNEUMONIA = {"A": "IgM", "B": "IgA", "C": "肺炎链球菌", "D": "实际有病而试验阳性的比例", "E": "实际无病而试验阴性的比例"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("最可能是肺炎链球菌感染。铁锈色痰。", "C"),
    ("因此该题可以选A，也可以考虑B。", None),
    ("我一开始想选A，但仔细想想，教材上写的是另一个，所以最终答案是B。", "B"),
    ("The gold standard is blood culture. So, **C**.", "C"),
    ("IgM是分子量最大的免疫球蛋白，唯一能通过胎盘的是另一种，所以选B。", "B"),
    ("答案：E。灵敏度是指实际有病而试验阳性的比例。", None),
    ("答案：A。\n\n……等等，我前面的答案有误。正确答案应为B。", "B"),
])
def test_chinese_infections_alternatives_first_thoughts_and_definitions(reply: str, expected: object) -> None:
    fmt = option_format(PNEUMONIA, "zh")
    assert read_strict(reply, fmt).value == expected


ANAPHYLAXIS = {"A": "Insert a large-bore chest tube and admit", "B": "Four-factor prothrombin complex concentrate", "C": "Ursodeoxycholic acid",
               "D": "Hodgkin lymphoma", "E": "Parainfluenza virus"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("An INR of 9.2 is high. I would recommend option B, giving the concentrate with vitamin K.", "B"),
    ("To re-expand the lung I would recommend inserting a large-bore chest tube and admitting the patient (option A).", "A"),
    ("Ursodeoxycholic acid (ursodiol) is the first-line treatment for primary biliary cholangitis.", "C"),
    ("Parainfluenza virus is the most common cause of croup, which this child has.", "E"),
    ("This is classic Hodgkin lymphoma. Reed-Sternberg cells confirm it.", "D"),
    ("- Chest tube (A) is not needed.\n- Ursodeoxycholic acid (C) is the cause of nothing here.\n\nNone of the options is the correct "
     "first-line therapy.", None),
])
def test_english_recommendations_first_line_asides_and_common_causes(reply: str, expected: object) -> None:
    assert read_strict(reply, _mcq(ANAPHYLAXIS)).value == expected


def test_a_verdict_hedged_only_by_a_dash_clause_about_the_facts() -> None:
    assert read_strict("This statement is accurate — HBV has a partially double-stranded DNA genome.", TF_EN).value is True


ORGANS = {"A": "胸腺", "B": "丙硫氧嘧啶", "C": "尿量减少", "D": "7.35～7.45", "E": "脾"}
STROKE = {"A": "静脉阿替普酶溶栓", "B": "阿司匹林联合氯吡格雷口服后观察", "C": "静脉滴注甘露醇脱水", "D": "静脉肝素抗凝", "E": "开颅减压术"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    ("因此本题答案可以是A也可以是E，要看题目问的是哪种。", ORGANS, None),
    ("孕早期应当选用丙硫氧嘧啶进行抗甲状腺治疗。", ORGANS, "B"),
    ("答案：C。\n等一下，我重新考虑一下。皮下吸收不稳定。所以更正答案为B。", ORGANS, "B"),
    ("A 胸腺——中枢 ×；E 脾——外周 √；C 尿量——无关 ×。答案E。", ORGANS, "E"),
    ("Ａ项7.25为酸血症；Ｄ项7.35～7.45为正常范围；Ｃ项为碱血症。故答案为Ｄ项。", ORGANS, "D"),
    ("选A，膝反射消失是镁中毒最早的表现。", {**ORGANS, "A": "尿量减少", "C": "膝反射减弱或消失"}, None),
    ("本题的答案是：\nA. 静脉阿替普酶溶栓\nB. 阿司匹林联合氯吡格雷口服后观察\nC. 静脉滴注甘露醇脱水\nD. 静脉肝素抗凝\nE. 开颅减压术\n"
     "本题的答案是：\nA.", STROKE, None),
])
def test_chinese_alternatives_choices_marks_and_loops_cut_after_a_letter(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "zh")
    assert read_strict(reply, fmt).value == expected


NUMBERS = {"A": "80%", "B": "84%", "C": "87%", "D": "90%", "E": "53%"}
METFORMIN = {"A": "Hypoglycemia", "B": "Lactic acidosis", "C": "Intravenous thiamine", "D": "Magnesium sulfate", "E": "Intramuscular methotrexate"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    ("TN = 270, FP = 30.\n\nSpecificity = TN / (TN + FP) = 270 / 300 = 90%\n\nThe answer is C.", NUMBERS, None),
    ("Specificity = TN / (TN + FP) = 270 / 300 = 90%\n\nThe answer is D.", NUMBERS, "D"),
    ("Specificity = 270 / 300 = 90%\nFor reference:\n- PPV = 160 / 190 = 84% (option B)\n\nThe answer is D.", NUMBERS, "D"),
    ("So the answer is AC.", NUMBERS, None),
    ("The most serious adverse effect of this drug is lactic acidosis (option B), although it is rare.", METFORMIN, "B"),
    ("Alcohol use disorder with confusion. Give thiamine first (C).", METFORMIN, "C"),
    ("Hypoglycemia is unlikely here (A).", METFORMIN, None),
    ("Option A is tempting. Give thiamine first (C).", METFORMIN, None),
    ("For seizures in eclampsia I would recommend **magnesium sulfate** as the first drug.", METFORMIN, "D"),
    ("Methotrexate (intramuscular). Her mass is small and unruptured.", METFORMIN, "E"),
])
def test_calculations_concatenated_letters_closing_brackets_and_reordered_names(reply: str, texts: dict, expected: object) -> None:
    assert read_strict(reply, _mcq(texts)).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ('{"statement_truth": "false", "rationale": "It harms the fetal kidney."}', False),
    ('```json\n{"overall_verdict": true}\n```', True),
    ("Assessment: False.\n\nIt never appears in the first day.", False),
    ("Evaluation: true", True),
    ("The claim is false because the clinical effect probably needs several weeks of adaptation.", False),
    ("Probably the claim is false because it takes weeks.", None),
])
def test_verdict_fields_assessment_labels_and_hedges_inside_the_explanation(reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN).value == expected


CIRRHOSIS = {"A": "上消化道出血", "B": "肝性脑病", "C": "原发性肝癌", "D": "自发性细菌性腹膜炎", "E": "A组链球菌"}
TYPHOID = {"A": "肠出血", "B": "肠穿孔", "C": "中毒性心肌炎", "D": "支气管肺炎", "E": "溶血性尿毒综合征"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    ("不少考生会误选B，但本题选A。", CIRRHOSIS, "A"),
    ("早期和晚期表现不同，所以A和B都是可能的答案。", CIRRHOSIS, None),
    ("A。肝硬化最常见的并发症是上消化道出血。需注意：肝硬化最常见的死亡原因是肝性脑病。", CIRRHOSIS, "A"),
    ("【答案】A\n【解析】上消化道出血为肝硬化最常见并发症；肝性脑病为最常见死亡原因；自发性细菌性腹膜炎为最常见的感染。", CIRRHOSIS, "A"),
    ("【答案】B\n【解析】肠出血为伤寒最常见的严重并发症，而肠穿孔为伤寒最严重的并发症。", TYPHOID, "B"),
    ("综上，本题答案为AB。", TYPHOID, None),
    ("A组链球菌。", CIRRHOSIS, "E"),
])
def test_chinese_mistaken_picks_several_letters_caveats_and_group_a(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "zh")
    assert read_strict(reply, fmt).value == expected


TESTIS = {"A": "Seminoma", "B": "Choriocarcinoma", "C": "Leydig cell tumor", "D": "Papillary carcinoma", "E": "Yolk sac tumor"}
HYPERTHERMIA = {"A": "Dantrolene", "B": "Bromocriptine", "C": "Cyproheptadine", "D": "Acetaminophen", "E": "Sodium bicarbonate"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    ("Schiller-Duval bodies and a raised AFP in a toddler: the commonest testicular tumour of young boys — E.", TESTIS, "E"),
    ("The clues are the age, the AFP and the bodies.\n\nAll of these findings point to E. Yolk sac tumor.", TESTIS, "E"),
    ("This is papillary thyroid carcinoma (D).\n\nGrooved nuclei and psammoma bodies clinch it.", TESTIS, "D"),
    ("Diagnosis\nYolk sac tumor (E)\n\nSupporting findings\nAFP is high.", TESTIS, "E"),
    ("Two organisms fit:\n- Seminoma (A) is common in older men.\n- Choriocarcinoma (B) makes hCG.", TESTIS, None),
    ("Dantrolene is the specific drug, but the acidosis also needs treating.\n\nTherefore, both A (dantrolene) and E (sodium "
     "bicarbonate) are appropriate here.", HYPERTHERMIA, None),
])
def test_closing_dashes_pointing_to_a_letter_diagnosis_lines_and_two_letters_with_asides(reply: str, texts: dict, expected: object) -> None:
    assert read_strict(reply, _mcq(texts)).value == expected


HBV = {"A": "单股正链RNA", "B": "单股负链RNA", "C": "不完全双链环状DNA", "D": "单股DNA", "E": "双股RNA"}
HERNIA = {"A": "发病年龄", "B": "疝块外形", "C": "回纳疝块后压住深环，增加腹压观察疝块是否突出", "D": "疝块是否进入阴囊", "E": "嵌顿机会的大小"}
CRESCENT = {"A": "肾小球球囊壁层上皮细胞增生", "B": "肾小球脏层上皮细胞增生", "C": "系膜细胞增生", "D": "毛细血管内皮细胞增生", "E": "中性粒细胞浸润"}
WARFARIN = {"A": "鱼精蛋白", "B": "氨甲苯酸", "C": "垂体后叶素", "D": "维生素K", "E": "甲巯咪唑"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    ("答案：E（双股RNA）。常见误区是选B：两者都是RNA病毒。", HBV, "E"),
    ("答案是A。……不对，我重新想一下。它的基因组是环状的。因此更正：正确答案是C。", HBV, "C"),
    ("答案：A……等一下，题目问的是乙肝病毒。所以最终答案是C。", HBV, "C"),
    ("C. HBV has a partially double-stranded circular DNA genome.", HBV, "C"),
    ("乙肝病毒是DNA病毒，其基因组是不完全双链环状DNA，因此答案为C。", HBV, "C"),
    ("HBV is a partially double-stranded DNA virus → C。", HBV, "C"),
    ("最有意义的鉴别方法是：回纳疝块后压住深环，增加腹压，观察疝块是否突出。", HERNIA, "C"),
    ("正确答案是B，新月体主要是由肾小球囊壁层上皮细胞增生形成的。", CRESCENT, None),
    ("正确答案是B，新月体由肾小球脏层上皮细胞增生形成。", CRESCENT, "B"),
    ("华法林过量导致出血时，应使用维生素K进行拮抗。", WARFARIN, "D"),
])
def test_chinese_mistakes_named_second_thoughts_degrees_commas_and_paraphrased_letters(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "zh")
    assert read_strict(reply, fmt).value == expected


OXYGEN = {"A": "Increased body temperature", "B": "Ornithine transcarbamylase", "C": "Intravenous amiodarone", "D": "Increased arterial PCO2",
          "E": "Carbon monoxide exposure"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("Options A, B, and D are all right-shift factors.\n\nCarbon monoxide shifts the curve to the left.\n\nAnswer: E", "E"),
    ("Options A, B, and D are all correct.", None),
    ("Low citrulline and high orotic acid: this fits B. Ornithine transcarbamylase deficiency.", "B"),
    ("With hypotension, the safest choice is IV amiodarone (C). Diltiazem lowers the pressure further.", "C"),
    ("A. Fever - unlikely\nB. Urea cycle - fits\nC. Amiodarone - unlikely\nTherefore, the answer is B.", "B"),
])
def test_options_listed_as_facts_fitting_letters_and_the_safest_choice(reply: str, expected: object) -> None:
    assert read_strict(reply, _mcq(OXYGEN)).value == expected


STATUS = {"A": "苯妥英钠", "B": "苯巴比妥", "C": "地西泮静脉注射", "D": "CT肺动脉造影", "E": "耳毒性和肾毒性"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("首选地西泮静注，故答Ｃ项。", "C"),
    ("The classic first drug is intravenous diazepam. 对应选项 C。", "C"),
    ("**E** ✔️\n\n> 氨基糖苷类：耳、肾毒性", "E"),
    ("选项A：苯妥英钠——起效慢。错误。\n选项C：地西泮——起效快。正确。\n\n故首先应给予C。", "C"),
    ("D-二聚体升高提示血栓形成，需要进一步检查。", None),
])
def test_chinese_conclusion_verbs_check_marks_and_d_dimer(reply: str, expected: object) -> None:
    fmt = option_format(STATUS, "zh")
    assert read_strict(reply, fmt).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("This is true for patients with severe heart failure. In milder disease the evidence is weaker, so the answer depends on the "
     "population.", None),
    ("This one is false.\n\nThe definitive trial showed no benefit.", False),
])
def test_a_verdict_left_to_the_population_and_this_one(reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN).value == expected


CARDIAC = {"A": "Intravenous thiamine", "B": "Pulmonary embolism", "C": "Pneumothorax", "D": "Pericarditis", "E": "Aortic dissection"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("Aortic dissection is unlikely — E.", None),
    ("The rub fits pericarditis. Aortic dissection would need a tearing pain (E).", None),
    ("Consider the options. Pneumothorax needs absent breath sounds (C).", None),
    ("In contrast to B. Pulmonary embolism, there is no hypoxia here.", None),
    ("Compared to B. Pulmonary embolism, this pain is positional.", None),
    ("Key differential:\nAortic dissection (E)\n\nThe rub favours inflammation of the pericardium.", None),
    ("Diagnosis\nPericarditis (D)\n\nThe rub and the diffuse ST elevation fit.", "D"),
    ("Answer: D, though I am only partially sure.", None),
    ("D — I'm somewhat confident.", None),
])
def test_letters_in_sentences_that_rule_out_weigh_compare_or_doubt_are_not_read(reply: str, expected: object) -> None:
    assert read_strict(reply, _mcq(CARDIAC)).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("患者无出血，无需使用维生素K，暂停华法林即可。", None),
    ("鱼精蛋白用于肝素过量，因此不能使用A。", None),
    ("患者无出血，所以暂不给予D。", None),
    ("答案是D，但我不完全确定。", None),
    ("答案：D（不完全肯定）", None),
])
def test_chinese_choices_negated_and_answers_not_quite_sure(reply: str, expected: object) -> None:
    fmt = option_format(WARFARIN, "zh")
    assert read_strict(reply, fmt).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ('{"verdict": "false", "verdict_explanation": "It is true only in children; in adults it is false."}', False),
    ('{"answer": "true", "truth_basis": "Shown in two trials."}', True),
])
def test_explanation_fields_named_after_the_verdict_are_no_verdicts(reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN).value == expected


IMAGING = {"A": "Non-contrast CT of the head", "B": "Lumbar puncture", "C": "Dual-energy x-ray absorptiometry (DXA) of the hip and lumbar spine",
           "D": "Glucose-6-phosphatase", "E": "Intramuscular benzathine penicillin G, single dose"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("The most appropriate initial tests would be A. Non-contrast CT of the head and B. Lumbar puncture.", None),
    ("Dual-energy X-ray absorptiometry of the hip and lumbar spine.", "C"),
    ("Glucose-6-phosphatase deficiency (von Gierke disease) is the most likely diagnosis.", "D"),
    ("The best treatment is intramuscular benzathine penicillin G as a single dose of 2.4 million units (E).", "E"),
])
def test_two_letters_with_their_texts_inner_asides_deficiencies_and_decimals(reply: str, expected: object) -> None:
    assert read_strict(reply, _mcq(IMAGING)).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ('{"statement_evaluation": "The vaccine is a recombinant, non-live vaccine and is safe in pregnancy.", "answer": "false"}', False),
    ("This statement is partially true and partially false. So it cannot be considered completely true or completely false.", None),
])
def test_explanations_in_answer_fields_and_statements_partly_true(reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN).value == expected


LIVER = {"A": "淋巴转移", "B": "种植转移", "C": "出血", "D": "肝外血行转移至肺", "E": "肝内血行转移"}
ECG = {"A": "T波高尖", "B": "QRS波增宽", "C": "P波消失", "D": "PaO2<60 mmHg，PaCO2正常", "E": "T波低平、出现U波"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    ("转移途径是种植转移，直接浸润。肝内血行转移至肺。肝内血行转移至肺。肝内血行转移至肺。", LIVER, None),
    ("A. 淋巴转移 B. 种植转移 C. 出血 A. 淋巴转移 B. 种植转移 C. 出血 A. 淋巴转移 B. 种植转移 C. 出血 A. 淋巴转移 B. 种植转移", LIVER, None),
    ("答案：B. 种植转移\n解析：A. 淋巴转移 少见。\n故选B. 种植转移\n最终答案：B. 种植转移", LIVER, "B"),
    ("仅凭题干的信息，首先考虑出血，但无法确定是C还是E。", LIVER, None),
    ("消化性溃疡的并发症有出血、穿孔和梗阻。其中，出血是最常见的并发症。", LIVER, "C"),
    ("正确答案：A。低钾血症典型心电图表现为T波低平，出现U波。", ECG, None),
    ("正确答案是A：PaO2<60mmHg PaCO2正常。", ECG, None),
])
def test_chinese_loops_undecided_replies_and_letters_with_another_text_in_other_punctuation(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "zh")
    assert read_strict(reply, fmt).value == expected


ADENO = {"A": "Small cell carcinoma", "B": "Adenocarcinoma", "C": "Large cell carcinoma", "D": "Squamous cell carcinoma", "E": "Carcinoid tumor"}
STOMACH = {"A": "胃溃疡", "B": "十二指肠溃疡", "C": "胃癌", "D": "慢性胃炎", "E": "功能性消化不良"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("Answer: B. Adenocarcinoma\nIt is peripheral; small cell carcinoma is central.\nSo: B. Adenocarcinoma\nFinal answer: B. Adenocarcinoma", "B"),
    ("The answer is B. Adenocarcinoma, C is less likely because it is rarer.", "B"),
    ("Answer: B. Adenocarcinoma and D is less likely.", "B"),
])
def test_an_answer_restated_or_followed_by_another_letter_judged_stays_read(reply: str, expected: object) -> None:
    assert read_strict(reply, _mcq(ADENO)).value == expected


def test_a_chinese_concession_of_part_of_the_features_is_no_answer() -> None:
    fmt = option_format(STOMACH, "zh")
    assert read_strict("本例符合胃溃疡的部分特点，但结合体重下降和贫血，最可能的诊断为胃癌。", fmt).value == "C"
    assert read_strict("本例符合十二指肠溃疡的特点。", fmt).value == "B"


GENETICS = {"A": "1/4", "B": "1/2", "C": "2/3", "D": "3/4", "E": "1"}
THYROID_CRISIS = {"A": "甲巯咪唑", "B": "丙硫氧嘧啶", "C": "碘化钾", "D": "普萘洛尔", "E": "放射性¹³¹I"}
CHAIN = {"A": "b→c→c₁→aa₃→O₂", "B": "c→b→c₁→aa₃→O₂", "C": "b→c₁→c→aa₃→O₂", "D": "c₁→c→b→aa₃→O₂", "E": "b→aa₃→c₁→c→O₂"}
HALLUCINATION = {"A": "幻视", "B": "幻嗅", "C": "幻味", "D": "幻触", "E": "言语性幻听"}
RENAL = {"A": "血尿素氮15mmol/L", "B": "血肌酐250μmol/L", "C": "血钾5.6mmol/L", "D": "血钾6.8mmol/L", "E": "尿比重1.010"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    ("So the answer is B (1/2) if we count all offspring, or C (2/3) if she is unaffected. Both interpretations are used.", GENETICS, None),
    ("危象时首选丙硫氧嘧啶，因此本题答案为A＋B。", THYROID_CRISIS, None),
    ("因此B、C、D均为甲状腺危象的治疗药物。", THYROID_CRISIS, None),
    ("普萘洛尔可诱发哮喘，故禁用于哮喘。A、B、C、E均为其适应证。\n\n答案：D", THYROID_CRISIS, "D"),
    ("正确的顺序是 b→c₁→c→aa₃→O₂，即选项B。", CHAIN, None),
    ("一开始我考虑选A，因为它最常用。但再仔细想一下，危象时应选丙硫氧嘧啶。所以最终答案是B。", THYROID_CRISIS, "B"),
    ("初看可能会选A，但危象首选丙硫氧嘧啶，所以正确答案应为B。", THYROID_CRISIS, "B"),
    ("危象时首选的是抑制合成和转化的药物，即 **B. 丙硫氧嘧啶**。", THYROID_CRISIS, "B"),
    ("A 幻视——多见于谵妄；B、C 幻嗅、幻味——较少见；D 幻触——少见；E 言语性幻听——最常见。\n选E", HALLUCINATION, "E"),
    ("A. 幻视：多见于器质性疾病；\nB. 幻嗅：少见；\nE. 言语性幻听：精神分裂症最常见，正确。", HALLUCINATION, "E"),
    ("答案是B 血肌酐250μmol/L 血钾6.8mmol/L 血钾5.6mmol/L 血钾6.8mmol/L 血钾6.8mmol/L 尿比重1.010 血钾6.8mmol/L", RENAL, None),
])
def test_chinese_sums_several_letters_first_glances_inline_walks_and_loops(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "zh")
    assert read_strict(reply, fmt).value == expected


def test_a_caveat_after_an_answer_given_as_text_is_no_other_answer() -> None:
    fmt = option_format(CIRRHOSIS, "zh")
    reply = "肝硬化最常见的并发症是上消化道出血。需要注意区分：肝硬化最常见的死亡原因是肝性脑病。"
    assert read_strict(reply, fmt).value == "A"


HEPATIC = {"A": "口服乳果糖", "B": "稀醋酸溶液灌肠", "C": "肥皂水灌肠", "D": "心肌有自律性", "E": "纠正低钾血症和碱中毒"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("C肥皂水灌肠是错误的，因为碱性环境会增加氨的吸收。", None),
    ("原因是心肌有自律性，心肌是功能合胞体，心肌有自律性，心肌是功能合胞体，心肌有自律性，心肌是功能合胞体，心肌有自律性", None),
])
def test_a_leading_option_judged_wrong_and_a_cycle_of_two_clauses(reply: str, expected: object) -> None:
    fmt = option_format(HEPATIC, "zh")
    assert read_strict(reply, fmt).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("The statement is partially true and partially false. IVIG is the cornerstone. Therefore, it is not accurate to call it "
     "simply true.", None),
    ("False. The statement is partially true and partially false: IVIG is right, the dose is not.", False),
])
def test_partly_true_with_a_verdict_only_in_the_explanation(reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN).value == expected


COFACTORS = {"A": "TPP", "B": "FAD", "C": "NAD+", "D": "硫辛酸", "E": "生物素"}
PERITONITIS = {"A": "腹部压痛", "B": "反跳痛", "C": "肠鸣音减弱", "D": "膈下游离气体", "E": "白细胞升高"}
MYOSITIS = {"A": "类风湿关节炎", "B": "皮肌炎", "C": "干燥综合征", "D": "系统性红斑狼疮", "E": "系统性硬化症"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # a line of the walk ending with 是 does not name the next line's letter as its answer
    ("该酶复合体的辅因子有TPP、FAD、NAD+、硫辛酸和辅酶A。\nA TPP：是\nB FAD：是\nC NAD+：是\nD 硫辛酸：是，E2的辅基\n"
     "E 生物素：不是，它是羧化酶的辅酶\n\n答案：E", COFACTORS, "E"),
    # several letters opening a line of an announced walk judge those options; the final answer stands
    ("病史支持穿孔。\n\n逐项分析：\n- A、B、C 均为腹膜炎的体征，特异性差；\n- E 提示炎症；\n- D 可直接证明穿孔。\n\n最终答案：D", PERITONITIS, "D"),
    ("因此A、B、C均为腹膜炎的体征。", PERITONITIS, None),  # no walk, no other answer: still several
    # a letter, then a sentence that is only another option's whole text: the two disagree
    ("答案：B。系统性红斑狼疮。抗Sm抗体是它的标志抗体。", MYOSITIS, None),
    ("答案：B。皮肌炎。向阳疹和Gottron征是它的特征。", MYOSITIS, "B"),
])
def test_walk_lines_several_letters_in_an_analysis_and_a_letter_against_the_next_sentence(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "zh")
    assert read_strict(reply, fmt).value == expected


SEIZURE = {"A": "Lumbar puncture", "B": "Reassurance and antipyretics", "C": "Electroencephalography", "D": "MRI of the brain",
           "E": "Daily phenobarbital"}
SEIZURE_WALK = ("A. Lumbar puncture — not needed: no meningeal signs.\nB. Reassurance and antipyretics — right for a simple febrile "
                "seizure.\nC. Electroencephalography — not needed.\nD. MRI of the brain — no focal signs.\nE. Daily phenobarbital — "
                "harms outweigh benefits.\n\n")


@pytest.mark.parametrize(("reply", "expected"), [
    (SEIZURE_WALK + "Correct: B", "B"),
    (SEIZURE_WALK + "B is correct.", "B"),
    (SEIZURE_WALK + "Option B is the right answer.", "B"),
    (SEIZURE_WALK + "B is correct, though C is also reasonable.", None),  # not a line that only calls one right
    # an answer line, then numbered steps of the treatment (not the options renumbered)
    ("**B. Reassurance and antipyretics**\n\nThe seizure is simple:\n1. **Treat the fever** with paracetamol.\n"
     "2. **Explain** the low risk of epilepsy.\n\nLumbar puncture (A) and EEG (C) are not needed.", "B"),
])
def test_a_closing_line_after_a_walk_and_numbered_steps_after_the_answer(reply: str, expected: object) -> None:
    fmt = option_format(SEIZURE, "en")
    assert read_strict(reply, fmt).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("The statement is partially correct.\n\nIt is correct that the toxin raises cAMP, but it acts on Gs, not on the cyclase.", None),
    ("This statement is partially true.\n\nIt is true that the facial nerve is involved; the forehead detail is mixed up.", None),
    ("True. The deep breaths blow off CO2 and partially correct the acidosis.", True),
    ("False. The statement is partially true and partially false: the dose is wrong.", False),
    ("In theory the statement is false. It is therefore false in the strict sense but may be true in practice.", None),
])
def test_a_statement_called_partly_true_and_false_in_one_sense_true_in_another(reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN).value == expected


HERXHEIMER = {"A": "IgE-mediated type I hypersensitivity to penicillin", "B": "Release of lipoproteins from lysed spirochetes triggering "
              "cytokine release", "C": "Immune complex deposition (serum sickness)", "D": "Procaine-induced neuropsychiatric reaction",
              "E": "Secondary bacterial infection at the injection site"}
HEADACHE = {"A": "Lumbar puncture to rule out meningitis", "B": "CT scan of the head", "C": "Subcutaneous sumatriptan",
            "D": "Epidural blood patch", "E": "Intravenous dexamethasone"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # a letter explained in another option's words (a third of them, three at least) and none of its own
    ("Fever and myalgia hours after penicillin for syphilis.\n\nThe answer is A: release of inflammatory cytokines from dying "
     "spirochetes.", HERXHEIMER, None),
    ("The answer is B: release of inflammatory cytokines from dying spirochetes.", HERXHEIMER, "B"),
    ("The answer is A: an allergic reaction to the penicillin itself.", HERXHEIMER, "A"),
    # an option's text and its letter under an answer heading, then a dash and an explanation
    ("### Diagnosis\nA post-dural puncture headache.\n\n### Answer\n**Epidural blood patch (Option D)** — it seals the leak.", HEADACHE, "D"),
    # a walk, then "Hence, (X) is the most likely."
    ("Let's analyze each option:\n\n(A) Lumbar puncture to rule out meningitis – no fever.\n(B) CT scan of the head – not needed.\n"
     "(D) Epidural blood patch – seals the leak.\n\nHence, (D) is the most likely.", HEADACHE, "D"),
    # "not" in an earlier clause rules nothing out; under a condition it still does
    ("Since the headache has not improved with fluids and caffeine, the most appropriate next step would be an epidural blood "
     "patch. It seals the leak.", HEADACHE, "D"),
    ("If the headache had not improved with fluids, the most appropriate next step would be an epidural blood patch.", HEADACHE, None),
    # a dash and "option E" closing the reply
    ("The headache is positional, so her own blood should seal the leak — option D.", HEADACHE, "D"),
])
def test_paraphrased_conflicts_answer_headings_with_a_dash_hence_lines_and_earlier_negations(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "en")
    assert read_strict(reply, fmt).value == expected


SPECIFICITY = {"A": "实际无病者被试验判为阴性的比例", "B": "实际患病者被试验判为阳性的比例", "C": "试验阳性者中真正患病的比例",
               "D": "试验阴性者中真正无病的比例", "E": "试验结果与实际情况一致的比例"}


def test_a_looping_option_list_cut_inside_its_first_text_answers_nothing() -> None:
    listed = "\n".join(f"{letter}. {text}" for letter, text in SPECIFICITY.items())
    fmt = option_format(SPECIFICITY, "zh")
    assert read_strict(f"{listed}\n\n答案：\n{listed}\n\n答案：\nA. 实际无病者", fmt).value is None


FRAGILE_X = {"A": "CAG trinucleotide repeat expansion in HTT", "B": "CTG trinucleotide repeat expansion in DMPK",
             "C": "GAA trinucleotide repeat expansion in FXN", "D": "Rho(D) immune globulin now", "E": "Bruton tyrosine kinase"}
VENTILATION = {"A": "Immediate endotracheal intubation", "B": "100% oxygen via non-rebreather mask",
               "C": "Noninvasive positive-pressure ventilation (BiPAP)", "D": "Incentive spirometry", "E": "Heliox"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    ("A. CAG — Huntington.\nB. CTG — myotonic dystrophy.\nC. GAA — Friedreich ataxia.\n\nSo the carrier gene is E, which is option E.",
     FRAGILE_X, "E"),
    ("The most likely defect is in Bruton tyrosine kinase, so B cells fail to mature.", FRAGILE_X, "E"),
    ("The most appropriate next step is Rho(D) immune globulin now.", FRAGILE_X, "D"),
    # "(D)" of a name is no letter; the step "to give" names D by its text
    ("The most appropriate next step is to give Rho(D) immune globulin now, at 28 weeks.", FRAGILE_X, "D"),
    ("The usual next step is to give Rho(D) immune globulin (D) at 28 weeks, but not after delivery (B).", FRAGILE_X, None),
    ("C) BiPAP", VENTILATION, "C"),  # the option's other name in brackets
    ("Option by option:\n\nA. Intubation — not yet.\nB. Oxygen alone — not enough.\nC. BiPAP — fits.\n\nConclusion: C.", VENTILATION, "C"),
    ("## Most likely diagnosis: **C. Noninvasive positive-pressure ventilation (BiPAP)**", VENTILATION, "C"),
    ("Definitely **C** — BiPAP buys time without intubation.", VENTILATION, "C"),
    ("The answer is C — followed by intubation if she tires.", VENTILATION, "C"),  # what comes next, not what C is
])
def test_which_is_option_x_answer_nouns_names_with_a_bracketed_capital_and_other_names(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "en")
    assert read_strict(reply, fmt).value == expected


ASTHMA = {"A": "吸入布地奈德", "B": "口服氨茶碱", "C": "口服孟鲁司特", "D": "吸入色甘酸钠", "E": "吸入沙丁胺醇"}
PULSE = {"A": "水冲脉", "B": "交替脉", "C": "奇脉", "D": "重搏脉", "E": "脉搏短绌"}
DYSTONIA = {"A": "加大氟哌啶醇剂量", "B": "肌内注射东莨菪碱", "C": "静脉注射地西泮", "D": "口服普萘洛尔", "E": "立即行电抽搐治疗"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    ("首选吸入糖皮质激素，即选项A布地奈德。糖皮质激素控制气道炎症。", ASTHMA, "A"),
    ("后者见于运动性哮喘（即选项D描述的是色甘酸钠的用途）。答案：E", ASTHMA, "E"),  # 即选项D描述的 names no pick
    ("吸气时脉搏减弱——奇脉。选项C。", PULSE, "C"),
    ("**B** 肌注东莨菪碱", DYSTONIA, "B"),  # the letter's own option in other words
    ("B 肌注地西泮", DYSTONIA, None),  # words of another option
    ("静脉注射地西泮和东莨菪碱各有优缺点，可以根据临床情况选择C或者B。", DYSTONIA, None),
    ("急性肌张力障碍的处理首选肌内注射东莨菪碱，地西泮也常用，很难说哪一个最好。", DYSTONIA, None),
])
def test_chinese_option_words_after_a_letter_a_closing_option_and_hard_to_say(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "zh")
    assert read_strict(reply, fmt).value == expected


ACE = {"A": "Increased angiotensin II levels", "B": "Decreased aldosterone secretion", "C": "Increased renin release",
       "D": "Decreased degradation of bradykinin", "E": "Posterior hip dislocation"}
OCD = {"A": "Alprazolam", "B": "Haloperidol", "C": "Lithium carbonate", "D": "Cystoscopy and CT urography", "E": "Fluvoxamine"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # a conclusion after an explaining "when" clause answers; a case set by "if" does not
    ("When ACE is inhibited, bradykinin accumulates in the lungs and stimulates the cough reflex, so the answer is D.", ACE, "D"),
    ("If the cough began after the dose was raised, the answer is D.", ACE, None),
    ("**Most appropriate pharmacotherapy: Fluvoxamine (E)**\n\nAn SSRI treats the obsessions.", OCD, "E"),
    ("This is a posterior dislocation of the hip.", ACE, "E"),  # the option's words reordered, "of the" added
    ("Cystoscopy with CT urography — painless hematuria in a smoker needs both tracts imaged.", OCD, "D"),
])
def test_conclusions_after_when_most_appropriate_labels_reordered_names_and_with_for_and(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "en")
    question = asked("Which is it?", texts)
    assert read_strict(reply, fmt, question).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("> Fomepizole inhibits alcohol dehydrogenase.\n\n✔️ **TRUE** — used for methanol poisoning.", True),
    ("## Verdict: ✅ True\n\n**Why:** aldosterone is lost.", True),
    ("## Verdict: ✅ False\n\n**Why:** aldosterone is kept.", False),
])
def test_a_verdict_after_a_check_mark(reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN).value == expected


SYPHILIS = {"A": "链霉素", "B": "庆大霉素", "C": "氯霉素", "D": "甲硝唑", "E": "青霉素"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    ("切除引物的是链霉素，然后由青霉素连接，所以两者都参与，答案应选AE。", SYPHILIS, None),
    ("这道题的答案取决于“首选”指什么，A或C均有道理。", SYPHILIS, None),
    ("- A 链霉素：可用，但非首选\n- B 庆大霉素：过敏时替代\n- C 氯霉素：不作为首选\n- **E 青霉素：首选** ✅", SYPHILIS, "E"),
    ("壁层上皮细胞增生形成新月体，对应选项A，因此不选。\n\n正确答案：C", SYPHILIS, "C"),
    ("促胎肺成熟应选用 **C. 氯霉素**。", SYPHILIS, "C"),
    ("Penicillin remains first-line for syphilis — answer E.", SYPHILIS, "E"),
])
def test_chinese_glosses_several_letters_walk_marks_should_do_and_closing_answers(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "zh")
    assert read_strict(reply, fmt).value == expected


SIADH = {"A": "Syndrome of inappropriate antidiuretic hormone secretion", "B": "Primary polydipsia", "C": "Central diabetes insipidus",
         "D": "Amphotericin B plus flucytosine", "E": "Ventriculoperitoneal shunt"}
PCOS = {"A": "Combined oral contraceptive pills", "B": "Clomiphene citrate", "C": "Letrozole", "D": "Spironolactone monotherapy",
        "E": "Laparoscopic ovarian drilling"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    ("The answer is SIADH (option A). Small cell carcinoma secretes ectopic ADH.", SIADH, "A"),
    ("**Diagnosis: Normal pressure hydrocephalus**\n\nThe triad is present.\n\n**Treatment: E. Ventriculoperitoneal shunt**", SIADH, "E"),
    ("Diagnosis: chronic myeloid leukemia.\n\nTreatment: A BCR-ABL inhibitor such as imatinib.", SIADH, None),  # the article
    # a letter glossed with another option's words, what follows "followed by" aside
    ("The answer is A: amphotericin B combined with flucytosine for 2 weeks, followed by fluconazole.", SIADH, None),
    ("The answer is D: amphotericin B combined with flucytosine for 2 weeks, followed by fluconazole.", SIADH, "D"),
    ("Combined oral contraceptives.", PCOS, "A"),  # a short answer in the plural
])
def test_answer_is_text_with_its_letter_treatment_headings_glosses_and_plurals(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "en")
    question = asked("Which is it?", texts)
    assert read_strict(reply, fmt, question).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("This statement is true as a textbook description, but misleading; it can't simply be classified as true or false.", None),
    ("False — TIG is only needed if never vaccinated.\n\nActually, correction: with an unknown history TIG is indicated. "
     "The statement is true.", True),
])
def test_a_statement_neither_true_nor_false_and_a_correction(reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN).value == expected


SYMPATHETIC = {"A": "瞳孔缩小", "B": "支气管平滑肌收缩", "C": "胃肠运动增强", "D": "红细胞内2,3-DPG增多", "E": "心率加快"}
AMINOGLYCOSIDE = {"A": "耳毒性和肾毒性", "B": "肝毒性", "C": "骨髓抑制", "D": "光敏反应", "E": "胃肠道反应"}
SULFONYLUREA = {"A": "增加外周组织对葡萄糖的利用", "B": "抑制α-葡萄糖苷酶", "C": "增加胰岛素敏感性", "D": "抑制肝糖原异生", "E": "刺激胰岛B细胞释放胰岛素"}


@pytest.mark.parametrize(("reply", "texts", "stem", "expected"), [
    ("Answer: E. Sympathetic stimulation speeds the heart. 其余选项（缩瞳、支气管收缩、胃肠运动增强）都是副交感神经兴奋的表现。",
     SYMPATHETIC, "交感神经兴奋时可出现", "E"),
    ("D。使曲线右移的因素包括2,3-DPG增多。A、B、C都是使曲线左移的因素。", SYMPATHETIC, "使氧解离曲线右移的因素是", "D"),
    ("槟榔肝见于右心衰竭。答：B", SYMPATHETIC, "槟榔肝见于", "B"),
    ('```json\n{"answer": {"option": "E", "text": "心率加快"}, "confidence": "high"}\n```', SYMPATHETIC, "交感神经兴奋时可出现", "E"),
    ("氨基糖苷类最主要的不良反应是耳毒性（前庭和耳蜗损害）和肾毒性，此外还有神经肌肉阻滞。", AMINOGLYCOSIDE,
     "氨基糖苷类抗生素最主要的不良反应是", "A"),
    ("二甲双胍的主要作用机制是抑制肝糖原异生，它不刺激胰岛素分泌，因此单用一般不引起低血糖。", SULFONYLUREA, "磺酰脲类降糖药的主要作用机制是", None),
    ("磺酰脲类的主要作用机制是刺激胰岛B细胞释放胰岛素，因此可以引起低血糖。", SULFONYLUREA, "磺酰脲类降糖药的主要作用机制是", "E"),
    ("氨基糖苷类最早出现的不良反应是胃肠道反应。", AMINOGLYCOSIDE, "氨基糖苷类抗生素最主要的不良反应是", None),  # another superlative
])
def test_chinese_other_options_listed_answer_labels_nested_json_asides_and_other_subjects(
    reply: str, texts: dict, stem: str, expected: object
) -> None:
    fmt = option_format(texts, "zh")
    question = asked(stem, texts)
    assert read_strict(reply, fmt, question).value == expected


CO = {"A": "Decreased PaO2, decreased arterial O2 content, right shift of the curve", "B": "Decreased PaO2, normal arterial O2 content, no shift of the curve",
      "C": "Normal PaO2, decreased arterial O2 content, left shift of the curve", "D": "Normal PaO2, normal arterial O2 content, right shift of the curve",
      "E": "Increased PaO2, decreased arterial O2 content, right shift of the curve"}
CALCIUM = {"A": "Primary hyperparathyroidism", "B": "Parathyroid hormone-related peptide secretion", "C": "Vitamin D intoxication",
           "D": "Familial hypocalciuric hypercalcemia", "E": "Milk-alkali syndrome"}


@pytest.mark.parametrize(("reply", "texts", "expected"), [
    # the letter's gloss is another option's words, and those of several options fit: the one they fit most
    ("The answer is D: normal PaO2, decreased arterial O2 content, and a left shift of the curve.", CO, None),
    # two options the gloss sets apart, neither holding the other's words, name none ("… unlike A and D")
    ("The answer is B: PTHrP with a low PTH, unlike primary hyperparathyroidism and familial hypocalciuric hypercalcemia.",
     CALCIUM, "B"),
])
def test_the_widest_paraphrase(reply: str, texts: dict, expected: object) -> None:
    fmt = option_format(texts, "en")
    assert read_strict(reply, fmt).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("Aldosterone raises potassium secretion. So the statement, which says aldosterone increases potassium reabsorption, is "
     "incorrect.", False),
    ("True. But I am uncertain about this.", None),
])
def test_a_statement_with_its_claim_restated(reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN).value == expected


THYROID_STORM = {"A": "甲巯咪唑", "B": "复方碘溶液", "C": "普萘洛尔", "D": "氢化可的松", "E": "丙硫氧嘧啶"}
UTI = {"A": "变形杆菌", "B": "克雷伯杆菌", "C": "粪肠球菌", "D": "葡萄球菌", "E": "大肠埃希菌"}
PAINS = {"A": "头痛、腹痛、腰痛", "B": "头痛、腰痛、眼眶痛", "C": "头痛、胸痛、腰痛", "D": "孕24～28周", "E": "头痛、关节痛、肌肉痛"}


@pytest.mark.parametrize(("reply", "texts", "stem", "expected"), [
    ("甲巯咪唑，A。", THYROID_STORM, "甲亢首选的抗甲状腺药物是", "A"),
    ("丙硫氧嘧啶，A。", THYROID_STORM, "甲亢首选的抗甲状腺药物是", None),  # a text and another letter
    ("尿路感染最常见的致病菌是革兰阴性杆菌，其中以大肠埃希菌最为常见。答案：A", UTI, "尿路感染最常见的致病菌是", None),
    ("其中以大肠埃希菌最为常见。答案：E", UTI, "尿路感染最常见的致病菌是", "E"),
    ("流行性出血热的“三痛”是指头痛、腰痛和眼眶痛。", PAINS, "流行性出血热的“三痛”是指", "B"),  # 、…和… as 、…、…
    ("孕24-28周", PAINS, "妊娠期糖尿病筛查的时间是", "D"),  # a range with a hyphen
])
def test_chinese_text_and_letter_ranked_first_lists_with_and_and_ranges(reply: str, texts: dict, stem: str, expected: object) -> None:
    fmt = option_format(texts, "zh")
    question = asked(stem, texts)
    assert read_strict(reply, fmt, question).value == expected


CHOLECYSTITIS = {"A": "CT scan of the abdomen", "B": "Upper endoscopy with biopsy", "C": "Magnetic resonance cholangiopancreatography",
                 "D": "Technetium-99m pertechnetate scan", "E": "Abdominal ultrasonography"}


@pytest.mark.parametrize(("reply", "expected"), [
    # letters bracketed here and there in prose, nothing committed
    ("Both abdominal ultrasonography (E) and an enema are used. A Meckel's diverticulum can act as a lead point, and a "
     "Technetium-99m pertechnetate scan (D) is used to detect it.", None),
    ("Upper endoscopy with biopsy (B). It is the gold standard because it allows tissue sampling.", "B"),
    ("The statement is true. Hmm...\n\nActually, let me correct myself. The answer is C.", "C"),
    # "... wait" is no retraction (it also opens a hypothetical: "C... wait, if she had asthma the answer would be E"): two answers
    ("Answer: A ... wait, that only shows infection. Correct answer: C — magnetic resonance cholangiopancreatography.", None),
])
def test_letters_here_and_there_an_opening_text_with_its_letter_and_self_corrections(reply: str, expected: object) -> None:
    fmt = option_format(CHOLECYSTITIS, "en")
    assert read_strict(reply, fmt).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("Klinefelter syndrome is mostly 47,XXY. The statement is an oversimplification: it is true for many patients but not all.", None),
    ('```json\n{"statement_assessment": "false", "reasoning": "…"}\n```', False),
])
def test_an_oversimplification_and_a_statement_assessment_field(reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN).value == expected


PREVIA = {"A": "妊娠晚期无诱因、无痛性反复阴道流血", "B": "妊娠晚期持续性腹痛伴阴道流血", "C": "麻疹黏膜斑（Koplik斑）",
          "D": "肌肉震颤", "E": "腹痛、寒战高热、黄疸"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("前置胎盘的诊断首选B超检查，可以清楚显示胎盘与宫颈内口的关系。", None),  # B超 is no letter
    ("最具诊断价值的体征是C.麻疹黏膜斑。最具诊断价值的体征是D.肌肉震颤。最具诊断价值的体征是C.麻疹黏膜斑。", None),  # C, its text shortened
    ("阿托品不能缓解的是肌肉震颤，所以选C。", None),  # the text of D, then C
    ("新月体主要是壁层上皮细胞，因此D是正确的。不过C也可以认为是正确的。", None),
    ("Reynolds五联征即腹痛、寒战高热、黄疸、休克、神志改变。", None),  # a longer list than E's
    ("我们可以逐项进行分析：\n\nA. 妊娠晚期无诱因、无痛性反复阴道流血：患者有", None),  # a walk cut off
])
def test_chinese_b_ultrasound_shortened_texts_text_then_letter_and_longer_lists(reply: str, expected: object) -> None:
    fmt = option_format(PREVIA, "zh")
    assert read_strict(reply, fmt).value == expected


def test_a_short_denied_word_ending_its_denial() -> None:
    claim = "IgM is the only immunoglobulin class that crosses the placenta."
    reply = "True — IgG, not IgM, is the only immunoglobulin class that crosses the placenta."
    assert read_strict(reply, TF_EN, statement_question(claim)).value is None


def test_two_lines_calling_different_options_correct_close_on_no_answer() -> None:
    fmt = option_format(SEIZURE)
    assert read_strict("Correct: A\nCorrect: D", fmt).value is None
    assert read_strict("Correct: A\nLumbar puncture is not needed.\nCorrect: D", fmt).value is None


ABDOMEN = {"A": "立位腹部X线平片", "B": "胃镜检查及活检", "C": "硫酸镁", "D": "地西泮", "E": "腹部B超"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("A 立位腹平片，可见膈下游离气体。", "A"),  # its own text in other words, then a short aside
    ("A 立位腹平片，但首选B超", None),  # the aside turns
    ("A 立位腹平片，E 也行", None),
    ("The most appropriate test is B (胃镜+活检).", "B"),  # an English label, the letter glossed in Chinese
    ("The most appropriate test is B (或E).", None),
    ("答案：c", "C"),  # a lower-case letter alone after the label
    ("妊娠高血压抽搐首选硫酸镁，答案为D。", None),  # the text of C, then D
    ("妊娠高血压抽搐首选硫酸镁，答案为C。", "C"),
    ("答案是D……不对，抽搐首选的是硫酸镁，所以选C。", "C"),  # taken back after an ellipsis
    ("腹部B超最方便，选E。\n\n不过题目要的是确诊，因此最终答案是B。", "B"),  # a final answer after another
    ("在我国最常用的是硫酸镁，在国外以地西泮为主，所以C、D两个答案均有道理。", None),
    ("硫酸镁是止抽的首选药，地西泮也能止抽，两种药物都可以考虑使用。", None),
])
def test_chinese_asides_glosses_lower_case_letters_final_answers_and_two_accepted(reply: str, expected: object) -> None:
    assert read_strict(reply, option_format(ABDOMEN, "zh"), asked("最常用的是", ABDOMEN)).value == expected


MALARIA = {"A": "Blood cultures", "B": "Dengue serology", "C": "Thick and thin blood smears", "D": "Stool microscopy", "E": "CT of the abdomen"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("Most likely diagnosis: malaria (probably falciparum).\n\nBest next diagnostic step: C. Thick and thin blood smears", "C"),
    ("The answer is E. But the question asks what confirms the diagnosis, so the final answer is C.", "C"),
    ("Answer: (b)", "B"),
])
def test_a_best_next_step_heading_a_final_answer_and_a_lower_case_letter(reply: str, expected: object) -> None:
    assert read_strict(reply, option_format(MALARIA, "en")).value == expected


@pytest.mark.parametrize(("reply", "expected"), [
    ("The statement is true in the sense that most patients have the bands. However, it is also false in another way. I would say it "
     "is neither entirely true nor entirely false.", None),
    ('{"statement": "false", "reason": "the sign belongs to another disease"}', False),
    ('{"statement": "Murphy sign is present in acute cholecystitis", "reason": "…"}', None),  # the statement itself, no verdict
])
def test_neither_entirely_true_nor_false_and_a_one_word_statement_field(reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN).value == expected


def test_a_verdict_after_the_restated_statement_on_its_line() -> None:
    claim = "Anti-D immune globulin is given to Rh-negative pregnant women at 28 weeks."
    ask = statement_question(claim)
    assert read_strict(f'Statement: "{claim}" - True.\n\nThis is routine antenatal care.', TF_EN, ask).value is True
    assert read_strict(f'Statement: "{claim}" — False.', TF_EN, ask).value is False
    assert read_strict('Statement: "Anti-D is never given in pregnancy." - True.', TF_EN, ask).value is None  # another statement


PREVALENCE = {"A": "Sensitivity increases", "B": "Specificity decreases", "C": "Positive predictive value increases",
              "D": "Negative predictive value increases", "E": "Parathyroid hormone–related peptide"}


@pytest.mark.parametrize(("reply", "expected"), [
    # a walk announced as "each answer choice", then the answer
    ("Let's look at each answer choice:\n\nA. Sensitivity increases — No.\n\nB. Specificity decreases — No.\n\n"
     "C. Positive predictive value increases — Yes.\n\nSo, the correct answer is C. Positive predictive value increases.", "C"),
    # "D and A both have …, which is not correct" judges two options, it accepts neither
    ("Now the options:\n* A says sensitivity rises – no.\n* D and A both have a rising value, which is not correct.\n\n"
     "So the correct answer is C.", "C"),
    ("The cause is E. Parathyroid hormone-related peptide, secreted by the tumour.", "E"),  # a hyphen for the option's en dash
    ("The most appropriate interpretation of this test result for this particular patient would be positive predictive value increases.", "C"),
    ("Since the right choice is not among the listed ones, none of the options provided is the most appropriate answer.", None),
])
def test_walks_over_answer_choices_both_judged_dashes_long_labels_and_none_appropriate(reply: str, expected: object) -> None:
    assert read_strict(reply, option_format(PREVALENCE, "en"), asked("Which is the most appropriate interpretation?", PREVALENCE)).value == expected


SHOULDER = {"A": "前脱位", "B": "后脱位", "C": "少灌少流，灌少于流", "D": "多灌少流，灌多于流", "E": "乙琥胺"}


@pytest.mark.parametrize(("reply", "stem", "expected"), [
    ("答案是B。\n\n更正一下：后脱位少见，最常见的是前脱位，因此正确答案应为A。", "肩关节脱位最常见的类型是", "A"),
    ("E。乙琥胺是失神发作的首选药，苯妥英钠反而可能加重发作。", "失神发作的首选药是", "E"),  # 可能 + a verb of effect: a fact
    ("休克早期微循环的特点是少灌少流、灌少于流，故选D。", "休克早期微循环的特点是", None),  # the text of C, then D
    ("肩关节脱位中较少见的一种指后脱位，答案A。", "肩关节脱位中较少见的是", None),
    ("最常见的是前脱位（包括喙突下脱位），其中以喙突下最多。", "肩关节脱位最常见的类型是", "A"),  # the stem's superlative, its noun left out
])
def test_chinese_corrections_facts_with_may_text_then_letter_and_the_stem_superlative(reply: str, stem: str, expected: object) -> None:
    assert read_strict(reply, option_format(SHOULDER, "zh"), asked(stem, SHOULDER)).value == expected


@pytest.mark.parametrize(("claim", "reply", "expected"), [
    # a "True" whose explanation says the statement with one word turned into its opposite
    ("Fetal hemoglobin has a lower affinity for oxygen than adult hemoglobin.",
     "True. Fetal hemoglobin binds 2,3-BPG less avidly, which gives it a higher affinity for oxygen.", None),
    ("Peaked T waves are an early ECG sign of hyperkalemia.", "True. Peaked T waves are an early ECG sign of hypokalemia.", None),
    ("A Meckel diverticulum is a false diverticulum.", "Meckel's diverticulum is a true diverticulum with all three layers. The statement is true.", None),
    # two words turned say the same; a comparison restated the other way round; a contrast, a negation; the word itself
    # restated; different neighbours
    ("Varicocele occurs more commonly on the left side.", "True. Varicocele is less common on the right side.", True),
    ("The right kidney lies lower than the left kidney.", "True. In other words, the left kidney lies higher than the right kidney.", True),
    ("The right lung has three lobes.", "True. The right lung is divided into three lobes, whereas the left lung has two lobes.", True),
    ("A positive Murphy sign suggests acute cholecystitis.", "True. A negative Murphy sign does not exclude acute cholecystitis.", True),
    ("Fetal hemoglobin has a higher affinity for oxygen than adult hemoglobin.",
     "True. Fetal hemoglobin has a higher affinity for oxygen, while adult hemoglobin has a lower affinity for it.", True),
    ("An Rh-negative mother who delivers an Rh-positive infant should receive anti-D.",
     "True. If the newborn is Rh-positive, an Rh-negative mother should receive anti-D within 72 hours.", True),
    # a denial in a sentence about another subject
    ("Vitamin B12 deficiency raises serum methylmalonic acid.",
     "Folate deficiency, by contrast, raises homocysteine but not methylmalonic acid.\n\nConclusion: the statement is true.", True),
])
def test_a_true_that_says_the_opposite_and_denials_of_another_subject(claim: str, reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN, statement_question(claim)).value == expected


HERNIA = {"A": "腹股沟斜疝", "B": "腹股沟直疝", "C": "脐疝", "D": "股疝", "E": "切口疝"}


@pytest.mark.parametrize(("reply", "stem", "expected"), [
    ("最易嵌顿的是股疝（D），最常见的是腹股沟斜疝（A）。本题问最易嵌顿，选D。", "最易发生嵌顿的腹外疝是", "D"),  # another superlative's option
    ("老年男性右侧腹股沟区肿块，最常见的类型为腹股沟斜疝。", "该患者最可能的疝类型是", "A"),  # the commonest answers the likeliest
    ("答案：A\n\n- 斜疝最常见\n- 股疝最易嵌顿（即选项D）", "最常见的腹外疝是", "A"),  # a fact's option in brackets
    ("斜疝、直疝和股疝都常见，故A、B、D均可。", "最常见的腹外疝是", None),  # three accepted
])
def test_chinese_other_superlatives_likeliest_bracketed_options_and_three_accepted(reply: str, stem: str, expected: object) -> None:
    assert read_strict(reply, option_format(HERNIA, "zh"), asked(stem, HERNIA)).value == expected


@pytest.mark.parametrize(("claim", "reply", "expected"), [
    ("The statement is about Huntington disease imaging.", "The statement is true for typical adult-onset disease, but it is not entirely "
     "accurate to call it characteristic in all cases.", None),
    ("Benzodiazepines are contraindicated in alcohol withdrawal.", "In most patients this statement is false. So it's not a simple true or false.", None),
])
def test_not_entirely_accurate_and_not_a_simple_true_or_false(claim: str, reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN, statement_question(claim)).value == expected


MENINGITIS = {"A": "CT coronary angiography", "B": "Vancomycin and ceftriaxone", "C": "Vancomycin, ceftriaxone, and ampicillin",
              "D": "Emergent coronary angiography with percutaneous coronary intervention", "E": "Transfuse platelets"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("Vancomycin plus ceftriaxone plus ampicillin. Listeria must be covered in older adults.", None),  # B's text, its list going on
    ("D. Emergent coronary angiography with PCI — primary PCI is preferred here.", "D"),  # its own text, shortened
    ("The answer is A. Stop the infusion. Warfarin is contraindicated, and platelet transfusion is avoided.", "A"),  # E set aside
    ("The most likely answer is B, though A cannot be excluded — I would say A or B.", None),
])
def test_lists_going_on_own_text_shortened_options_avoided_and_i_would_say(reply: str, expected: object) -> None:
    assert read_strict(reply, option_format(MENINGITIS, "en"), asked("What is the most appropriate treatment?", MENINGITIS)).value == expected


@pytest.mark.parametrize(("claim", "reply", "expected"), [
    ("Aspirin should be avoided in children with viral illnesses.", "'Aspirin should be avoided in children with viral illnesses…' — True.", True),
    ("Imaging should precede exploration in classic testicular torsion.", "False. Go straight to surgery; ultrasound is for cases where the "
     "diagnosis is uncertain.", False),
    ("Aspirin should be avoided in children with viral illnesses.", "This statement is accurate. Acetaminophen should be used for children with viral illnesses instead of aspirin.", True),
])
def test_single_quoted_statements_uncertain_facts_and_instead_of_an_avoided_subject(claim: str, reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN, statement_question(claim)).value == expected


BURNS = {"A": "9%", "B": "18%", "C": "27%", "D": "宫颈柱状上皮转变为鳞状上皮", "E": "肉芽组织转变为瘢痕组织"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("双上肢 = 双上臂7% + 双前臂6% + 双手5% = 18%，所以选C。", None),  # the result is B's text
    ("正确答案是D，肉芽组织转变为瘢痕组织属于组织的修复与成熟。", None),  # the clause is about E
    ("（Ｄ）宫颈柱状上皮变鳞状上皮——属于化生。", "D"),
    ("双上肢主要是18%，但也有人算27%，所以B和C都参与计算，都可以选。", None),
    ("乍看之下可能会选A，但应按部位相加。因此正确答案是B，18%。", "B"),
    ("双上肢按九分法计算，最常用的估算结果。B", "B"),  # a letter closing the reply after 。
])
def test_chinese_results_clauses_about_another_option_dashes_both_chosen_and_closing_letters(reply: str, expected: object) -> None:
    assert read_strict(reply, option_format(BURNS, "zh"), asked("双上肢烧伤面积占体表面积的", BURNS)).value == expected


GASTRIC = {"A": "侏儒症", "B": "呆小症", "C": "钠泵活动", "D": "远曲小管和集合管", "E": "易化扩散"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("幼年时生长激素缺乏会导致侏儒症，A。", "A"),  # a closing letter after its own text
    ("幼年时甲状腺激素缺乏会导致呆小症，A。", None),  # after another's
    ("幼年时缺乏不会导致侏儒症，A。", None),
    ("答案：C. 钠泵活动\n\n解析：\nA、B均为被动转运，不能维持浓度差。", "C"),  # after the answer, two options described
    ("答案：C\n\nA、C均为正确答案。", None),
    ("选A。\n\n抱歉，我看错了，更正一下：应选D。", "D"),
])
def test_chinese_closing_comma_letters_options_described_after_the_answer_and_misreadings_taken_back(reply: str, expected: object) -> None:
    assert read_strict(reply, option_format(GASTRIC, "zh"), asked("下列正确的是", GASTRIC)).value == expected


def test_a_lower_case_answer_with_a_line_after_it() -> None:
    assert read_strict("Answer: c\nBecause the fever cycle points to malaria.", option_format(MALARIA, "en")).value == "C"


def test_contrast_imaging_is_no_contrast_in_the_opposite_word_check() -> None:
    claim = "Fetal hemoglobin has a higher affinity for oxygen than adult hemoglobin."
    reply = "True. Fetal hemoglobin has a lower affinity for oxygen than adult hemoglobin on contrast imaging."
    assert read_strict(reply, TF_EN, statement_question(claim)).value is None


@pytest.mark.parametrize(("claim", "reply", "expected"), [
    # the statement restated, a paragraph of analysis, then the answer label
    ("Hypokalemia can cause U waves on an electrocardiogram.", 'Statement: "Hypokalemia can cause U waves on an electrocardiogram."\n\n'
     "Analysis: Low potassium delays repolarization, so a U wave follows the T wave.\n\nAnswer: True", True),
    ("The most common site of metastasis from prostate cancer is the liver.", 'Statement: "The most common site of metastasis from prostate '
     'cancer is the liver."\n\nThis is wrong. Prostate cancer spreads to bone first.\n\nAnswer: False', False),
    ("Serum ferritin is increased in iron deficiency.", 'Statement: "Serum ferritin is decreased in anemia of chronic disease."\n\nAnswer: True', None),
    # "the statement that …", a clause of the reply's own with one word of ours in it
    ("Ferritin is increased in iron deficiency anemia.", "- Ferritin reflects iron stores.\n- Stores are empty in iron deficiency.\n\n"
     "Therefore, the statement that ferritin is increased is false.", False),
    ("Ferritin is increased in iron deficiency anemia.", "Therefore, the statement that ferritin goes up is false.", None),  # other words
    ("Anticoagulation alone is indicated for all patients with low-risk pulmonary embolism.", "Guidelines differ by risk class. "
     "Hence the statement that anticoagulation alone is indicated for all patients is true.", True),
    ("Anticoagulation alone is indicated for all patients with low-risk pulmonary embolism.", "The statement that anticoagulation alone is "
     "indicated for all PE patients is true.", None),  # a word of its own: not ours
    # a verdict alone closing the reply after its analysis
    ("Type I hypersensitivity is mediated by IgE.", "Recall the four types:\n- Type I: IgE\n- Type IV: T cells\n\nThe statement matches type I. **True.**", True),
    ("Type I hypersensitivity is mediated by IgE.", "1. True\n2. False", None),
])
def test_restated_statements_before_an_analysis_statements_that_and_a_closing_verdict(claim: str, reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN, statement_question(claim)).value == expected


ULCER = {"A": "Nasogastric decompression and observation", "B": "Upper endoscopy", "C": "Emergency laparotomy",
         "D": "Testing for Helicobacter pylori", "E": "CT scan of the abdomen with oral contrast"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("A CT scan of the abdomen with oral contrast will show where the air is. The answer is E.", "E"),  # the article "A"
    ("A Upper endoscopy", None),  # the letter: A with B's text, no article before a vowel
    ("A Emergency laparotomy.", None),
    ("A Testing for Helicobacter pylori", None),  # a line that is D's text alone: the letter, not the article
    ("The answer is B. Upper endoscopy.\n\nWait, I apologize for the error. Endoscopy is contraindicated with free air; "
     "the correct answer is C.", "C"),
    ("For a stable patient, endoscopy is the test of choice, but this patient needs emergency laparotomy.", None),
])
def test_article_a_before_another_option_apologies_that_retract_and_another_setting(reply: str, expected: object) -> None:
    assert read_strict(reply, option_format(ULCER, "en"), asked("What is the most appropriate next step?", ULCER)).value == expected


def test_the_diagnosis_is_most_likely_text_and_bracketed_option() -> None:
    reply = "The diagnosis is most likely a hepatic abscess (option A), given the fever and the fluid-filled lesion."
    assert read_strict(reply, option_format(LIVER, "zh"), asked("最可能的诊断是", LIVER)).value == "A"


LIVER = {"A": "细菌性肝脓肿", "B": "CEA", "C": "AFP", "D": "痰涂片抗酸染色及结核分枝杆菌培养", "E": "胸部CT"}


@pytest.mark.parametrize(("reply", "stem", "expected"), [
    ("答案：B。甲胎蛋白（AFP）是原发性肝癌最常用的血清标志物。", "原发性肝癌最常用的血清肿瘤标志物是", None),  # explained as C
    ("原发性肝癌最常用的血清标志物就是AFP。答案是B。", "原发性肝癌最常用的血清肿瘤标志物是", None),
    ("答案：C。AFP是原发性肝癌最常用的血清标志物。", "原发性肝癌最常用的血清肿瘤标志物是", "C"),
    ("答案：B。CEA主要用于结直肠癌的随访。", "原发性肝癌最常用的血清肿瘤标志物是", "B"),  # another fact, the stem not said again
    ("根据症状，最可能是细菌性肝脓肿，但也不能排除其他诊断，需要进一步检查，所以A或E。", "最可能的诊断是", None),
    ("关键点：高热、寒战。\n\n诊断：A. 细菌性肝脓肿", "最可能的诊断是", "A"),
    ("A 胸部CT", "最可能的诊断是", None),  # A with E's text: never an English article before Chinese
])
def test_chinese_explanations_answering_with_another_option_two_letters_and_a_diagnosis_label(
    reply: str, stem: str, expected: object
) -> None:
    assert read_strict(reply, option_format(LIVER, "zh"), asked(stem, LIVER)).value == expected


@pytest.mark.parametrize(("claim", "reply", "expected"), [
    ("The radial nerve innervates the triceps.", "**Statement:** The radial nerve innervates the triceps.\n**Verdict:** ✅ True\n"
     "**Reason:** All three heads are supplied by it.", True),
    ("Infection is the leading cause of death on dialysis.", "Both matter a great deal. So the statement is true and false at the same time.", None),
    ("Basal cell carcinoma commonly metastasizes.", '{"step_by_step_thinking": "Spread is very rare, so the statement that it commonly '
     'metastasizes is incorrect.", "answer": "False"}', False),  # our statement quoted inside a JSON string: still JSON
])
def test_a_statement_line_before_its_verdict_true_and_false_together_and_quotes_inside_json(claim: str, reply: str, expected: object) -> None:
    assert read_strict(reply, TF_EN, statement_question(claim)).value == expected


DIGOXIN = {"A": "Intravenous calcium gluconate", "B": "Transcutaneous pacing", "C": "Digoxin-specific antibody fragments",
           "D": "Hemodialysis", "E": "Common fibular (peroneal) nerve block"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("Give calcium (A) for the potassium and the antibody fragments (C) for the digoxin. So the best treatment is a combination of A and C.", None),
    ("The antibody fragments bind free digoxin.\n\nAnswer: B (common fibular nerve block)", None),  # the gloss is E's text
    ("The most appropriate next step is to give digoxin-specific antibody fragments.", "C"),
    ("The answer is C. D is also correct but less specific.", "C"),
])
def test_combinations_glossed_letters_steps_to_take_and_an_option_also_right_but_less_so(reply: str, expected: object) -> None:
    assert read_strict(reply, option_format(DIGOXIN, "en"), asked("What is the most appropriate treatment?", DIGOXIN)).value == expected


ULCER_ZH = {"A": "穿孔", "B": "上消化道出血", "C": "髓袢降支细段", "D": "髓袢升支粗段", "E": "丙戊酸钠"}


@pytest.mark.parametrize(("reply", "expected"), [
    ("C和D都属于髓袢，但呋塞米作用于升支粗段，选D。", "D"),
    ("所以答案是B。A也对，但不是最常见的。", "B"),
])
def test_chinese_two_letters_described_and_another_option_right_but_not_the_best(reply: str, expected: object) -> None:
    assert read_strict(reply, option_format(ULCER_ZH, "zh"), asked("下列最常见的是", ULCER_ZH)).value == expected
