"""Each record and its table row, both directions written once, side by side.

A record goes into a table through ``<record>_row`` (a dict of column values, or for facts a
tuple in :data:`FACT_COLUMNS` order, cheaper to build and to COPY) and comes back through
``<record>_from_row`` from any row or result row that has the columns.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from domain.enums import Basis, Origin, Severity, SourceName, Status
from domain.readouts import DocumentInfo
from domain.records import (
    Dividend,
    DocumentRef,
    Fact,
    Guidance,
    Issuer,
    ListedDocument,
    Provenance,
    StoredFile,
    ValidationResult,
)
from storage.types import to_exact

Row = dict[str, Any]

FACT_KEY = ("metric", "period_start", "period_end", "basis")
# Columns that make two reports of the same key "the same report".
FACT_DETAIL = (
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
    "proved_by",
    "note",
)
# A stored facts row, in this order.
FACT_COLUMNS = ("document_id", *FACT_KEY, *FACT_DETAIL, "reported_on", "loaded_at")


def _amount(value: Decimal | None) -> Decimal | None:
    return None if value is None else to_exact(value)


def provenance_row(p: Provenance) -> Row:
    """Where a value was read, as the provenance columns every value table has."""
    return {
        "file": p.document,
        "locator": p.locator,
        "row_label": p.row_label,
        "column_label": p.column,
        "raw_text": p.raw_text,
    }


def provenance_from_row(r: Any) -> Provenance:
    """The provenance columns of a row, back."""
    return Provenance(r.file, r.locator, r.row_label, r.column_label, r.raw_text)


def fact_row(fact: Fact, document_id: str, reported_on: date, now: datetime) -> tuple[Any, ...]:
    """A fact as a stored row, values in ``FACT_COLUMNS`` order and in their stored form."""
    p = fact.provenance
    flags = json.dumps(list(fact.flags)) if fact.flags else "[]"
    return (
        document_id, fact.metric, fact.period_start, fact.period_end, str(fact.basis),
        to_exact(fact.value), fact.unit, fact.scale, fact.decimals, str(fact.origin),
        p.document, p.locator, p.row_label, p.column, p.raw_text, flags,
        fact.proved_by or None, fact.note, reported_on, now,
    )  # fmt: skip


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
        provenance=provenance_from_row(r),
        basis=Basis(r.basis),
        origin=Origin(r.origin),
        flags=tuple(json.loads(r.flags)),
        proved_by=getattr(r, "proved_by", None) or "",
        note=getattr(r, "note", None) or "",
    )


def guidance_row(g: Guidance, now: datetime) -> Row:
    """An outlook statement as a ``guidance`` row (without its document_id)."""
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
        **provenance_row(g.provenance),
        "loaded_at": now,
    }


def guidance_from_row(r: Any) -> Guidance:
    """A stored ``guidance`` row, back."""
    return Guidance(
        r.metric, r.period_start, r.period_end, r.low, r.high, r.unit, r.issued_on,
        provenance_from_row(r), r.growth_low_pct, r.growth_high_pct, r.is_numeric,
    )  # fmt: skip


def dividend_row(d: Dividend, now: datetime) -> Row:
    """A dividend as a ``dividends`` row (without its document_id)."""
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
        **provenance_row(d.provenance),
        "loaded_at": now,
    }


def dividend_from_row(r: Any) -> Dividend:
    """A stored ``dividends`` row, back."""
    return Dividend(
        r.currency, r.per_share, r.per_ads, r.period_start, r.period_end, r.record_date,
        r.ex_date, r.payment_date, provenance_from_row(r), r.ads_payment_date,
    )  # fmt: skip


def result_row(v: ValidationResult, run_id: str | None, now: datetime) -> Row:
    """A validation result as a ``validation_results`` row (without its document_id)."""
    return {
        "suite": v.suite,
        "expectation": v.expectation,
        "success": v.success,
        "severity": str(v.severity),
        "observed": v.observed,
        "details": v.details,
        "run_id": run_id,
        "validated_at": now,
    }


def result_from_row(r: Any) -> ValidationResult:
    """A stored ``validation_results`` row, back."""
    return ValidationResult(
        r.suite, r.expectation, r.success, Severity(r.severity), r.observed, r.details
    )


def issuer_row(issuer: Issuer) -> Row:
    """An issuer as an ``issuers`` row."""
    return {
        "ticker": issuer.ticker,
        "name": issuer.name,
        "cik": issuer.cik,
        "hkex_code": issuer.hkex_code,
        "fiscal_year_end": issuer.fiscal_year_end,
    }


def document_row(ref: DocumentRef, now: datetime) -> Row:
    """A listed document as a new ``documents`` row (status ``fetched``)."""
    return {
        "document_id": ref.document_id,
        "source": str(ref.source),
        "source_id": ref.source_id,
        "issuer": ref.issuer,
        "form": ref.form,
        "title": ref.title,
        "published_at": ref.published_at,
        "published_on": ref.published_at.date(),
        "url": ref.url,
        "kind": None,
        "status": Status.FETCHED.value,
        "status_reason": "",
        "first_seen_at": now,
        "updated_at": now,
    }


# The documents columns a DocumentRef is read back from, in its field order.
REF_COLUMNS = ("source", "source_id", "issuer", "form", "title", "published_at", "url")


def ref_from_row(r: Any) -> DocumentRef:
    """A ``documents`` row (``REF_COLUMNS`` at least) as the DocumentRef it was listed as."""
    return DocumentRef(
        SourceName(r.source), r.source_id, r.issuer, r.form, r.title, r.published_at, r.url
    )


def listed_from_row(r: Any) -> ListedDocument:
    """A ``documents`` row as disclosure linking reads it."""
    return ListedDocument(
        r.document_id, SourceName(r.source), r.form, r.category, r.kind or "", r.published_at,
        r.amends_document_id,
    )  # fmt: skip


def info_from_row(r: Any) -> DocumentInfo:
    """A ``documents`` row as validation reads it."""
    return DocumentInfo(
        r.document_id, r.issuer, SourceName(r.source), r.kind or "", Status(r.status),
        r.published_on, r.disclosure_id,
    )  # fmt: skip


def file_row(document_id: str, f: StoredFile, now: datetime) -> Row:
    """A fetched file as a ``document_files`` row."""
    return {
        "document_id": document_id,
        "name": f.name,
        "url": f.url,
        "sha256": f.sha256,
        "size": f.size,
        "doc_type": f.doc_type,
        "fetched_at": now,
    }


FILE_COLUMNS = ("name", "url", "sha256", "size", "doc_type")


def file_from_row(r: Any) -> StoredFile:
    """A ``document_files`` row (``FILE_COLUMNS`` at least), back."""
    return StoredFile(r.name, r.url, r.sha256, r.size, r.doc_type)
