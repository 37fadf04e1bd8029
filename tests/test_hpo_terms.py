"""HPO term relations by name (medprobe.sources.hpo_terms), on the real ontology shipped by hpo3."""

from __future__ import annotations

import pytest

from medprobe.sources.hpo_terms import (
    grouping_term,
    named_terms,
    related_terms,
    related_to_any,
    term_id,
    within,
)


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
        ("Cutaneous telangiectasia", "Telangiectasia of the skin"),  # sibling terms in other words (a blind reading)
        ("Hepatic failure", "Failure of the liver"),  # the same words whether HPO knows them or not
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
        ("Metformin", "Aspirin"),  # both unknown, other words
        ("Renal cyst", "Hepatic cyst"),  # organ adjectives are read as their organ, which differ
    ],
)
def test_unrelated_or_unknown_is_not_related(a: str, b: str) -> None:
    assert not related_terms(a, b)


def test_related_to_any() -> None:
    assert related_to_any("Abnormal penis morphology", ["Cataract", "Micropenis"])
    assert not related_to_any("Cataract", ["Micropenis", "Seizure"])
    assert not related_to_any("Cataract", [])


def test_an_obsolete_name_means_the_term_that_replaced_it() -> None:
    assert term_id("Hypotrichosis") == term_id("Sparse hair") == "HP:0008070"
    assert term_id("obsolete Hypotrichosis") is None


def test_named_terms_are_whole_word_runs_of_a_disease_name() -> None:
    named = named_terms("Hypotrichosis and recurrent skin vesicles")
    assert {"HP:0008070", term_id("Skin vesicle")} <= named
    assert term_id("Hypertelorism") not in named_terms("Hypertrophic cardiomyopathy 1")  # no part of a word
    assert term_id("Muscular dystrophy") in named_terms("Limb-girdle muscular dystrophy R4")
    assert term_id("Short ribs") in named_terms("Short-rib thoracic dysplasia 3")  # a hyphen parts words too


def test_within_a_named_term() -> None:
    named = named_terms("Hypotrichosis and recurrent skin vesicles")
    assert within(term_id("Sparse eyelashes") or "", named)
    assert within("HP:0008070", named)
    assert not within(term_id("Epidermal acanthosis") or "", named)


def test_grouping_terms_name_a_place_not_a_finding() -> None:
    assert grouping_term("Abnormal nervous system electrophysiology") and grouping_term("Abnormality of the wrist")
    assert not grouping_term("Micropenis") and not grouping_term("Long penis")


def test_a_sibling_of_a_kind_the_disease_shows_twice_is_related() -> None:
    """A blind reading offered "Nocturnal seizures" as wrong for Dravet syndrome, whose own findings hold
    two other kinds of seizure; a long penis stays a fair wrong option beside a micropenis alone."""
    seizures = ["Focal-onset seizure", "Generalized myoclonic seizure", "Ataxia"]
    assert related_to_any("Nocturnal seizures", seizures)
    assert not related_to_any("Nocturnal seizures", ["Focal-onset seizure", "Ataxia"])  # one seizure kind shown: a fair sibling
    assert not related_to_any("Long penis", ["Micropenis", "Cataract"])


def test_a_wrong_finding_must_come_from_an_organ_system_the_disease_shows_nothing_in() -> None:
    """An unlisted eye finding may be true of a disease with eye findings; an unknown name has no
    system that could be told apart, so it is never offered as wrong."""
    from medprobe.sources.hpo_terms import shares_a_system, systems

    own = systems(["Cataract", "Micropenis", "not an HPO term"])
    assert shares_a_system("Glaucoma", own) and shares_a_system("Long penis", own)
    assert not shares_a_system("Hepatomegaly", own)
    assert shares_a_system("Eye trouble", own)  # unknown to HPO
