"""facts_latest and facts_fiscal show each figure's origin (statement, narrative, form) and its
printed precision (decimals); a statement figure wins over a narrative one of the same period;
guidance_vs_actual names the origin of the actual it compared (actual_origin).

Views only: no table changes. facts_latest, facts_fiscal and guidance_vs_actual are rebuilt
(with the views that read them).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

from storage.migrations.frozen_views import VIEWS_0007, VIEWS_0011, create_views, drop_views

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    drop_views(op.get_bind(), VIEWS_0007)
    create_views(op.get_bind(), VIEWS_0011)


def downgrade() -> None:
    drop_views(op.get_bind(), VIEWS_0011)
    create_views(op.get_bind(), VIEWS_0007)
