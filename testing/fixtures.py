"""Small fixtures the tests write themselves (never copies of ../shared/data)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

SYMPTOMS = [
    "fever", "cough", "rash", "headache", "nausea", "vomiting", "diarrhea", "fatigue", "jaundice", "seizure",
    "dyspnea", "palpitations", "syncope", "hematuria", "pruritus", "arthralgia", "myalgia", "tremor", "alopecia",
    "hoarseness", "dysphagia", "constipation", "epistaxis", "photophobia", "tinnitus", "vertigo", "insomnia",
    "polyuria", "edema", "cyanosis",
]
DEPARTMENTS = ["cardiology", "neurology", "dermatology", "nephrology", "hepatology", "rheumatology", "urology", "oncology"]


def tiny_kb_records(n: int = 16, language: str = "en") -> list[dict[str, Any]]:
    """``n`` made-up diseases with four symptoms each and three departments; English ones also
    carry a severity level."""
    symptoms, departments = (SYMPTOMS, DEPARTMENTS) if language == "en" else (SYMPTOMS_ZH, DEPARTMENTS_ZH)
    records = []
    for i in range(n):
        aspects: dict[str, Any] = {
            "primary_symptoms": [symptoms[(i * 3 + k) % len(symptoms)] for k in range(4)],
            "departments": [departments[(i + k) % len(departments)] for k in range(3)],
        }
        if language == "en":
            aspects["severity_level"] = 1 + i % 4
        name = f"test disease {i}" if language == "en" else f"测试病{i}号"
        records.append({"id": f"{'TEST' if language == 'en' else 'ZH'}:{i:03d}", "name": name, "language": language, "aspects": aspects})
    return records


def write_tiny_kb(path: Path, n: int = 16, language: str = "en") -> Path:
    records = tiny_kb_records(n, language)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def deterministic_reply(body: dict[str, Any]) -> str:
    """A mock model whose answer is a pure function of the prompt (so runs can be compared)."""
    text = body["messages"][-1]["content"] if "messages" in body else body["prompt"]
    h = hashlib.sha256(text.encode()).digest()[0]
    tail = text[-200:]
    if "true or false" in tail:
        return "true" if h % 2 else "false"
    if "given answer is" in tail:
        return "correct" if h % 3 == 0 else f"incorrect, the correct answer is {'ABCD'[h % 4]}"
    if "One or more options" in tail:
        return ",".join(sorted({"ABCD"[h % 4], "ABCD"[(h // 4) % 4]}))
    return "ABCD"[h % 4]


# --- a tiny MultifacetEval release (layouts of REFERENCE_METHODS.md §1.2) -----------------------------

LETTERS5 = ["A", "B", "C", "D", "E"]

#: the test items: a case, what is asked, five MCQ options, the gold letter, Alice's wrong letter for
#: the second revision question, the MAQ options (synonyms replace some wrong options) and MAQ gold
RELEASE_TEST: list[dict[str, Any]] = [
    {
        "id": 5,
        "case": "A 30-year-old man has had a productive cough, fever and pleuritic chest pain for three days.",
        "ask": "the most likely cause of his pneumonia",
        "options": ["Streptococcus pneumoniae", "Mycoplasma pneumoniae", "Legionella pneumophila", "Haemophilus influenzae", "Staphylococcus aureus"],
        "gold": "A",
        "alice_wrong": "D",
        "maq_options": ["Streptococcus pneumoniae", "Mycoplasma pneumoniae", "Legionella pneumophila", "Haemophilus influenzae", "Staphylococcus aureus"],
        "maq_gold": ["A"],
    },
    {
        "id": 6,
        "case": "A 55-year-old woman has had crushing chest pain radiating to the left arm for two hours.",
        "ask": "the most specific serum marker of her myocardial injury",
        "options": ["Lactate dehydrogenase", "Aspartate aminotransferase", "Troponin I", "Alkaline phosphatase", "Amylase"],
        "gold": "C",
        "alice_wrong": "A",
        "maq_options": ["Cardiac troponin I", "Aspartate aminotransferase", "Troponin I", "Alkaline phosphatase", "Amylase"],
        "maq_gold": ["A", "C"],
    },
    {
        "id": 7,
        "case": "A 7-year-old boy has periorbital edema and cola-colored urine two weeks after a sore throat.",
        "ask": "the expected laboratory finding in this boy",
        "options": ["Low serum complement", "High serum IgE", "Positive ANCA", "Low platelet count", "High serum lipase"],
        "gold": "A",
        "alice_wrong": "B",
        "maq_options": ["Low serum complement", "High serum IgE", "Positive ANCA", "Decreased complement C3", "Hypocomplementemia"],
        "maq_gold": ["A", "D", "E"],
    },
]

#: the five dev items; golds and verdicts as in the real dev.json (§1.2)
RELEASE_DEV: list[dict[str, Any]] = [
    {"case": "Dev patient 0 is a 24-year-old woman taking rifampin and oral contraceptives.", "ask": "the reason she needs additional contraception",
     "options": ["Induction of hepatic enzymes", "Inhibition of renal clearance", "Direct estrogen antagonism", "Reduced gastric absorption", "Increased protein binding"]},
    {"case": "Dev patient 1 is a 60-year-old smoker with hemoptysis and hypercalcemia.", "ask": "the most likely lung tumor",
     "options": ["Small cell carcinoma", "Adenocarcinoma", "Squamous cell carcinoma", "Carcinoid tumor", "Large cell carcinoma"]},
    {"case": "Dev patient 2 is a 3-year-old girl with a barking cough and inspiratory stridor.", "ask": "the most likely pathogen",
     "options": ["Respiratory syncytial virus", "Influenza virus", "Parainfluenza virus", "Adenovirus", "Rhinovirus"]},
    {"case": "Dev patient 3 is a 45-year-old man with sudden severe pain in the big toe after a feast.", "ask": "the crystals seen in his joint fluid",
     "options": ["Calcium pyrophosphate", "Cholesterol", "Calcium oxalate", "Monosodium urate", "Cystine"]},
    {"case": "Dev patient 4 is a 70-year-old woman with fatigue, glossitis and numb feet.", "ask": "the vitamin she most likely lacks",
     "options": ["Vitamin A", "Vitamin C", "Vitamin B12", "Vitamin D", "Vitamin K"]},
]
DEV_MCQ_GOLD = ["A", "C", "C", "D", "C"]
DEV_RQ_VERDICT = ["T", "T", "F", "T", "F"]
DEV_MAQ_GOLD = [["A"], ["B", "C"], ["C", "E"], ["A", "B", "D", "E"], ["C"]]
DEV_TFQ_LABEL = ["T", "T", "T", "F", "T"]
RQ_TAIL = " Please determine whether her answer is correct, and if it's incorrect, provide the correct answer."
TF_TAIL = ", is the statement above true or false? Please answer true/false."


def _other(letter: str) -> str:
    return "B" if letter != "B" else "D"


def release_mcq(item: dict[str, Any]) -> str:
    opts = "\t".join(f"{k}: {t}" for k, t in zip(LETTERS5, item["options"], strict=True))
    return f"Question: {item['case']} Which of the following is {item['ask']}?\nOptions: {opts}"


def release_rq(item: dict[str, Any], alice: str) -> str:
    return f"{release_mcq(item)}. Alice's answer: {alice}.{RQ_TAIL}"


def release_maq(item: dict[str, Any], negated: bool, options: list[str] | None = None) -> str:
    opts = "\n".join(f"{k}: {t}" for k, t in zip(LETTERS5, options or item["options"], strict=True))
    verb = "are not consistent with" if negated else "are consistent with"
    return f"Question: {item['case']} Which of the following {verb} {item['ask']}? There may be one or more correct choices.\nOptions: {opts}"


def release_tfq(item: dict[str, Any], letter: str, negated: bool) -> str:
    text = item["options"][LETTERS5.index(letter)]
    if negated:  # the negated statements lack the "Statement:" prefix (a quirk of the real data)
        return f'Question: {item["case"]} "{text} is not {item["ask"]}."{TF_TAIL}'
    return f'Question: {item["case"]} Statement: "{text} is {item["ask"]}."{TF_TAIL}'


def _complement(letters: list[str]) -> list[str]:
    return [x for x in LETTERS5 if x not in letters]


def _rationale(i: int, task: str, negated: bool = False) -> str:
    """The CoT rationale of dev item ``i``; the last one lacks its full stop (the CoT demo adds one)."""
    return f"Dev rationale {i} for {task}{' (negated)' if negated else ''}" + ("" if i == 4 else ".")


def release_files() -> dict[str, dict[str, list[Any]]]:
    """task -> file name -> the JSON list (test, dev, dev_cot)."""
    files: dict[str, dict[str, list[Any]]] = {t: {"test.json": [], "dev.json": [], "dev_cot.json": []} for t in ("MCQ", "RQ", "MAQ", "TFQ")}
    for it in RELEASE_TEST:
        i, gold, wrong = it["id"], it["gold"], it["alice_wrong"]
        files["MCQ"]["test.json"].append([i, release_mcq(it), gold])
        files["RQ"]["test.json"].append([i, release_rq(it, gold), release_rq(it, wrong), ["T", gold], ["F", gold]])
        files["MAQ"]["test.json"].append(
            [i, release_maq(it, False, it["maq_options"]), release_maq(it, True, it["maq_options"]), it["maq_gold"], _complement(it["maq_gold"])]
        )
        files["TFQ"]["test.json"].append(
            [i, release_tfq(it, gold, False), release_tfq(it, gold, True), release_tfq(it, wrong, False), release_tfq(it, wrong, True), "T", "F", "F", "T"]
        )
    for i, it in enumerate(RELEASE_DEV):
        gold = DEV_MCQ_GOLD[i]
        mcq = [i, release_mcq(it), gold]
        alice = gold if DEV_RQ_VERDICT[i] == "T" else _other(gold)
        rq = [i, release_rq(it, alice), [DEV_RQ_VERDICT[i], gold]]
        maq = [i, release_maq(it, False), release_maq(it, True), DEV_MAQ_GOLD[i], _complement(DEV_MAQ_GOLD[i])]
        lab = DEV_TFQ_LABEL[i]
        letter = gold if lab == "T" else _other(gold)
        tfq = [i, release_tfq(it, letter, False), release_tfq(it, letter, True), lab, "F" if lab == "T" else "T"]
        for task, one in (("MCQ", mcq), ("RQ", rq), ("MAQ", maq), ("TFQ", tfq)):
            files[task]["dev.json"].append(one)
            extra = [_rationale(i, task)] if task in ("MCQ", "RQ") else [_rationale(i, task), _rationale(i, task, True)]
            files[task]["dev_cot.json"].append([*one, *extra])
    return files


def write_tiny_release(folder: Path) -> Path:
    """A MultifacetEval release folder: {MCQ,RQ,MAQ,TFQ}/{test,dev,dev_cot}.json, 3 test items, 5 dev items."""
    for task, named in release_files().items():
        (folder / task).mkdir(parents=True, exist_ok=True)
        for name, items in named.items():
            (folder / task / name).write_text(json.dumps(items, indent=1), encoding="utf-8")
    return folder


# --- a tiny Chinese knowledge base ---------------------------------------------------------------------

SYMPTOMS_ZH = [
    "发热", "咳嗽", "皮疹", "头晕", "恶心", "呕吐", "腹泻", "乏力", "黄疸", "抽搐", "气促", "心悸", "晕厥", "血尿", "瘙痒",
    "关节肿胀", "肌肉酸痛", "震颤", "脱发", "声嘶", "吞咽困难", "便秘", "鼻出血", "畏光", "耳鸣", "眩晕", "失眠", "多尿", "水肿", "发绀",
]
DEPARTMENTS_ZH = ["心内科", "神经内科", "皮肤科", "肾内科", "肝病科", "风湿免疫科", "泌尿外科", "肿瘤科"]


def write_tiny_zh_kb(path: Path, n: int = 16) -> Path:
    """The Chinese twin of :func:`write_tiny_kb`."""
    return write_tiny_kb(path, n, "zh")


def gold_reply(probe: Any, cot: bool = False) -> str:
    """What a perfect model answers: the gold written the way the solved examples write answers."""
    from medprobe.methods.multifacet.templates import answer_text, wording

    text = answer_text(probe.answer_format.kind, probe.gold, probe.language)
    return f"Some reasoning.{wording(probe.language).therefore}{text}" if cot else text
