"""The web application: the JSON API, the HTML pages, sessions, size limits and error shapes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import MutableHeaders
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from swagger_ui_bundle import swagger_ui_path

from medprobe.errors import MedprobeError
from medprobe.platform import api, pages
from medprobe.platform.auth import SESSION_SECONDS, Throttle
from medprobe.platform.db import instance_secret, make_engine, sessions
from medprobe.platform.submissions import Limits, Refused


@dataclass
class Settings:
    db: str
    limits: Limits = field(default_factory=Limits)
    #: cookies only over HTTPS (set behind a TLS proxy)
    secure_cookies: bool = False


class BodyLimit:
    """Refuse a request whose declared body is over the limit before reading it (413), and cut off
    one that sends more than it declared or declares nothing; multipart uploads get a little room."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app, self.limit = app, limit + 64 * 1024

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            return await JSONResponse({"error": f"the request is larger than {self.limit} bytes"}, 413)(scope, receive, send)
        seen = 0

        async def limited() -> Any:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise Refused(413, f"the request is larger than {self.limit} bytes")
            return message

        await self.app(scope, limited, send)


class NoFraming:
    """No page may be shown inside another site's frame (clickjacking): X-Frame-Options for older
    browsers, CSP frame-ancestors for the rest, added to a policy the response already has."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers["x-frame-options"] = "DENY"
                policy = headers.get("content-security-policy")
                headers["content-security-policy"] = f"{policy}; {FRAMING}" if policy else FRAMING
            await send(message)

        await self.app(scope, receive, with_headers)


FRAMING = "frame-ancestors 'none'"
DOCS_ASSETS = "/api/docs/assets"


def _error(request: Request, status: int, body: dict[str, Any], retry_after: int | None = None) -> Response:
    if request.url.path.startswith("/api/") or "text/html" not in request.headers.get("accept", ""):
        response: Response = JSONResponse(body, status)
    else:
        response = pages.error_page(request, status, body)
    if retry_after is not None:
        response.headers["retry-after"] = str(retry_after)
    return response


def create_app(settings: Settings, jobs: Any) -> FastAPI:
    """The application for one deployment; ``jobs`` enqueues work (``medprobe.platform.worker.Jobs``)."""
    engine = make_engine(settings.db)
    factory = sessions(engine)
    with factory() as session:
        secret = instance_secret(session, "session")
        csrf_secret = instance_secret(session, "csrf")
    app = FastAPI(title="medprobe platform", version="1", docs_url=None, redoc_url=None)
    app.mount(DOCS_ASSETS, StaticFiles(directory=swagger_ui_path), name="docs-assets")

    @app.get("/api/docs", include_in_schema=False)
    def docs() -> Response:
        """Swagger UI from the swagger-ui-bundle package's own files, so the page works without internet
        (FastAPI's default loads it from a CDN, and the page stayed blank offline)."""
        return get_swagger_ui_html(openapi_url="/openapi.json", title="medprobe platform · API",
                                   swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js", swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
                                   swagger_favicon_url=f"{DOCS_ASSETS}/favicon-32x32.png")

    app.state.sessions, app.state.jobs, app.state.limits, app.state.csrf_secret = factory, jobs, settings.limits, csrf_secret
    app.state.secure_cookies = settings.secure_cookies
    limits = settings.limits
    app.state.failed_logins = Throttle(limits.login_failures, 15 * 60)
    app.state.failed_logins_per_address = Throttle(10 * limits.login_failures, 15 * 60)
    app.state.signups = Throttle(limits.signups_per_hour, 3600)
    app.add_middleware(SessionMiddleware, secret_key=secret, same_site="lax", https_only=settings.secure_cookies, max_age=SESSION_SECONDS)
    app.add_middleware(BodyLimit, limit=settings.limits.max_upload_bytes)
    app.add_middleware(NoFraming)

    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Refused) -> Response:
        return _error(request, exc.status, exc.body(), exc.retry_after)

    @app.exception_handler(MedprobeError)
    async def medprobe_error(request: Request, exc: MedprobeError) -> Response:
        return _error(request, 400, {"error": exc.render()})

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        return _error(request, exc.status_code, {"error": str(exc.detail)})

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        fields = [{"field": ".".join(str(p) for p in e.get("loc", ())), "error": e.get("msg", "invalid")} for e in exc.errors()]
        return _error(request, 422, {"error": "invalid request: " + "; ".join(f"{f['field']}: {f['error']}" for f in fields[:5]), "fields": fields})

    app.include_router(api.router)
    app.include_router(pages.router)
    return app
