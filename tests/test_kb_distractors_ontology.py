"""Distractors are never ontology relatives of the disease's own entities, which would make them right: a unit test on
a hand-made English KB, and a count over MCQs generated from the real built-in English KB."""

from __future__ import annotations

import random

import pytest

from medprobe.methods.multifacet import from_kb
from medprobe.methods.multifacet.from_kb import build_kb_questions, distractors, index_kb
from medprobe.sources.builtin import resolve_kb
from medprobe.sources.hpo_terms import related_to_any
from medprobe.sources.kb import Disease, KnowledgeBase

RELATED = ["Abnormal penis morphology", "Abnormality of the eye", "Focal-onset seizure"]
UNRELATED = ["Arachnodactyly", "Hepatomegaly", "Hearing impairment"]
#: unrelated by the ontology, but of an organ system the disease shows (Micropenis): never wrong for sure
SAME_SYSTEM = ["Long penis"]


def _kb() -> KnowledgeBase:
    """One disease with three HPO findings; every other disease owns one candidate entity and
    shares nothing else, so only the ontology can tell the related ones apart."""
    own = Disease(id="D:0", name="Disease zero", language="en", aspects={"primary_symptoms": ["Micropenis", "Cataract", "Seizure"]})
    others = [
        Disease(id=f"D:{i}", name=f"Disease {i}", language="en", aspects={"primary_symptoms": [value]})
        for i, value in enumerate(RELATED + UNRELATED + SAME_SYSTEM, start=1)
    ]
    return KnowledgeBase(name="t", diseases=[own, *others])


def test_ontology_relatives_are_never_distractors() -> None:
    kb = _kb()
    kp = next(kb.knowledge_points(aspects=["primary_symptoms"]))
    entry = index_kb(kb, {"primary_symptoms"})["primary_symptoms"]
    for seed in range(20):
        picked = distractors(entry, kp, random.Random(seed), n=len(RELATED) + len(UNRELATED) + len(SAME_SYSTEM))
        assert sorted(picked) == sorted(UNRELATED)  # an ancestor of each own finding, and a descendant, are out


