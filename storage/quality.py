"""Warehouse queries for data quality: what a document is checked against, and releases.

- a document's stored facts, guidance and dividends (revalidation reads these, never the web);
- the issuer's other stored facts (cross-period) and the other source's documents of the same
  disclosure (cross-source);
- storing a revalidation's results, and releasing a quarantined document (a ``releases`` row
  and status back to ``loaded``, so facts_latest includes it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Connection

from storage.loading import fact_from_row
from storage.schema import dividends, documents, facts, guidance, releases, validation_results
from storage.sql import utcnow
from tasks.core.enums import Status
from tasks.core.errors import NotQuarantinedError, UnknownDocumentError
from tasks.core.records import Dividend, Fact, Guidance, Provenance, ValidationResult

# Two announcements of one disclosure (6-K and HKEx) are published within this many days.
COMPANION_DAYS = 3
_USABLE = (Status.LOADED.value, Status.VALIDATED.value)  # never quarantined or failed figures


@dataclass(frozen=True, slots=True)
class DocumentInfo:
    """What validation needs to know about a stored document."""

    document_id: str
    issuer: str
    source: str
    kind: str
    status: str
    published_on: date
    disclosure_id: str | None


@dataclass(frozen=True, slots=True)
class Release:
    """A person let a quarantined document into facts_latest."""

    document_id: str
    released_by: str
    released_at: datetime
    reason: str


def document_info(conn: Connection, document_id: str) -> DocumentInfo:
    """The document's issuer, source, kind, status and publication date."""
    d = documents.c
    stmt = select(
        d.document_id, d.issuer, d.source, d.kind, d.status, d.published_on, d.disclosure_id
    ).where(d.document_id == document_id)
    row = conn.execute(stmt).one_or_none()
    if row is None:
        raise UnknownDocumentError(f"unknown document {document_id!r}: check the id in documents")
    return DocumentInfo(
        row.document_id,
        row.issuer,
        row.source,
        row.kind or "",
        row.status,
        row.published_on,
        row.disclosure_id,
    )


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
    """Facts of the issuer's other usable documents for periods ending in [since, until]."""
    stmt = (
        select(facts)
        .join(documents, documents.c.document_id == facts.c.document_id)
        .where(
            documents.c.issuer == issuer,
            documents.c.document_id != document_id,
            documents.c.status.in_(_USABLE),
            facts.c.period_end.between(since, until),
            facts.c.period_start.is_not(None),
        )
        .order_by(facts.c.reported_on, facts.c.fact_id)
    )
    return [(r.document_id, fact_from_row(r)) for r in conn.execute(stmt)]


def companion_documents(conn: Connection, info: DocumentInfo) -> list[str]:
    """The other source's usable documents of the same disclosure.

    Same ``disclosure_id`` when both have one; otherwise published within COMPANION_DAYS.
    """
    d = documents.c
    near: Any = d.published_on.between(
        info.published_on - timedelta(days=COMPANION_DAYS),
        info.published_on + timedelta(days=COMPANION_DAYS),
    )
    if info.disclosure_id:  # (== None would render IS NULL and match every unlinked row)
        near = near | (d.disclosure_id == info.disclosure_id)
    stmt = select(d.document_id, d.published_on, d.disclosure_id).where(
        d.issuer == info.issuer, d.source != info.source, d.status.in_(_USABLE), near
    )
    found = []
    for row in conn.execute(stmt.order_by(d.published_on, d.document_id)):
        if info.disclosure_id and row.disclosure_id and row.disclosure_id != info.disclosure_id:
            continue
        found.append(row.document_id)
    return found


def stored_dividends(conn: Connection, document_ids: Sequence[str]) -> list[tuple[str, Dividend]]:
    """(document_id, dividend) for those documents."""
    if not document_ids:
        return []
    stmt = select(dividends).where(dividends.c.document_id.in_(list(document_ids)))
    return [
        (
            r.document_id,
            Dividend(
                r.currency,
                r.per_share,
                r.per_ads,
                r.period_start,
                r.period_end,
                r.record_date,
                r.ex_date,
                r.payment_date,
                _provenance(r),
                r.ads_payment_date,
            ),
        )  # fmt: skip
        for r in conn.execute(stmt.order_by(dividends.c.dividend_id))
    ]


