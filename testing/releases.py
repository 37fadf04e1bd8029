"""Tiny files in the published formats medprobe imports: MedQA rows, the MultiCogEval release and its
result files, MultifacetEval result files, SDAK release lines. The tests of each importer and the
broken-input samples (``testing.input_samples``) write them; every item is made up."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from testing.fixtures import release_files


def write_jsonl(path: Path, rows: list[Any]) -> Path:
    """One JSON value per line, non-ASCII text as written (the releases are UTF-8)."""
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return path


def medqa_rows(n: int = 8) -> list[dict[str, Any]]:
    return [
        {"question": f"A patient {i} presents. What is the cause {i}?", "answer": f"cause {i}-1",
         "options": {letter: f"cause {i}-{j}" for j, letter in enumerate("ABCDE")}, "meta_info": "step1", "answer_idx": "B"}
        for i in range(n)
    ]


# --- MultifacetEval: {MCQ,RQ,MAQ,TFQ}/<model>_<TYPE>_results.json ---------------------------------------------------

#: MCQ replies per id (the release's golds are A, C, A for ids 5, 6, 7); the other facets all answered
MFE_REPLIES: dict[str, dict[int, list[str]]] = {
    "RQ": {5: ["correct", "correct"], 6: ["correct", "correct"], 7: ["correct", "correct"]},
    "MAQ": {5: ["A", "B"], 6: ["A", "B"], 7: ["A", "B"]},
    "TFQ": {5: ["true"] * 4, 6: ["true"] * 4, 7: ["true"] * 4},
}


def write_mfe(folder: Path, mcq_lines: list[tuple[int, str]], model: str = "m42") -> Path:
    """Result files for every facet; the MCQ file holds ``mcq_lines`` ((id, reply), in order)."""
    items = {task: {item[0]: item for item in named["test.json"]} for task, named in release_files().items()}
    lines = {"MCQ": [items["MCQ"][i] + [reply] for i, reply in mcq_lines]}
    lines |= {task: [items[task][i] + replies for i, replies in per_id.items()] for task, per_id in MFE_REPLIES.items()}
    for task, rows in lines.items():
        (folder / task).mkdir(parents=True, exist_ok=True)
        (folder / task / f"{model}_{task}_results.json").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return folder


# --- MultiCogEval: {ds}/{TYP}/test.json and results/{ds}_repeat/{TYP}/<model>_{TYP}_results.json --------------------

OPTIONS = ["alpha", "beta", "gamma", "delta", "epsilon"]
AE_TAIL = ". There is a 50% chance that the correct answer is not included in the options. Please respond with yes or no."
MR_TAIL = ". Alice's answer: {}. Please determine whether her answer is correct, and if it's incorrect, provide the correct answer."


def mce_rows(ids: list[int]) -> dict[str, list[list[Any]]]:
    """Release rows (§1.1) for made-up items: the gold is B for every item."""
    rows: dict[str, list[list[Any]]] = {"MCQ": [], "SV": [], "AE": [], "MR": []}
    for i in ids:
        q = f"Question: item {i}?\nOptions: " + "\t".join(f"{letter}: {o} {i}" for letter, o in zip("ABCDE", OPTIONS, strict=True))
        rows["MCQ"].append([i, q, "B"])
        rows["SV"].append([i, f"Item {i} is true.", f"Item {i} is false.", "T", "F"])
        rows["AE"].append([i, q + AE_TAIL, q.replace("beta", "decoy") + AE_TAIL, 1, 0])
        rows["MR"].append([i, q + MR_TAIL.format("B"), q + MR_TAIL.format("C"), ["T", "B"], ["F", "B"]])
    return rows


def write_mce_release(root: Path, ids: list[int]) -> Path:
    for task, rows in mce_rows(ids).items():
        (root / "medqa" / task).mkdir(parents=True, exist_ok=True)
        (root / "medqa" / task / "test.json").write_text(json.dumps(rows))
    return root


def write_mce_results(root: Path, mcq_lines: list[tuple[int, list[str]]], ids: list[int], model: str = "m42") -> Path:
    """MCQ lines as given ((id, the replies of its repeats)); MR lines for ``ids``, all "correct"."""
    rows = {task: {row[0]: row for row in table} for task, table in mce_rows(ids).items()}
    files = {"MCQ": [rows["MCQ"][i] + replies for i, replies in mcq_lines],
             "MR": [rows["MR"][i] + ["correct"] * 4 for i in ids]}
    for task, lines in files.items():
        folder = root / "medqa_repeat" / task
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{model}_{task}_results.json").write_text("".join(json.dumps(line) + "\n" for line in lines))
    return root


# --- the SDAK release -----------------------------------------------------------------------------------------------

INSTRUCTION = "下列说法是否正确？\n\n"


def claim_line(label_id: str, kind: str, claim: str, **entities: str) -> dict[str, Any]:
    label = "support" if label_id.startswith("pos") else "refute"
    return {"label_id": label_id, "type": kind, **entities, "claim": claim, "label": label,
            "instruction": INSTRUCTION + claim, "input": "", "output": "", "id": 0}


def release_lines() -> list[dict[str, Any]]:
    """Two types; N restarts per type, as in the release, so pairs are found by (type, N)."""
    return [
        claim_line("pos_1", "DiseaseCause", "乳核的病因可能包括痰浊凝结", disease="乳核", cause="痰浊凝结"),
        claim_line("neg_1", "DiseaseCause", "乳核的病因不包括痰浊凝结", disease="乳核", cause="痰浊凝结"),
        claim_line("pos_1", "DiseaseSymptom", "胰尾癌的常见症状包括腹痛", disease="胰尾癌", symptom="腹痛"),
        claim_line("pos_2", "DiseaseSymptom", "感冒的常见症状包括咳嗽", disease="感冒", symptom="咳嗽"),
        claim_line("neg_2", "DiseaseSymptom", "感冒的常见症状不包括咳嗽", disease="感冒", symptom="咳嗽"),
        claim_line("neg_1", "Disease-Symptom", "胰尾癌的常见症状不包括腹痛", disease="胰尾癌", symptom="腹痛"),
        claim_line("pos_1", "WesternMedicineEffect", "麦角林可用于抑制乳汁分泌", medicine="麦角林", effect="抑制乳汁分泌"),
        claim_line("neg_1", "WesternMedicineEffect", "麦角林不可用于抑制乳汁分泌", medicine="麦角林", effect="抑制乳汁分泌"),
    ]
