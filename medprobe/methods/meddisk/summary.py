"""The metrics of a MedDisKEval run, typed: what ``summary.json`` holds under ``metrics``.

The scorer builds a :class:`MedDisKMetrics` and the run keeps its ``model_dump()``, so the field order
below is the key order of summary.json; the report reads the same model back from the file. Its JSON
Schema is published in the documentation (the MedDisKEval page). A tier distribution is a mapping of
the tiers (CW, PC, BC) to their shares of the answers.
"""

from __future__ import annotations

from pydantic import BaseModel


class Graded(BaseModel):
    """Tier distributions of a slice of the answers, their mean over the graded metrics and its total."""

    #: metric (bleu1, rouge1, cosine) -> tier distribution
    distribution: dict[str, dict[str, float]]
    #: the mean of the graded metrics' distributions
    mean_distribution: dict[str, float]
    #: 0·CW + 5·PC + 10·BC of the mean distribution (0 to 10)
    total_score: float


class AspectResult(BaseModel):
    """One aspect (the paper's Figure 10): answers, mean similarity per metric, tiers and total."""

    n: int
    mean_score: dict[str, float]
    distribution: dict[str, dict[str, float]]
    mean_distribution: dict[str, float]
    total_score: float


class Postprocess(BaseModel):
    """How the replies were post-processed before scoring."""

    pattern_found_rate: float | None
    said_none_rate: float | None
    empty_answer_rate: float | None
    failed_requests: int


class Scoring(BaseModel):
    """The scoring options a run used: rows compare only when these agree."""

    embedder: str
    #: what the cosine thresholds were calibrated for
    thresholds: str
    tokenizer: str
    extractor: str


class Knowledge(BaseModel):
    """What a run asked about: its language, how many (point, reference) pairs, and their digest."""

    language: str
    points: int
    digest: str


class MedDisKMetrics(BaseModel):
    """Tier distributions, total score and level, by aspect and aspect type, with how replies were read."""

    responses: int
    distribution: dict[str, dict[str, float]]
    mean_distribution: dict[str, float]
    total_score: float
    level: int
    #: aspect key -> result, in the order the aspects were asked
    per_aspect: dict[str, AspectResult]
    #: aspect type (enumerated, numeric, ...) -> tiers
    per_type: dict[str, Graded]
    graded_metrics: list[str]
    postprocess: Postprocess
    scoring: Scoring
    #: older summaries lack it
    knowledge: Knowledge | None = None
