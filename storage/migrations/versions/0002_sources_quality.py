"""Source state, HTTP cache, quarantine releases; document categories and disclosure links.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from storage.types import UtcDateTime
from storage.migrations.frozen_views import VIEWS_0001, create_views, drop_views

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_DOCUMENT_COLUMNS = (
    sa.Column("category", sa.Text(), server_default="", nullable=False),
    sa.Column("is_cancelled", sa.Boolean(), server_default=sa.text("false"), nullable=False),
    sa.Column("headline_revised", sa.Boolean(), server_default=sa.text("false"), nullable=False),
    sa.Column("amends_document_id", sa.Text(), nullable=True),
    sa.Column("disclosure_id", sa.Text(), nullable=True),
)


def upgrade() -> None:
    # Plain ADD COLUMN on both databases: a SQLite batch rebuild would break the views that
    # read these tables.
    for column in _DOCUMENT_COLUMNS:
        op.add_column("documents", column.copy())
    op.create_index("ix_documents_disclosure_id", "documents", ["disclosure_id"])
    op.add_column(
        "alert_events", sa.Column("details", sa.Text(), server_default="{}", nullable=False)
    )
    op.create_table(
        "source_state",
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("scope", sa.Text(), nullable=False),
        sa.Column("paused_until", UtcDateTime(), nullable=True),
        sa.Column("pause_reason", sa.Text(), server_default="", nullable=False),
        sa.Column("cursor", sa.Text(), server_default="", nullable=False),
        sa.Column("last_success_at", UtcDateTime(), nullable=True),
        sa.Column("updated_at", UtcDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("source", "scope", name=op.f("pk_source_state")),
    )
    op.create_table(
        "http_cache",
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("etag", sa.Text(), server_default="", nullable=False),
        sa.Column("last_modified", sa.Text(), server_default="", nullable=False),
        sa.Column("sha256", sa.Text(), nullable=False),
        sa.Column("fetched_at", UtcDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("url", name=op.f("pk_http_cache")),
    )
    op.create_table(
        "releases",
        sa.Column("release_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                  autoincrement=True, nullable=False),
        sa.Column("document_id", sa.Text(), nullable=False),
        sa.Column("released_by", sa.Text(), nullable=False),
        sa.Column("released_at", UtcDateTime(), nullable=False),
        sa.Column("reason", sa.Text(), server_default="", nullable=False),
        sa.ForeignKeyConstraint(["document_id"], ["documents.document_id"], ondelete="CASCADE",
                                name=op.f("fk_releases_document_id_documents")),
        sa.PrimaryKeyConstraint("release_id", name=op.f("pk_releases")),
    )
    op.create_index(op.f("ix_releases_document_id"), "releases", ["document_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_releases_document_id"), table_name="releases")
    op.drop_table("releases")
    op.drop_table("http_cache")
    op.drop_table("source_state")
    # SQLite rebuilds tables to drop columns; views over them must be out of the way.
    drop_views(op.get_bind(), VIEWS_0001)
    with op.batch_alter_table("alert_events") as batch:
        batch.drop_column("details")
    op.drop_index("ix_documents_disclosure_id", table_name="documents")
    with op.batch_alter_table("documents") as batch:
        for column in reversed(_DOCUMENT_COLUMNS):
            batch.drop_column(column.name)
    create_views(op.get_bind(), VIEWS_0001)
