"""Taking submissions and handing out their results; shared by the JSON API and the HTML pages."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import zipfile
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from medprobe.platform.answers import MAX_LISTED, read_answers
from medprobe.platform.auth import unprintable
from medprobe.platform.benchmarks import known_ids
from medprobe.platform.models import (
    DELETED,
    Benchmark,
    Endpoint,
    ResultFile,
    RunRequest,
    Submission,
    SubmissionAnswers,
    User,
)
from medprobe.platform.scoring import public_config

PROMPT_STYLES = ("chat", "completion", "own")


class Refused(Exception):
    """A request the platform turns down: an HTTP status, one message and, for uploads, the bad lines."""

    def __init__(self, status: int, message: str, lines: list[dict[str, Any]] | None = None, *, retry_after: int | None = None,
                 **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.lines, self.extra = status, message, lines, extra
        #: seconds to wait, sent as Retry-After (429)
        self.retry_after = retry_after

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"error": self.message, **self.extra}
        if self.lines is not None:
            body["lines"] = self.lines[:MAX_LISTED]
            body["more_errors"] = max(0, len(self.lines) - MAX_LISTED)
        return body


@dataclass
class Limits:
    max_upload_bytes: int = 32 * 1024 * 1024
    submissions_per_hour: int = 20
    #: failed log-ins per e-mail address (and ten times as many per client address) in 15 minutes
    login_failures: int = 5
    signups_per_hour: int = 20
    names: dict[str, int] = field(default_factory=lambda: {"model": 200, "organisation": 200})


def printable(text: str, what: str) -> None:
    """Refuse a name shown to others that holds control or bidi characters (``auth.unprintable``)."""
    bad = unprintable(text)
    if bad is not None:
        raise Refused(422, f"the {what} holds the invisible character U+{ord(bad):04X}; type it without")


@dataclass
class ModelInfo:
    """What a participant may tell about the model, shown on the leaderboards."""

    size: str = ""
    licence: str = ""
    link: str = ""

    def checked(self) -> ModelInfo:
        info = ModelInfo(self.size.strip(), self.licence.strip(), self.link.strip())
        for text, what, most in ((info.size, "model size", 40), (info.licence, "licence", 80), (info.link, "link", 500)):
            if len(text) > most:
                raise Refused(422, f"the {what} has more than {most} characters")
            printable(text, what)
        if info.link and (not LINK.match(info.link)):
            raise Refused(422, "the link must be an http:// or https:// address without spaces")
        return info


LINK = re.compile(r"^https?://[^\s/$.?#][^\s]*$")


def benchmark_or_404(session: Session, slug: str, viewer: User | None = None) -> Benchmark:
    """The benchmark; an unpublished one only for admins (404 for anyone else)."""
    found = session.scalar(select(Benchmark).where(Benchmark.slug == slug))
    if found is None or not (found.published or (viewer is not None and viewer.is_admin)):
        raise Refused(404, f"no benchmark '{slug[:80]}'")
    return found


def listed_benchmarks(session: Session, viewer: User | None) -> list[Benchmark]:
    query = select(Benchmark).order_by(Benchmark.id)
    if viewer is None or not viewer.is_admin:
        query = query.where(Benchmark.published.is_(True))
    return list(session.scalars(query))


def delete_submission(session: Session, submission: Submission) -> None:
    """Remove a submission's answers and result files and mark it deleted (an admin's moderation); nobody
    sees it any more. The row stays so that its id is never given again: SQLite reuses the highest id of
    a deleted row, and the queue, whose job ids are made of submission ids, would take a new submission
    for the old, finished one and never score it. A job still queued for it finds it deleted and stops."""
    session.execute(delete(ResultFile).where(ResultFile.submission_id == submission.id))
    session.execute(delete(SubmissionAnswers).where(SubmissionAnswers.submission_id == submission.id))
    submission.status, submission.public, submission.answers_sha256 = DELETED, False, f"{DELETED}:{submission.id}"
    session.commit()


def _names(model_name: str, organisation: str, prompt_style: str, limits: Limits) -> tuple[str, str]:
    model_name, organisation = model_name.strip(), organisation.strip()
    printable(model_name, "model name")
    printable(organisation, "organisation")
    if not model_name or len(model_name) > limits.names["model"]:
        raise Refused(422, f"a model name of 1-{limits.names['model']} characters is needed")
    if len(organisation) > limits.names["organisation"]:
        raise Refused(422, f"the organisation name has more than {limits.names['organisation']} characters")
    if prompt_style not in PROMPT_STYLES:
        raise Refused(422, f"prompt_style must be one of {', '.join(PROMPT_STYLES)}")
    return model_name, organisation


def _rate_limit(session: Session, user: User, limits: Limits) -> None:
    now = datetime.now(UTC)
    recent = list(session.scalars(select(Submission.created).where(Submission.user_id == user.id, Submission.created >= now - timedelta(hours=1))
                                  .order_by(Submission.created.desc()).limit(limits.submissions_per_hour)))
    if len(recent) >= limits.submissions_per_hour:
        oldest = min(recent).replace(tzinfo=UTC) if min(recent).tzinfo is None else min(recent)
        wait = max(1, int((oldest + timedelta(hours=1) - now).total_seconds()) + 1)
        raise Refused(429, f"at most {limits.submissions_per_hour} submissions an hour; try again in {wait} s", retry_after=wait)


def submit(
    session: Session, jobs: Any, user: User, benchmark: Benchmark, data: bytes, *, filename: str, model_name: str,
    organisation: str = "", prompt_style: str = "chat", public: bool = False, limits: Limits | None = None,
    info: ModelInfo | None = None,
) -> Submission:
    """Validate an upload line by line, store it, and queue its scoring."""
    limits = limits or Limits()
    model_name, organisation = _names(model_name, organisation, prompt_style, limits)
    info = (info or ModelInfo()).checked()
    if len(data) > limits.max_upload_bytes:
        raise Refused(413, f"the file is larger than {limits.max_upload_bytes} bytes")
    _rate_limit(session, user, limits)
    answers = read_answers(data, known_ids(benchmark), benchmark.samples, filename=filename)
    if answers.errors:
        raise Refused(422, f"{len(answers.errors)} line(s) with errors; nothing was submitted", answers.errors)
    sha = answers.sha256()
    same = session.scalar(select(Submission).where(
        Submission.benchmark_id == benchmark.id, Submission.user_id == user.id, Submission.answers_sha256 == sha, Submission.status != DELETED))
    if same is not None:
        raise Refused(409, f"these answers were submitted already (submission {same.id})", submission=same.id)
    submission = Submission(
        benchmark_id=benchmark.id, user_id=user.id, model_name=model_name, organisation=organisation, prompt_style=prompt_style,
        answers_jsonl=answers.jsonl(), answers_sha256=sha, answers=len(answers.rows), public=public,
        model_size=info.size, licence=info.licence, link=info.link,
    )
    session.add(submission)
    try:
        session.commit()
    except IntegrityError:  # the same answers arrived twice at once; the other upload won
        session.rollback()
        raise Refused(409, "these answers were submitted already") from None
    jobs.score(submission.id)
    return submission


def start_run(session: Session, jobs: Any, admin: User, benchmark: Benchmark, endpoint_name: str, model_name: str,
              owner: User | None = None) -> Submission:
    """An admin's run of a benchmark against a registered endpoint (see ``runforme``); the submission is
    the admin's, or ``owner``'s when it answers a participant's request."""
    if "points" in benchmark.build_info:
        raise Refused(422, "a knowledge profile's benchmark cannot be run for you; upload answers to its probe pack instead")
    endpoint = session.scalar(select(Endpoint).where(Endpoint.name == endpoint_name))
    if endpoint is None:
        raise Refused(404, f"no endpoint '{endpoint_name[:80]}'")
    model_name, _ = _names(model_name or endpoint.name, "", "chat", Limits())
    stamp = hashlib.sha256(f"{endpoint.id}:{datetime.now(UTC).isoformat()}".encode()).hexdigest()
    owner = owner or admin
    submission = Submission(benchmark_id=benchmark.id, user_id=owner.id, model_name=model_name, organisation=owner.organisation,
                            source=f"endpoint:{endpoint.id}", answers_jsonl="", answers_sha256=stamp)
    session.add(submission)
    session.commit()
    jobs.run(submission.id)
    return submission


