"""Views: on SQLite, facts_latest compares the gap between two figures rounded to the stored scale.

SQLite subtracts decimal text in binary floating point, so a figure exactly half a unit from the
value it re-quotes (8.1 against 8.15) could count as a restatement there and not on PostgreSQL.
PostgreSQL gets the same views again.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

from storage.migrations.frozen_views import VIEWS_0003, VIEWS_0005, create_views, drop_views

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    drop_views(op.get_bind(), VIEWS_0003)
    create_views(op.get_bind(), VIEWS_0005)


def downgrade() -> None:
    drop_views(op.get_bind(), VIEWS_0005)
    create_views(op.get_bind(), VIEWS_0003)
