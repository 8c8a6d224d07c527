"""Views: add guidance_history (view SQL now frozen per revision); drop a redundant index.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

from storage.migrations.frozen_views import VIEWS_0001, VIEWS_0003, create_views, drop_views

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    drop_views(op.get_bind(), VIEWS_0001)
    create_views(op.get_bind(), VIEWS_0003)
    # uq_facts_identity starts with document_id: this index only slowed every fact insert.
    op.drop_index("ix_facts_document_id", table_name="facts")


def downgrade() -> None:
    op.create_index("ix_facts_document_id", "facts", ["document_id"], unique=False)
    drop_views(op.get_bind(), VIEWS_0003)
    create_views(op.get_bind(), VIEWS_0001)
