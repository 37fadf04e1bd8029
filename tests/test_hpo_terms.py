"""HPO term relations by name (medprobe.sources.hpo_terms), on the real ontology shipped by hpo3."""

from __future__ import annotations

import pytest

from medprobe.sources.hpo_terms import related_terms, related_to_any, term_id


def test_names_are_found_without_regard_to_case_or_plural() -> None:
    assert term_id("Micropenis") == term_id("micropenis") == "HP:0000054"
    assert term_id("  Abnormal   penis morphology ") == "HP:0000036"
    assert term_id("Seizures") == term_id("Seizure") == "HP:0001250"
    assert term_id("Metformin") is None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Micropenis", "Micropenis"),  # the same term
        ("Abnormal penis morphology", "Micropenis"),  # an ancestor of the other
        ("micropenis", "Abnormal penis morphology"),  # a descendant, in any case
        ("Abnormality of the eye", "Cataract"),  # a top-level branch over a deep term
        ("Seizures", "Focal-onset seizure"),  # a plural still reaches the term
    ],
)
def test_same_or_ancestor_or_descendant_is_related(a: str, b: str) -> None:
    assert related_terms(a, b) and related_terms(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Micropenis", "Cataract"),  # different branches
        ("Long penis", "Micropenis"),  # siblings under "Abnormal penis morphology" are not related
        ("Micropenis", "Metformin"),  # one name unknown to HPO
        ("Metformin", "Metformin"),  # both unknown: not an HPO relation at all
    ],
)
def test_unrelated_or_unknown_is_not_related(a: str, b: str) -> None:
    assert not related_terms(a, b)


def test_related_to_any() -> None:
    assert related_to_any("Abnormal penis morphology", ["Cataract", "Micropenis"])
    assert not related_to_any("Cataract", ["Micropenis", "Seizure"])
    assert not related_to_any("Cataract", [])
