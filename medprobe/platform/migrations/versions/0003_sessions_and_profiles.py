"""Browser sessions kept on the server, so that logging out (or a password change or reset) ends a
session even where a copy of its cookie survives; knowledge profiles stored once computed, so a
model page is read, not recomputed (seconds of CPU), at every view; and moderation: an admin hides
a submission, unpublishes a benchmark, approves a participant's request for a run; and a model's size, licence and link on the leaderboards.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None
#: what a participant may tell about the model, for the leaderboards
MODEL_INFO = (('model_size', 40), ('licence', 80), ('link', 500))


def upgrade() -> None:
    op.create_table('browser_sessions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('token_sha256', sa.String(length=64), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.Column('ended', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('token_sha256')
    )
    op.add_column('submissions', sa.Column('hidden', sa.Boolean(), nullable=False, server_default=sa.false()))
    for column, length in MODEL_INFO:
        op.add_column('submissions', sa.Column(column, sa.String(length=length), nullable=False, server_default=''))
    op.add_column('benchmarks', sa.Column('published', sa.Boolean(), nullable=False, server_default=sa.true()))
    op.create_table('run_requests',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('benchmark_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('model_name', sa.String(length=200), nullable=False),
    sa.Column('note', sa.Text(), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('submission_id', sa.Integer(), nullable=True),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['benchmark_id'], ['benchmarks.id'], ),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ),
    sa.ForeignKeyConstraint(['submission_id'], ['submissions.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('stored_profiles',
    sa.Column('key', sa.String(length=64), nullable=False),
    sa.Column('profile_json', sa.Text(), nullable=False),
    sa.Column('created', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('key')
    )


def downgrade() -> None:
    op.drop_table('stored_profiles')
    op.drop_table('run_requests')
    op.drop_column('benchmarks', 'published')
    op.drop_column('submissions', 'hidden')
    for column, _ in MODEL_INFO:
        op.drop_column('submissions', column)
    op.drop_table('browser_sessions')
