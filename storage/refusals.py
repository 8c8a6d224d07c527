"""Refused and unmapped statement rows of a document (table ``refused_rows``).

What the extractor read but did not store, with where and why: a row refused (its period,
currency or scale not readable, its figure damaged) or no metric maps. Replaced at each load of
the document (``storage.loading``, like its validation results), so an operator sees after the
run what the last reading left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from domain.records import UnmappedRow
from domain.rowrecords import RefusedRow
from storage.schema import refused_rows


def refusal_rows(
    refused: Sequence[RefusedRow], unmapped: Sequence[UnmappedRow], now: datetime
) -> list[dict[str, Any]]:
    """The rows of ``refused_rows`` for one document's reading (without ``document_id``)."""
    rows = [_refused(r) for r in refused] + [_unmapped(u) for u in unmapped]
    return [{**row, "recorded_at": now} for row in rows]


def stored_refusals(conn: Connection, document_id: str) -> list[dict[str, Any]]:
    """The document's stored refusals, in the order they were read."""
    columns = [c for c in refused_rows.c if c.name not in ("refusal_id", "recorded_at")]
    stmt = (
        select(*columns)
        .where(refused_rows.c.document_id == document_id)
        .order_by(refused_rows.c.refusal_id)
    )
    return [dict(row._mapping) for row in conn.execute(stmt)]


def _refused(row: RefusedRow) -> dict[str, Any]:
    return {"kind": "refused", "statement": str(row.statement), "table_title": row.table_title,
            "locator": row.locator, "row_label": row.row_label, "reason": row.reason}  # fmt: skip


def _unmapped(row: UnmappedRow) -> dict[str, Any]:
    return {"kind": "unmapped", "statement": "", "table_title": row.table_title,
            "locator": row.locator, "row_label": row.row_label, "reason": row.reason}  # fmt: skip
