"""The profile's numbers, all on the points every way asked (``Joined.shared``).

* per way and per aspect: the mean score and the share of points known;
* illusions: for each ordered pair of ways, the points known one way and not the other, with examples;
* agreement: for each pair of ways, how often they agree on known / not known, what two unrelated
  ways with the same rates would agree by chance (p_x p_y + (1 - p_x)(1 - p_y)), Cohen's kappa (the
  agreement beyond chance), and Spearman's rank correlation of the scores (0 by chance), each with a
  seeded bootstrap confidence interval over points;
* per disease: its points and what each way made of them;
* against a second model: per way and aspect, Welch's t-test of the point scores (as paper 000's
  Table 5 compares a medical model with its backbone), with the same test code as `medprobe compare`.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from itertools import combinations, permutations
from typing import Any

from scipy.stats import spearmanr

from medprobe.gating import item_error_cell
from medprobe.metrics.compare import welch, welch_by_aspect
from medprobe.metrics.stats import bootstrap_ci, mean
from medprobe.profile.join import Joined, Way, check_same

EXAMPLES = 5
RESAMPLES = 1000
#: the row of every aspect together in the comparison with a second model
ALL_ASPECTS = "all aspects"


def aspect_of(point: str) -> str:
    return point.rsplit("/", 1)[1]


def disease_of(point: str) -> str:
    return point.rsplit("/", 1)[0]


def build_profile(joined: Joined, against: Joined | None = None, *, seed: int = 0) -> dict[str, Any]:
    """Everything profile.json holds; report.md and the HTML page show it."""
    shared = joined.shared()
    ways = joined.ways
    return {
        "model": joined.model,
        "data": joined.data,
        "seed": joined.seed,
        "kb_sha256": joined.points.kb_sha256,
        "points": {
            "sampled": len(joined.points.ids),
            "shared": len(shared),
            "missing": {w.key: [p for p in joined.points.ids if p not in joined.cells[w.key]] for w in ways},
        },
        "runs": {run.config.method: str(run.path) for run in joined.runs},
        "incomplete_runs": [str(run.path) for run in joined.runs if run.summary.get("status") != "complete"],
        "ways": [{"key": w.key, "method": w.method, "title": w.title} for w in ways],
        "per_way": {w.key: way_summary(joined, w, shared) for w in ways},
        "known_points": {w.key: [p for p in shared if joined.cells[w.key][p].known] for w in ways},
        "per_aspect": per_aspect(joined, shared),
        "illusions": illusions(joined, shared),
        "agreement": [agreement(joined, x, y, shared, seed=seed) for x, y in combinations(ways, 2)],
        "diseases": diseases(joined, shared),
        "against": compare_models(joined, against) if against is not None else None,
    }


def way_summary(joined: Joined, way: Way, shared: list[str]) -> dict[str, Any]:
    """The way's scores on the shared points, and its run's estimated item error (medprobe.gating: the two
    MultiCogEval ways share one run, hence one estimate)."""
    cells = joined.cells[way.key]
    run = next(run for run in joined.runs if run.config.method == way.method)
    questions = sum(cell.questions for cell in cells.values())
    unparsed = sum(cell.unparsed for cell in cells.values())
    return {
        "points": len(shared),
        "score": mean([cells[p].score for p in shared]),
        "known": mean([float(cells[p].known) for p in shared]),
        "questions": questions,
        "parse_failures": unparsed,
        "parse_failure_rate": unparsed / questions if questions else None,
        "item_error": item_error_cell(run.summary),
    }


def per_aspect(joined: Joined, shared: list[str]) -> dict[str, dict[str, dict[str, Any]]]:
    by_aspect: dict[str, list[str]] = defaultdict(list)
    for point in shared:
        by_aspect[aspect_of(point)].append(point)
    return {
        aspect: {
            w.key: {
                "points": len(points),
                "score": mean([joined.cells[w.key][p].score for p in points]),
                "known": mean([float(joined.cells[w.key][p].known) for p in points]),
            }
            for w in joined.ways
        }
        for aspect, points in sorted(by_aspect.items())
    }


def _example(joined: Joined, point: str, right: Way, wrong: Way) -> dict[str, Any]:
    return {
        "point": point,
        "disease": joined.points.diseases.get(disease_of(point), disease_of(point)),
        "aspect": aspect_of(point),
        "right_score": joined.cells[right.key][point].score,
        "wrong_score": joined.cells[wrong.key][point].score,
    }


def illusions(joined: Joined, shared: list[str]) -> list[dict[str, Any]]:
    """Per ordered pair of ways, the points known the first way and not the second."""
    found = []
    for right, wrong in permutations(joined.ways, 2):
        points = [p for p in shared if joined.cells[right.key][p].known and not joined.cells[wrong.key][p].known]
        found.append({
            "right": right.key,
            "wrong": wrong.key,
            "count": len(points),
            "share": len(points) / len(shared) if shared else None,
            "points": points,
            "examples": [_example(joined, p, right, wrong) for p in points[:EXAMPLES]],
        })
    return found


def _agreement_numbers(rows: Sequence[tuple[bool, bool, float, float]]) -> dict[str, float | None]:
    """Agreement, chance agreement, kappa and Spearman's rho of (known x, known y, score x, score y) rows."""
    n = len(rows)
    observed = sum(kx == ky for kx, ky, _, _ in rows) / n
    px, py = sum(r[0] for r in rows) / n, sum(r[1] for r in rows) / n
    chance = px * py + (1 - px) * (1 - py)
    xs, ys = [r[2] for r in rows], [r[3] for r in rows]
    rho = None
    if len(set(xs)) > 1 and len(set(ys)) > 1:
        rho = float(spearmanr(xs, ys).statistic)
        rho = rho if math.isfinite(rho) else None
    return {"agreement": observed, "chance": chance, "kappa": (observed - chance) / (1 - chance) if chance < 1 else None, "rho": rho}


