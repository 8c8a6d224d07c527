"""Upserting one document's facts: new keys inserted in bulk, changed re-reports updated.

The caller holds the document's row lock (``storage.loading``), so no other load of the same
document runs at the same time: the keys found missing here are still missing at insert time,
which is what lets PostgreSQL take them with a plain ``COPY``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.engine import Connection

from storage.schema import facts
from storage.sql import copy_rows, insert_ignore
from storage.types import to_exact
from tasks.core.precision import select_stored_facts
from tasks.core.records import Fact

FactKey = tuple[str, date | None, date, str]
_KEY = ("metric", "period_start", "period_end", "basis")
# Columns that make two reports of the same key "the same report".
DETAIL = (
    "value",
    "unit",
    "scale",
    "decimals",
    "origin",
    "file",
    "locator",
    "row_label",
    "column_label",
    "raw_text",
    "flags",
)
# A stored row, in this order: tuples are cheaper to build and COPY than dicts.
COLUMNS = ("document_id", *_KEY, *DETAIL, "reported_on", "loaded_at")
_DETAIL_AT = len(_KEY) + 1


def upsert_facts(
    conn: Connection,
    document_id: str,
    items: Sequence[Fact],
    reported_on: date,
    now: datetime,
    *,
    stored: bool,
) -> tuple[int, int, int]:
    """Insert new keys, update keys whose details changed; returns (inserted, updated, same).

    ``stored`` says whether the document has facts already; a first load skips reading them.
    """
    chosen = select_stored_facts(list(items))
    existing = _existing_facts(conn, document_id) if stored else {}
    if not existing:
        # Rows are built while COPY sends the earlier ones.
        rows = (fact_values(f, document_id, reported_on, now) for f in chosen)
        return (insert_new(conn, rows) if chosen else 0), 0, 0
    new: list[tuple[Any, ...]] = []
    changed: list[dict[str, Any]] = []
    unchanged = 0
    for fact in chosen:
        row = fact_values(fact, document_id, reported_on, now)
        current = existing.get(fact.key)
        if current is None:
            new.append(row)
        elif current[1] != row[_DETAIL_AT:-2]:
            changed.append({**dict(zip(COLUMNS, row, strict=True)), "b_fact_id": current[0]})
        else:
            unchanged += 1
    if changed:
        values: dict[str, Any] = {c: bindparam(c) for c in (*DETAIL, "loaded_at")}
        stmt = update(facts).where(facts.c.fact_id == bindparam("b_fact_id")).values(values)
        conn.execute(stmt, changed)
    return (insert_new(conn, new) if new else 0), len(changed), unchanged


def fact_values(fact: Fact, document_id: str, reported_on: date, now: datetime) -> tuple[Any, ...]:
    """A fact as a stored row, values in ``COLUMNS`` order and in their stored form."""
    p = fact.provenance
    flags = json.dumps(list(fact.flags)) if fact.flags else "[]"
    return (
        document_id, fact.metric, fact.period_start, fact.period_end, fact.basis,
        to_exact(fact.value), fact.unit, fact.scale, fact.decimals, fact.origin,
        p.document, p.locator, p.row_label, p.column, p.raw_text, flags,
        reported_on, now,
    )  # fmt: skip


def insert_new(conn: Connection, rows: Iterable[tuple[Any, ...]]) -> int:
    """Insert rows (``COLUMNS`` order) whose keys are known to be new; returns the count."""
    if conn.dialect.name == "postgresql":
        return copy_rows(conn, facts, COLUMNS, rows)
    return insert_ignore(conn, facts, [dict(zip(COLUMNS, r, strict=True)) for r in rows])


def _existing_facts(
    conn: Connection, document_id: str
) -> dict[FactKey, tuple[int, tuple[Any, ...]]]:
    """The document's stored facts: key -> (fact_id, detail tuple in ``DETAIL`` order)."""
    cols = [facts.c[c] for c in (*_KEY, *DETAIL)]
    stmt = select(facts.c.fact_id, *cols).where(facts.c.document_id == document_id)
    rows = conn.execute(stmt).all()  # one fetch: iterating the result fetches row by row
    return {tuple(r[1:5]): (r[0], tuple(r[5:])) for r in rows}  # type: ignore[misc]
