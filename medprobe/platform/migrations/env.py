"""Alembic environment: run the migrations on the connection ``medprobe.platform.db.migrate`` hands over."""

from __future__ import annotations

from alembic import context

from medprobe.platform.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
