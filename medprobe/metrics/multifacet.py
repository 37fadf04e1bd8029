"""MultifacetEval metrics as implemented by the reference ``analysis.py`` (REFERENCE_METHODS.md §4.2).

Facets: comparison = MCQ, rectification = RQ, discrimination = MAQ, verification = TFQ. Item scores are
averaged over knowledge points by the caller; the mastery proportion p(M) is defined in the paper only
(the reference code does not compute it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from medprobe.parsing.base import Revision

FACETS: tuple[str, ...] = ("comparison", "rectification", "discrimination", "verification")
# Paper Fig. 6 adds facets in this order (computed there without the negated questions).
MASTERY_ORDER: tuple[str, ...] = ("comparison", "verification", "rectification", "discrimination")


def revision_correct(pred: Revision, gold_judge: bool, gold_letter: str) -> bool:
    """An RQ answer is right only when both the verdict and the letter match the gold pair.

    For the question where Alice is right the gold letter is hers (= the gold option), which padding
    supplies for a bare "correct" (§4.2, §4.4 item 8).
    """
    return pred.judge == gold_judge and pred.option == gold_letter


def revision_item_score(correct_given_right: bool, correct_given_wrong: bool, n_options: int) -> float:
    """``(c_T + (No - 1) * c_F) / No`` (§4.2; ``(c_T + 4 c_F) / 5`` for MedQA).

    Weighting the Alice-is-wrong question by ``No - 1`` makes the random baseline ``1/No``: a random
    verdict-and-letter guess is right with probability 1/2 on the first question and
    ``1/2 * 1/(No - 1)`` on the second.
    """
    return (int(correct_given_right) + (n_options - 1) * int(correct_given_wrong)) / n_options


def letter_set_correct(pred: frozenset[str] | None, gold: set[str] | frozenset[str]) -> bool:
    """Exact set match (§4.2); an unparsed MAQ answer (``None``) is wrong."""
    return pred is not None and pred == gold


def letter_set_item_score(
    preds: Sequence[frozenset[str] | None], golds: Sequence[set[str] | frozenset[str]]
) -> float:
    """MAQ item score: mean exact-match over the item's questions (positive and negated, §4.2)."""
    return _mean([letter_set_correct(pred, gold) for pred, gold in zip(preds, golds, strict=True)])


def true_false_item_score(preds: Sequence[bool], golds: Sequence[bool]) -> float:
    """TFQ item score: mean correctness over the item's statements, negated ones included (§4.2)."""
    return _mean([pred == gold for pred, gold in zip(preds, golds, strict=True)])


def random_baselines(n_options: int) -> dict[str, float]:
    """Accuracy of random answering per facet (§4.2): 1/No for MCQ and RQ, 1/(2^No - 1) for MAQ (one of
    the non-empty subsets), 1/2 for TFQ. MedQA (No = 5): 0.2 / 0.2 / 1/31 / 0.5."""
    return {
        "comparison": 1 / n_options,
        "rectification": 1 / n_options,
        "discrimination": 1 / (2**n_options - 1),
        "verification": 0.5,
    }


def normalized(acc: float, baseline: float) -> float:
    """``(acc - rand) / (1 - rand)``: 0 at chance, 1 at perfect (§4.2 ``cal_relative_performance``)."""
    if baseline >= 1:
        raise ValueError(f"a random baseline must be below 1, got {baseline}")
    return (acc - baseline) / (1 - baseline)


def mastery_curve(facet_mastered: Mapping[str, Mapping[str, bool]], order: Sequence[str]) -> list[float]:
    """p(M) after adding the facets of ``order`` one by one (paper p(M); §4.2).

    ``facet_mastered[facet][kp]`` says whether *every* question of that facet for knowledge point ``kp``
    was correct (which questions count — e.g. without the negated ones, as in Fig. 6 — is the caller's
    choice). A knowledge point is mastered after k facets when it is mastered in each of the first k; a
    knowledge point missing from a facet counts as not mastered there. The denominator is every
    knowledge point that appears in any facet.
    """
    unknown = [facet for facet in order if facet not in facet_mastered]
    if unknown:
        raise ValueError(f"no mastery data for facet(s) {unknown}")
    points = set().union(*(set(by_point) for by_point in facet_mastered.values()))
    if not points:
        raise ValueError("mastery_curve needs at least one knowledge point")
    curve = []
    for k in range(1, len(order) + 1):
        mastered = [p for p in points if all(facet_mastered[f].get(p, False) for f in order[:k])]
        curve.append(len(mastered) / len(points))
    return curve


def _mean(flags: Sequence[bool]) -> float:
    if not flags:
        raise ValueError("an item needs at least one question")
    return sum(flags) / len(flags)
