"""Crash bookkeeping: which process a run is (so the next run can mark a killed one
``crashed``), and which process is sending an alert on a channel (a claim committed before the
send, so a rerun knows a send may have happened and never repeats it).

Plain ADD COLUMN on both databases: no table is rebuilt, no view is touched.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from storage.migrations.frozen_views import VIEWS_0007, create_views, drop_views
from storage.types import UtcDateTime

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("runs", sa.Column("worker", sa.Text(), nullable=True))
    op.add_column("alert_deliveries", sa.Column("claimed_by", sa.Text(), nullable=True))
    op.add_column("alert_deliveries", sa.Column("claimed_at", UtcDateTime(), nullable=True))
    op.add_column(
        "alert_deliveries",
        sa.Column("in_doubt", sa.Boolean(), nullable=False, server_default=sa.text("false")),
    )


def downgrade() -> None:
    # SQLite rebuilds alert_deliveries to drop columns: the views go first.
    drop_views(op.get_bind(), VIEWS_0007)
    with op.batch_alter_table("alert_deliveries") as batch:
        for name in ("in_doubt", "claimed_at", "claimed_by"):
            batch.drop_column(name)
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("worker")
    create_views(op.get_bind(), VIEWS_0007)
