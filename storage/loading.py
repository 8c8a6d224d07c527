"""Loading one document: kind, facts, line items, validation results, guidance, dividends, status.

Everything for a document happens in one transaction whose first statement updates the
document's row, kind and final status included, which locks it (the row on PostgreSQL, the
database on SQLite): two loads of the same document run one after the other and the second
finds nothing new to insert. A first load reads nothing back and deletes nothing: its facts go
straight into a bulk insert (``storage.facts``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, datetime
from typing import NamedTuple

from sqlalchemy import Engine, Table, delete, exists, select, update
from sqlalchemy.engine import Connection

from domain.enums import DocKind, Status
from domain.errors import UnknownDocumentError
from domain.records import (
    Dividend,
    Fact,
    Guidance,
    LoadCounts,
    UnmappedRow,
    ValidationResult,
)
from domain.rowrecords import LineItem, RefusedRow
from storage import schema
from storage.facts import upsert_facts
from storage.line_items import upsert_line_items
from storage.mapping import Row, dividend_row, guidance_row, result_row
from storage.quality import status_after_validation
from storage.refusals import refusal_rows
from storage.schema import documents, validation_results
from storage.sql import chunks, utcnow

# The per-document tables a load replaces, in the order _lock_document reports them.
_REPLACED = (validation_results, schema.guidance, schema.dividends, schema.refused_rows)


class _Locked(NamedTuple):
    """The locked document: its final status, publication date, and which tables hold rows."""

    status: Status
    published_on: date
    has_facts: bool
    has_line_items: bool
    has_rows: tuple[bool, ...]  # per table of _REPLACED


def load_document(
    engine: Engine,
    document_id: str,
    facts: Sequence[Fact],
    validations: Sequence[ValidationResult],
    *,
    quarantine: bool,
    kind: DocKind | None = None,
    guidance: Sequence[Guidance] = (),
    dividends: Sequence[Dividend] = (),
    run_id: str | None = None,
    line_items: Sequence[LineItem] = (),
    refused: Sequence[RefusedRow] = (),
    unmapped: Sequence[UnmappedRow] = (),
    then: Callable[[Connection], Sequence[str]] | None = None,
) -> LoadCounts:
    """Store one document's extraction in one transaction; idempotent.

    New facts are inserted and identical re-reports are no-ops. Validation results,
    guidance and dividends replace the document's previous ones. ``kind`` (when given) is
    recorded. ``line_items`` (every statement cell as printed) are stored as read now
    (``storage.line_items``), and the rows the extractor refused or could not map
    (``refused_rows``). The document ends ``quarantined`` (facts kept, hidden from
    facts_latest) or ``loaded``, by :func:`storage.quality.status_after_validation`. ``then``
    runs last in the same transaction (the alerts the load raises): a crash leaves all of it
    or none.
    """
    with engine.begin() as conn:
        now = utcnow()
        values = status_after_validation(document_id, validations, quarantine=quarantine)
        if kind is not None:
            values["kind"] = DocKind(kind).value
        locked = _lock_document(conn, document_id, now, values)
        inserted, updated, unchanged = upsert_facts(
            conn, document_id, facts, locked.published_on, now, stored=locked.has_facts
        )
        upsert_line_items(
            conn, document_id, line_items, locked.published_on, now, stored=locked.has_line_items
        )
        replacements = (
            [result_row(v, run_id, now) for v in validations],
            [guidance_row(g, now) for g in _one_per_period(guidance)],
            [dividend_row(d, now) for d in dividends],
            refusal_rows(refused, unmapped, now),
        )
        n_val, n_guid, n_div, _ = [
            _replace(conn, table, document_id, rows, stored=has)
            for table, rows, has in zip(_REPLACED, replacements, locked.has_rows, strict=True)
        ]
        created = tuple(then(conn)) if then is not None else ()
    return LoadCounts(inserted, updated, unchanged, n_val, n_guid, n_div, locked.status, created)


def _lock_document(
    conn: Connection, document_id: str, now: datetime, values: dict[str, object]
) -> _Locked:
    """Write-lock the document's row first: PostgreSQL locks the row, SQLite the database.

    The same statement sets the final status (nobody sees it before the commit). Which
    tables hold the document's rows is asked next, in its own statement: on PostgreSQL only a
    statement started after the lock was granted sees what a load we waited for committed.
    """
    stmt = (
        update(documents)
        .where(documents.c.document_id == document_id)
        .values(updated_at=now, **values)
        .returning(documents.c.status, documents.c.published_on)
    )
    row = conn.execute(stmt).one_or_none()
    if row is None:
        raise UnknownDocumentError(f"unknown document {document_id!r}: record it first")
    tables = (schema.facts, schema.statement_rows, *_REPLACED)
    stored = select(*(exists().where(t.c.document_id == document_id) for t in tables))
    has_facts, has_line_items, *has_rows = conn.execute(stored).one()
    return _Locked(
        Status(row.status),
        row.published_on,
        bool(has_facts),
        bool(has_line_items),
        tuple(bool(v) for v in has_rows),
    )


def _replace(
    conn: Connection, table: Table, document_id: str, rows: list[Row], *, stored: bool
) -> int:
    """Replace the document's rows in a per-document table; returns the number stored."""
    if stored:
        conn.execute(delete(table).where(table.c.document_id == document_id))
    for chunk in chunks([{**row, "document_id": document_id} for row in rows]):
        conn.execute(table.insert().values(chunk))
    return len(rows)


def _one_per_period(items: Sequence[Guidance]) -> list[Guidance]:
    """One statement per (metric, period): the first numeric one wins over a vague one."""
    chosen: dict[tuple[str, date, date], Guidance] = {}
    for g in items:
        key = (g.metric, g.period_start, g.period_end)
        if key not in chosen or (g.numeric and not chosen[key].numeric):
            chosen[key] = g
    return list(chosen.values())
