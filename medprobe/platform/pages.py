"""The HTML pages (Jinja2, autoescaped): benchmarks, sign-up and log-in, account and API tokens,
upload, submissions and their results, leaderboards, and the admin page.

Every form carries a CSRF token (fastapi-csrf-protect's double-submit cookie: a signed copy in a
cookie, the plain token in the form); a POST whose two do not match is refused with 403.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from fastapi_csrf_protect import CsrfProtect
from fastapi_csrf_protect.exceptions import CsrfProtectError
from markdown_it import MarkdownIt
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from medprobe.contract import available_methods
from medprobe.errors import MedprobeError
from medprobe.platform import leaderboard
from medprobe.platform.api import RowId, leaderboard_table, owned_for, submission_for
from medprobe.platform.audit import score_upload
from medprobe.platform.auth import (
    Throttle,
    authenticate,
    cookie_user,
    create_user,
    db,
    end_session,
    may_change,
    new_token,
    revoke_token,
    set_password,
    start_session,
)
from medprobe.platform.benchmarks import BenchmarkSpec, describe, publish, publish_profile
from medprobe.platform.models import ApiToken, Benchmark, Endpoint, RunRequest, Submission, User
from medprobe.platform.profiles import MIN_ASPECT_POINTS, aggregates_only, model_profiles
from medprobe.platform.runforme import check_endpoint_model
from medprobe.platform.shuffle import INFERABLE
from medprobe.platform.submissions import (
    DELETED,
    PROMPT_STYLES,
    ModelInfo,
    Refused,
    benchmark_or_404,
    decide_request,
    delete_submission,
    listed_benchmarks,
    public_files,
    request_run,
    start_run,
    submit,
)
from medprobe.profile.report import charts, header_rows, sections
from medprobe.reader_audit import rate, worst

#: pages are for browsers; /openapi.json describes the JSON API only
router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))
templates.env.policies["json.dumps_kwargs"] = {"ensure_ascii": False, "sort_keys": True}  # tojson: 问题, not \u95ee\u9898
MARKDOWN = MarkdownIt("js-default").enable("table")  # js-default: raw HTML in a report is shown as text
DB = Annotated[Session, Depends(db)]
#: submissions listed on the admin page, newest first (the rest on /submissions)
ADMIN_SUBMISSIONS = 200
Who = Annotated[User | None, Depends(cookie_user)]


class FormCsrf(CsrfProtect):
    """CSRF tokens in form fields (``csrf_token``), valid for four hours."""

    _token_location = "body"
    _token_key = "csrf_token"
    _max_age = 4 * 3600


def render(request: Request, template: str, user: User | None, status: int = 200, **context: Any) -> HTMLResponse:
    """A page with a fresh CSRF token in its forms and the matching signed cookie."""
    csrf = FormCsrf()
    token, signed = csrf.generate_csrf_tokens(request.app.state.csrf_secret)
    response = templates.TemplateResponse(request, template, {"user": user, "csrf_token": token, **context}, status_code=status)
    csrf._cookie_secure = request.app.state.secure_cookies
    csrf.set_csrf_cookie(signed, response)
    return response


def error_page(request: Request, status: int, body: dict[str, Any]) -> HTMLResponse:
    return templates.TemplateResponse(request, "error.html", {"user": None, "status": status, "body": body}, status_code=status)


async def form_data(request: Request) -> dict[str, Any]:
    """The posted form after its CSRF token is checked."""
    form = await request.form()
    try:
        await FormCsrf().validate_csrf(request, secret_key=request.app.state.csrf_secret)
    except CsrfProtectError as exc:
        raise Refused(403, f"the form's CSRF token is missing or stale ({exc}); reload the page and try again") from None
    return dict(form)


def login_required(user: User | None) -> User:
    if user is None:
        raise Refused(401, "log in first")
    return user


def admin_required(user: User | None) -> User:
    if login_required(user).is_admin is False:
        raise Refused(403, "admins only")
    return user  # type: ignore[return-value]


def see_other(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


@router.get("/", response_class=HTMLResponse)
def home(request: Request, session: DB, user: Who) -> Response:
    return render(request, "home.html", user, benchmarks=[describe(b) for b in listed_benchmarks(session, user)])


@router.get("/signup", response_class=HTMLResponse)
def signup_page(request: Request, user: Who) -> Response:
    return render(request, "signup.html", user)


def client_address(request: Request) -> str:
    return f"address:{request.client.host if request.client else '?'}"


def throttled(throttle: Throttle, *keys: str) -> None:
    """429 with Retry-After while any key is over its limit."""
    wait = throttle.retry_after(*keys)
    if wait:
        raise Refused(429, f"too many attempts; try again in {wait} s", retry_after=wait)


@router.post("/signup")
async def signup(request: Request, session: DB) -> Response:
    """Sign-ups are limited per client address: the form must say when an e-mail cannot sign up,
    which tells whether it has an account, so trying many addresses is slowed down."""
    form = await form_data(request)
    throttled(request.app.state.signups, client_address(request))
    request.app.state.signups.record(client_address(request))
    try:
        user = create_user(session, str(form.get("email", "")), str(form.get("name", "")), str(form.get("password", "")),
                           str(form.get("organisation", "")))
    except MedprobeError as exc:
        return render(request, "signup.html", None, 400, message=exc.message, form=form)
    start_session(session, request, user)
    return see_other("/account")


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, user: Who) -> Response:
    return render(request, "login.html", user)


@router.post("/login")
async def login(request: Request, session: DB) -> Response:
    """Failed log-ins are limited per e-mail and per client address; while over the limit even the
    right password is refused (429), so guessing gains nothing."""
    form = await form_data(request)
    email = "email:" + str(form.get("email", "")).strip().lower()
    per_email, per_address = request.app.state.failed_logins, request.app.state.failed_logins_per_address
    throttled(per_email, email)
    throttled(per_address, client_address(request))
    user = authenticate(session, str(form.get("email", "")), str(form.get("password", "")))
    if user is None:
        per_email.record(email)
        per_address.record(client_address(request))
        return render(request, "login.html", None, 401, message="wrong e-mail or password")
    per_email.forget(email)
    start_session(session, request, user)
    return see_other("/")


@router.post("/logout")
async def logout(request: Request, session: DB) -> Response:
    await form_data(request)
    end_session(session, request)
    return see_other("/")


@router.post("/account/password")
async def change_password(request: Request, session: DB, user: Who) -> Response:
    """A new password: the current one is asked again, and every other browser session of the account ends."""
    user = login_required(user)
    form = await form_data(request)
    if authenticate(session, user.email, str(form.get("current", ""))) is None:
        return account_page(request, session, user, 400, password_message="the current password is wrong")
    try:
        set_password(session, user, str(form.get("new", "")))
    except MedprobeError as exc:
        return account_page(request, session, user, 400, password_message=exc.message)
    start_session(session, request, user)
    return account_page(request, session, user, password_message="password changed; other browsers were logged out")


def account_page(request: Request, session: Session, user: User, status: int = 200, **context: Any) -> HTMLResponse:
    tokens = session.scalars(select(ApiToken).where(ApiToken.user_id == user.id).order_by(ApiToken.id))
    return render(request, "account.html", user, status, tokens=list(tokens), new_token=request.session.pop("new_token", None), **context)


@router.get("/account", response_class=HTMLResponse)
def account(request: Request, session: DB, user: Who) -> Response:
    return account_page(request, session, login_required(user))


@router.post("/account/tokens")
async def create_token(request: Request, session: DB, user: Who) -> Response:
    user = login_required(user)
    form = await form_data(request)
    request.session["new_token"] = new_token(session, user, str(form.get("name", "")))
    return see_other("/account")


@router.post("/account/tokens/{token_id}/revoke")
async def revoke(request: Request, token_id: RowId, session: DB, user: Who) -> Response:
    user = login_required(user)
    await form_data(request)
    revoke_token(session, user, token_id)
    return see_other("/account")


@router.get("/benchmarks/{slug}", response_class=HTMLResponse)
def benchmark_page(request: Request, slug: str, session: DB, user: Who) -> Response:
    benchmark = benchmark_or_404(session, slug, user)
    return render(request, "benchmark.html", user, b=describe(benchmark), styles=PROMPT_STYLES, inferable=INFERABLE)


@router.post("/benchmarks/{slug}/submit")
async def upload_page(request: Request, slug: str, session: DB, user: Who) -> Response:
    user = login_required(user)
    form = await form_data(request)
    benchmark = benchmark_or_404(session, slug, user)
    upload = form.get("file")
    if upload is None or isinstance(upload, str):
        raise Refused(422, "choose a file of answers")
    limits = request.app.state.limits
    data = await upload.read(limits.max_upload_bytes + 1)
    try:
        submission = submit(session, request.app.state.jobs, user, benchmark, data, filename=upload.filename or "",
                            model_name=str(form.get("model", "")), organisation=str(form.get("organisation", "")),
                            prompt_style=str(form.get("prompt_style", "chat")), public=form.get("public") == "on", limits=limits,
                            info=ModelInfo(str(form.get("model_size", "")), str(form.get("licence", "")), str(form.get("link", ""))))
    except Refused as exc:
        return render(request, "benchmark.html", user, exc.status, b=describe(benchmark), styles=PROMPT_STYLES, inferable=INFERABLE,
                      refused=exc.body())
    return see_other(f"/submissions/{submission.id}")


@router.post("/benchmarks/{slug}/run-requests")
async def ask_for_run(request: Request, slug: str, session: DB, user: Who) -> Response:
    """A participant asks the platform to run a model (named in words; an admin picks the endpoint)."""
    user = login_required(user)
    form = await form_data(request)
    request_run(session, user, benchmark_or_404(session, slug, user), str(form.get("model", "")), str(form.get("note", "")))
    return see_other("/submissions#requests")


@router.get("/benchmarks/{slug}/leaderboard", response_class=HTMLResponse)
def leaderboard_page(request: Request, slug: str, session: DB, user: Who, sort: Annotated[str, Query(max_length=80)] = "",
                     order: Literal["asc", "desc"] = "asc", q: Annotated[str, Query(max_length=200)] = "",
                     page: Annotated[int, Query(ge=1, le=100_000)] = 1) -> Response:
    """The benchmark's leaderboard, sorted by any column, filtered by name, a page of rows at a time."""
    benchmark = benchmark_or_404(session, slug, user)
    table = leaderboard_table(session, benchmark)
    rows, pages = leaderboard.browse(table, sort, order == "desc", q, page)
    return render(request, "leaderboard.html", user, b=describe(benchmark), rows=rows, total=len(table), columns=list(table[0]) if table else [],
                  sort=sort, order=order, q=q, page=min(page, pages), pages=pages)


