"""Fact notes: what a document's own footnote on a figure says when it restates it
("Retrospectively excluding the impact of discontinued service, ..."); restatement alerts
quote it beside the page the figure is printed on.

One column, empty for rows loaded before this revision (a run with ``force`` reads their
documents again); no view changes.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("facts", sa.Column("note", sa.Text(), nullable=False, server_default=""))


def downgrade() -> None:
    op.execute("ALTER TABLE facts DROP COLUMN note")  # SQLite drops a column in place since 3.35
