"""Reading the contract's views for the Python API and exports (``filings`` package).

Each read selects through the views' typed handles, so values come back as ``Decimal`` and
dates as ``date`` on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Table, select
from sqlalchemy.engine import Connection

from storage import views

READABLE: dict[str, Table] = {
    "facts_latest": views.FACTS_LATEST,
    "facts_fiscal": views.FACTS_FISCAL,
    "facts_history": views.FACTS_HISTORY,
    "guidance_vs_actual": views.GUIDANCE_VS_ACTUAL,
    "guidance_history": views.GUIDANCE_HISTORY,
    "restatements": views.RESTATEMENTS,
    "line_items": views.LINE_ITEMS,
    "metric_labels": views.METRIC_LABELS,
    "alerts": views.ALERTS,
    "audited_vs_reported": views.AUDITED_VS_REPORTED,
    "extraction_accuracy": views.EXTRACTION_ACCURACY,
    "dividends": views.DIVIDENDS,
    "facts_derived": views.FACTS_DERIVED,
}


def read_view(
    conn: Connection,
    name: str,
    issuers: Sequence[str] = (),
    metrics: Sequence[str] = (),
) -> tuple[list[Table | Any], list[tuple[Any, ...]]]:
    """The view's columns and its rows (filtered by issuer and metric where it has them),
    in a stable order: issuer, metric, period end, period start."""
    view = READABLE[name]
    stmt = select(view)
    if issuers and "issuer" in view.c:
        stmt = stmt.where(view.c.issuer.in_([i.upper() for i in issuers]))
    if metrics and "metric" in view.c:
        stmt = stmt.where(view.c.metric.in_(list(metrics)))
    order = [view.c[c] for c in ("issuer", "metric", "period_end", "period_start") if c in view.c]
    rows = conn.execute(stmt.order_by(*order)).all()
    return list(view.columns), [tuple(r) for r in rows]