@router.get("/leaderboard", response_class=HTMLResponse)
def overview_page(request: Request, session: DB, user: Who, sort: Annotated[str, Query(max_length=80)] = "") -> Response:
    """Every published benchmark's public rows at once: model x benchmark, each cell the model's best
    main figure there, and per benchmark a chart of the best models."""
    benchmarks = listed_benchmarks(session, None)
    public = list(session.scalars(select(Submission).where(
        Submission.benchmark_id.in_([b.id for b in benchmarks]), Submission.public.is_(True), Submission.hidden.is_(False),
        Submission.status == "done")))
    rows, figures = leaderboard.overview(benchmarks, public)
    if sort in figures:
        rows.sort(key=lambda r: -r["cells"][sort]["value"] if sort in r["cells"] else float("inf"))
    shown = [b for b in benchmarks if b.slug in figures]
    return render(request, "overview.html", user, rows=rows, benchmarks=shown, figures=figures, sort=sort,
                  charts=leaderboard.overview_charts(shown, rows, figures))


@router.get("/submissions", response_class=HTMLResponse)
def submissions_page(request: Request, session: DB, user: Who) -> Response:
    user = login_required(user)
    query = select(Submission).where(Submission.status != DELETED).order_by(Submission.id.desc())
    if not user.is_admin:
        query = query.where(Submission.user_id == user.id)
    requests = select(RunRequest).where(RunRequest.user_id == user.id).order_by(RunRequest.id.desc())
    return render(request, "submissions.html", user, submissions=list(session.scalars(query)), requests=list(session.scalars(requests)))


