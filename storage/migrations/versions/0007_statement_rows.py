"""statement_rows: every statement cell as printed; line_items reads it; three new metrics.

Until now ``line_items`` showed the statement cells a metric mapped (facts of table origin).
This table keeps every cell, mapped or not. Documents loaded before this revision get their
table facts copied in (statement from the metric's, section unknown, one row_index per cell)
so line_items loses nothing; their next load replaces them with what the parsers read.
metric_labels gains cost_of_revenue, gross_profit and total_operating_expenses (the shared
mapping of statement rows to metrics).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from storage.migrations.frozen_views import VIEWS_0006, VIEWS_0007, create_views, drop_views
from storage.types import ExactDecimal, UtcDateTime

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# metric_labels changes too (new metrics): the views reading it are rebuilt with it.
_REBUILT = ("metric_labels", "facts_fiscal", "restatements", "line_items")
_CHANGED = {name: VIEWS_0007[name] for name in _REBUILT}
_OLD = {name: VIEWS_0006[name] for name in _REBUILT}

# Frozen here: the statement of a fact's metric as line_items named it at 0006.
_BACKFILL = """
INSERT INTO statement_rows (document_id, statement, table_title, section, label, row_index,
    period_start, period_end, basis, unit, value, scale, decimals, metric, file, locator,
    row_label, column_label, raw_text, reported_on, loaded_at)
SELECT f.document_id,
       CASE WHEN f.basis = 'ifrs' THEN 'ifrs_reconciliation'
            ELSE CASE m.statement WHEN 'income' THEN 'income_statement'
                 WHEN 'balance' THEN 'balance_sheet' WHEN 'cash_flow' THEN 'cash_flow'
                 WHEN 'non_gaap' THEN 'non_gaap_reconciliation' ELSE 'other' END END,
       '', '', f.row_label,
       ROW_NUMBER() OVER (PARTITION BY f.document_id, f.file, f.locator ORDER BY f.fact_id),
       f.period_start, f.period_end, f.basis, f.unit, f.value, f.scale, f.decimals, f.metric,
       f.file, f.locator, f.row_label, f.column_label, f.raw_text, f.reported_on, f.loaded_at
FROM facts f LEFT JOIN metric_labels m ON m.metric = f.metric
WHERE f.origin = 'table'
"""


def _columns() -> list[sa.Column[object]]:
    provenance = ("file", "locator", "row_label", "column_label", "raw_text")
    return [
        sa.Column("row_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                  autoincrement=True, nullable=False),
        sa.Column("document_id", sa.Text(), nullable=False),
        sa.Column("statement", sa.Text(), nullable=False),
        sa.Column("table_title", sa.Text(), server_default="", nullable=False),
        sa.Column("section", sa.Text(), server_default="", nullable=False),
        sa.Column("label", sa.Text(), nullable=False),
        sa.Column("row_index", sa.Integer(), nullable=False),
        sa.Column("period_start", sa.Date(), nullable=True),
        sa.Column("period_end", sa.Date(), nullable=False),
        sa.Column("basis", sa.Text(), nullable=False),
        sa.Column("unit", sa.Text(), nullable=False),
        sa.Column("value", ExactDecimal(), nullable=False),
        sa.Column("scale", sa.Integer(), nullable=False),
        sa.Column("decimals", sa.Integer(), nullable=False),
        sa.Column("metric", sa.Text(), nullable=True),
        *(sa.Column(c, sa.Text(), server_default="", nullable=False) for c in provenance),
        sa.Column("reported_on", sa.Date(), nullable=False),
        sa.Column("loaded_at", UtcDateTime(), nullable=False),
    ]  # fmt: skip


def upgrade() -> None:
    op.create_table(
        "statement_rows",
        *_columns(),
        sa.ForeignKeyConstraint(["document_id"], ["documents.document_id"], ondelete="CASCADE",
                                name=op.f("fk_statement_rows_document_id_documents")),
        sa.PrimaryKeyConstraint("row_id", name=op.f("pk_statement_rows")),
    )  # fmt: skip
    op.create_index(
        "uq_statement_rows_identity",
        "statement_rows",
        ["document_id", "file", "locator", "row_index", "column_label",
         sa.text("coalesce(period_start, '0001-01-01')"), "period_end", "basis"],
        unique=True,
    )  # fmt: skip
    op.create_index("ix_statement_rows_metric_period", "statement_rows", ["metric", "period_end"])
    op.get_bind().exec_driver_sql(_BACKFILL)
    drop_views(op.get_bind(), _OLD)
    create_views(op.get_bind(), _CHANGED)


def downgrade() -> None:
    drop_views(op.get_bind(), _CHANGED)
    op.drop_index("ix_statement_rows_metric_period", table_name="statement_rows")
    op.drop_index("uq_statement_rows_identity", table_name="statement_rows")
    op.drop_table("statement_rows")
    create_views(op.get_bind(), _OLD)
