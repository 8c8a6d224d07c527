"""Proofs: each fact and statement row records how its document proves it (``proved_by``:
the identity that held, its row's arithmetic, or a witness); facts_latest, facts_history and
line_items show it. metric_labels lists the metrics the identities need.

Two nullable columns (rows loaded before this revision have none) and the views rebuilt.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from storage.migrations.frozen_views import VIEWS_0013, VIEWS_0014, create_views, drop_views

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TABLES = ("facts", "statement_rows")


def upgrade() -> None:
    drop_views(op.get_bind(), VIEWS_0013)
    for table in _TABLES:
        op.add_column(table, sa.Column("proved_by", sa.Text(), nullable=True))
    create_views(op.get_bind(), VIEWS_0014)


def downgrade() -> None:
    drop_views(op.get_bind(), VIEWS_0014)
    for table in _TABLES:  # SQLite drops a column in place since 3.35 (its indexes kept)
        op.execute(f"ALTER TABLE {table} DROP COLUMN proved_by")
    create_views(op.get_bind(), VIEWS_0013)
