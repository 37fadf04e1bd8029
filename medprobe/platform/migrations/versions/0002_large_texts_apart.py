"""A benchmark's probes and pack, and a submission's answers, move to tables of their own: SQLite
reads every column stored after a large text by walking its overflow pages, so with a release-sized
benchmark (about 100 MB in the row) each page that showed a benchmark took 30-60 ms.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None

#: (new table, its key, the table the texts leave, their columns)
MOVES = (
    ("benchmark_texts", "benchmark_id", "benchmarks", ("probes_jsonl", "pack_jsonl")),
    ("submission_answers", "submission_id", "submissions", ("answers_jsonl",)),
)


def upgrade() -> None:
    for table, key, source, columns in MOVES:
        op.create_table(table, sa.Column(key, sa.Integer(), sa.ForeignKey(f"{source}.id"), primary_key=True),
                        *(sa.Column(c, sa.Text(), nullable=False) for c in columns))
        op.execute(f"INSERT INTO {table} ({key}, {', '.join(columns)}) SELECT id, {', '.join(columns)} FROM {source}")
        for column in columns:  # plain SQL: SQLite (3.35+) and PostgreSQL drop a column alike, without copying the table
            op.execute(f"ALTER TABLE {source} DROP COLUMN {column}")


def downgrade() -> None:
    for table, key, source, columns in MOVES:
        for column in columns:
            op.add_column(source, sa.Column(column, sa.Text(), nullable=False, server_default=""))
            op.execute(f"UPDATE {source} SET {column} = COALESCE((SELECT {column} FROM {table} WHERE {table}.{key} = {source}.id), '')")
        op.drop_table(table)
