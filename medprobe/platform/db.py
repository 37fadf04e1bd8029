"""Database URLs, engines, sessions and schema migrations.

One URL names the deployment: ``sqlite:///path/platform.sqlite`` (the offline default) or
``postgresql://user:pass@host/db``. The platform's tables are made and upgraded by Alembic; the
job queue's tables (DBOS) live in the same database and are migrated by DBOS itself.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from medprobe.errors import MedprobeError
from medprobe.platform.models import Instance

MIGRATIONS = Path(__file__).parent / "migrations"


def normalise_url(url: str) -> str:
    """The URL as the queue (DBOS) takes it: ``sqlite:///FILE`` or ``postgresql://…``; a bare path is a SQLite file."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql://" + url.split("://", 1)[1]
    if url.startswith("sqlite:///"):
        return url
    if "://" in url:
        raise MedprobeError(f"unsupported database URL '{url.split('://')[0]}://…'", field="--db",
                            hint="sqlite:///FILE or postgresql://USER:PASSWORD@HOST/DATABASE")
    return f"sqlite:///{Path(url).expanduser().resolve()}"


def make_engine(url: str) -> Engine:
    """An engine for the platform's tables: psycopg 3 for PostgreSQL; for SQLite, WAL journal and a
    busy timeout so the web process and the worker can write the same file."""
    url = normalise_url(url)
    if url.startswith("postgresql://"):
        return create_engine("postgresql+psycopg://" + url.split("://", 1)[1], pool_pre_ping=True)
    Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


def sessions(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


def migrate(engine: Engine, revision: str = "head", *, downgrade: bool = False) -> None:
    """Bring the platform schema to the newest revision (idempotent; run by ``medprobe serve``), or
    up or down to ``revision`` (the migration tests)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if downgrade else command.upgrade)(config, revision)


def instance_secret(session: Session, key: str) -> str:
    """A per-deployment secret (session cookies, CSRF tokens, probe-id keys), made on first use."""
    found = session.scalar(select(Instance).where(Instance.key == key))
    if found is None:
        session.add(Instance(key=key, value=secrets.token_urlsafe(32)))
        try:
            session.commit()
        except IntegrityError:  # another process made it first: use theirs
            session.rollback()
        found = session.scalar(select(Instance).where(Instance.key == key))
    return found.value
