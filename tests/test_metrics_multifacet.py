"""MultifacetEval metrics: the golden vectors of REFERENCE_METHODS.md §6 plus edge cases."""

from __future__ import annotations

import pytest

from medprobe.metrics.multifacet import (
    MASTERY_ORDER,
    letter_set_correct,
    letter_set_item_score,
    mastery_curve,
    normalized,
    random_baselines,
    revision_correct,
    revision_item_score,
    true_false_item_score,
)
from medprobe.parsing.base import Revision

T, F = True, False


@pytest.mark.parametrize(
    ("c_t", "c_f", "score"),
    [(T, T, 1.0), (T, F, 0.2), (F, T, 0.8), (F, F, 0.0)],
)
def test_rq_item_score_golden(c_t, c_f, score):
    assert revision_item_score(c_t, c_f, 5) == pytest.approx(score)


def test_rq_item_score_golden_average():
    pairs = [(T, T), (T, F), (F, T), (F, F)]
    acc = sum(revision_item_score(t, f, 5) for t, f in pairs) / 4
    acc_t = sum(t for t, _ in pairs) / 4
    acc_f = sum(f for _, f in pairs) / 4
    assert acc == pytest.approx(0.5)
    assert acc == pytest.approx(0.2 * acc_t + 0.8 * acc_f)


def test_rq_item_score_four_options():
    assert revision_item_score(T, F, 4) == pytest.approx(0.25)
    assert revision_item_score(F, T, 4) == pytest.approx(0.75)


def test_revision_correct_needs_judge_and_letter():
    # Alice right (gold C): "correct" padded with her letter is right; a T with another letter is not.
    assert revision_correct(Revision(T, "C"), True, "C")
    assert not revision_correct(Revision(T, "B"), True, "C")
    # Alice wrong (gold E): verdict F and the gold letter are both needed.
    assert revision_correct(Revision(F, "E"), False, "E")
    assert not revision_correct(Revision(F, "A"), False, "E")
    assert not revision_correct(Revision(T, "D"), False, "E")


def test_tfq_item_score_golden():
    assert true_false_item_score([T, F, T, T], [T, F, F, T]) == pytest.approx(0.75)


def test_maq_exact_match_golden():
    gold = {"A", "D", "E"}
    assert letter_set_correct(frozenset("EDA"), gold)
    assert not letter_set_correct(frozenset("AD"), gold)
    assert not letter_set_correct(frozenset(), gold)
    assert not letter_set_correct(None, gold)


def test_maq_item_score_golden():
    # positive question right, negated question wrong -> 0.5
    assert letter_set_item_score(
        [frozenset("ADE"), frozenset("BC")], [{"A", "D", "E"}, {"B"}]
    ) == pytest.approx(0.5)


def test_item_scores_reject_mismatched_or_empty_input():
    with pytest.raises(ValueError):
        true_false_item_score([T], [T, F])
    with pytest.raises(ValueError):
        true_false_item_score([], [])


def test_random_baselines():
    medqa = random_baselines(5)
    assert medqa == pytest.approx(
        {"comparison": 0.2, "rectification": 0.2, "discrimination": 1 / 31, "verification": 0.5}
    )
    # Paper "Random" row: 20.0 / 20.0 / 3.2 / 50.0, average 23.3.
    assert round(100 * medqa["discrimination"], 1) == 3.2
    assert round(100 * sum(medqa.values()) / 4, 1) == 23.3
    assert random_baselines(4)["discrimination"] == pytest.approx(1 / 15)


def test_normalization_golden():
    assert normalized(0.1, random_baselines(5)["discrimination"]) == pytest.approx(0.07)
    assert normalized(0.1, 1 / 31) == pytest.approx((0.1 - 1 / 31) / (30 / 31))
    assert normalized(0.6, 0.2) == pytest.approx(0.5)
    assert normalized(0.55, 0.25) == pytest.approx(0.4)
    assert normalized(0.7, 0.5) == pytest.approx(0.4)
    with pytest.raises(ValueError):
        normalized(0.5, 1.0)


# Golden p(M): four knowledge points with facets (MCQ, TFQ, RQ, MAQ).
_ROWS = {"k1": (1, 1, 1, 1), "k2": (1, 0, 1, 1), "k3": (1, 1, 1, 1), "k4": (0, 1, 1, 1)}
_COLUMNS = ("comparison", "verification", "rectification", "discrimination")
GOLDEN = {facet: {kp: bool(row[i]) for kp, row in _ROWS.items()} for i, facet in enumerate(_COLUMNS)}


def test_mastery_curve_golden():
    curve = mastery_curve(GOLDEN, MASTERY_ORDER)
    assert curve == pytest.approx([0.75, 0.5, 0.5, 0.5])


def test_mastery_curve_negation_example():
    tfq_s1_to_s4 = [T, T, T, F]
    with_negations = {"verification": {"k": all(tfq_s1_to_s4)}}
    without_negations = {"verification": {"k": all(tfq_s1_to_s4[i] for i in (0, 2))}}
    assert mastery_curve(with_negations, ["verification"]) == [0.0]
    assert mastery_curve(without_negations, ["verification"]) == [1.0]


def test_mastery_curve_missing_point_counts_as_not_mastered():
    data = {"comparison": {"k1": True, "k2": True}, "verification": {"k1": True, "k3": True}}
    # Denominator {k1, k2, k3}; k3 lacks comparison, k2 lacks verification.
    assert mastery_curve(data, ["comparison", "verification"]) == pytest.approx([2 / 3, 1 / 3])


def test_mastery_curve_errors():
    with pytest.raises(ValueError, match="no mastery data"):
        mastery_curve(GOLDEN, ["comparison", "recall"])
    with pytest.raises(ValueError, match="at least one"):
        mastery_curve({"comparison": {}}, ["comparison"])
