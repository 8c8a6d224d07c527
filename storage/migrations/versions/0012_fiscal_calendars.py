"""Fiscal calendars: issuers.fiscal_year_end ("MMDD", SEC's fiscalYearEnd or the issuers file;
"" until known), and facts_fiscal types fiscal_year / fiscal_quarter by it (52/53-week years:
The Buckle's 13 weeks to 2024-11-02 are fiscal Q3 2024). Issuers without one stay on
December, so QFIN's rows are unchanged.

Plain ADD COLUMN on both databases; only facts_fiscal is rebuilt (no view reads it).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from storage.migrations.frozen_views import VIEWS_0011, VIEWS_0012, create_views, drop_views

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_NEW = {"facts_fiscal": VIEWS_0012["facts_fiscal"]}
_OLD = {"facts_fiscal": VIEWS_0011["facts_fiscal"]}


def upgrade() -> None:
    op.add_column(
        "issuers",
        sa.Column("fiscal_year_end", sa.Text(), nullable=False, server_default=""),
    )
    drop_views(op.get_bind(), _OLD)
    create_views(op.get_bind(), _NEW)


def downgrade() -> None:
    drop_views(op.get_bind(), _NEW)
    # native DROP COLUMN (SQLite 3.35+): a batch rebuild would drop issuers, which documents
    # reference
    op.execute("ALTER TABLE issuers DROP COLUMN fiscal_year_end")
    create_views(op.get_bind(), _OLD)
