"""Accounts, passwords, API tokens and who may see what.

Passwords are hashed with Argon2id (argon2-cffi). API tokens are random, shown once, and stored
as SHA-256 digests; a revoked token stops working at once. The browser is identified by a signed
session cookie (Starlette's SessionMiddleware); the API by ``Authorization: Bearer TOKEN``.
API requests that change something take the token only, never the cookie, so a page on another
site cannot make a logged-in browser call them (the HTML forms carry CSRF tokens instead).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Annotated

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Depends, HTTPException, Request
from sqlalchemy import select
from sqlalchemy.orm import Session

from medprobe.errors import MedprobeError
from medprobe.platform.models import ApiToken, Submission, User

HASHER = PasswordHasher()
EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,190}$")
MIN_PASSWORD = 10
TOKEN_PREFIX = "mpt_"


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_user(session: Session, email: str, name: str, password: str, organisation: str = "", *, admin: bool = False) -> User:
    email, name, organisation = email.strip().lower(), name.strip(), organisation.strip()
    if not EMAIL.match(email):
        raise MedprobeError("not an e-mail address", field="email")
    if not name or len(name) > 200 or len(organisation) > 200:
        raise MedprobeError("a name of 1-200 characters is needed (organisation: at most 200)", field="name")
    if len(password) < MIN_PASSWORD:
        raise MedprobeError(f"the password needs at least {MIN_PASSWORD} characters", field="password")
    if session.scalar(select(User.id).where(User.email == email)) is not None:
        raise MedprobeError("an account with this e-mail exists already", field="email")
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
    uid = request.session.get("uid")
    return session.get(User, uid) if isinstance(uid, int) else None


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
    """Results are private to their owner (and admins) until the owner puts them on the leaderboard."""
    if user is not None and (user.is_admin or user.id == submission.user_id):
        return True
    return submission.public and submission.status == "done"


def may_change(user: User | None, submission: Submission) -> bool:
    return user is not None and (user.is_admin or user.id == submission.user_id)
