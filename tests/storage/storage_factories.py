"""Builders for the records the storage tests load (QFIN-like figures)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone
from decimal import Decimal

from sqlalchemy import Engine

from domain.records import DocumentRef, Fact, Guidance, Issuer, Provenance, ValidationResult
from storage.documents import record_documents, upsert_issuers
from storage.loading import load_document

QFIN = Issuer(ticker="QFIN", name="Qifu Technology, Inc.", cik="0001741530", hkex_code="03660")
HKT = timezone(timedelta(hours=8))
Q1 = (date(2024, 1, 1), date(2024, 3, 31))


def ref(source_id: str, published: datetime, source: str = "sec") -> DocumentRef:
    """A listed document of QFIN."""
    return DocumentRef(
        source=source,
        source_id=source_id,
        issuer="QFIN",
        form="6-K",
        title=f"results {source_id}",
        published_at=published,
        url=f"https://example.test/{source_id}",
    )


def at(day: int, month: int = 5, hour: int = 12) -> datetime:
    """A publication time in 2024, UTC."""
    return datetime(2024, month, day, hour, tzinfo=UTC)


def fact(
    metric: str = "total_net_revenue",
    value: str = "4482252000",
    *,
    decimals: int = -3,
    period: tuple[date | None, date] = Q1,
    origin: str = "table",
    basis: str = "us_gaap",
    unit: str = "CNY",
    raw: str = "4,482,252",
) -> Fact:
    """One reported fact."""
    return Fact(
        metric=metric,
        period_start=period[0],
        period_end=period[1],
        value=Decimal(value),
        unit=unit,
        scale=3,
        decimals=decimals,
        provenance=Provenance("ex99-1.htm", "table 1", metric, "Q1 2024 RMB", raw),
        basis=basis,
        origin=origin,
    )


def check(
    name: str = "balance_sheet_balances", ok: bool = True, severity: str = "critical"
) -> ValidationResult:
    """One validation outcome."""
    return ValidationResult(
        suite="statements",
        expectation=name,
        success=ok,
        severity=severity,
        observed="ok" if ok else "mismatch",
    )


def outlook(
    low: str | None,
    high: str | None,
    issued: date = date(2024, 3, 1),
    period: tuple[date, date] = Q1,
) -> Guidance:
    """Revenue guidance for a quarter."""
    return Guidance(
        metric="total_net_revenue",
        period_start=period[0],
        period_end=period[1],
        low=None if low is None else Decimal(low),
        high=None if high is None else Decimal(high),
        unit="CNY",
        issued_on=issued,
        provenance=Provenance("ex99-1.htm", "paragraph 40", "", "", "outlook"),
    )


def add_document(engine: Engine, source_id: str, published: datetime, source: str = "sec") -> str:
    """Record QFIN and one document; returns its id."""
    with engine.begin() as conn:
        upsert_issuers(conn, [QFIN])
        record_documents(conn, [ref(source_id, published, source)])
    return f"{source}:{source_id}"


def load(
    engine: Engine, source_id: str, published: datetime, *facts: Fact, quarantine: bool = False
) -> str:
    """Record a document and load facts into it; returns its id."""
    doc_id = add_document(engine, source_id, published)
    load_document(engine, doc_id, list(facts), [check()], quarantine=quarantine)
    return doc_id
