"""Accounts, passwords, API tokens and who may see what.

Passwords are hashed with Argon2id (argon2-cffi). API tokens are random, shown once, and stored
as SHA-256 digests; a revoked token stops working at once. The browser is identified by a signed
session cookie (Starlette's SessionMiddleware) holding a random session token whose digest is kept
in ``browser_sessions``: logging out, changing or resetting the password ends it on the server, so
a copied cookie stops working too. The API is identified by ``Authorization: Bearer TOKEN``.
API requests that change something take the token only, never the cookie, so a page on another
site cannot make a logged-in browser call them (the HTML forms carry CSRF tokens instead).
"""

from __future__ import annotations

import hashlib
import math
import re
import secrets
import time
import unicodedata
from collections import defaultdict, deque
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Annotated

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Depends, HTTPException, Request
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from medprobe.errors import MedprobeError
from medprobe.platform.models import DELETED, ApiToken, BrowserSession, Submission, User

HASHER = PasswordHasher()
EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,190}$")
MIN_PASSWORD = 10
TOKEN_PREFIX = "mpt_"
#: a browser session lasts as long as its cookie: 14 days
SESSION_SECONDS = 14 * 24 * 3600
#: Arabic letter mark, left-to-right and right-to-left marks, embeddings, overrides and isolates
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def unprintable(text: str) -> str | None:
    """The first character that has no place in a name shown to others: a control character, or a
    bidirectional override or isolate, which makes a name display as another (``evil\u202egnp.exe``)."""
    return next((c for c in text if unicodedata.category(c) == "Cc" or c in BIDI_CONTROLS), None)


def check_name(text: str, what: str) -> None:
    bad = unprintable(text)
    if bad is not None:
        raise MedprobeError(f"the {what} holds the invisible character U+{ord(bad):04X}; type it without", field=what)


