"""Loading one document's extraction: facts, validation results, guidance, dividends, status.

Everything for a document happens in one transaction whose first statement updates the
document's row, final status included, which locks it (the row on PostgreSQL, the database on
SQLite): two loads of the same document run one after the other and the second finds nothing
new to insert. A first load reads nothing back and deletes nothing: its facts go straight into
a bulk insert (storage.fact_upsert).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any, NamedTuple

from sqlalchemy import Engine, Table, delete, exists, select, update
from sqlalchemy.engine import Connection

from storage import schema
from storage.fact_upsert import upsert_facts
from storage.schema import documents, validation_results
from storage.sql import Row, chunks, utcnow
from storage.types import to_exact
from tasks.core.enums import Status
from tasks.core.errors import UnknownDocumentError
from tasks.core.records import Dividend, Fact, Guidance, LoadCounts, Provenance, ValidationResult

# The per-document tables a load replaces, in the order _lock_document reports them.
_REPLACED = (validation_results, schema.guidance, schema.dividends)


class _Locked(NamedTuple):
    """The locked document's publication date, and which of its tables hold rows already."""

    published_on: date
    has_facts: bool
    has_rows: tuple[bool, ...]  # per table of _REPLACED


def load_document(
    engine: Engine,
    document_id: str,
    facts: Sequence[Fact],
    validations: Sequence[ValidationResult],
    *,
    quarantine: bool,
    guidance: Sequence[Guidance] = (),
    dividends: Sequence[Dividend] = (),
    run_id: str | None = None,
) -> LoadCounts:
    """Store one document's extraction in one transaction; idempotent.

    New facts are inserted and identical re-reports are no-ops. Validation results,
    guidance and dividends replace the document's previous ones. The document ends
    ``quarantined`` (facts kept, hidden from facts_latest) or ``loaded``.
    """
    status = Status.QUARANTINED if quarantine else Status.LOADED
    with engine.begin() as conn:
        now = utcnow()
        locked = _lock_document(conn, document_id, now, status, _reason(quarantine, validations))
        inserted, updated, unchanged = upsert_facts(
            conn, document_id, facts, locked.published_on, now, stored=locked.has_facts
        )
        replacements = (
            [_validation_row(v, run_id, now) for v in validations],
            _guidance_rows(guidance, now),
            [_dividend_row(d, now) for d in dividends],
        )
        n_val, n_guid, n_div = [
            _replace(conn, table, document_id, rows, stored=has)
            for table, rows, has in zip(_REPLACED, replacements, locked.has_rows, strict=True)
        ]
    return LoadCounts(inserted, updated, unchanged, n_val, n_guid, n_div, status)


def _lock_document(
    conn: Connection, document_id: str, now: datetime, status: Status, reason: str
) -> _Locked:
    """Write-lock the document's row first: PostgreSQL locks the row, SQLite the database.

    The same statement sets the final status (nobody sees it before the commit). Which
    tables hold the document's rows is asked next, in its own statement: on PostgreSQL only a
    statement started after the lock was granted sees what a load we waited for committed.
    """
    stmt = (
        update(documents)
        .where(documents.c.document_id == document_id)
        .values(updated_at=now, status=status.value, status_reason=reason)
        .returning(documents.c.published_on)
    )
    published_on = conn.execute(stmt).scalar_one_or_none()
    if published_on is None:
        raise UnknownDocumentError(f"unknown document {document_id!r}: record it first")
    tables = (schema.facts, *_REPLACED)
    stored = select(*(exists().where(t.c.document_id == document_id) for t in tables))
    has_facts, *has_rows = conn.execute(stored).one()
    return _Locked(published_on, bool(has_facts), tuple(bool(v) for v in has_rows))


def _reason(quarantine: bool, validations: Sequence[ValidationResult]) -> str:
    if not quarantine:
        return ""
    failed = sorted(
        {v.expectation for v in validations if not v.success and v.severity == "critical"}
    )
    return "failed: " + ", ".join(failed) if failed else "quarantined"


def _provenance(p: Provenance) -> Row:
    return {
        "file": p.document,
        "locator": p.locator,
        "row_label": p.row_label,
        "column_label": p.column,
        "raw_text": p.raw_text,
    }


def _replace(
    conn: Connection, table: Table, document_id: str, rows: list[Row], *, stored: bool
) -> int:
    """Replace the document's rows in a per-document table; returns the number stored."""
    if stored:
        conn.execute(delete(table).where(table.c.document_id == document_id))
    for chunk in chunks([{**row, "document_id": document_id} for row in rows]):
        conn.execute(table.insert().values(chunk))
    return len(rows)


def _validation_row(v: ValidationResult, run_id: str | None, now: datetime) -> Row:
    return {
        "suite": v.suite,
        "expectation": v.expectation,
        "success": v.success,
        "severity": v.severity,
        "observed": v.observed,
        "details": v.details,
        "run_id": run_id,
        "validated_at": now,
    }


def _guidance_rows(items: Sequence[Guidance], now: datetime) -> list[Row]:
    """One row per (metric, period): the first numeric statement wins over a vague one."""
    chosen: dict[tuple[str, date, date], Guidance] = {}
    for g in items:
        key = (g.metric, g.period_start, g.period_end)
        if key not in chosen or (g.numeric and not chosen[key].numeric):
            chosen[key] = g
    return [_guidance_row(g, now) for g in chosen.values()]


def _amount(value: Any) -> Any:
    return None if value is None else to_exact(value)


def _guidance_row(g: Guidance, now: datetime) -> Row:
    return {
        "metric": g.metric,
        "period_start": g.period_start,
        "period_end": g.period_end,
        "low": _amount(g.low),
        "high": _amount(g.high),
        "unit": g.unit,
        "issued_on": g.issued_on,
        "growth_low_pct": _amount(g.growth_low_pct),
        "growth_high_pct": _amount(g.growth_high_pct),
        "is_numeric": g.numeric,
        **_provenance(g.provenance),
        "loaded_at": now,
    }


def _dividend_row(d: Dividend, now: datetime) -> Row:
    return {
        "currency": d.currency,
        "per_share": _amount(d.per_share),
        "per_ads": _amount(d.per_ads),
        "period_start": d.period_start,
        "period_end": d.period_end,
        "record_date": d.record_date,
        "ex_date": d.ex_date,
        "payment_date": d.payment_date,
        "ads_payment_date": d.ads_payment_date,
        **_provenance(d.provenance),
        "loaded_at": now,
    }


def document_facts(conn: Connection, document_id: str) -> list[Fact]:
    """The facts stored for one document, as Fact records (for restatement checks)."""
    t = schema.facts
    stmt = select(t).where(t.c.document_id == document_id).order_by(t.c.fact_id)
    return [fact_from_row(r) for r in conn.execute(stmt)]


def fact_from_row(r: Any) -> Fact:
    """A stored ``facts`` row (or one selecting its columns) as the Fact it was loaded from."""
    return Fact(
        metric=r.metric,
        period_start=r.period_start,
        period_end=r.period_end,
        value=r.value,
        unit=r.unit,
        scale=r.scale,
        decimals=r.decimals,
        provenance=Provenance(r.file, r.locator, r.row_label, r.column_label, r.raw_text),
        basis=r.basis,
        origin=r.origin,
        flags=tuple(json.loads(r.flags)),
    )
