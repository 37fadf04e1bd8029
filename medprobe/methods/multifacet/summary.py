"""The metrics of a MultifacetEval run, typed: what ``summary.json`` holds under ``metrics``.

The scorer builds a :class:`MultifacetMetrics` and the run keeps its ``model_dump()``, so the field
order below is the key order of summary.json; the report reads the same model back from the file.
Its JSON Schema is published in the documentation (the MultifacetEval page).
"""

from __future__ import annotations

from pydantic import BaseModel


class FacetResult(BaseModel):
    """One facet's accuracy over the run's repeats, with what it was computed from."""

    task: str
    accuracy: float | None
    #: standard error over repeats (None for one repeat); summaries older than repeats lack it
    se: float | None = None
    questions: int
    replies: int
    parse_failure_rate: float | None
    random_baseline: float


class Mastery(BaseModel):
    """p(M) as facets are added in ``order`` (the paper's Fig. 6), mean over repeats."""

    order: list[str]
    without_negation: list[float | None]
    with_negation: list[float | None]


class MultifacetMetrics(BaseModel):
    """Facet accuracies, their macro average, the random baselines and the mastery curves."""

    n_options: int
    knowledge_points: int
    repeats: int
    #: facet name -> result, in the paper's task order (MCQ, RQ, MAQ, TFQ)
    facets: dict[str, FacetResult]
    average: float | None
    average_se: float | None
    random_average: float | None
    mastery: Mastery
    parse_failure_rate: float | None
