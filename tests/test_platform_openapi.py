"""Fuzzing the platform's OpenAPI description (schemathesis): every operation of ``/openapi.json``
gets a handful of generated requests, as an admin (who may call everything) and anonymously; no
answer is a server error, and each answer's status, content type and body match the spec.

The app runs in process on a SQLite file with one small benchmark; enqueued jobs wait in the
queue (no worker), so nothing here depends on timing.
"""

from __future__ import annotations

import hypothesis
import pytest
import schemathesis
from hypothesis import HealthCheck
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.errors import FailureGroup

from medprobe.platform.app import Settings, create_app
from medprobe.platform.auth import create_user, new_token
from medprobe.platform.benchmarks import BenchmarkSpec, publish
from medprobe.platform.db import make_engine, migrate, sessions
from medprobe.platform.models import User
from medprobe.platform.worker import Jobs, migrate_queue

EXAMPLES = 25
#: no server error, and status, content type, headers and body as documented. Not the semantic
#: checks (positive_data_acceptance): a schema-valid request may still name a method or data
#: folder the server does not have, and is then rightly refused.
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance]


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory):
    """The app and a way to mint admin tokens (a fuzzed DELETE /api/tokens/ID may revoke any one)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('openapi')}/platform.sqlite"
    engine = make_engine(url)
    migrate(engine)
    migrate_queue(url)
    factory = sessions(engine)
    with factory() as session:
        admin = create_user(session, "admin@example.org", "Admin", "admin password", admin=True)
        publish(session, BenchmarkSpec("mf", "MultifacetEval demo", "multifacet", "builtin:en", size=2, include_unmeasured=True), admin.id)
    jobs = Jobs(url)

    def token() -> str:
        with factory() as session:
            return new_token(session, session.get(User, admin.id), "fuzz")

    try:
        yield create_app(Settings(db=url), jobs), token
    finally:
        jobs.close()


def _failures(operation: schemathesis.APIOperation, token) -> list[str]:  # type: ignore[no-untyped-def]
    """The spec violations of one operation over its generated cases, as an admin and anonymously."""
    found: list[str] = []

    @hypothesis.given(case=operation.as_strategy())
    @hypothesis.settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                         suppress_health_check=list(HealthCheck), phases=[hypothesis.Phase.generate])
    def check(case: schemathesis.Case) -> None:
        for headers in ({"authorization": f"Bearer {token()}"}, {}):
            try:
                case.call_and_validate(headers=headers, checks=CHECKS)
            except (Exception, FailureGroup) as exc:  # a failed check, several in a group, or the app's own crash
                found.append(f"{operation.label} ({'admin' if headers else 'anonymous'}): {str(exc)[:700]}")

    check()
    return found


def test_every_operation_answers_as_its_spec_says(fuzzed) -> None:  # type: ignore[no-untyped-def]
    app, token = fuzzed
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 17
    failures = [failure for operation in operations for failure in _failures(operation, token)]
    assert not failures, f"{len(failures)} spec violations:\n" + "\n".join(failures[:20])
