"""Initial schema: the whole warehouse (tables, indexes) and the contract's views.

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from storage.types import ExactDecimal, UtcDateTime
from storage.migrations.frozen_views import VIEWS_0001, create_views, drop_views


revision: str = '0001'
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('issuers',
    sa.Column('ticker', sa.Text(), nullable=False),
    sa.Column('name', sa.Text(), nullable=False),
    sa.Column('cik', sa.Text(), nullable=False),
    sa.Column('hkex_code', sa.Text(), nullable=False),
    sa.PrimaryKeyConstraint('ticker', name=op.f('pk_issuers'))
    )
    op.create_table('runs',
    sa.Column('run_id', sa.Text(), nullable=False),
    sa.Column('flow_run_id', sa.Text(), nullable=True),
    sa.Column('started_at', UtcDateTime(), nullable=False),
    sa.Column('finished_at', UtcDateTime(), nullable=True),
    sa.Column('status', sa.Text(), nullable=False),
    sa.Column('summary', sa.Text(), server_default='{}', nullable=False),
    sa.PrimaryKeyConstraint('run_id', name=op.f('pk_runs'))
    )
    op.create_table('documents',
    sa.Column('document_id', sa.Text(), nullable=False),
    sa.Column('source', sa.Text(), nullable=False),
    sa.Column('source_id', sa.Text(), nullable=False),
    sa.Column('issuer', sa.Text(), nullable=False),
    sa.Column('form', sa.Text(), nullable=False),
    sa.Column('title', sa.Text(), nullable=False),
    sa.Column('published_at', UtcDateTime(), nullable=False),
    sa.Column('published_on', sa.Date(), nullable=False),
    sa.Column('url', sa.Text(), nullable=False),
    sa.Column('kind', sa.Text(), nullable=True),
    sa.Column('status', sa.Text(), nullable=False),
    sa.Column('status_reason', sa.Text(), server_default='', nullable=False),
    sa.Column('first_seen_at', UtcDateTime(), nullable=False),
    sa.Column('updated_at', UtcDateTime(), nullable=False),
    sa.CheckConstraint("status IN ('fetched', 'extracted', 'validated', 'loaded', 'quarantined', 'failed')", name=op.f('ck_documents_status')),
    sa.ForeignKeyConstraint(['issuer'], ['issuers.ticker'], name=op.f('fk_documents_issuer_issuers')),
    sa.PrimaryKeyConstraint('document_id', name=op.f('pk_documents')),
    sa.UniqueConstraint('source', 'source_id', name=op.f('uq_documents_source'))
    )
    op.create_index('ix_documents_issuer_source', 'documents', ['issuer', 'source'], unique=False)
    op.create_index('ix_documents_status', 'documents', ['status'], unique=False)

    op.create_table('alert_events',
    sa.Column('alert_id', sa.Text(), nullable=False),
    sa.Column('kind', sa.Text(), nullable=False),
    sa.Column('issuer', sa.Text(), nullable=False),
    sa.Column('subject', sa.Text(), nullable=False),
    sa.Column('message', sa.Text(), nullable=False),
    sa.Column('dedup_key', sa.Text(), nullable=False),
    sa.Column('document_id', sa.Text(), nullable=True),
    sa.Column('created_at', UtcDateTime(), nullable=False),
    sa.CheckConstraint("kind IN ('data_quality', 'guidance_variance', 'restatement', 'pipeline_failure')", name=op.f('ck_alert_events_kind')),
    sa.ForeignKeyConstraint(['document_id'], ['documents.document_id'], name=op.f('fk_alert_events_document_id_documents'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('alert_id', name=op.f('pk_alert_events')),
    sa.UniqueConstraint('dedup_key', name=op.f('uq_alert_events_dedup_key'))
    )
    op.create_index(op.f('ix_alert_events_document_id'), 'alert_events', ['document_id'], unique=False)

    op.create_table('dividends',
    sa.Column('dividend_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('document_id', sa.Text(), nullable=False),
    sa.Column('currency', sa.Text(), nullable=False),
    sa.Column('per_share', ExactDecimal(), nullable=True),
    sa.Column('per_ads', ExactDecimal(), nullable=True),
    sa.Column('period_start', sa.Date(), nullable=True),
    sa.Column('period_end', sa.Date(), nullable=True),
    sa.Column('record_date', sa.Date(), nullable=True),
    sa.Column('ex_date', sa.Date(), nullable=True),
    sa.Column('payment_date', sa.Date(), nullable=True),
    sa.Column('file', sa.Text(), server_default='', nullable=False),
    sa.Column('locator', sa.Text(), server_default='', nullable=False),
    sa.Column('row_label', sa.Text(), server_default='', nullable=False),
    sa.Column('column_label', sa.Text(), server_default='', nullable=False),
    sa.Column('raw_text', sa.Text(), server_default='', nullable=False),
    sa.Column('loaded_at', UtcDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['document_id'], ['documents.document_id'], name=op.f('fk_dividends_document_id_documents'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('dividend_id', name=op.f('pk_dividends'))
    )
    op.create_index(op.f('ix_dividends_document_id'), 'dividends', ['document_id'], unique=False)

    op.create_table('document_files',
    sa.Column('document_id', sa.Text(), nullable=False),
    sa.Column('name', sa.Text(), nullable=False),
    sa.Column('url', sa.Text(), nullable=False),
    sa.Column('sha256', sa.Text(), nullable=False),
    sa.Column('size', sa.BigInteger(), nullable=False),
    sa.Column('doc_type', sa.Text(), nullable=False),
    sa.Column('fetched_at', UtcDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['document_id'], ['documents.document_id'], name=op.f('fk_document_files_document_id_documents'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('document_id', 'name', name=op.f('pk_document_files'))
    )
    op.create_table('facts',
    sa.Column('fact_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('document_id', sa.Text(), nullable=False),
    sa.Column('metric', sa.Text(), nullable=False),
    sa.Column('period_start', sa.Date(), nullable=True),
    sa.Column('period_end', sa.Date(), nullable=False),
    sa.Column('basis', sa.Text(), nullable=False),
    sa.Column('value', ExactDecimal(), nullable=False),
    sa.Column('unit', sa.Text(), nullable=False),
    sa.Column('scale', sa.Integer(), nullable=False),
    sa.Column('decimals', sa.Integer(), nullable=False),
    sa.Column('origin', sa.Text(), nullable=False),
    sa.Column('file', sa.Text(), server_default='', nullable=False),
    sa.Column('locator', sa.Text(), server_default='', nullable=False),
    sa.Column('row_label', sa.Text(), server_default='', nullable=False),
    sa.Column('column_label', sa.Text(), server_default='', nullable=False),
    sa.Column('raw_text', sa.Text(), server_default='', nullable=False),
    sa.Column('flags', sa.Text(), server_default='[]', nullable=False),
    sa.Column('reported_on', sa.Date(), nullable=False),
    sa.Column('loaded_at', UtcDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['document_id'], ['documents.document_id'], name=op.f('fk_facts_document_id_documents'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('fact_id', name=op.f('pk_facts'))
    )
    op.create_index(op.f('ix_facts_document_id'), 'facts', ['document_id'], unique=False)
    op.create_index('ix_facts_metric_period', 'facts', ['metric', 'period_end'], unique=False)

    op.create_table('guidance',
    sa.Column('guidance_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('document_id', sa.Text(), nullable=False),
    sa.Column('metric', sa.Text(), nullable=False),
    sa.Column('period_start', sa.Date(), nullable=False),
    sa.Column('period_end', sa.Date(), nullable=False),
    sa.Column('low', ExactDecimal(), nullable=True),
    sa.Column('high', ExactDecimal(), nullable=True),
    sa.Column('unit', sa.Text(), nullable=False),
    sa.Column('issued_on', sa.Date(), nullable=False),
    sa.Column('growth_low_pct', ExactDecimal(), nullable=True),
    sa.Column('growth_high_pct', ExactDecimal(), nullable=True),
    sa.Column('is_numeric', sa.Boolean(), nullable=False),
    sa.Column('file', sa.Text(), server_default='', nullable=False),
    sa.Column('locator', sa.Text(), server_default='', nullable=False),
    sa.Column('row_label', sa.Text(), server_default='', nullable=False),
    sa.Column('column_label', sa.Text(), server_default='', nullable=False),
    sa.Column('raw_text', sa.Text(), server_default='', nullable=False),
    sa.Column('loaded_at', UtcDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['document_id'], ['documents.document_id'], name=op.f('fk_guidance_document_id_documents'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('guidance_id', name=op.f('pk_guidance')),
    sa.UniqueConstraint('document_id', 'metric', 'period_start', 'period_end', name=op.f('uq_guidance_document_id'))
    )
    op.create_index(op.f('ix_guidance_document_id'), 'guidance', ['document_id'], unique=False)

    op.create_table('validation_results',
    sa.Column('result_id', sa.BigInteger().with_variant(sa.Integer(), 'sqlite'), autoincrement=True, nullable=False),
    sa.Column('document_id', sa.Text(), nullable=False),
    sa.Column('suite', sa.Text(), nullable=False),
    sa.Column('expectation', sa.Text(), nullable=False),
    sa.Column('success', sa.Boolean(), nullable=False),
    sa.Column('severity', sa.Text(), nullable=False),
    sa.Column('observed', sa.Text(), server_default='', nullable=False),
    sa.Column('details', sa.Text(), server_default='', nullable=False),
    sa.Column('run_id', sa.Text(), nullable=True),
    sa.Column('validated_at', UtcDateTime(), nullable=False),
    sa.ForeignKeyConstraint(['document_id'], ['documents.document_id'], name=op.f('fk_validation_results_document_id_documents'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('result_id', name=op.f('pk_validation_results'))
    )
    op.create_index(op.f('ix_validation_results_document_id'), 'validation_results', ['document_id'], unique=False)

    op.create_table('alert_deliveries',
    sa.Column('alert_id', sa.Text(), nullable=False),
    sa.Column('channel', sa.Text(), nullable=False),
    sa.Column('status', sa.Text(), nullable=False),
    sa.Column('attempts', sa.Integer(), server_default='0', nullable=False),
    sa.Column('last_error', sa.Text(), server_default='', nullable=False),
    sa.Column('delivered_at', UtcDateTime(), nullable=True),
    sa.CheckConstraint("status IN ('pending', 'delivered', 'failed')", name=op.f('ck_alert_deliveries_status')),
    sa.ForeignKeyConstraint(['alert_id'], ['alert_events.alert_id'], name=op.f('fk_alert_deliveries_alert_id_alert_events'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('alert_id', 'channel', name=op.f('pk_alert_deliveries'))
    )
    # NULL period_start (instants) would never collide in a plain unique index.
    op.create_index(
        'uq_facts_identity', 'facts',
        ['document_id', 'metric', sa.text("coalesce(period_start, '0001-01-01')"), 'period_end', 'basis'],
        unique=True,
    )
    create_views(op.get_bind(), VIEWS_0001)


def downgrade() -> None:
    drop_views(op.get_bind(), VIEWS_0001)
    for table in ('alert_deliveries', 'validation_results', 'guidance', 'facts', 'document_files',
                  'dividends', 'alert_events', 'documents', 'runs', 'issuers'):
        op.drop_table(table)
