"""Loading one document's extraction: facts, validation results, guidance, dividends, status.

Everything for a document happens in one transaction whose first statement updates the
document's row, which locks it (the row on PostgreSQL, the database on SQLite): two loads of
the same document run one after the other and the second finds nothing new to insert.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import Engine, Table, bindparam, delete, select, update
from sqlalchemy.engine import Connection

from storage import schema
from storage.records import LoadCounts, UnknownDocumentError
from storage.schema import documents, validation_results
from storage.sql import Row, chunks, copy_rows, insert_ignore, utcnow
from storage.types import to_exact
from tasks.models import (
    Dividend,
    Fact,
    Guidance,
    Provenance,
    Status,
    ValidationResult,
    select_stored_facts,
)

FactKey = tuple[str, date | None, date, str]
# Columns that make two reports of the same key "the same report".
_FACT_DETAIL = (
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
        reported_on = _lock_document(conn, document_id, now)
        inserted, updated, unchanged = _upsert_facts(conn, document_id, facts, reported_on, now)
        n_val = _replace(
            conn,
            validation_results,
            document_id,
            [_validation_row(v, run_id, now) for v in validations],
        )
        n_guid = _replace(conn, schema.guidance, document_id, _guidance_rows(guidance, now))
        n_div = _replace(
            conn, schema.dividends, document_id, [_dividend_row(d, now) for d in dividends]
        )
        conn.execute(
            update(documents)
            .where(documents.c.document_id == document_id)
            .values(
                status=status.value, status_reason=_reason(quarantine, validations), updated_at=now
            )
        )
    return LoadCounts(inserted, updated, unchanged, n_val, n_guid, n_div, status)


def _lock_document(conn: Connection, document_id: str, now: datetime) -> date:
    """Write-lock the document's row first: PostgreSQL locks the row, SQLite the database."""
    stmt = (
        update(documents)
        .where(documents.c.document_id == document_id)
        .values(updated_at=now)
        .returning(documents.c.published_on)
    )
    published_on = conn.execute(stmt).scalar_one_or_none()
    if published_on is None:
        raise UnknownDocumentError(f"unknown document {document_id!r}: record it first")
    return published_on  # type: ignore[no-any-return]


def _reason(quarantine: bool, validations: Sequence[ValidationResult]) -> str:
    if not quarantine:
        return ""
    failed = sorted(
        {v.expectation for v in validations if not v.success and v.severity == "critical"}
    )
    return "failed: " + ", ".join(failed) if failed else "quarantined"


def _upsert_facts(
    conn: Connection, document_id: str, items: Sequence[Fact], reported_on: date, now: datetime
) -> tuple[int, int, int]:
    """Insert new keys, update keys whose details changed; returns the three counts."""
    existing = _existing_facts(conn, document_id)
    new: list[Row] = []
    changed: list[Row] = []
    unchanged = 0
    for fact in select_stored_facts(list(items)):
        current = existing.get(fact.key)
        if current is None:
            new.append(_fact_row(fact, document_id, reported_on, now))
        elif current[1] != _detail(fact):
            row = _fact_row(fact, document_id, reported_on, now)
            changed.append({**row, "b_fact_id": current[0]})
        else:
            unchanged += 1
    # New keys cannot collide: the document's row lock serialises loads of the document.
    bulk = copy_rows if conn.dialect.name == "postgresql" else insert_ignore
    inserted = bulk(conn, schema.facts, new)
    if changed:
        values: dict[str, Any] = {c: bindparam(c) for c in (*_FACT_DETAIL, "loaded_at")}
        t = schema.facts
        stmt = update(t).where(t.c.fact_id == bindparam("b_fact_id")).values(values)
        conn.execute(stmt, changed)
    return inserted, len(changed), unchanged


def _detail(fact: Fact) -> tuple[Any, ...]:
    """The stored detail columns of a fact, in _FACT_DETAIL order (compared, never stored)."""
    p = fact.provenance
    return (
        to_exact(fact.value), fact.unit, fact.scale, fact.decimals, fact.origin,
        p.document, p.locator, p.row_label, p.column, p.raw_text, _flags(fact.flags),
    )  # fmt: skip


def _flags(flags: tuple[str, ...]) -> str:
    return json.dumps(list(flags)) if flags else "[]"


def _existing_facts(
    conn: Connection, document_id: str
) -> dict[FactKey, tuple[int, tuple[Any, ...]]]:
    """The document's stored facts: key -> (fact_id, detail tuple)."""
    t = schema.facts
    key_cols = (t.c.metric, t.c.period_start, t.c.period_end, t.c.basis)
    detail = [t.c[c] for c in _FACT_DETAIL]
    stmt = select(t.c.fact_id, *key_cols, *detail).where(t.c.document_id == document_id)
    return {tuple(r[1:5]): (r[0], tuple(r[5:])) for r in conn.execute(stmt)}  # type: ignore[misc]


def _provenance(p: Provenance) -> Row:
    return {
        "file": p.document,
        "locator": p.locator,
        "row_label": p.row_label,
        "column_label": p.column,
        "raw_text": p.raw_text,
    }


def _fact_row(fact: Fact, document_id: str, reported_on: date, now: datetime) -> Row:
    return {
        "document_id": document_id,
        "metric": fact.metric,
        "period_start": fact.period_start,
        "period_end": fact.period_end,
        "basis": fact.basis,
        "value": to_exact(fact.value),
        "unit": fact.unit,
        "scale": fact.scale,
        "decimals": fact.decimals,
        "origin": fact.origin,
        **_provenance(fact.provenance),
        "flags": _flags(fact.flags),
        "reported_on": reported_on,
        "loaded_at": now,
    }


def _replace(conn: Connection, table: Table, document_id: str, rows: list[Row]) -> int:
    """Replace the document's rows in a per-document table; returns the number stored."""
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
