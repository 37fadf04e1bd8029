"""The metrics of an SDAK run, typed: what ``summary.json`` holds under ``metrics``.

The scorer builds an :class:`SdakMetrics` and the run keeps its ``model_dump()``, so the field order
below is the key order of summary.json; the report reads the same model back from the file. Its JSON
Schema is published in the documentation (the SDAK page).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, PrivateAttr, SerializerFunctionWrapHandler, model_serializer


class Spread(BaseModel):
    """A rate per run, and its mean and sample standard deviation over runs (None for one run)."""

    mean: float | None
    sd: float | None = None
    runs: list[float]


class TypeResult(BaseModel):
    """One atomic type (the paper's radar chart, Fig. 4): FactAcc and IFR, mean over runs."""

    label: str
    items: int
    fact_acc: float | None
    fact_acc_sd: float | None
    ifr: float | None


class Errors(BaseModel):
    """Why the missed item-runs were missed (the paper's Table 5, plus "reversed")."""

    missed: int
    counts: dict[str, int]
    shares: dict[str, float | None]


class ReaderRates(BaseModel):
    """IFR and FactAcc, mean over runs, as one reader reads the replies."""

    ifr: float | None
    fact_acc: float | None


class Readers(BaseModel):
    """The strict reader against the SDAK authors' prefix rules on the same replies. summary.json lists
    the reading that scored the run first (``scored``, which the file does not hold otherwise)."""

    strict: ReaderRates
    reference: ReaderRates
    #: per claim half: "strict verdict / authors' verdict" -> replies, most common first
    verdict_pairs: dict[str, dict[str, int]]
    #: per claim half: the authors' deciding rule -> replies, most common first
    authors_rules: dict[str, dict[str, int]]
    disagreements: int
    disagreements_file: str
    _scored: str = PrivateAttr(default="strict")

    def scored_by(self, reading: str) -> Readers:
        """The same comparison, with ``reading`` ("strict" or "reference") as the one that scored the run."""
        self._scored = reading
        return self

    @model_serializer(mode="wrap")
    def _scored_first(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if self._scored == "reference":
            data = {"reference": data.pop("reference"), **data}
        return data


class Accr(BaseModel):
    """The manual AccR sheet: its file in the run directory and how many items it holds."""

    file: str
    items: int


class SdakMetrics(BaseModel):
    """IFR and FactAcc over runs, per atomic type, the error types, and how the replies were read."""

    items: int
    runs: int
    ifr: Spread
    fact_acc: Spread
    random_fact_acc: float
    #: atomic type -> result, in the order of the paper's types
    per_type: dict[str, TypeResult]
    errors: Errors
    no_verdict_rate: float | None
    #: why replies had no leading verdict -> how many, most common first
    no_verdict_reasons: dict[str, int] = Field(default_factory=dict)
    readers: Readers | None = None
    setting: str | None = None
    accr: Accr
