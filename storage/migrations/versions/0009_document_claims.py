"""Document claims: which worker processes a document now, so racing workers never both do.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from storage.types import UtcDateTime

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "document_claims",
        sa.Column("document_id", sa.Text(), nullable=False),
        sa.Column("worker", sa.Text(), nullable=False),
        sa.Column("claimed_at", UtcDateTime(), nullable=False),
        sa.Column("expires_at", UtcDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["document_id"],
            ["documents.document_id"],
            ondelete="CASCADE",
            name=op.f("fk_document_claims_document_id_documents"),
        ),
        sa.PrimaryKeyConstraint("document_id", name=op.f("pk_document_claims")),
    )


def downgrade() -> None:
    op.drop_table("document_claims")