def test_without_the_ontology_check_they_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The exclusion is the language's hooks' doing (Chinese has hooks of its own now, which take any
    non-Chinese text for a general finding, so English's are switched off instead)."""
    monkeypatch.delitem(from_kb.ONTOLOGY_RELATED, "en")
    monkeypatch.delitem(from_kb.GENERAL_FINDING, "en")
    monkeypatch.delitem(from_kb.SAME_SYSTEM, "en")
    kb = _kb()
    kp = next(kb.knowledge_points(aspects=["primary_symptoms"]))
    entry = index_kb(kb, {"primary_symptoms"})["primary_symptoms"]
    picked = distractors(entry, kp, random.Random(0), n=7)
    assert {"Abnormal penis morphology", "Abnormality of the eye", "Long penis"} <= set(picked)  # "Focal-onset seizure" holds "seizure": the name check


def test_the_disease_s_findings_under_a_sibling_aspect_are_never_distractors() -> None:
    """A primary-symptom question of a disease whose associated symptoms hold "Seizure" and
    "Hepatomegaly" offers neither of them, nor a relative of one ("Focal-onset seizure"), as wrong:
    the audit's distractor_risk on builtin:en (1.07 %) was all such cases ("Rhizomelia" for a
    disease with an associated "Short stature")."""
    own = Disease(
        id="D:0", name="Disease zero", language="en",
        aspects={"primary_symptoms": ["Micropenis", "Cataract", "Arachnodactyly"], "associated_symptoms": ["Seizure", "Hepatomegaly"]},
    )
    candidates = ["Focal-onset seizure", "Hepatomegaly", "Hearing impairment", "Long penis", "Nystagmus"]
    others = [Disease(id=f"D:{i}", name=f"Disease {i}", language="en", aspects={"primary_symptoms": [v]}) for i, v in enumerate(candidates, 1)]
    kb = KnowledgeBase(name="t", diseases=[own, *others])
    kp = next(kb.knowledge_points(aspects=["primary_symptoms"]))
    entry = index_kb(kb, {"primary_symptoms"})["primary_symptoms"]
    for seed in range(20):
        # "Long penis" and "Nystagmus" fall under organ systems of its findings (genitourinary; eye, nervous)
        assert sorted(distractors(entry, kp, random.Random(seed), n=5)) == ["Hearing impairment"]


def test_findings_of_diseases_with_a_similar_name_are_never_distractors() -> None:
    """A blind reading offered "Proximal lower limb muscle weakness" as wrong for a limb-girdle muscular
    dystrophy whose annotations happen to lack it; other muscular dystrophies list it. A disease sharing two
    content words of the name ("muscular dystrophy") is related, one sharing a single word is not."""
    own = Disease(id="D:0", name="Limb-girdle muscular dystrophy R4", language="en", aspects={"primary_symptoms": ["Myopathy", "Gowers sign", "Calf muscle hypertrophy"]})
    others = [
        Disease(id="D:1", name="Emery-Dreifuss muscular dystrophy 2", language="en", aspects={"primary_symptoms": ["Proximal lower limb muscle weakness"]}),
        Disease(id="D:2", name="Spinal muscular atrophy, type I", language="en", aspects={"primary_symptoms": ["Tongue fasciculations"]}),
        Disease(id="D:3", name="Marfan syndrome", language="en", aspects={"primary_symptoms": ["Arachnodactyly"]}),
        Disease(id="D:4", name="Neurofibromatosis type 1", language="en", aspects={"primary_symptoms": ["Axillary freckling"]}),
    ]
    kb = KnowledgeBase(name="t", diseases=[own, *others])
    kp = next(kb.knowledge_points(aspects=["primary_symptoms"]))
    entry = index_kb(kb, {"primary_symptoms"})["primary_symptoms"]
    # "Arachnodactyly" is musculoskeletal like the dystrophy's own findings: out by the organ-system rule
    assert sorted(distractors(entry, kp, random.Random(0), n=4)) == ["Axillary freckling", "Tongue fasciculations"]


def test_grouping_terms_are_never_english_distractors() -> None:
    """A blind reading offered "Abnormal nervous system electrophysiology" as wrong for a leukoencephalopathy
    with seizures: a grouping term is right for most diseases of its place."""
    own = Disease(id="D:0", name="Disease zero", language="en", aspects={"primary_symptoms": ["Micropenis", "Cataract", "Seizure"]})
    candidates = ["Abnormal nervous system electrophysiology", "Abnormality of the wrist", "Arachnodactyly", "Hepatomegaly"]
    others = [Disease(id=f"D:{i}", name=f"Disease {i}", language="en", aspects={"primary_symptoms": [v]}) for i, v in enumerate(candidates, 1)]
    kb = KnowledgeBase(name="t", diseases=[own, *others])
    kp = next(kb.knowledge_points(aspects=["primary_symptoms"]))
    entry = index_kb(kb, {"primary_symptoms"})["primary_symptoms"]
    assert sorted(distractors(entry, kp, random.Random(0), n=4)) == ["Arachnodactyly", "Hepatomegaly"]


@pytest.fixture(scope="module")
def english() -> KnowledgeBase:
    return resolve_kb("builtin:en")


def test_no_generated_mcq_offers_a_relative_as_wrong(english: KnowledgeBase) -> None:
    """300 knowledge points (seed 0): before the check, 15 of their MCQs offered an HPO ancestor or
    descendant of one of the disease's own findings as a wrong option ("Kyphosis" beside
    "Thoracolumbar kyphosis")."""
    built = build_kb_questions(english, seed=0, limit=300)
    values = {kp.id: kp.values for kp in english.knowledge_points()}
    mcqs = [q for q in built.questions if q.task == "MCQ"]
    assert len(mcqs) == 600
    offending = [
        (q.knowledge_point, text)
        for q in mcqs
        for letter, text in (q.fmt.option_texts or {}).items()
        if (letter == q.gold) == q.negated and related_to_any(text, values[q.knowledge_point])  # the wrong options
    ]
    assert offending == []