#: requests one participant may have waiting at once
PENDING_REQUESTS = 5


def request_run(session: Session, user: User, benchmark: Benchmark, model_name: str, note: str) -> RunRequest:
    """A participant asks for a run; nothing is contacted until an admin approves it with an endpoint."""
    model_name, _ = _names(model_name, "", "chat", Limits())
    note = note.strip()
    if len(note) > 2000:
        raise Refused(422, "the note has more than 2000 characters")
    printable(note.replace("\n", " ").replace("\r", " "), "note")
    pending = session.scalars(select(RunRequest.id).where(RunRequest.user_id == user.id, RunRequest.status == "pending")).all()
    if len(pending) >= PENDING_REQUESTS:
        raise Refused(429, f"at most {PENDING_REQUESTS} requests may wait at once; wait for an admin to answer them")
    found = RunRequest(benchmark_id=benchmark.id, user_id=user.id, model_name=model_name, note=note)
    session.add(found)
    session.commit()
    return found


def decide_request(session: Session, jobs: Any, admin: User, request: RunRequest, endpoint_name: str | None) -> None:
    """Approve a pending request with a registered endpoint (the run is the requester's submission), or decline it (None)."""
    if request.status != "pending":
        raise Refused(409, f"request {request.id} was {request.status} already")
    if endpoint_name is None:
        request.status = "declined"
        session.commit()
        return
    submission = start_run(session, jobs, admin, request.benchmark, endpoint_name, request.model_name, owner=request.user)
    request.status, request.submission_id = "approved", submission.id
    session.commit()