def stored_guidance(conn: Connection, document_id: str) -> list[Guidance]:
    """The guidance a document gave, as stored."""
    stmt = select(guidance).where(guidance.c.document_id == document_id)
    return [
        Guidance(
            r.metric,
            r.period_start,
            r.period_end,
            r.low,
            r.high,
            r.unit,
            r.issued_on,
            _provenance(r),
            r.growth_low_pct,
            r.growth_high_pct,
            r.is_numeric,
        )  # fmt: skip
        for r in conn.execute(stmt.order_by(guidance.c.guidance_id))
    ]


def is_released(conn: Connection, document_id: str) -> bool:
    """True once a person has released the document."""
    stmt = select(func.count()).where(releases.c.document_id == document_id)
    return bool(conn.execute(stmt).scalar_one())


def store_results(
    conn: Connection,
    document_id: str,
    results: Sequence[ValidationResult],
    *,
    quarantine: bool,
) -> Status:
    """Replace the document's validation results and set its status from them.

    A released document stays loaded: the release is a person's decision about it.
    """
    now = utcnow()
    conn.execute(delete(validation_results).where(validation_results.c.document_id == document_id))
    rows = [_result_row(document_id, r, now) for r in results]
    if rows:
        conn.execute(validation_results.insert(), rows)
    status = Status.QUARANTINED if quarantine else Status.LOADED
    if quarantine and is_released(conn, document_id):
        status = Status.LOADED
    failed = sorted({r.expectation for r in results if not r.success and r.severity == "critical"})
    reason = "failed: " + ", ".join(failed) if status is Status.QUARANTINED else ""
    conn.execute(
        update(documents)
        .where(documents.c.document_id == document_id)
        .values(status=status.value, status_reason=reason, updated_at=now)
    )
    return status


def stored_results(
    conn: Connection, document_id: str, names: Sequence[str]
) -> dict[str, ValidationResult]:
    """The stored results of the named expectations of a document, by name."""
    table = validation_results
    rows = conn.execute(
        select(table).where(table.c.document_id == document_id, table.c.expectation.in_(names))
    )
    return {
        r.expectation: ValidationResult(
            r.suite, r.expectation, r.success, r.severity, r.observed, r.details
        )
        for r in rows
    }


def release(conn: Connection, document_id: str, released_by: str, reason: str = "") -> Release:
    """Record who released a quarantined document, and load it (facts_latest includes it)."""
    info = document_info(conn, document_id)
    if info.status != Status.QUARANTINED.value:
        raise NotQuarantinedError(
            f"{document_id} is {info.status}, not quarantined: there is nothing to release"
        )
    now = utcnow()
    conn.execute(
        releases.insert().values(
            document_id=document_id, released_by=released_by, released_at=now, reason=reason
        )
    )
    conn.execute(
        update(documents)
        .where(documents.c.document_id == document_id)
        .values(
            status=Status.LOADED.value, status_reason=f"released by {released_by}", updated_at=now
        )
    )
    return Release(document_id, released_by, now, reason)


def quality_targets(
    conn: Connection, issuer: str | None, document_ids: Sequence[str] = ()
) -> list[str]:
    """Documents to revalidate: those named, else every loaded or quarantined one."""
    d = documents.c
    stmt = select(d.document_id).where(
        d.status.in_([Status.LOADED.value, Status.QUARANTINED.value])
    )
    if document_ids:
        stmt = select(d.document_id).where(d.document_id.in_(list(document_ids)))
    if issuer is not None:
        stmt = stmt.where(d.issuer == issuer)
    found = list(conn.execute(stmt.order_by(d.published_at, d.document_id)).scalars())
    missing = sorted(set(document_ids) - set(found))
    if missing:
        raise UnknownDocumentError(f"unknown document(s) {', '.join(missing)}: check the ids")
    return found


def _provenance(r: Any) -> Provenance:
    return Provenance(r.file, r.locator, r.row_label, r.column_label, r.raw_text)


def _result_row(document_id: str, r: ValidationResult, now: datetime) -> dict[str, Any]:
    return {
        "document_id": document_id,
        "suite": r.suite,
        "expectation": r.expectation,
        "success": r.success,
        "severity": r.severity,
        "observed": r.observed,
        "details": r.details,
        "run_id": None,
        "validated_at": now,
    }
