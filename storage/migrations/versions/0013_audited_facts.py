"""Audited second witness: accuracy_measures, and the views audited_vs_reported and
extraction_accuracy (SEC XBRL company facts against the releases).

XBRL figures are facts like any other (origin ``xbrl``, one document per filing), so no
existing table changes; only a new table and two new views.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from storage.migrations.frozen_views import VIEWS_0013, create_views, drop_views
from storage.types import UtcDateTime

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_NEW = {name: VIEWS_0013[name] for name in ("audited_vs_reported", "extraction_accuracy")}


def upgrade() -> None:
    op.create_table(
        "accuracy_measures",
        sa.Column("measure_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                  autoincrement=True, nullable=False),
        sa.Column("issuer", sa.Text(), nullable=False),
        sa.Column("statement", sa.Text(), nullable=False),
        sa.Column("periods", sa.Integer(), nullable=False),
        sa.Column("compared", sa.Integer(), nullable=False),
        sa.Column("matched", sa.Integer(), nullable=False),
        sa.Column("measured_at", UtcDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("measure_id", name=op.f("pk_accuracy_measures")),
    )  # fmt: skip
    op.create_index(
        "ix_accuracy_measures_issuer_statement", "accuracy_measures", ["issuer", "statement"]
    )
    create_views(op.get_bind(), _NEW)


def downgrade() -> None:
    drop_views(op.get_bind(), _NEW)
    op.drop_index("ix_accuracy_measures_issuer_statement", table_name="accuracy_measures")
    op.drop_table("accuracy_measures")
