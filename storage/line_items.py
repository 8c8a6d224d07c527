"""Statement rows in the warehouse (``statement_rows``, read through the ``line_items`` view).

One row per document x value cell, keyed by where the cell was printed (file, table, row,
column, period, basis). A document's load stores what it read now: new cells are inserted,
cells read differently are updated, cells no longer read are removed. Other documents' rows are
never touched, so a later document restating a line adds its own row and the earlier report
stays (as for facts).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.engine import Connection

from domain.enums import Basis
from domain.rowrecords import LineItem, StatementKind, StatementRow
from storage.mapping import provenance_from_row, provenance_row
from storage.schema import statement_rows
from storage.sql import chunks
from storage.types import to_exact

_KEY = ("file", "locator", "row_index", "column_label", "period_start", "period_end", "basis")
_DETAIL = (
    "statement", "table_title", "section", "label", "unit", "value", "scale", "decimals",
    "metric", "row_label", "raw_text", "proved_by",
)  # fmt: skip
Key = tuple[Any, ...]


def line_item_row(item: LineItem, reported_on: date, now: datetime) -> dict[str, Any]:
    """A line item as a ``statement_rows`` row (without its document_id)."""
    r = item.row
    return {
        "statement": str(r.statement),
        "table_title": r.table_title,
        "section": r.section,
        "label": r.row_label,
        "row_index": r.row_index,
        "period_start": r.period_start,
        "period_end": r.period_end,
        "basis": str(r.basis),
        "unit": item.unit,
        "value": to_exact(r.value),
        "scale": r.scale,
        "decimals": r.decimals,
        "metric": item.metric,
        "proved_by": item.proved_by,
        **provenance_row(r.provenance),
        "reported_on": reported_on,
        "loaded_at": now,
    }


def line_item_from_row(r: Any) -> LineItem:
    """A stored ``statement_rows`` row, back. The currency is the unit's ("USD/share" -> USD)."""
    money = r.unit.split("/")[0]
    currency = money if money.isupper() else ""  # "count", "shares", "percent" are not money
    row = StatementRow(
        statement=StatementKind(r.statement),
        table_title=r.table_title,
        row_label=r.label,
        row_index=r.row_index,
        section=r.section,
        period_start=r.period_start,
        period_end=r.period_end,
        currency=currency,
        value=r.value,
        scale=r.scale,
        decimals=r.decimals,
        provenance=provenance_from_row(r),
        basis=Basis(r.basis),
    )
    return LineItem(row=row, unit=r.unit, metric=r.metric, proved_by=r.proved_by)


def upsert_line_items(
    conn: Connection,
    document_id: str,
    items: Sequence[LineItem],
    reported_on: date,
    now: datetime,
    *,
    stored: bool,
) -> tuple[int, int, int]:
    """Store the document's line items as read now; returns (inserted, updated, removed).

    ``stored`` says whether the document has rows already; a first load reads nothing back.
    The caller holds the document's row lock (``storage.loading``).
    """
    rows: dict[Key, dict[str, Any]] = {}
    for item in items:  # one row per cell: the first reading of a repeated cell wins
        row = line_item_row(item, reported_on, now)
        rows.setdefault(tuple(row[c] for c in _KEY), row)
    existing = _existing(conn, document_id) if stored else {}
    new = [row for key, row in rows.items() if key not in existing]
    changed = [
        {**row, "b_row_id": existing[key][0]}
        for key, row in rows.items()
        if key in existing and existing[key][1] != tuple(row[c] for c in _DETAIL)
    ]
    gone = [row_id for key, (row_id, _) in existing.items() if key not in rows]
    for chunk in chunks([{**row, "document_id": document_id} for row in new]):
        conn.execute(statement_rows.insert().values(chunk))
    if changed:
        values: dict[str, Any] = {c: bindparam(c) for c in (*_DETAIL, "reported_on", "loaded_at")}
        where = statement_rows.c.row_id == bindparam("b_row_id")
        conn.execute(update(statement_rows).where(where).values(values), changed)
    for start in range(0, len(gone), 1000):
        ids = gone[start : start + 1000]
        conn.execute(delete(statement_rows).where(statement_rows.c.row_id.in_(ids)))
    return len(new), len(changed), len(gone)


def _existing(conn: Connection, document_id: str) -> dict[Key, tuple[int, Key]]:
    """The document's stored rows: key -> (row_id, detail tuple in ``_DETAIL`` order)."""
    cols = [statement_rows.c[c] for c in (*_KEY, *_DETAIL)]
    stmt = select(statement_rows.c.row_id, *cols).where(statement_rows.c.document_id == document_id)
    n = len(_KEY)
    return {tuple(r[1 : n + 1]): (r[0], tuple(r[n + 1 :])) for r in conn.execute(stmt).all()}


def document_line_items(conn: Connection, document_id: str) -> list[LineItem]:
    """The line items stored for one document, in the order they were printed."""
    t = statement_rows
    stmt = (
        select(t)
        .where(t.c.document_id == document_id)
        .order_by(t.c.file, t.c.locator, t.c.row_index, t.c.period_end, t.c.row_id)
    )
    return [line_item_from_row(r) for r in conn.execute(stmt)]
