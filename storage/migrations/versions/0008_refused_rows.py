"""Refused and unmapped statement rows, with locator, label and reason (issue #13).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from storage.types import UtcDateTime

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # a new table only: no view reads it, nothing to backfill (rows appear at the next load)
    op.create_table(
        "refused_rows",
        sa.Column("refusal_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                  autoincrement=True, nullable=False),
        sa.Column("document_id", sa.Text(), nullable=False),
        sa.Column("kind", sa.Text(), nullable=False),
        sa.Column("statement", sa.Text(), server_default="", nullable=False),
        sa.Column("table_title", sa.Text(), server_default="", nullable=False),
        sa.Column("locator", sa.Text(), nullable=False),
        sa.Column("row_label", sa.Text(), server_default="", nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("recorded_at", UtcDateTime(), nullable=False),
        sa.CheckConstraint("kind IN ('refused', 'unmapped')", name=op.f("ck_refused_rows_kind")),
        sa.ForeignKeyConstraint(["document_id"], ["documents.document_id"], ondelete="CASCADE",
                                name=op.f("fk_refused_rows_document_id_documents")),
        sa.PrimaryKeyConstraint("refusal_id", name=op.f("pk_refused_rows")),
    )  # fmt: skip
    op.create_index(op.f("ix_refused_rows_document_id"), "refused_rows", ["document_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_refused_rows_document_id"), table_name="refused_rows")
    op.drop_table("refused_rows")
