"""Dividends: the date ADS holders are paid (a few days after the ordinary shares).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMN on both databases; no view reads dividends.
    op.add_column("dividends", sa.Column("ads_payment_date", sa.Date(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("dividends") as batch:  # SQLite rebuilds the table
        batch.drop_column("ads_payment_date")
