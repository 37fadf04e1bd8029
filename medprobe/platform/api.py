"""The JSON API under ``/api`` (its OpenAPI description is at ``/openapi.json``).

Reading (benchmarks, packs, leaderboards, results) works with a token or the browser session;
anything that changes state takes ``Authorization: Bearer TOKEN`` only. Errors are JSON:
``{"error": "…"}``, plus ``"lines": [{"line": N, "error": "…"}]`` for a rejected upload.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, File, Form, Query, Request, UploadFile
from fastapi import Path as PathParam
from fastapi.responses import PlainTextResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from medprobe.platform import leaderboard
from medprobe.platform.audit import audit_csv
from medprobe.platform.auth import api_admin, api_user, db, may_change, may_see, revoke_token, viewer
from medprobe.platform.benchmarks import BenchmarkSpec, describe, pack_csv, publish
from medprobe.platform.models import Benchmark, Endpoint, Submission, User
from medprobe.platform.runforme import check_endpoint_model
from medprobe.platform.submissions import (
    DELETED,
    ModelInfo,
    Refused,
    benchmark_or_404,
    listed_benchmarks,
    public_files,
    results_csv,
    rundir_zip,
    start_run,
    submit,
    view,
)

router = APIRouter(prefix="/api")
DB = Annotated[Session, Depends(db)]
Viewer = Annotated[User | None, Depends(viewer)]
Participant = Annotated[User, Depends(api_user)]
Admin = Annotated[User, Depends(api_admin)]
JSONL = "application/x-ndjson; charset=utf-8"
CSV = "text/csv; charset=utf-8"
#: a row id as the database holds it (32-bit on PostgreSQL); a larger number is refused (422), not a crash
RowId = Annotated[int, PathParam(ge=1, le=2**31 - 1)]
REASONS = {
    400: "the server cannot do it (its message says why)", 401: "an API token is needed, or it is wrong or revoked",
    403: "admins only", 404: "not found, or not yours to see", 409: "a conflict: a duplicate, or not scored yet",
    413: "the request is too large", 422: "the request does not match this description", 429: "too many submissions this hour",
}
#: media types of a submission's files, by extension; any other file is plain text
FILE_TYPES = {"svg": "image/svg+xml", "json": "application/json", "jsonl": JSONL, "md": "text/markdown; charset=utf-8"}
TEXT = "text/plain; charset=utf-8"


class LineError(BaseModel):
    line: int
    error: str


class FieldError(BaseModel):
    field: str
    error: str


class ErrorOut(BaseModel):
    """Every error answer: a message; a rejected upload adds its bad lines, an invalid request its fields,
    a duplicate the earlier submission."""

    error: str
    lines: list[LineError] | None = None
    more_errors: int | None = None
    fields: list[FieldError] | None = None
    submission: int | None = None


class BenchmarkOut(BaseModel):
    slug: str
    title: str
    method: str
    data: str
    seed: int
    size: int | None
    setting: str | None
    options: dict[str, Any]
    probes: int
    samples: int
    generation: dict[str, Any]
    #: letter-answered probes whose options keep the built order (their prompt could not be rewritten
    #: safely); null for a benchmark published before options were shuffled
    options_kept_in_order: int | None
    created: str


class SubmissionOut(BaseModel):
    id: int
    benchmark: str
    model: str
    organisation: str
    model_size: str
    licence: str
    link: str
    prompt_style: str
    status: Literal["queued", "running", "scoring", "done", "failed"]
    error: str | None
    answers: int
    public: bool
    created: str
    headline: dict[str, Any] | None
    summary: dict[str, Any] | None


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error answers an operation can give (plus 413 and 422, which any can), for the OpenAPI description."""
    return {status: {"model": ErrorOut, "description": REASONS[status]} for status in sorted({*statuses, 413, 422})}


def download(media_types: tuple[str, ...], *statuses: int) -> dict[int | str, dict[str, Any]]:
    """The answers of an operation that is not JSON: a text or file in one of ``media_types``, or a JSON
    error (its route's ``response_class`` must be ``Response``, whose media type FastAPI leaves open,
    or the errors would be described in the file's media type)."""
    content = {media: {"schema": {"type": "string"}} for media in media_types}
    return {200: {"description": "the file", "content": content}, **errors(*statuses)}


class BenchmarkIn(BaseModel):
    slug: str = Field(max_length=80)
    title: str = Field(max_length=200)
    method: str = Field(max_length=40)
    data: str | None = Field(default=None, max_length=500)
    seed: int = Field(default=0, ge=0, le=2**31 - 1)
    size: int | None = Field(default=None, ge=1, le=1_000_000)
    setting: str | None = Field(default=None, max_length=40)
    options: dict[str, str] = Field(default_factory=dict, max_length=20)
    #: on a built-in KB, also the aspects blind reading has not measured precise enough (medprobe.gating)
    include_unmeasured: bool = False


class Visibility(BaseModel):
    public: bool


