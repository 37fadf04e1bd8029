"""Small statistics shared by methods."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

T = TypeVar("T")


def mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def mean_se(values: Sequence[float]) -> tuple[float | None, float | None]:
    """Mean and standard error (sample sd with ddof=1 over sqrt(n)); SE is None for n < 2.

    This is how the papers report repeats: mean ± std(ddof=1)/sqrt(#repeats)."""
    n = len(values)
    if n == 0:
        return None, None
    sd = _sd(values)
    return sum(values) / n, None if sd is None else sd / math.sqrt(n)


def bootstrap_se(
    units: Sequence[T],
    statistic: Callable[[Sequence[T]], Mapping[str, float | None]],
    *,
    resamples: int = 1000,
    seed: int = 0,
) -> dict[str, float | None]:
    """Standard error of each number ``statistic`` returns, from a seeded bootstrap over ``units``.

    Repeats and runs only show how much a score moves when the *same* questions or cases are asked
    again; a benchmark is also one sample of questions. Resampling the units (questions, cases) with
    replacement ``resamples`` times and taking the sample standard deviation of the statistic gives an
    error bar that includes that item sampling. Keep everything measured on one unit together (a
    question's answers in every repeat, a case's episodes in every run): the spread then covers the
    repeat-to-repeat noise too. A number the statistic leaves out (None) in a resample is skipped;
    with fewer than two units, or fewer than two values, its SE is None. Same units and seed, same SE.

    Low/mid accuracy, for example::

        bootstrap_se(questions, lambda sample: {"accuracy": mean([q.mean_correct for q in sample])})
    """
    if not units:
        return {}
    draws = _bootstrap_draws(units, statistic, resamples, seed)
    return {key: _sd(draws.get(key, [])) for key in statistic(units)}


def bootstrap_ci(
    units: Sequence[T],
    statistic: Callable[[Sequence[T]], Mapping[str, float | None]],
    *,
    resamples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> dict[str, tuple[float, float] | None]:
    """Percentile confidence interval of each number ``statistic`` returns, from the same seeded
    bootstrap over ``units`` as :func:`bootstrap_se` (keep what was measured on one unit together);
    None where fewer than two units or resampled values exist."""
    if not units:
        return {}
    draws = _bootstrap_draws(units, statistic, resamples, seed)
    tail = (1 - level) / 2
    return {key: _percentiles(draws.get(key, []), tail) for key in statistic(units)}


def _bootstrap_draws(
    units: Sequence[T], statistic: Callable[[Sequence[T]], Mapping[str, float | None]], resamples: int, seed: int,
) -> dict[str, list[float]]:
    n = len(units)
    rng = random.Random(seed)
    draws: dict[str, list[float]] = {}
    for _ in range(resamples if n > 1 else 0):
        sample = [units[rng.randrange(n)] for _ in range(n)]
        for key, value in statistic(sample).items():
            if value is not None:
                draws.setdefault(key, []).append(value)
    return draws


def _percentiles(values: Sequence[float], tail: float) -> tuple[float, float] | None:
    if len(values) < 2:
        return None
    ordered = sorted(values)
    last = len(ordered) - 1
    return ordered[round(tail * last)], ordered[round((1 - tail) * last)]


def _sd(values: Sequence[float]) -> float | None:
    """Sample standard deviation (ddof=1); None for fewer than two values."""
    n = len(values)
    if n < 2:
        return None
    m = sum(values) / n
    return math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
