"""metric_labels lists the new statement metrics: the cash flow statement's opening balance
(cash_and_restricted_cash_begin, an instant at the day before its period starts) and the
comprehensive income ones (other_comprehensive_income, total_comprehensive_income and its
owners' and non-controlling interests' shares); facts_derived counts the comprehensive income
flows among the additive metrics. Views only; no table changes.

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

from storage.migrations.frozen_views import VIEWS_0016, VIEWS_0018, create_views, drop_views

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Rebuilt in creation order (each reads the ones before it); dropped dependants first: the
# views that read metric_labels are rebuilt with it, unchanged.
_REBUILT = ("metric_labels", "facts_fiscal", "extraction_accuracy", "facts_derived")
_OLD = {name: VIEWS_0016[name] for name in _REBUILT}
_NEW = {name: VIEWS_0018[name] for name in _REBUILT}


def upgrade() -> None:
    drop_views(op.get_bind(), _OLD)
    create_views(op.get_bind(), _NEW)


def downgrade() -> None:
    drop_views(op.get_bind(), _NEW)
    create_views(op.get_bind(), _OLD)
