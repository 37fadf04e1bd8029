"""Grading the final diagnosis of the full-path dialogue: which answers name the gold disease.

``tests/data/diagnosis_grading.jsonl`` holds 539 (gold, final answer, expected kind, expected
correctness) pairs that we wrote and labelled as a physician would grade them: golds from the
AgentClinic case set and common diseases, answers written the ways models write them (other names,
eponyms, lay names, abbreviations, forms, hedges, broader names, other diseases, no answer). The
dialogue runs in English only, so the set is English. The first 455 pairs were written before the
rules and the rules then corrected on them; the last 79 were written afterwards and kept as the
rules graded them (two misses); five shotgun lists (three or more diseases, a differential) were added when that
rule came. Rows the rules still get wrong stay in the set.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from medprobe.methods.multicog.dialogue.diagnosis import CORRECT_KINDS, KINDS, grade_diagnosis

LABELLED = Path(__file__).parent / "data" / "diagnosis_grading.jsonl"


def labelled() -> list[dict]:
    return [json.loads(line) for line in LABELLED.open(encoding="utf-8")]


def table(mode: str) -> dict[str, Counter]:
    """Per expected kind: pairs, verdicts right, false credits, misses, kinds read as labelled."""
    by_kind: dict[str, Counter] = {}
    for row in labelled():
        grade = grade_diagnosis(row["gold"], row["final"], mode)
        counts = by_kind.setdefault(row["kind"], Counter())
        counts["pairs"] += 1
        counts["right"] += grade.correct == row["correct"]
        counts["false credits"] += grade.correct and not row["correct"]
        counts["misses"] += row["correct"] and not grade.correct
        counts["kind read"] += grade.kind == row["kind"]
    return by_kind


def test_the_labelled_set_covers_every_kind() -> None:
    rows = labelled()
    kinds = Counter(row["kind"] for row in rows)
    assert len(rows) >= 300 and set(kinds) == set(KINDS)
    assert all(row["correct"] == (row["kind"] in CORRECT_KINDS) for row in rows)


def test_strict_mode_credits_no_wrong_answer_and_misses_under_five_percent() -> None:
    by_kind = table("strict")
    assert sum(c["false credits"] for c in by_kind.values()) == 0
    correct = sum(c["pairs"] for kind, c in by_kind.items() if kind in CORRECT_KINDS)
    assert sum(c["misses"] for c in by_kind.values()) <= 0.05 * correct
    assert by_kind["hedged"]["right"] == by_kind["hedged"]["pairs"]


def test_reference_mode_credits_the_hedges_that_name_the_gold() -> None:
    """MultiCogEval's rule: the gold name anywhere is right, hedged or not; nothing else changes
    for answers that commit."""
    strict, reference = table("strict"), table("reference-compatible")
    assert reference["hedged"]["false credits"] >= 0.9 * reference["hedged"]["pairs"]
    for kind in ("match", "synonym", "abbreviation", "specific form", "broader", "none"):
        assert reference[kind] == strict[kind]


@pytest.mark.parametrize(
    ("gold", "answer", "kind"),
    [
        ("Androgenetic alopecia", "Female pattern hair loss", "synonym"),
        ("Roseola infantum", "Roseola (exanthema subitum)", "synonym"),
        ("Pyelonephritis", "Kidney infection", "synonym"),
        ("Amyotrophic lateral sclerosis", "Lou Gehrig's disease", "synonym"),  # an eponym
        ("Myocardial infarction", "Heart attack", "synonym"),  # a MeSH entry term of the gold's heading
        ("Squamous cell carcinoma", "Squamous cell carcinoma of the lip", "specific form"),
        ("Vasculitis", "IgA vasculitis", "specific form"),
        ("Vasculitis", "Henoch-Schönlein purpura", "specific form"),  # MeSH files it under IgA vasculitis
        ("Benign paroxysmal positional vertigo", "BPPV", "abbreviation"),
        ("Coarctation of the aorta", "Aortic coarctation", "match"),
        ("Myasthenia gravis", "Most likely myasthenia gravis", "match"),
        ("Pyelonephritis", "Pyelonephritis, likely due to E. coli", "match"),  # the hedge is on the cause
        ("Seborrheic keratosis", "Seborrheic keratosis; rule out melanoma", "match"),
        ("Myocardial infarction", "STEMI", "specific form"),  # MeSH files ST elevation MI under it
        ("Pyelonephritis", "Based on the findings, the patient most likely has acute pyelonephritis. Other "
                           "considerations include nephrolithiasis.", "match"),
    ],
)
def test_the_disease_under_another_name_or_form_is_correct(gold: str, answer: str, kind: str) -> None:
    grade = grade_diagnosis(gold, f"Diagnosis: {answer}\nTreatment: supportive")
    assert (grade.correct, grade.kind) == (True, kind)


@pytest.mark.parametrize(
    ("gold", "answer"),
    [
        ("Hemophilia A", "Hemophilia A or B"),
        ("Pyelonephritis", "Possible kidney infection (pyelonephritis)"),
        ("Myasthenia gravis", "Myasthenia gravis vs Lambert-Eaton syndrome"),
        ("Myasthenia gravis", "Suspicious for myasthenia gravis"),
        ("Acute lymphoblastic leukemia", "Acute leukemia (ALL or AML)"),
        ("Nephrolithiasis", "1. Pyelonephritis\n2. Nephrolithiasis"),
        ("Nephrolithiasis", "Pyelonephritis; differential includes nephrolithiasis"),
        ("Multiple sclerosis", "Multiple sclerosis?"),
        ("Nephrolithiasis", "Based on the findings, the patient most likely has acute pyelonephritis. Other "
                            "considerations include nephrolithiasis."),
    ],
)
def test_a_hedge_is_wrong_in_strict_mode_and_right_in_reference_mode(gold: str, answer: str) -> None:
    final = f"Diagnosis: {answer}\nTreatment: supportive"
    assert grade_diagnosis(gold, final) == grade_diagnosis(gold, final, "strict")
    assert (grade_diagnosis(gold, final).correct, grade_diagnosis(gold, final).kind) == (False, "hedged")
    assert grade_diagnosis(gold, final, "reference-compatible").correct


@pytest.mark.parametrize(
    ("gold", "answer", "kind"),
    [
        ("Basal cell carcinoma", "Skin cancer", "other"),  # broader, but no ontology at hand says so
        ("Androgenetic alopecia", "Alopecia", "broader"),  # MeSH lists it as an entry term of Alopecia
        ("Hepatitis B", "Hepatitis", "broader"),
        ("Hemophilia A", "Hemophilia", "broader"),
        ("Hemophilia A", "Hemophilia B", "other"),
        ("hypertension", "Pulmonary hypertension", "other"),  # MeSH files it under Hypertension
        ("Myasthenia gravis", "Lambert-Eaton myasthenic syndrome", "other"),  # likewise under Myasthenia Gravis
        ("Granulomatosis with polyangiitis", "Eosinophilic granulomatosis with polyangiitis", "other"),
        ("Appendicitis", "Not appendicitis; mesenteric adenitis", "other"),
        ("Appendicitis", "The presentation is not consistent with appendicitis; this is mesenteric adenitis", "other"),
        ("Pulmonary embolism", "Pulmonary embolism is unlikely; pneumonia", "other"),
        ("Tuberculosis", "Negative for tuberculosis; sarcoidosis", "other"),
        ("Stroke", "Stroke mimic", "other"),
        ("Tuberculosis", "History of tuberculosis; now sarcoidosis", "other"),
    ],
)
def test_broader_and_other_diseases_are_wrong(gold: str, answer: str, kind: str) -> None:
    grade = grade_diagnosis(gold, f"Diagnosis: {answer}\nTreatment: supportive")
    assert (grade.correct, grade.kind) == (False, kind)


@pytest.mark.parametrize("text", ["Diagnosis：Pneumonia", "Diag\u200bnosis: Pneumonia", "Diagnosis:\u00a0Pneu\u00admonia", "\ufeffDiagnosis: Ｐｎｅｕｍｏｎｉａ"])
def test_a_diagnosis_is_read_through_invisible_and_full_width_characters(text: str) -> None:
    for mode in ("strict", "reference-compatible"):
        assert grade_diagnosis("Pneumonia", text, mode).kind == "match", mode


def test_a_diagnosis_among_several_is_a_hedge_in_strict_mode() -> None:
    for text in ("Diagnosis: Pneumonia or pulmonary embolism", "Diagnosis: 1. Pneumonia 2. Bronchitis", "Diagnosis：Pneumonia／bronchitis"):
        grade = grade_diagnosis("Pneumonia", text)
        assert (grade.correct, grade.kind) == (False, "hedged"), text


def test_no_diagnosis_and_the_case_synonyms() -> None:
    assert grade_diagnosis("Pneumonia", "Rationale: more tests\nAction: LAB").kind == "none"
    assert grade_diagnosis("Pneumonia", "Diagnosis: unclear\nTreatment: workup").kind == "none"
    assert grade_diagnosis("Pneumonia", "Diagnosis: none of the above\nTreatment: workup").kind == "none"
    assert grade_diagnosis("Pneumonia", "Diagnosis: None of these.").kind == "none"
    accepted = grade_diagnosis("Valley fever", "Diagnosis: San Joaquin fever", also=["San Joaquin fever"])
    assert (accepted.correct, accepted.kind, accepted.detail) == (True, "synonym", "case:San Joaquin fever")
    with pytest.raises(ValueError, match="mode"):
        grade_diagnosis("Pneumonia", "Diagnosis: pneumonia", "lenient")
