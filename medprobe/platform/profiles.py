"""A model's knowledge profile on the platform: its scored submissions to benchmarks published on one
shared sample of knowledge points (``publish_profile``), joined point by point with the profile's own
join and analysis code, as ``medprobe profile`` joins run directories.

The per-item scores stay on the server. A participant (the owner included) sees only aggregates
over several points (per method, per aspect with enough points, illusions, agreement): a per-point
outcome next to one's own answers is the gold, since three uploads (every MCQ answered A, then B,
then C) would read off each point's letter. Admins also see the per-point tables. A viewer sees
the submissions ``may_see`` allows: the owner and admins all of them, anyone else only public ones,
so a profile shown to others is joined from public submissions only.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from medprobe.platform.auth import may_see
from medprobe.platform.models import ResultFile, StoredProfile, Submission, User
from medprobe.platform.scoring import run_config
from medprobe.profile.analysis import build_profile
from medprobe.profile.join import ProfileRun, join_loaded
from medprobe.profile.points import points_record
from medprobe.records import ItemScore

#: a profile needs at least two ways of asking to say anything one benchmark's page does not
MIN_METHODS = 2
#: an aspect is shown to participants only over at least this many points: over one point its row
#: is that point's outcome, over two or three a few uploads narrow each gold down
MIN_ASPECT_POINTS = 5


@dataclass
class ModelProfile:
    """One owner's profile of a model on one shared sample, and the submissions it joins."""

    owner: str
    submissions: list[Submission]
    profile: dict[str, Any]


def _sample_key(submission: Submission) -> tuple[int, str, int, tuple[str, ...]]:
    """Submissions join when one owner made them on the same knowledge base, seed and points."""
    points = submission.benchmark.build_info["points"]
    return submission.user_id, points["kb_sha256"], submission.benchmark.seed, tuple(points["ids"])


def profile_run(session: Session, submission: Submission) -> ProfileRun:
    """A scored submission as the profile reads a run: its benchmark's build, summary and item scores."""
    scores = session.get(ResultFile, (submission.id, "scores.jsonl"))
    benchmark = submission.benchmark
    config = run_config(benchmark, submission, "", benchmark.probes).model_copy(
        update={"model_identity": {"platform_user": submission.user_id}})
    items = [ItemScore.model_validate_json(line) for line in (scores.content if scores else "").splitlines() if line]
    return ProfileRun(Path(f"/submissions/{submission.id}"), config, submission.summary or {},
                      points_record(benchmark.build_info["points"]), items)


def model_profiles(session: Session, viewer: User | None, model_name: str) -> list[ModelProfile]:
    """The profiles of ``model_name`` the viewer may see: per owner and shared sample, the latest done
    submission of each method, where at least MIN_METHODS methods were answered."""
    query = select(Submission).where(Submission.model_name == model_name, Submission.status == "done").order_by(Submission.id)
    groups: dict[tuple[int, str, int, tuple[str, ...]], dict[str, Submission]] = defaultdict(dict)
    for submission in session.scalars(query):
        if "points" in submission.benchmark.build_info and may_see(viewer, submission):
            groups[_sample_key(submission)][submission.benchmark.method] = submission
    found = []
    for by_method in groups.values():
        if len(by_method) >= MIN_METHODS:
            chosen = list(by_method.values())
            found.append(ModelProfile(chosen[0].user.name, chosen, stored_profile(session, chosen)))
    return found


def stored_profile(session: Session, chosen: list[Submission]) -> dict[str, Any]:
    """The profile joined from these submissions, computed once (seconds of CPU) and then read back:
    keyed by the submissions and when each was scored, so a new submission makes a new profile."""
    key = hashlib.sha256(json.dumps(sorted([s.id, str(s.finished)] for s in chosen)).encode()).hexdigest()
    found = session.get(StoredProfile, key)
    if found is not None:
        return json.loads(found.profile_json)
    text = json.dumps(build_profile(join_loaded([profile_run(session, s) for s in chosen])), ensure_ascii=False)
    session.add(StoredProfile(key=key, profile_json=text))
    try:
        session.commit()
    except IntegrityError:  # another request stored the same profile first
        session.rollback()
    return json.loads(text)  # as a stored one reads back, so the first view shows what later ones do


def aggregates_only(profile: dict[str, Any]) -> dict[str, Any]:
    """The profile without anything per point, for participants: no per-disease rows, no illusion
    points or examples, and no aspect asked on fewer than MIN_ASPECT_POINTS points."""
    return {
        **profile,
        "diseases": [],
        "illusions": [{**pair, "points": [], "examples": []} for pair in profile["illusions"]],
        "per_aspect": {aspect: row for aspect, row in profile["per_aspect"].items()
                       if min(cell["points"] for cell in row.values()) >= MIN_ASPECT_POINTS},
    }