@router.get("/submissions/{submission_id}", response_class=HTMLResponse)
def submission_page(request: Request, submission_id: RowId, session: DB, user: Who) -> Response:
    submission = submission_for(session, user, submission_id)
    files = public_files(session, submission)
    report = render_report(files["report.md"], submission.id, set(files)) if "report.md" in files else ""
    charts = [name for name in files if name.endswith(".svg")]
    row = leaderboard.rows(submission.benchmark, [submission])[0] if submission.status == "done" else None
    return render(request, "submission.html", user, s=submission, report=report, charts=charts, files=list(files), row=row,
                  may_change=may_change(user, submission))


def _run_file(target: object) -> bool:
    """A link or image target that names a file of the run directory (not a page or another site)."""
    return isinstance(target, str) and bool(target) and "://" not in target and not target.startswith(("/", "#", "mailto:"))


def render_report(text: str, submission_id: int, public: set[str]) -> str:
    """The run's report.md as HTML on the submission's page. Its images and links name files of the
    run directory (``tiers.svg``); they point at the submission's downloads, and a link or image of a
    file kept on the server (``accr_sample.csv``, per item) is left out, its text kept, instead of a dead link."""
    tokens = MARKDOWN.parse(text)
    for token in tokens:
        children, withheld = [], []
        for child in token.children or []:
            attr = {"image": "src", "link_open": "href"}.get(child.type)
            target = child.attrGet(attr) if attr else None
            hidden = _run_file(target) and target not in public
            if _run_file(target) and not hidden:
                child.attrSet(attr, f"/api/submissions/{submission_id}/files/{target}")
            if child.type == "link_open":
                withheld.append(hidden)
            if hidden or (child.type == "link_close" and withheld.pop()):
                continue
            children.append(child)
        token.children = children
    return MARKDOWN.renderer.render(tokens, MARKDOWN.options, {})