def view(submission: Submission) -> dict[str, Any]:
    """A submission as the API shows it (its owner, an admin, or anyone once it is public)."""
    return {
        "id": submission.id, "benchmark": submission.benchmark.slug, "model": submission.model_name,
        "organisation": submission.organisation, "model_size": submission.model_size, "licence": submission.licence,
        "link": submission.link, "prompt_style": submission.prompt_style, "status": submission.status,
        "error": submission.error, "answers": submission.answers, "public": submission.public,
        "created": submission.created.isoformat(timespec="seconds"), "headline": submission.headline,
        "summary": submission.summary if submission.status == "done" else None,
    }


def public_files(session: Session, submission: Submission) -> dict[str, str]:
    """The downloadable run directory: config, the participant's own answers, summary, report, charts."""
    files = {f.name: f.content for f in session.scalars(select(ResultFile).where(
        ResultFile.submission_id == submission.id, ResultFile.private.is_(False)))}
    if submission.status != "done":
        return {}
    files["config.json"] = json.dumps(public_config(submission.benchmark, submission, submission.summary or {}), indent=2, ensure_ascii=False) + "\n"
    files["responses.jsonl"] = submission.answers_jsonl
    return dict(sorted(files.items()))


def metrics_rows(summary: dict[str, Any]) -> list[tuple[str, Any]]:
    """Every figure of the summary's metrics and run counts as (dotted path, value), for CSV."""
    rows: list[tuple[str, Any]] = []

    def walk(value: Any, path: str) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(inner, f"{path}.{key}" if path else str(key))
        elif isinstance(value, list) and all(not isinstance(v, dict | list) for v in value):
            for i, inner in enumerate(value):
                rows.append((f"{path}[{i}]", inner))
        elif isinstance(value, list):
            for i, inner in enumerate(value):
                walk(inner, f"{path}[{i}]")
        else:
            rows.append((path, value))

    walk({"run": summary.get("run", {}), "metrics": summary.get("metrics", {})}, "")
    return rows


def results_csv(submission: Submission) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["metric", "value"])
    writer.writerows(metrics_rows(submission.summary or {}))
    return out.getvalue()


def rundir_zip(files: dict[str, str], folder: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(f"{folder}/{name}", content)
    return buffer.getvalue()
