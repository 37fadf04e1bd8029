"""Atomic knowledge items as (factual, counterfactual) claim pairs, and the atomic types.

The paper (004 §3) finds 17 atomic types in real self-diagnosis queries (Table 1) and writes each
item as a factual claim in an *implication* form and a counterfactual one that negates the
relation (Table 2: "Common symptoms of X (do not) include Y"). The SDAK release carries all 17;
a knowledge base yields the types its aspects hold (symptoms, departments, medications, causes,
complications, …) plus a few the paper does not list but a KB has (population, sites, body
systems, inheritance, transmission, risk factors). Types whose subject is a drug, a food or a test
(side effects, indications, reference ranges, …) come only from the release: our KB records are
diseases. Claim templates are ours, in English and Chinese.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from medprobe.errors import MedprobeError
from medprobe.records import Language, Record
from medprobe.seeding import item_rng

#: validation items held apart per type (the paper's 10 per type, 340 claims over 17 types)
VALIDATION_PER_TYPE = 10


class ClaimPair(Record):
    """One atomic knowledge item: a factual claim and its counterfactual twin."""

    id: str
    type: str
    language: Language
    factual: str
    counterfactual: str
    #: what the claims relate, e.g. {"disease": "Marfan syndrome", "symptom": "arachnodactyly"}
    entities: dict[str, str]
    source: str
    #: the KB aspect the entity was read from (medprobe.gating); None for a release item
    aspect: str | None = None


@dataclass(frozen=True)
class KbSource:
    """A KB key holding a type's entities: an enumerated list, or declarative text split at
    semicolons. ``languages`` limits it to KBs of those languages, for a builder that fills an
    aspect differently from the others. Both built-in KBs hold abnormal results in the examination
    aspects and test names under ``examinations``."""

    key: str
    languages: tuple[str, ...] = ("en", "zh")


@dataclass(frozen=True)
class AtomicType:
    key: str
    #: the name in the paper and, without separators, in the release (e.g. "DiseaseSymptom")
    label: str
    #: the entity's field name in ClaimPair.entities
    role: str = "entity"
    #: language -> (factual, counterfactual) template over {subject} and {entity}
    templates: dict[str, tuple[str, str]] = field(default_factory=dict)
    sources: tuple[KbSource, ...] = ()
    #: the entity is a yes/no property (e.g. "contagious"); the KB's value picks the factual form
    polar: bool = False
    aliases: tuple[str, ...] = ()

    @property
    def release_name(self) -> str:
        """How the SDAK release spells the type: "Disease-Cause" -> "DiseaseCause"."""
        return re.sub(r"[^0-9A-Za-z]", "", self.label)


def _t(en: tuple[str, str], zh: tuple[str, str]) -> dict[str, tuple[str, str]]:
    return {"en": en, "zh": zh}


ATOMIC_TYPES: tuple[AtomicType, ...] = (
    # --- the paper's types that a disease knowledge base can hold ---------------------------------
    AtomicType("disease_symptom", "Disease-Symptom", "symptom", _t(
        ("People with {subject} may have {entity}", "People with {subject} do not have {entity}"),
        ("患有{subject}可能会出现{entity}", "患有{subject}不会出现{entity}")),
        (KbSource("primary_symptoms"), KbSource("associated_symptoms"), KbSource("differential_symptoms"))),
    AtomicType("disease_department", "Disease-Department", "department", _t(
        ("{subject} is treated in {entity}", "{subject} is not treated in {entity}"),
        ("{subject}属于{entity}的诊治范围", "{subject}不属于{entity}的诊治范围")), (KbSource("departments"),)),
    AtomicType("disease_medicine", "Disease-Medicine", "medicine", _t(
        ("{entity} can be used to treat {subject}", "{entity} cannot be used to treat {subject}"),
        ("{entity}可用于治疗{subject}", "{entity}不能用于治疗{subject}")), (KbSource("medications"),)),
    AtomicType("disease_method", "Disease-Method", "method", _t(
        ("Treatment of {subject} may include {entity}", "Treatment of {subject} does not include {entity}"),
        ("{subject}的治疗方法可以包括{entity}", "{subject}的治疗方法不包括{entity}")),
        (KbSource("surgical_procedures"), KbSource("treatment_principles"))),
    AtomicType("disease_cause", "Disease-Cause", "cause", _t(
        ("Causes of {subject} may include {entity}", "Causes of {subject} do not include {entity}"),
        ("{subject}的病因可能包括{entity}", "{subject}的病因不包括{entity}")), (KbSource("cause"),)),
    AtomicType("disease_complication", "Disease-Complication", "complication", _t(
        ("{subject} can lead to {entity}", "{subject} does not lead to {entity}"),
        ("{subject}可能引发{entity}", "{subject}不会引发{entity}")), (KbSource("secondary_diseases"),),
        aliases=("Diseases-Complication",)),
    AtomicType("disease_examination", "Disease-Examination", "examination", _t(
        ("Tests for {subject} may include {entity}", "Tests for {subject} do not include {entity}"),
        ("{subject}常做的检查可以包括{entity}", "{subject}常做的检查不包括{entity}")),
        (KbSource("examinations"),)),
    AtomicType("disease_infectivity", "Disease-Infectivity", "infectivity", _t(
        ("{subject} is contagious", "{subject} is not contagious"),
        ("{subject}具有传染性", "{subject}不具有传染性")), (KbSource("infectivity"),), polar=True),
    # --- the paper's types whose subject is not a disease: release only ---------------------------
    AtomicType("disease_food", "Disease-Food", "food"),
    AtomicType("disease_prevention", "Disease-Prevention", "prevention"),
    AtomicType("examination_range", "Examination-Range", "range"),
    AtomicType("metric_effect", "Metric-Effect", "effect"),
    AtomicType("western_medicine_effect", "Western Medicine-Effect", "effect"),
    AtomicType("western_medicine_side_effect", "Western Medicine-SideEffect", "side_effect"),
    AtomicType("chinese_medicine_effect", "Chinese Medicine-Effect", "effect"),
    AtomicType("chinese_medicine_side_effect", "Chinese Medicine-SideEffect", "side_effect"),
    AtomicType("food_effect", "Food-Effect", "effect"),
    # --- medprobe additions: further disease relations a knowledge base holds ---------------------
    AtomicType("disease_population", "Disease-Population", "population", _t(
        ("{subject} is seen in {entity} patients", "{subject} is not seen in {entity} patients"),
        ("{subject}可见于{entity}", "{subject}不会见于{entity}")),
        (KbSource("patient_population"), KbSource("prevalence_ages"), KbSource("onset_ages"))),
    AtomicType("disease_site", "Disease-Site", "site", _t(
        ("{subject} can affect the {entity}", "{subject} does not affect the {entity}"),
        ("{subject}可累及{entity}", "{subject}不会累及{entity}")), (KbSource("anatomical_sites"), KbSource("affected_sites"))),
    AtomicType("disease_system", "Disease-BodySystem", "body_system", _t(
        ("{subject} can involve the {entity}", "{subject} does not involve the {entity}"),
        ("{subject}可累及{entity}", "{subject}不会累及{entity}")), (KbSource("affected_body_systems"),)),
    AtomicType("disease_lab_finding", "Disease-LabFinding", "finding", _t(
        ("Laboratory tests in people with {subject} may show {entity}", "Laboratory tests in people with {subject} do not show {entity}"),
        ("{subject}患者的化验可能出现{entity}", "{subject}患者的化验不会出现{entity}")),
        (KbSource("laboratory_examinations"),)),
    AtomicType("disease_inheritance", "Disease-Inheritance", "inheritance", _t(
        ("The inheritance of {subject} can be described as {entity}", "The inheritance of {subject} cannot be described as {entity}"),
        ("{subject}的遗传方式为{entity}", "{subject}的遗传方式不是{entity}")), (KbSource("inheritance"),)),
    AtomicType("disease_transmission", "Disease-Transmission", "transmission", _t(
        ("{subject} can be transmitted by {entity}", "{subject} cannot be transmitted by {entity}"),
        ("{subject}的传播途径包括{entity}", "{subject}的传播途径不包括{entity}")), (KbSource("transmission"),)),
    AtomicType("disease_risk_factor", "Disease-RiskFactor", "risk_factor", _t(
        ("{entity} is a risk factor for {subject}", "{entity} is not a risk factor for {subject}"),
        ("{entity}是{subject}的危险因素", "{entity}不是{subject}的危险因素")), (KbSource("risk_factors"),)),
)

TYPES: dict[str, AtomicType] = {t.key: t for t in ATOMIC_TYPES}


def _fold(name: str) -> str:
    return re.sub(r"[^0-9a-z]", "", name.lower())


_BY_NAME: dict[str, AtomicType] = {_fold(n): t for t in ATOMIC_TYPES for n in (t.key, t.label, *t.aliases)}


def find_type(name: str) -> AtomicType | None:
    """The atomic type a release calls ``name`` ("DiseaseCause", "Disease-Cause", "disease_cause")."""
    return _BY_NAME.get(_fold(name))


def release_names() -> str:
    """Every type name a release may use, for error hints."""
    return ", ".join(t.release_name for t in ATOMIC_TYPES)


def _inline(entity: str) -> str:
    """An English entity inside a sentence: "Myoclonic tremor" -> "myoclonic tremor", while
    acronyms and names with a capital second letter ("IgA deficiency", "HIV") stay as they are."""
    if len(entity) > 1 and entity[0].isupper() and entity[1].islower():
        return entity[0].lower() + entity[1:]
    return entity


def make_pair(kind: AtomicType, subject: str, entity: str, language: str, *, item_id: str, source: str, holds: bool = True) -> ClaimPair:
    """The two claims of one item from the type's templates; ``holds`` False (a polar property the
    KB denies, e.g. "not contagious") makes the negated form the factual one."""
    affirm, deny = kind.templates[language]
    values = {"subject": subject, "entity": _inline(entity) if language == "en" else entity}
    claims = [template.format(**values) for template in (affirm, deny)]
    if language == "en":
        claims = [claim[0].upper() + claim[1:] for claim in claims]
    factual, counterfactual = claims if holds else claims[::-1]
    return ClaimPair(
        id=item_id, type=kind.key, language=language, factual=factual, counterfactual=counterfactual,  # type: ignore[arg-type]
        entities={"disease": subject, kind.role: entity}, source=source,
    )


class Item(Protocol):
    """Anything with an item id and an atomic type: a ClaimPair, or a KB item not yet worded."""

    @property
    def id(self) -> str: ...

    @property
    def type(self) -> str: ...


T = TypeVar("T", bound=Item)


def split_items(items: Iterable[T], *, seed: int, limit: int | None, hold_demos: bool) -> tuple[list[T], list[T]]:
    """Per type, a seeded shuffle. With ``hold_demos`` (few-shot) the first VALIDATION_PER_TYPE
    items (at most half the type, so small types are still tested) are held apart for demos and up
    to ``limit`` of the rest are the test items. Zero-shot needs no demos, so nothing is held apart:
    it takes the same order with the would-be demos moved to the end, so that up to ``limit`` it
    tests the items few-shot tests, and without a limit every item. Returns (test, validation),
    each sorted by id."""
    by_type: dict[str, list[T]] = {}
    for item in items:
        by_type.setdefault(item.type, []).append(item)
    test: list[T] = []
    validation: list[T] = []
    for kind, group in by_type.items():
        group = sorted(group, key=lambda p: p.id)
        item_rng(seed, "split", kind).shuffle(group)
        held = min(VALIDATION_PER_TYPE, len(group) // 2)
        if hold_demos:
            validation += group[:held]
            group = group[held:]
        else:
            group = group[held:] + group[:held]
        test += group if limit is None else group[:limit]
    return sorted(test, key=lambda p: p.id), sorted(validation, key=lambda p: p.id)


def draw_demos(validation: list[ClaimPair], runs: int, *, seed: int, shots: int) -> list[list[tuple[ClaimPair, bool]]]:
    """For each run, ``shots`` claims (a pair and whether its factual claim is meant) drawn from
    the validation claims with the run's own RNG; a run never repeats an earlier run's draw when
    another draw exists, so the runs differ in their demos as in the paper (Appendix D)."""
    claims = [(pair, factual) for pair in validation for factual in (True, False)]
    if len(claims) < shots:
        raise MedprobeError(
            f"few-shot needs {shots} validation claims but only {len(claims)} were held apart",
            field="--setting", hint="use --setting zero-shot, or a source with more items per type",
        )
    draws: list[list[tuple[ClaimPair, bool]]] = []
    earlier: set[frozenset[tuple[str, bool]]] = set()
    for run in range(runs):
        rng: random.Random = item_rng(seed, "demos", str(run))
        for _ in range(100):  # a bound, should every draw repeat (e.g. exactly 3 claims)
            draw = rng.sample(claims, shots)
            chosen = frozenset((p.id, f) for p, f in draw)
            if chosen not in earlier:
                break
        earlier.add(chosen)
        draws.append(draw)
    return draws
