"""Reading finished MedDisKEval runs back: the scored answers that grading and comparison use."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from medprobe.engine.rundir import RunDir
from medprobe.errors import MedprobeError
from medprobe.jsonl import read_records
from medprobe.records import ItemScore


def scored_items(run_dir: Path) -> list[dict[str, Any]]:
    """One dict per answer: id, disease, aspect, type, answer, reference, model, scores."""
    run = RunDir.open(run_dir)
    config = run.config()
    if config.method != "meddisk":
        raise MedprobeError(f"a {config.method} run, not a meddisk run", file=run_dir)
    path = run_dir / "scores.jsonl"
    if not path.exists():
        raise MedprobeError("the run has no scores yet (unfinished?)", file=run_dir, hint="run the same command again to finish it")
    return [
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


def scores_by_aspect(items: list[dict[str, Any]], metric: str) -> dict[str, list[float]]:
    by_aspect: dict[str, list[float]] = defaultdict(list)
    for item in items:
        by_aspect[item["aspect"]].append(float(item["scores"][metric]))
    return dict(by_aspect)
