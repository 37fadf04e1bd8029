"""The platform's tables (SQLAlchemy 2 typed ORM); the schema itself is made by the Alembic
migrations in ``medprobe/platform/migrations`` so SQLite and PostgreSQL deployments stay alike."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.ext.associationproxy import AssociationProxy, association_proxy
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, datetime: DateTime(timezone=True)}


class Instance(Base):
    """Per-deployment secrets, made on first start and shared by every web process and worker."""

    __tablename__ = "instance"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class User(Base):
    __tablename__ = "users"
    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    organisation: Mapped[str] = mapped_column(String(200), default="")
    password_hash: Mapped[str] = mapped_column(String(200))
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[datetime] = mapped_column(default=utcnow)


class ApiToken(Base):
    """An API token; only its SHA-256 is stored, so a database dump reveals no usable token."""

    __tablename__ = "api_tokens"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    name: Mapped[str] = mapped_column(String(100))
    token_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(String(16))
    created: Mapped[datetime] = mapped_column(default=utcnow)
    revoked: Mapped[datetime | None] = mapped_column(default=None)
    user: Mapped[User] = relationship()


class BrowserSession(Base):
    """A logged-in browser. The cookie holds a random token and only its SHA-256 is stored; logging
    out ends the row, so a copied cookie stops working with it."""

    __tablename__ = "browser_sessions"
    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    token_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    created: Mapped[datetime] = mapped_column(default=utcnow)
    ended: Mapped[datetime | None] = mapped_column(default=None)
    user: Mapped[User] = relationship()


class StoredProfile(Base):
    """A computed knowledge profile, keyed by the submissions it joins: a new submission makes a new
    key, so a stored profile never goes stale. Stored as JSON text (Python's, which keeps a NaN that
    PostgreSQL's JSON type would refuse)."""

    __tablename__ = "stored_profiles"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    profile_json: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(default=utcnow)


class BenchmarkTexts(Base):
    """A benchmark's two large texts, in a table of their own: a release-sized benchmark holds about
    50 MB in each, and most pages need neither (in the benchmark's own row, SQLite walks past them
    to read any column stored after them)."""

    __tablename__ = "benchmark_texts"
    benchmark_id: Mapped[int] = mapped_column(ForeignKey("benchmarks.id"), primary_key=True)
    probes_jsonl: Mapped[str] = mapped_column(Text)
    pack_jsonl: Mapped[str] = mapped_column(Text)


class SubmissionAnswers(Base):
    """A submission's answers (about 0.5 MB for a full MultifacetEval submission), apart for the same reason."""

    __tablename__ = "submission_answers"
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id"), primary_key=True)
    answers_jsonl: Mapped[str] = mapped_column(Text)


class Benchmark(Base):
    """A published probe set. ``probes_jsonl`` holds the engine's probes with their gold answers and
    never leaves the server; ``pack_jsonl`` is what participants download (both in ``BenchmarkTexts``)."""

    __tablename__ = "benchmarks"
    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(80), unique=True)
    title: Mapped[str] = mapped_column(String(200))
    method: Mapped[str] = mapped_column(String(40))
    data: Mapped[str] = mapped_column(String(500))
    seed: Mapped[int] = mapped_column(Integer, default=0)
    size: Mapped[int | None] = mapped_column(Integer, default=None)
    setting: Mapped[str | None] = mapped_column(String(40), default=None)
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    probes: Mapped[int] = mapped_column(Integer, default=0)
    samples: Mapped[int] = mapped_column(Integer, default=1)
    generation: Mapped[dict[str, Any]] = mapped_column(default=dict)
    build_info: Mapped[dict[str, Any]] = mapped_column(default=dict)
    id_key: Mapped[str] = mapped_column(String(64))
    #: False once an admin unpublished it: participants no longer see it, its pack or its leaderboard
    published: Mapped[bool] = mapped_column(Boolean, default=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), default=None)
    created: Mapped[datetime] = mapped_column(default=utcnow)
    texts: Mapped[BenchmarkTexts] = relationship()
    probes_jsonl: AssociationProxy[str] = association_proxy("texts", "probes_jsonl")
    pack_jsonl: AssociationProxy[str] = association_proxy("texts", "pack_jsonl")


