"""MultiCogEval high level, issue 8 §4: error bars over cases, exam typing, lab panels, imaging
parsing, diagnosis matching, the baseline doctor and how dialogue turns were read."""

from __future__ import annotations

import math
import random

import pytest

from medprobe.metrics.fullpath import CaseOutcome, bootstrap_over_cases
from medprobe.metrics.stats import bootstrap_se

# --- error bars: a seeded bootstrap over cases ----------------------------------------------------


def test_bootstrap_se_of_a_mean_matches_the_analytic_standard_error() -> None:
    values = [float(i % 2) for i in range(200)]  # half right: sd 0.5, SE of the mean 0.5/sqrt(200)
    se = bootstrap_se(values, lambda sample: {"mean": sum(sample) / len(sample)}, resamples=2000, seed=1)["mean"]
    assert se == pytest.approx(0.5 / math.sqrt(200), rel=0.1)
    again = bootstrap_se(values, lambda sample: {"mean": sum(sample) / len(sample)}, resamples=2000, seed=1)
    assert again["mean"] == se, "seeded: the same seed gives the same error bar"
    assert bootstrap_se([1.0], lambda s: {"m": s[0]})["m"] is None, "one unit: no spread to estimate"
    assert bootstrap_se([], lambda s: {"m": 0.0}) == {}


def test_bootstrap_over_cases_sees_item_sampling_that_runs_do_not() -> None:
    """Three identical runs give SE 0 over runs; the cases still differ, so the error bar is not 0."""
    rng = random.Random(0)
    outcomes = [CaseOutcome(f"c{i}", f"d{i}", rng.random() < 0.5, {"LAB": 1.0}) for i in range(40)]
    per_run = {0: outcomes, 1: list(outcomes), 2: list(outcomes)}
    se = bootstrap_over_cases(per_run, resamples=500, seed=0)
    p = sum(o.correct for o in outcomes) / 40
    assert se["macro_end_point"] == pytest.approx(math.sqrt(p * (1 - p) / 40), rel=0.15)
    assert se["macro_full_path"] == se["macro_end_point"]  # recall 1 everywhere
    assert se["recall_LAB"] == 0.0