@router.post("/submissions/{submission_id}/leaderboard")
async def toggle_public(request: Request, submission_id: RowId, session: DB, user: Who) -> Response:
    user = login_required(user)
    form = await form_data(request)
    submission = owned_for(session, user, submission_id)
    submission.public = form.get("public") == "on"
    session.commit()
    return see_other(f"/submissions/{submission_id}")


@router.post("/submissions/{submission_id}/reader-audit", response_class=HTMLResponse)
async def reader_audit_page(request: Request, submission_id: RowId, session: DB, user: Who) -> Response:
    """The owner's filled-in audit sheet, scored: the reader's false-read and miss rates per task and rule family."""
    user = login_required(user)
    form = await form_data(request)
    submission = owned_for(session, user, submission_id)
    upload = form.get("file")
    if upload is None or isinstance(upload, str):
        raise Refused(422, "choose the filled-in audit sheet")
    try:
        groups = score_upload(await upload.read(request.app.state.limits.max_upload_bytes + 1), upload.filename or "the sheet")
    except MedprobeError as exc:
        raise Refused(422, exc.render()) from None
    tables = {title: [(name, t.reviewed, rate(t.false_reads, t.read), rate(t.misses, t.answerable)) for name, t in sorted(groups[by].items())]
              for by, title in (("task", "task"), ("rule", "rule family"))}
    return render(request, "reader_audit.html", user, s=submission, tables=tables, worst=worst(groups["rule"]))


@router.get("/models/{name:path}", response_class=HTMLResponse)
def model_page(request: Request, name: str, session: DB, user: Who) -> Response:
    """The model's knowledge profiles (one per owner and shared sample) from the submissions the viewer may see:
    aggregates only, except for admins (see ``aggregates_only``)."""
    profiles = model_profiles(session, user, name)
    if not profiles:
        raise Refused(404, f"no knowledge profile of a model '{name}' to show: it needs scored submissions to two or more "
                           "benchmarks of one profile (published together by an admin)")
    full = user is not None and user.is_admin
    shown = []
    for p in profiles:
        profile = p.profile if full else aggregates_only(p.profile)
        shown.append({"owner": p.owner, "submissions": p.submissions, "header": header_rows(profile), "charts": charts(profile),
                      "sections": [s for s in sections(profile) if full or s.rows]})
    return render(request, "model.html", user, name=name, profiles=shown, full=full, min_aspect_points=MIN_ASPECT_POINTS)


@router.get("/admin", response_class=HTMLResponse)
def admin_page(request: Request, session: DB, user: Who) -> Response:
    user = admin_required(user)
    live = Submission.status != DELETED
    counts = dict(session.execute(select(Submission.benchmark_id, func.count()).where(live).group_by(Submission.benchmark_id)).all())
    per_user = dict(session.execute(select(Submission.user_id, func.count()).where(live).group_by(Submission.user_id)).all())
    return render(request, "admin.html", user, methods=sorted(available_methods()),
                  endpoints=list(session.scalars(select(Endpoint).order_by(Endpoint.id))),
                  benchmarks=list(session.scalars(select(Benchmark).order_by(Benchmark.id))), counts=counts, per_user=per_user,
                  users=list(session.scalars(select(User).order_by(User.id))),
                  submissions=list(session.scalars(select(Submission).where(Submission.status != DELETED)
                                                   .order_by(Submission.id.desc()).limit(ADMIN_SUBMISSIONS))),
                  shown=ADMIN_SUBMISSIONS,
                  requests=list(session.scalars(select(RunRequest).where(RunRequest.status == "pending").order_by(RunRequest.id))))


