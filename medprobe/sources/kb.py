"""The normalized knowledge-base format: one JSON line per disease.

    {"id": "OMIM:154700", "name": "Marfan syndrome", "language": "en",
     "codes": {"OMIM": ["154700"]}, "synonyms": [],
     "aspects": {"primary_symptoms": ["arachnodactyly", "ectopia lentis"],
                 "laboratory_examinations": "…", "severity_level": 3},
     "extra": {"inheritance": ["autosomal dominant"]}}

``aspects`` keys are the 18 MedDisK aspects (medprobe.aspects); the value's shape follows the
aspect's type: enumerated -> non-empty list of strings, declarative -> string, numeric -> number.
``extra`` holds any other knowledge (cause, infectivity, inheritance, …) under snake_case names,
typed by the same shapes. Loading validates every line and reports file:line and field.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError, field_validator

from medprobe.aspects import ASPECTS, ASPECTS_BY_KEY, AspectType
from medprobe.errors import MedprobeError
from medprobe.jsonl import iter_json_lines, validation_error, write_records
from medprobe.records import KnowledgePoint, Language, Record

AspectValue = list[str] | str | float | int

_EXTRA_KEY = re.compile(r"^[a-z][a-z0-9_]*$")
_SEMICOLONS = re.compile(r"[;；]")


def shape_of(value: Any) -> AspectType:
    """The aspect type a stored value has: list -> enumerated, str -> declarative, number -> numeric."""
    if isinstance(value, list):
        return AspectType.ENUMERATED
    if isinstance(value, str):
        return AspectType.DECLARATIVE
    return AspectType.NUMERIC


def _check_value(key: str, value: Any) -> None:
    if isinstance(value, list):
        if not value:
            raise ValueError(f"'{key}': an enumerated aspect needs at least one entity (omit the key instead)")
        if not all(isinstance(v, str) and v.strip() for v in value):
            raise ValueError(f"'{key}': enumerated values must be non-empty strings")
    elif isinstance(value, str) and not value.strip():
        raise ValueError(f"'{key}': empty text (omit the key instead)")


class Disease(Record):
    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    language: Language
    codes: dict[str, list[str]] = Field(default_factory=dict)
    synonyms: list[str] = Field(default_factory=list)
    aspects: dict[str, AspectValue] = Field(default_factory=dict)
    extra: dict[str, AspectValue] = Field(default_factory=dict)

    @field_validator("aspects", "extra", mode="before")
    @classmethod
    def _no_booleans(cls, values: Any) -> Any:
        """Checked before validation, which would quietly turn ``true`` into the number 1."""
        if isinstance(values, dict):
            for key, value in values.items():
                if isinstance(value, bool):
                    raise ValueError(f"'{key}': booleans are not aspect values")
        return values

    @field_validator("aspects")
    @classmethod
    def _known_and_typed(cls, aspects: dict[str, Any]) -> dict[str, Any]:
        for key, value in aspects.items():
            aspect = ASPECTS_BY_KEY.get(key)
            if aspect is None:
                raise ValueError(
                    f"unknown aspect '{key}'; known aspects: {', '.join(ASPECTS_BY_KEY)}; put other knowledge under 'extra'"
                )
            _check_value(key, value)
            if shape_of(value) is not aspect.type:
                raise ValueError(f"'{key}' is a {aspect.type} aspect but the value is {shape_of(value)}")
        return aspects

    @field_validator("extra")
    @classmethod
    def _extra_keys(cls, extra: dict[str, Any]) -> dict[str, Any]:
        for key, value in extra.items():
            if not _EXTRA_KEY.match(key):
                raise ValueError(f"extra aspect name '{key}' must be snake_case (a-z, 0-9, _)")
            if key in ASPECTS_BY_KEY:
                raise ValueError(f"'{key}' is a MedDisK aspect; put it under 'aspects'")
            _check_value(key, value)
        return extra

    def values(self, key: str) -> list[str]:
        """Entities of an enumerated aspect or extra (empty when absent)."""
        value = self.aspects.get(key, self.extra.get(key))
        return list(value) if isinstance(value, list) else []

    def entities(self, key: str) -> list[str]:
        """Entities of an aspect or extra as questions use them: a list's items, or a text split at
        semicolons (PyCMeKG's examination texts are names joined by "；"); none for a number."""
        value = self.aspects.get(key, self.extra.get(key))
        if isinstance(value, list):
            return [v.strip() for v in value]
        if isinstance(value, str):
            return [part.strip() for part in _SEMICOLONS.split(value) if part.strip()]
        return []


class KnowledgeBase(BaseModel):
    """A loaded, validated knowledge base."""

    name: str
    path: str | None = None
    diseases: list[Disease]

    @property
    def language(self) -> str:
        return self.diseases[0].language

    def knowledge_points(self, *, min_values: int = 1, aspects: list[str] | None = None) -> Iterator[KnowledgePoint]:
        """(disease, enumerated aspect) pairs with at least ``min_values`` entities, in KB order."""
        return (self.knowledge_point(disease, key) for disease, key, n in self.point_sizes(aspects) if n >= min_values)

    def point_sizes(self, aspects: list[str] | None = None) -> Iterator[tuple[Disease, str, int]]:
        """Every (disease, enumerated aspect) pair in KB order with its number of entities, without
        making the knowledge point: a sampler that keeps 8,000 of 40,000 makes only those."""
        keys = aspects or [a.key for a in ASPECTS if a.type is AspectType.ENUMERATED]
        return ((disease, key, len(disease.values(key))) for disease in self.diseases for key in keys)

    def knowledge_point(self, disease: Disease, key: str) -> KnowledgePoint:
        """One disease's entities under an aspect as a knowledge point."""
        return KnowledgePoint(
            id=f"{disease.id}/{key}", source=self.name, disease=disease.name, aspect=key, values=disease.values(key),
            meta={"disease_id": disease.id, "language": disease.language},
        )


def load_kb(path: str | Path, *, name: str | None = None) -> KnowledgeBase:
    """Load and validate a KB file; the first problem is reported with file, line and field."""
    path = Path(path)
    diseases: list[Disease] = []
    seen: dict[str, int] = {}
    for line, value in iter_json_lines(path):
        if not isinstance(value, dict):
            raise MedprobeError("expected one JSON object per line (a disease)", file=path, line=line)
        try:
            disease = Disease.model_validate(value)
        except ValidationError as exc:
            raise validation_error(exc, path, line) from None
        if disease.id in seen:
            raise MedprobeError(f"duplicate disease id '{disease.id}' (first on line {seen[disease.id]})", file=path, line=line, field="id")
        if diseases and disease.language != diseases[0].language:
            raise MedprobeError(
                f"language '{disease.language}' differs from the KB's '{diseases[0].language}'", file=path, line=line, field="language"
            )
        seen[disease.id] = line
        diseases.append(disease)
    if not diseases:
        raise MedprobeError("the knowledge base is empty (no disease lines)", file=path, hint="build one with `medprobe kb build`")
    return KnowledgeBase(name=name or path.stem, path=str(path), diseases=diseases)


def write_kb(path: str | Path, diseases: list[Disease]) -> None:
    write_records(path, diseases)


def kb_stats(kb: KnowledgeBase) -> dict[str, Any]:
    """Diseases, and per aspect the diseases covered and knowledge points (entities or texts)."""
    covered: Counter[str] = Counter()
    points: Counter[str] = Counter()
    for disease in kb.diseases:
        for key, value in list(disease.aspects.items()) + [(f"extra.{k}", v) for k, v in disease.extra.items()]:
            covered[key] += 1
            points[key] += len(value) if isinstance(value, list) else 1
    order = [a.key for a in ASPECTS] + sorted(k for k in covered if k.startswith("extra."))
    return {
        "name": kb.name,
        "language": kb.language,
        "diseases": len(kb.diseases),
        "aspects": {k: {"diseases": covered[k], "knowledge_points": points[k]} for k in order if k in covered},
        "total_knowledge_points": sum(points.values()),
    }
