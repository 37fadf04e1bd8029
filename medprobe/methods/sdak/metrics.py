"""SDAK metrics (paper 004 §4.2, §5.1): instruction following, factual accuracy, error types.

An atomic knowledge item is a pair of claims, one factual and one counterfactual; a model holds
the item only if it supports the first *and* refutes the second, which is what keeps a model
that agrees with everything (sycophancy) at zero. A verdict is ``True`` (supported), ``False``
(refuted) or ``None`` (the reply did not begin with a verdict, or there was no reply).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from medprobe.metrics.stats import mean_se

NOT_FOLLOW = "not_follow"
SYCOPHANCY = "sycophancy"
SAFETY = "safety"
MISINTERPRETATION = "misinterpretation"
#: the fact refuted and the counterfactual supported: wrong twice, and none of the paper's four
REVERSED = "reversed"
#: the paper's Table 5 columns in its order, then the verdict pattern it has no column for
ERROR_TYPES = (NOT_FOLLOW, SYCOPHANCY, SAFETY, MISINTERPRETATION, REVERSED)
#: FactAcc of a guesser that supports each claim with probability 1/2
RANDOM_FACT_ACC = 0.25


@dataclass(frozen=True)
class PairVerdicts:
    """The verdicts a model gave to the two claims of one item, and whether the reply to the
    counterfactual claim restates the factual one (``medprobe.methods.sdak.restatement``)."""

    factual: bool | None
    counterfactual: bool | None
    counter_states_fact: bool = False

    @property
    def followed(self) -> bool:
        """Both replies begin with a verdict, right or wrong (the IFR numerator)."""
        return self.factual is not None and self.counterfactual is not None

    @property
    def correct(self) -> bool:
        """Factual claim supported and counterfactual refuted (the FactAcc numerator)."""
        return self.factual is True and self.counterfactual is False


def error_type(pair: PairVerdicts) -> str | None:
    """Why an item was missed, or ``None`` when it was not (paper 004 §5.1 and Tables 8-11).

    * not_follow: a reply without a leading verdict (Table 8: neither reply says correct or
      incorrect) — the complement of IFR, as the paper notes;
    * misinterpretation: both claims supported *and* the counterfactual reply restates the
      factual claim, i.e. the model read the counterfactual as the fact (Table 11: "correct, sea
      vegetables are indeed rich in iodine" to "are not rich in iodine");
    * sycophancy: both claims supported otherwise (Table 9: each reason argues for the claim it
      was given);
    * safety: both refuted (Table 10). The paper adds that the reasons call the claims imprecisely
      put; no rule checks that, so every both-refuted item is counted here;
    * reversed: the fact refuted and the counterfactual supported. The paper has no column for it;
      it is counted apart rather than guessed into one.
    """
    if pair.correct:
        return None
    if not pair.followed:
        return NOT_FOLLOW
    if pair.factual and pair.counterfactual:
        return MISINTERPRETATION if pair.counter_states_fact else SYCOPHANCY
    if not pair.factual and not pair.counterfactual:
        return SAFETY
    return REVERSED


def ifr(pairs: Sequence[PairVerdicts]) -> float | None:
    """Instruction-following rate: the share of items whose two replies both begin with a verdict."""
    return sum(p.followed for p in pairs) / len(pairs) if pairs else None


def fact_acc(pairs: Sequence[PairVerdicts]) -> float | None:
    """Factual accuracy: the share of items with the fact supported and the counterfactual refuted."""
    return sum(p.correct for p in pairs) / len(pairs) if pairs else None


def by_type(pairs: Iterable[tuple[str, PairVerdicts]]) -> dict[str, list[PairVerdicts]]:
    """(type, verdicts) pairs grouped by atomic type, in order of first appearance."""
    grouped: dict[str, list[PairVerdicts]] = defaultdict(list)
    for kind, pair in pairs:
        grouped[kind].append(pair)
    return dict(grouped)


def per_type_accuracy(pairs: Iterable[tuple[str, PairVerdicts]]) -> dict[str, float]:
    """FactAcc of each atomic type, from (type, verdicts) pairs (the paper's radar chart, Fig. 4)."""
    return {kind: fact_acc(group) or 0.0 for kind, group in by_type(pairs).items()}


def error_counts(pairs: Iterable[PairVerdicts]) -> dict[str, int]:
    """How many missed items fall in each error type (every type present, zeros included)."""
    counts = Counter(error_type(p) for p in pairs)
    return {kind: counts[kind] for kind in ERROR_TYPES}


def error_shares(counts: Mapping[str, int]) -> dict[str, float | None]:
    """Each error type as a share of all missed items (Table 5 reads as percentages of errors)."""
    total = sum(counts.values())
    return {kind: counts[kind] / total if total else None for kind in ERROR_TYPES}


def mean_sd(values: Sequence[float]) -> tuple[float | None, float | None]:
    """Mean and sample standard deviation (ddof=1) over runs, as the paper reports its three
    runs; the deviation is ``None`` for fewer than two runs."""
    average, se = mean_se(values)
    return average, None if se is None else se * math.sqrt(len(values))