@router.post("/admin/run-requests/{request_id}")
async def admin_decide(request: Request, request_id: RowId, session: DB, user: Who) -> Response:
    """Approve a participant's run request with one of the registered endpoints, or decline it."""
    user = admin_required(user)
    form = await form_data(request)
    found = session.get(RunRequest, request_id)
    if found is None:
        raise Refused(404, f"no run request {request_id}")
    decide_request(session, request.app.state.jobs, user, found, str(form.get("endpoint", "")) if form.get("action") == "approve" else None)
    return see_other(f"/submissions/{found.submission_id}" if found.submission_id else "/admin#requests")


@router.post("/admin/submissions/{submission_id}/hidden")
async def admin_hide(request: Request, submission_id: RowId, session: DB, user: Who) -> Response:
    """Hide a submission (off the leaderboard and others' model pages; its owner still sees it) or show it again."""
    admin_required(user)
    form = await form_data(request)
    submission = session.get(Submission, submission_id)
    if submission is None:
        raise Refused(404, f"no submission {submission_id}")
    submission.hidden = form.get("hidden") == "on"
    session.commit()
    return see_other("/admin#submissions")


@router.post("/admin/submissions/{submission_id}/delete")
async def admin_delete(request: Request, submission_id: RowId, session: DB, user: Who) -> Response:
    admin_required(user)
    await form_data(request)
    submission = session.get(Submission, submission_id)
    if submission is None or submission.status == DELETED:
        raise Refused(404, f"no submission {submission_id}")
    delete_submission(session, submission)
    return see_other("/admin#submissions")


@router.post("/admin/benchmarks/{slug}/published")
async def admin_unpublish(request: Request, slug: str, session: DB, user: Who) -> Response:
    """Unpublish a benchmark (participants no longer see it, its pack or its leaderboard) or publish it again."""
    user = admin_required(user)
    form = await form_data(request)
    benchmark = benchmark_or_404(session, slug, user)
    benchmark.published = form.get("published") == "on"
    session.commit()
    return see_other("/admin#benchmarks")


@router.post("/admin/benchmarks")
async def admin_publish(request: Request, session: DB, user: Who) -> Response:
    user = admin_required(user)
    form = await form_data(request)
    size, seed = str(form.get("size", "")).strip(), str(form.get("seed", "")).strip()
    options = dict(pair.split("=", 1) for pair in str(form.get("options", "")).split() if "=" in pair)
    spec = BenchmarkSpec(slug=str(form.get("slug", "")), title=str(form.get("title", "")), method=str(form.get("method", "")),
                         data=str(form.get("data", "")).strip() or None, seed=int(seed) if seed.isdigit() else 0,
                         size=int(size) if size.isdigit() else None, options=options,
                         include_unmeasured=form.get("include_unmeasured") == "on")
    benchmark = publish(session, spec, user.id)
    return see_other(f"/benchmarks/{benchmark.slug}")


@router.post("/admin/profile-benchmarks")
async def admin_publish_profile(request: Request, session: DB, user: Who) -> Response:
    user = admin_required(user)
    form = await form_data(request)
    size, seed = str(form.get("size", "")).strip(), str(form.get("seed", "")).strip()
    if not size.isdigit() or int(size) < 1:
        raise Refused(422, "give the number of knowledge points (a whole number ≥ 1)")
    if seed and not seed.isdigit():
        raise Refused(422, "give the seed as a whole number ≥ 0, or leave it empty for 0")
    benchmarks = publish_profile(session, str(form.get("prefix", "")).strip(), str(form.get("data", "")).strip() or "builtin:en",
                                 int(size), int(seed or 0), user.id, include_unmeasured=form.get("include_unmeasured") == "on")
    return see_other(f"/benchmarks/{benchmarks[0].slug}")


@router.post("/admin/endpoints")
async def admin_endpoint(request: Request, session: DB, user: Who) -> Response:
    user = admin_required(user)
    form = await form_data(request)
    name = str(form.get("name", "")).strip()
    if not name or session.scalar(select(Endpoint.id).where(Endpoint.name == name)) is not None:
        raise Refused(409, "give the endpoint a new, unique name")
    session.add(Endpoint(name=name[:80], model=check_endpoint_model(str(form.get("model", ""))),
                         key_env=str(form.get("key_env", "")).strip() or None, created_by=user.id))
    session.commit()
    return see_other("/admin")


@router.post("/admin/runs")
async def admin_run(request: Request, session: DB, user: Who) -> Response:
    user = admin_required(user)
    form = await form_data(request)
    benchmark = benchmark_or_404(session, str(form.get("benchmark", "")), user)
    submission = start_run(session, request.app.state.jobs, user, benchmark, str(form.get("endpoint", "")), str(form.get("model_name", "")))
    return see_other(f"/submissions/{submission.id}")
