"""Facts in the warehouse: upserting one document's facts, and reading stored ones back.

Upserts insert new keys in bulk and update changed re-reports. The caller holds the document's
row lock (``storage.loading``), so no other load of the same document runs at the same time:
the keys found missing here are still missing at insert time, which is what lets PostgreSQL
take them with a plain ``COPY``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.engine import Connection

from domain.enums import Status
from domain.precision import select_stored_facts
from domain.records import Fact
from storage.mapping import FACT_COLUMNS, FACT_DETAIL, FACT_KEY, fact_from_row, fact_row
from storage.schema import documents, facts
from storage.sql import copy_rows, insert_ignore

FactKey = tuple[str, date | None, date, str]
_DETAIL_AT = len(FACT_KEY) + 1
# Prior facts for cross-period checks come from documents whose figures are published.
_USABLE = (Status.LOADED.value, Status.VALIDATED.value)  # never quarantined or failed figures


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
        rows = (fact_row(f, document_id, reported_on, now) for f in chosen)
        return (insert_new(conn, rows) if chosen else 0), 0, 0
    new: list[tuple[Any, ...]] = []
    changed: list[dict[str, Any]] = []
    unchanged = 0
    for fact in chosen:
        row = fact_row(fact, document_id, reported_on, now)
        current = existing.get(fact.key)
        if current is None:
            new.append(row)
        elif current[1] != row[_DETAIL_AT:-2]:
            changed.append({**dict(zip(FACT_COLUMNS, row, strict=True)), "b_fact_id": current[0]})
        else:
            unchanged += 1
    if changed:
        values: dict[str, Any] = {c: bindparam(c) for c in (*FACT_DETAIL, "loaded_at")}
        stmt = update(facts).where(facts.c.fact_id == bindparam("b_fact_id")).values(values)
        conn.execute(stmt, changed)
    return (insert_new(conn, new) if new else 0), len(changed), unchanged


def insert_new(conn: Connection, rows: Iterable[tuple[Any, ...]]) -> int:
    """Insert rows (``FACT_COLUMNS`` order) whose keys are new; returns the count."""
    if conn.dialect.name == "postgresql":
        return copy_rows(conn, facts, FACT_COLUMNS, rows)
    return insert_ignore(conn, facts, [dict(zip(FACT_COLUMNS, r, strict=True)) for r in rows])


def _existing_facts(
    conn: Connection, document_id: str
) -> dict[FactKey, tuple[int, tuple[Any, ...]]]:
    """The document's stored facts: key -> (fact_id, detail tuple in ``FACT_DETAIL`` order)."""
    cols = [facts.c[c] for c in (*FACT_KEY, *FACT_DETAIL)]
    stmt = select(facts.c.fact_id, *cols).where(facts.c.document_id == document_id)
    rows = conn.execute(stmt).all()  # one fetch: iterating the result fetches row by row
    return {tuple(r[1:5]): (r[0], tuple(r[5:])) for r in rows}  # type: ignore[misc]


def document_facts(conn: Connection, document_id: str) -> list[Fact]:
    """The facts stored for one document, as Fact records."""
    stmt = select(facts).where(facts.c.document_id == document_id).order_by(facts.c.fact_id)
    return [fact_from_row(r) for r in conn.execute(stmt)]


def stored_facts(conn: Connection, document_ids: Sequence[str]) -> list[tuple[str, Fact]]:
    """(document_id, fact) for every fact stored for those documents."""
    if not document_ids:
        return []
    stmt = (
        select(facts).where(facts.c.document_id.in_(list(document_ids))).order_by(facts.c.fact_id)
    )
    return [(r.document_id, fact_from_row(r)) for r in conn.execute(stmt)]


def prior_facts(
    conn: Connection, issuer: str, document_id: str, since: date, until: date
) -> list[tuple[str, Fact]]:
    """Facts of the issuer's other usable releases for periods ending in [since, until].

    Audited XBRL filings are left out: the releases are checked against them by the audited
    suite, and a cross-period check that read them would depend on whether the filing was
    loaded before the release was validated."""
    stmt = (
        select(facts)
        .join(documents, documents.c.document_id == facts.c.document_id)
        .where(
            documents.c.issuer == issuer,
            documents.c.document_id != document_id,
            documents.c.source != "xbrl",
            documents.c.status.in_(_USABLE),
            facts.c.period_end.between(since, until),
            facts.c.period_start.is_not(None),
        )
        .order_by(facts.c.reported_on, facts.c.fact_id)
    )
    return [(r.document_id, fact_from_row(r)) for r in conn.execute(stmt)]


def published_near(
    conn: Connection, issuer: str, first: date, last: date, document_id: str
) -> dict[str, list[Fact]]:
    """Facts of the issuer's other releases published in [first, last] (audited XBRL filings
    left out): where a copy of ``document_id``'s release would be."""
    d = documents.c
    stmt = (
        select(facts)
        .join(documents, d.document_id == facts.c.document_id)
        .where(
            d.issuer == issuer,
            d.document_id != document_id,
            d.source != "xbrl",
            d.published_on.between(first, last),
        )
        .order_by(d.published_at, facts.c.document_id, facts.c.fact_id)
    )
    found: dict[str, list[Fact]] = {}
    for r in conn.execute(stmt):
        found.setdefault(r.document_id, []).append(fact_from_row(r))
    return found
