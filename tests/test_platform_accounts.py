"""Accounts on the platform: sessions that end on the server, log-in and sign-up throttling with
Retry-After, password change and reset, names that cannot pose as others; and site-wide: no
framing, API docs that work offline."""

from __future__ import annotations

import re
import time

import pytest
from typer.testing import CliRunner

from medprobe.cli import app as cli
from medprobe.platform.app import Settings, create_app
from medprobe.platform.auth import Throttle, create_user
from medprobe.platform.db import make_engine, migrate, sessions
from medprobe.platform.submissions import Limits
from testing.platform_helpers import Browser

PASSWORD = "a long password"


@pytest.fixture
def site(tmp_path):  # type: ignore[no-untyped-def]
    """A fresh platform (no worker: nothing here is scored) with one participant, Dana."""
    url = f"sqlite:///{tmp_path}/p.sqlite"
    migrate(make_engine(url))
    with sessions(make_engine(url))() as session:
        create_user(session, "dana@example.org", "Dana", PASSWORD)
    return url, create_app(Settings(db=url, limits=Limits(login_failures=3, signups_per_hour=4)), jobs=None)


def test_logout_ends_the_session_for_a_copied_cookie_too(site) -> None:  # type: ignore[no-untyped-def]
    _, app = site
    dana, thief = Browser(app), Browser(app)
    assert dana.login("dana@example.org", PASSWORD) == 303
    thief.client.cookies.update(dana.client.cookies)
    assert thief.get("/account").status_code == 200
    assert dana.post_form("/account", "/logout", {}).status_code == 303
    assert thief.get("/account").status_code == 401
    assert dana.get("/account").status_code == 401


def test_failed_logins_are_throttled_with_retry_after(site) -> None:  # type: ignore[no-untyped-def]
    _, app = site
    guesser = Browser(app)
    assert [guesser.login("dana@example.org", f"guess {i}") for i in range(3)] == [401] * 3
    token = guesser.get("/login").text
    reply = guesser.client.post("/login", data={"csrf_token": token.split('name="csrf_token" value="')[1].split('"')[0],
                                                "email": "dana@example.org", "password": PASSWORD}, headers={"accept": "text/html"})
    assert reply.status_code == 429 and 0 < int(reply.headers["retry-after"]) <= 900  # even the right password, while throttled
    assert Browser(app).login("other@example.org", "wrong") == 401  # another e-mail is not held up by Dana's


def test_signups_are_throttled_per_address(site) -> None:  # type: ignore[no-untyped-def]
    _, app = site
    browser = Browser(app)
    codes = [browser.post_form("/signup", "/signup", {"email": f"u{i}@example.org", "name": f"U{i}", "password": PASSWORD}).status_code
             for i in range(5)]
    assert codes[:4] == [303] * 4 and codes[4] == 429


def test_password_change_asks_the_old_one_and_ends_other_sessions(site) -> None:  # type: ignore[no-untyped-def]
    _, app = site
    dana, laptop = Browser(app), Browser(app)
    assert dana.login("dana@example.org", PASSWORD) == 303 and laptop.login("dana@example.org", PASSWORD) == 303
    wrong = dana.post_form("/account", "/account/password", {"current": "not it at all", "new": "a newer password"})
    assert wrong.status_code == 400 and "current password is wrong" in wrong.text
    short = dana.post_form("/account", "/account/password", {"current": PASSWORD, "new": "short"})
    assert short.status_code == 400 and "at least 10" in short.text
    done = dana.post_form("/account", "/account/password", {"current": PASSWORD, "new": "a newer password"})
    assert done.status_code == 200 and "password changed" in done.text
    assert dana.get("/account").status_code == 200 and laptop.get("/account").status_code == 401
    assert Browser(app).login("dana@example.org", PASSWORD) == 401
    assert Browser(app).login("dana@example.org", "a newer password") == 303


def test_serve_reset_password_prints_a_new_one(site) -> None:  # type: ignore[no-untyped-def]
    url, app = site
    dana = Browser(app)
    assert dana.login("dana@example.org", PASSWORD) == 303
    result = CliRunner().invoke(cli, ["serve", "--db", url, "--reset-password", "Dana@Example.org"])
    assert result.exit_code == 0, result.output
    password = result.output.strip().rsplit(" ", 1)[-1]
    assert dana.get("/account").status_code == 401  # the reset ends every session
    assert Browser(app).login("dana@example.org", password) == 303
    missing = CliRunner().invoke(cli, ["serve", "--db", url, "--reset-password", "nobody@example.org"])
    assert missing.exit_code != 0 and "no account" in missing.output


@pytest.mark.parametrize("name", ["Eve\u202eyrraM", "Eve\u2067", "Eve\x07", "Eve\u200f"])
def test_names_with_control_or_bidi_characters_are_refused(site, name: str) -> None:  # type: ignore[no-untyped-def]
    _, app = site
    for fields in ({"name": name}, {"name": "Eve", "organisation": name}):
        reply = Browser(app).post_form("/signup", "/signup", {"email": "eve@example.org", "password": PASSWORD, **fields})
        assert reply.status_code == 400 and "invisible character" in reply.text


def test_no_page_may_be_framed(site) -> None:  # type: ignore[no-untyped-def]
    _, app = site
    for url in ("/", "/login", "/api/benchmarks", "/no-such-page"):
        reply = Browser(app).get(url)
        assert reply.headers["x-frame-options"] == "DENY", url
        assert "frame-ancestors 'none'" in reply.headers["content-security-policy"], url


def test_api_docs_load_nothing_from_other_sites(site) -> None:  # type: ignore[no-untyped-def]
    _, app = site
    client = Browser(app).client
    page = client.get("/api/docs").text
    assets = re.findall(r'(?:src|href)="([^"]+)"', page) + re.findall(r"url: '([^']+)'", page)
    assert assets and not [a for a in assets if "://" in a or a.startswith("//")], assets
    for asset in assets:
        reply = client.get(asset)
        assert reply.status_code == 200 and len(reply.content) > 100, asset
    assert "SwaggerUIBundle" in client.get("/api/docs/assets/swagger-ui-bundle.js").text


def test_the_throttle_forgets_stale_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    throttle = Throttle(2, 60)
    throttle.record("a")
    throttle.record("a")
    assert throttle.retry_after("a", "b") == 60 and throttle.retry_after("b") == 0
    clock[0] += 61
    assert throttle.retry_after("a") == 0
    monkeypatch.setattr(Throttle, "SWEEP_AT", 3)
    for key in ("b", "c"):
        throttle.record(key)
    clock[0] += 61
    throttle.record("d")  # three keys held, all stale: swept before "d" is kept
    assert set(throttle.events) == {"d"}