class EndpointIn(BaseModel):
    name: str = Field(min_length=1, max_length=80, pattern=r"^[A-Za-z0-9._-]+$")
    model: str = Field(max_length=500)
    key_env: str | None = Field(default=None, max_length=80, pattern=r"^[A-Z_][A-Z0-9_]*$")


class RunIn(BaseModel):
    endpoint: str = Field(max_length=80)
    model_name: str = Field(default="", max_length=200)


def submission_for(session: Session, user: User | None, submission_id: int) -> Submission:
    """The submission if ``user`` may see it; otherwise 404 (existence is not revealed either)."""
    found = session.get(Submission, submission_id)
    if found is None or not may_see(user, found):
        raise Refused(404, f"no submission {submission_id}")
    return found


def attachment(content: str | bytes, media_type: str, filename: str) -> Response:
    return Response(content, media_type=media_type, headers={"content-disposition": f'attachment; filename="{filename}"'})


@router.get("/benchmarks", response_model=list[BenchmarkOut], responses=errors(401))
def list_benchmarks(session: DB, user: Viewer) -> list[dict[str, Any]]:
    return [describe(b) for b in listed_benchmarks(session, user)]


@router.post("/benchmarks", status_code=201, response_model=BenchmarkOut, responses=errors(400, 401, 403))
def create_benchmark(body: BenchmarkIn, session: DB, admin: Admin) -> dict[str, Any]:
    return describe(publish(session, BenchmarkSpec(**body.model_dump()), admin.id))


@router.get("/benchmarks/{slug}", response_model=BenchmarkOut, responses=errors(401, 404))
def get_benchmark(slug: str, session: DB, user: Viewer) -> dict[str, Any]:
    return describe(benchmark_or_404(session, slug, user))


@router.get("/benchmarks/{slug}/pack.jsonl", response_class=Response, responses=download((JSONL,), 401, 404))
def pack_jsonl(slug: str, session: DB, user: Viewer) -> Response:
    benchmark = benchmark_or_404(session, slug, user)
    return attachment(benchmark.pack_jsonl, JSONL, f"{benchmark.slug}-pack.jsonl")


@router.get("/benchmarks/{slug}/pack.csv", response_class=Response, responses=download((CSV,), 401, 404))
def pack_as_csv(slug: str, session: DB, user: Viewer) -> Response:
    benchmark = benchmark_or_404(session, slug, user)
    return attachment(pack_csv(benchmark), CSV, f"{benchmark.slug}-pack.csv")


def leaderboard_table(session: Session, benchmark: Benchmark) -> list[dict[str, str]]:
    public = session.scalars(select(Submission).where(
        Submission.benchmark_id == benchmark.id, Submission.public.is_(True), Submission.hidden.is_(False), Submission.status == "done"))
    return leaderboard.rows(benchmark, list(public))


@router.get("/benchmarks/{slug}/leaderboard", responses=errors(401, 404))
def get_leaderboard(slug: str, session: DB, user: Viewer) -> list[dict[str, str]]:
    return leaderboard_table(session, benchmark_or_404(session, slug, user))


@router.get("/benchmarks/{slug}/leaderboard.csv", response_class=Response, responses=download((CSV,), 401, 404))
def leaderboard_csv(slug: str, session: DB, user: Viewer) -> Response:
    benchmark = benchmark_or_404(session, slug, user)
    return attachment(leaderboard.to_csv(leaderboard_table(session, benchmark)), CSV, f"{benchmark.slug}-leaderboard.csv")


@router.post("/benchmarks/{slug}/submissions", status_code=201, response_model=SubmissionOut, responses=errors(401, 404, 409, 429))
async def upload(
    request: Request, slug: str, session: DB, user: Participant,
    file: Annotated[UploadFile, File(description="answers: JSONL lines {probe_id, sample, text} or CSV probe_id,sample,text")],
    model: Annotated[str, Form(max_length=10_000)], organisation: Annotated[str, Form(max_length=10_000)] = "",
    prompt_style: Annotated[str, Form(max_length=40)] = "chat", public: Annotated[bool, Form()] = False,
    model_size: Annotated[str, Form(max_length=10_000, description="e.g. 7B")] = "",
    licence: Annotated[str, Form(max_length=10_000)] = "", link: Annotated[str, Form(max_length=10_000, description="http(s) address")] = "",
) -> dict[str, Any]:
    benchmark = benchmark_or_404(session, slug, user)
    limits = request.app.state.limits
    data = await file.read(limits.max_upload_bytes + 1)
    submission = submit(session, request.app.state.jobs, user, benchmark, data, filename=file.filename or "", model_name=model,
                        organisation=organisation, prompt_style=prompt_style, public=public, limits=limits,
                        info=ModelInfo(model_size, licence, link))
    return view(submission)


@router.post("/benchmarks/{slug}/runs", status_code=201, response_model=SubmissionOut, responses=errors(401, 403, 404))
def run_for_me(slug: str, body: RunIn, request: Request, session: DB, admin: Admin) -> dict[str, Any]:
    benchmark = benchmark_or_404(session, slug, admin)
    return view(start_run(session, request.app.state.jobs, admin, benchmark, body.endpoint, body.model_name))


