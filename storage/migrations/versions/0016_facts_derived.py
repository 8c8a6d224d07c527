"""The facts_derived view (contract): the quarters and halves the published figures imply
(H1 - Q2 = Q1, FY - 9M = Q4, FY - H1 = H2), each with the two figures it comes from and
whether facts_latest holds that period itself (missing, agrees, differs).

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

from storage.migrations.frozen_views import VIEWS_0016, create_views, drop_views

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_NEW = {"facts_derived": VIEWS_0016["facts_derived"]}


def upgrade() -> None:
    create_views(op.get_bind(), _NEW)


def downgrade() -> None:
    drop_views(op.get_bind(), _NEW)
