"""Alembic migrations of the platform schema (``medprobe.platform.db.migrate`` runs them)."""