#: the status of a submission an admin deleted (``submissions.delete_submission``)
DELETED = "deleted"


class Submission(Base):
    """One set of answers to a benchmark, and its scoring status: queued -> scoring -> done | failed
    (or deleted, by an admin)."""

    __tablename__ = "submissions"
    __table_args__ = (UniqueConstraint("benchmark_id", "user_id", "answers_sha256", name="uq_submission_answers"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    benchmark_id: Mapped[int] = mapped_column(ForeignKey("benchmarks.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    model_name: Mapped[str] = mapped_column(String(200))
    organisation: Mapped[str] = mapped_column(String(200), default="")
    #: "upload" (answers sent by the participant) or "endpoint:NAME" (admin's run for me)
    source: Mapped[str] = mapped_column(String(120), default="upload")
    #: how the answers were produced, for the leaderboard's comparability columns: the pack's prompts
    #: as chat turns ("chat") or plain text ("completion"), or the participant's own prompts ("own")
    prompt_style: Mapped[str] = mapped_column(String(20), default="chat")
    answers_sha256: Mapped[str] = mapped_column(String(64))
    answers: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(20), default="queued")
    error: Mapped[str | None] = mapped_column(Text, default=None)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    #: what the participant told about the model (free text, a size like "7B", a licence, an http(s) link)
    model_size: Mapped[str] = mapped_column(String(40), default="")
    licence: Mapped[str] = mapped_column(String(80), default="")
    link: Mapped[str] = mapped_column(String(500), default="")
    #: an admin hid it: off the leaderboard and the model pages; only its owner and admins see it
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    headline: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    created: Mapped[datetime] = mapped_column(default=utcnow)
    started: Mapped[datetime | None] = mapped_column(default=None)
    finished: Mapped[datetime | None] = mapped_column(default=None)
    benchmark: Mapped[Benchmark] = relationship()
    user: Mapped[User] = relationship()
    stored_answers: Mapped[SubmissionAnswers | None] = relationship()
    answers_jsonl: AssociationProxy[str] = association_proxy(
        "stored_answers", "answers_jsonl", creator=lambda text: SubmissionAnswers(answers_jsonl=text))


class RunRequest(Base):
    """A participant's request that the platform run a model on a benchmark. The participant names the
    model in words only; an admin approves it by choosing one of the registered endpoints (so the server
    never asks an address a participant chose), or declines it: pending -> approved | declined."""

    __tablename__ = "run_requests"
    id: Mapped[int] = mapped_column(primary_key=True)
    benchmark_id: Mapped[int] = mapped_column(ForeignKey("benchmarks.id"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    model_name: Mapped[str] = mapped_column(String(200))
    note: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[str] = mapped_column(String(20), default="pending")
    submission_id: Mapped[int | None] = mapped_column(ForeignKey("submissions.id"), default=None)
    created: Mapped[datetime] = mapped_column(default=utcnow)
    benchmark: Mapped[Benchmark] = relationship()
    user: Mapped[User] = relationship()


class ResultFile(Base):
    """A file of a scored submission's run directory. ``private`` files (per-item scores, which
    together with one's own answers reveal the gold) are kept for the server's own statistics."""

    __tablename__ = "result_files"
    submission_id: Mapped[int] = mapped_column(ForeignKey("submissions.id"), primary_key=True)
    name: Mapped[str] = mapped_column(String(100), primary_key=True)
    content: Mapped[str] = mapped_column(Text)
    private: Mapped[bool] = mapped_column(Boolean, default=False)


class Endpoint(Base):
    """An OpenAI-compatible endpoint an admin registered for "run for me"."""

    __tablename__ = "endpoints"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    model: Mapped[str] = mapped_column(String(500))
    key_env: Mapped[str | None] = mapped_column(String(80), default=None)
    created_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created: Mapped[datetime] = mapped_column(default=utcnow)