def check_password(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise MedprobeError(f"the password needs at least {MIN_PASSWORD} characters", field="password")


def create_user(session: Session, email: str, name: str, password: str, organisation: str = "", *, admin: bool = False) -> User:
    email, name, organisation = email.strip().lower(), name.strip(), organisation.strip()
    if not EMAIL.match(email):
        raise MedprobeError("not an e-mail address", field="email")
    if not name or len(name) > 200 or len(organisation) > 200:
        raise MedprobeError("a name of 1-200 characters is needed (organisation: at most 200)", field="name")
    check_name(name, "name")
    check_name(organisation, "organisation")
    check_password(password)
    if session.scalar(select(User.id).where(User.email == email)) is not None:
        raise MedprobeError("this e-mail cannot sign up; if the account is yours, log in", field="email")
    user = User(email=email, name=name, organisation=organisation, password_hash=HASHER.hash(password), is_admin=admin)
    session.add(user)
    session.commit()
    return user


def authenticate(session: Session, email: str, password: str) -> User | None:
    user = session.scalar(select(User).where(User.email == email.strip().lower()))
    try:
        return user if user is not None and HASHER.verify(user.password_hash, password) else None
    except (VerificationError, InvalidHashError):
        return None


def set_password(session: Session, user: User, password: str) -> None:
    """A new password, and every browser session of the user ended (the caller starts a new one)."""
    check_password(password)
    user.password_hash = HASHER.hash(password)
    end_sessions(session, user)


def start_session(session: Session, request: Request, user: User) -> None:
    """Log the browser in: a new random session token in the cookie, its digest in the database."""
    plain = secrets.token_urlsafe(32)
    session.add(BrowserSession(user_id=user.id, token_sha256=digest(plain)))
    session.commit()
    request.session.clear()
    request.session["sid"] = plain


def end_session(session: Session, request: Request) -> None:
    """Log the browser out, on the server too."""
    sid = request.session.get("sid")
    if isinstance(sid, str):
        session.execute(update(BrowserSession).where(BrowserSession.token_sha256 == digest(sid), BrowserSession.ended.is_(None))
                        .values(ended=datetime.now(UTC)))
        session.commit()
    request.session.clear()


def end_sessions(session: Session, user: User) -> None:
    session.execute(update(BrowserSession).where(BrowserSession.user_id == user.id, BrowserSession.ended.is_(None))
                    .values(ended=datetime.now(UTC)))
    session.commit()


class Throttle:
    """At most ``limit`` events per key within ``window`` seconds (failed log-ins per e-mail and per
    address, sign-ups per address). Kept in the web process's memory: ``medprobe serve`` runs one."""

    #: keys kept before the stale ones are swept out (many e-mails tried once must not fill the memory)
    SWEEP_AT = 10_000

    def __init__(self, limit: int, window: float) -> None:
        self.limit, self.window = limit, window
        self.events: dict[str, deque[float]] = defaultdict(deque)

    def _recent(self, key: str, now: float) -> deque[float]:
        events = self.events.get(key, deque())
        while events and events[0] <= now - self.window:
            events.popleft()
        return events

    def retry_after(self, *keys: str) -> int:
        """Seconds until another event is allowed for every key (0: now)."""
        now, wait = time.monotonic(), 0.0
        for key in keys:
            events = self._recent(key, now)
            if len(events) >= self.limit:
                wait = max(wait, events[0] + self.window - now)
        return math.ceil(wait)

    def record(self, *keys: str) -> None:
        now = time.monotonic()
        if len(self.events) >= self.SWEEP_AT:
            for key in [k for k in self.events if not self._recent(k, now)]:
                del self.events[key]
        for key in keys:
            self.events[key].append(now)

    def forget(self, key: str) -> None:
        self.events.pop(key, None)


def new_token(session: Session, user: User, name: str) -> str:
    """A new API token for ``user``; the plain token is returned once and never stored."""
    name = name.strip()[:100] or "token"
    plain = TOKEN_PREFIX + secrets.token_urlsafe(32)
    session.add(ApiToken(user_id=user.id, name=name, token_sha256=digest(plain), prefix=plain[:10]))
    session.commit()
    return plain


def revoke_token(session: Session, user: User, token_id: int) -> None:
    token = session.get(ApiToken, token_id)
    if token is None or token.user_id != user.id:
        raise HTTPException(404, "no such token")
    token.revoked = token.revoked or datetime.now(UTC)
    session.commit()


def db(request: Request) -> Iterator[Session]:
    with request.app.state.sessions() as session:
        yield session


def bearer_user(request: Request, session: Annotated[Session, Depends(db)]) -> User | None:
    """The user of a valid ``Authorization: Bearer`` token; a token that is wrong or revoked is 401."""
    header = request.headers.get("authorization", "")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(401, "use Authorization: Bearer TOKEN")
    found = session.scalar(select(ApiToken).where(ApiToken.token_sha256 == digest(token.strip()), ApiToken.revoked.is_(None)))
    if found is None:
        raise HTTPException(401, "unknown or revoked API token")
    return found.user


def cookie_user(request: Request, session: Annotated[Session, Depends(db)]) -> User | None:
    """The user of the browser's session, while it has not ended on the server nor outlived the cookie."""
    sid = request.session.get("sid")
    if not isinstance(sid, str):
        return None
    since = datetime.now(UTC) - timedelta(seconds=SESSION_SECONDS)
    found = session.scalar(select(BrowserSession).where(
        BrowserSession.token_sha256 == digest(sid), BrowserSession.ended.is_(None), BrowserSession.created >= since))
    return found.user if found is not None else None


def viewer(bearer: Annotated[User | None, Depends(bearer_user)], cookie: Annotated[User | None, Depends(cookie_user)]) -> User | None:
    """Who is looking (token or browser session), for reading."""
    return bearer or cookie


def api_user(user: Annotated[User | None, Depends(bearer_user)]) -> User:
    """A token holder, for API calls that change something."""
    if user is None:
        raise HTTPException(401, "an API token is needed (create one on your account page)")
    return user


def api_admin(user: Annotated[User, Depends(api_user)]) -> User:
    if not user.is_admin:
        raise HTTPException(403, "admins only")
    return user


def may_see(user: User | None, submission: Submission) -> bool:
    """Results are private to their owner (and admins) until the owner puts them on the leaderboard,
    and again once an admin hid them; a deleted one nobody sees."""
    if submission.status == DELETED:
        return False
    if user is not None and (user.is_admin or user.id == submission.user_id):
        return True
    return submission.public and submission.status == "done" and not submission.hidden


def may_change(user: User | None, submission: Submission) -> bool:
    return user is not None and (user.is_admin or user.id == submission.user_id) and submission.status != DELETED
