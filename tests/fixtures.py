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


def tiny_kb_records(n: int = 16) -> list[dict[str, Any]]:
    """``n`` made-up diseases with four symptoms each and three departments (English)."""
    records = []
    for i in range(n):
        records.append(
            {
                "id": f"TEST:{i:03d}",
                "name": f"test disease {i}",
                "language": "en",
                "aspects": {
                    "primary_symptoms": [SYMPTOMS[(i * 3 + k) % len(SYMPTOMS)] for k in range(4)],
                    "departments": [DEPARTMENTS[(i + k) % len(DEPARTMENTS)] for k in range(3)],
                    "severity_level": 1 + i % 4,
                },
            }
        )
    return records


def write_tiny_kb(path: Path, n: int = 16) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in tiny_kb_records(n)), encoding="utf-8")
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
