"""The dividends view (contract): every dividend a published document declares, one row per
declaration and document (a 6-K and its HKEx form both appear). The table it reads, until now
named ``dividends``, becomes ``dividend_declarations`` (rows, keys and index kept).

Also: metric_labels gains ``issuer`` (per issuer its own wording and unit; the catalog's rows
without notes to its readers), facts_fiscal and extraction_accuracy join it by issuer, and
restatements leaves out audited XBRL figures (audited_vs_reported compares them).

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

from storage.migrations.frozen_views import VIEWS_0014, VIEWS_0015, create_views, drop_views

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Rebuilt in creation order (each reads the ones before it); dropped dependants first.
_REBUILT = ("metric_labels", "facts_fiscal", "restatements", "extraction_accuracy")
_OLD = {name: VIEWS_0014[name] for name in _REBUILT}
_NEW = {name: VIEWS_0015[name] for name in (*_REBUILT, "dividends")}


def _rename(old: str, new: str) -> None:
    op.rename_table(old, new)
    op.drop_index(f"ix_{old}_document_id", table_name=new)
    op.create_index(f"ix_{new}_document_id", new, ["document_id"])
    if op.get_bind().dialect.name == "postgresql":  # SQLite keeps the names in its table text
        op.execute(f"ALTER TABLE {new} RENAME CONSTRAINT pk_{old} TO pk_{new}")
        op.execute(
            f"ALTER TABLE {new} RENAME CONSTRAINT fk_{old}_document_id_documents "
            f"TO fk_{new}_document_id_documents"
        )


def upgrade() -> None:
    drop_views(op.get_bind(), _OLD)
    _rename("dividends", "dividend_declarations")
    create_views(op.get_bind(), _NEW)


def downgrade() -> None:
    drop_views(op.get_bind(), _NEW)
    _rename("dividend_declarations", "dividends")
    create_views(op.get_bind(), _OLD)