@router.post("/endpoints", status_code=201, responses=errors(400, 401, 403, 409))
def add_endpoint(body: EndpointIn, session: DB, admin: Admin) -> dict[str, Any]:
    if session.scalar(select(Endpoint.id).where(Endpoint.name == body.name)) is not None:
        raise Refused(409, f"an endpoint named '{body.name}' exists already")
    session.add(Endpoint(name=body.name, model=check_endpoint_model(body.model), key_env=body.key_env, created_by=admin.id))
    session.commit()
    return {"name": body.name}


@router.get("/submissions", response_model=list[SubmissionOut], responses=errors(401))
def my_submissions(session: DB, user: Participant) -> list[dict[str, Any]]:
    query = select(Submission).where(Submission.status != DELETED).order_by(Submission.id.desc())
    if not user.is_admin:
        query = query.where(Submission.user_id == user.id)
    return [view(s) for s in session.scalars(query)]


@router.get("/submissions/{submission_id}", response_model=SubmissionOut, responses=errors(401, 404))
def get_submission(submission_id: RowId, session: DB, user: Viewer) -> dict[str, Any]:
    return view(submission_for(session, user, submission_id))


@router.post("/submissions/{submission_id}/leaderboard", response_model=SubmissionOut, responses=errors(401, 404))
def set_visibility(submission_id: RowId, body: Visibility, session: DB, user: Participant) -> dict[str, Any]:
    submission = owned_for(session, user, submission_id)
    submission.public = body.public
    session.commit()
    return view(submission)


@router.get("/submissions/{submission_id}/files/{name}", response_class=Response, responses=download((*FILE_TYPES.values(), TEXT), 401, 404))
def get_file(submission_id: RowId, name: str, session: DB, user: Viewer) -> Response:
    files = public_files(session, submission_for(session, user, submission_id))
    if name not in files:
        raise Refused(404, f"no file '{name[:80]}' (files: {', '.join(files) or 'none yet'})")
    return Response(files[name], media_type=FILE_TYPES.get(name.rsplit(".", 1)[-1], TEXT),
                    headers={"content-security-policy": "default-src 'none'; style-src 'unsafe-inline'", "x-content-type-options": "nosniff"})


@router.get("/submissions/{submission_id}/results.csv", response_class=Response, responses=download((CSV,), 401, 404, 409))
def get_results_csv(submission_id: RowId, session: DB, user: Viewer) -> Response:
    submission = submission_for(session, user, submission_id)
    if submission.status != "done":
        raise Refused(409, f"submission {submission_id} is {submission.status}, not scored yet")
    return attachment(results_csv(submission), CSV, f"submission-{submission_id}-results.csv")


@router.get("/submissions/{submission_id}/rundir.zip", response_class=Response, responses=download(("application/zip",), 401, 404, 409))
def get_rundir(submission_id: RowId, session: DB, user: Viewer) -> Response:
    submission = submission_for(session, user, submission_id)
    files = public_files(session, submission)
    if not files:
        raise Refused(409, f"submission {submission_id} is {submission.status}, not scored yet")
    folder = f"submission-{submission_id}-{submission.benchmark.slug}"
    return attachment(rundir_zip(files, folder), "application/zip", f"{folder}.zip")


def owned_for(session: Session, user: User | None, submission_id: int) -> Submission:
    """The submission if ``user`` owns it (or is an admin); otherwise 404, public submissions included:
    their scores are public, their replies are not."""
    submission = submission_for(session, user, submission_id)
    if not may_change(user, submission):
        raise Refused(404, f"no submission {submission_id}")
    return submission


@router.get("/submissions/{submission_id}/reader-audit.csv", response_class=Response, responses=download((CSV,), 401, 404, 409))
def get_reader_audit(submission_id: RowId, session: DB, user: Viewer,
                     sample: Annotated[int, Query(ge=1, le=100_000, description="replies to review, drawn per rule family in turn")] = 100,
                     seed: Annotated[int, Query(ge=0, le=2**31 - 1)] = 0) -> Response:
    """The owner's check of the answer reader: a sheet of their replies with the reader's readings, to fill in
    (your_reading) and upload on the submission's page, or score with ``medprobe readings score``."""
    submission = owned_for(session, user, submission_id)
    if submission.status != "done":
        raise Refused(409, f"submission {submission_id} is {submission.status}, not scored yet")
    text, rows = audit_csv(submission, sample, seed)
    if not rows:
        raise Refused(409, f"submission {submission_id} answers no option or verdict questions, the ones the audit checks")
    return attachment(text, CSV, f"submission-{submission_id}-reader-audit.csv")


@router.delete("/tokens/{token_id}", response_class=Response, responses=download((TEXT,), 401, 404))
def delete_token(token_id: RowId, session: DB, user: Participant) -> PlainTextResponse:
    revoke_token(session, user, token_id)
    return PlainTextResponse("revoked")