def agreement(joined: Joined, x: Way, y: Way, shared: list[str], *, seed: int = 0) -> dict[str, Any]:
    if not shared:
        return {"ways": [x.key, y.key], "points": 0}
    cx, cy = joined.cells[x.key], joined.cells[y.key]
    rows = [(cx[p].known, cy[p].known, cx[p].score, cy[p].score) for p in shared]
    numbers = _agreement_numbers(rows)
    p_value = None
    if numbers["rho"] is not None:
        p_value = float(spearmanr([r[2] for r in rows], [r[3] for r in rows]).pvalue)
    intervals = bootstrap_ci(rows, _agreement_numbers, resamples=RESAMPLES, seed=seed)
    return {
        "ways": [x.key, y.key],
        "points": len(rows),
        **numbers,
        "rho_p": p_value,
        "ci": {key: list(value) if value else None for key, value in intervals.items() if key != "chance"},
    }


def diseases(joined: Joined, shared: list[str]) -> list[dict[str, Any]]:
    """Per disease, its shared points and, per way, known or not and the score."""
    by_disease: dict[str, list[str]] = defaultdict(list)
    for point in shared:
        by_disease[disease_of(point)].append(point)
    rows = []
    for disease, points in sorted(by_disease.items(), key=lambda pair: joined.points.diseases.get(pair[0], pair[0])):
        cells = [{w.key: joined.cells[w.key][p] for w in joined.ways} for p in points]
        rows.append({
            "disease": joined.points.diseases.get(disease, disease),
            "id": disease,
            "known_every_way": sum(all(c.known for c in row.values()) for row in cells),
            "known_some_way": sum(any(c.known for c in row.values()) for row in cells),
            "points": [
                {"aspect": aspect_of(p), "ways": {key: {"known": c.known, "score": c.score} for key, c in row.items()}}
                for p, row in zip(points, cells, strict=True)
            ],
        })
    return rows


def compare_models(a: Joined, b: Joined) -> dict[str, Any]:
    """Per way both profiles have, Welch's t of A's point scores against B's, per aspect and overall."""
    check_same(a.runs[0], b.runs[0])
    shared = [p for p in a.shared() if p in set(b.shared())]
    columns: dict[str, list[dict[str, Any]]] = {}
    known: dict[str, dict[str, float | None]] = {}
    for way in a.ways:
        if way.key not in b.cells:
            continue
        scores = [{p: side.cells[way.key][p].score for p in shared} for side in (a, b)]
        by_aspect = [_by_aspect(s) for s in scores]
        overall = welch(list(scores[0].values()), list(scores[1].values()))
        columns[way.key] = welch_by_aspect(*by_aspect) + [{"aspect": ALL_ASPECTS} | overall]
        known[way.key] = {"a": mean([float(a.cells[way.key][p].known) for p in shared]),
                          "b": mean([float(b.cells[way.key][p].known) for p in shared])}
    return {"model_b": b.model, "runs_b": {run.config.method: str(run.path) for run in b.runs}, "points": len(shared),
            "welch": columns, "known": known}


def _by_aspect(scores: dict[str, float]) -> dict[str, list[float]]:
    grouped: dict[str, list[float]] = defaultdict(list)
    for point, score in scores.items():
        grouped[aspect_of(point)].append(score)
    return dict(sorted(grouped.items()))
