"""Views for people reading the warehouse: metric_labels, facts_fiscal, restatements, line_items.

Contract additions (README, "Warehouse"): labels for metric ids, fiscal year and quarter
columns, each restatement with both values and both documents, and statement rows as printed.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

from storage.migrations.frozen_views import VIEWS_0005, VIEWS_0006, create_views, drop_views

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NEW = {name: sql for name, sql in VIEWS_0006.items() if name not in VIEWS_0005}


def upgrade() -> None:
    create_views(op.get_bind(), NEW)


def downgrade() -> None:
    drop_views(op.get_bind(), NEW)
