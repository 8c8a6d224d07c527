"""Audited filings in the warehouse: their XBRL figures as facts, the comparisons with the
releases (``audited_vs_reported``), and extraction accuracy as it is measured over time.

Functions take a ``Connection`` and run inside the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from sqlalchemy import func, select, update
from sqlalchemy.engine import Connection

from domain.enums import DocKind, Origin, Status
from domain.records import DocumentRef, Fact
from domain.xbrlrecords import Accuracy, AuditedComparison, AuditedFiling
from storage.documents import record_documents
from storage.facts import stored_facts, upsert_facts
from storage.mapping import fact_from_row
from storage.schema import accuracy_measures, documents, facts
from storage.views import AUDITED_VS_REPORTED, EXTRACTION_ACCURACY


def store_filing(
    conn: Connection, ref: DocumentRef, filing: AuditedFiling, now: datetime
) -> tuple[bool, int]:
    """Record one filing as a loaded document and its figures as its facts; a figure already
    held is not stored again. Returns (document new, facts inserted)."""
    new = bool(record_documents(conn, [ref]))
    kind = DocKind.RESULTS_ANNUAL if filing.annual else DocKind.RESULTS_QUARTERLY
    conn.execute(
        update(documents)
        .where(documents.c.document_id == ref.document_id)
        .values(status=Status.LOADED.value, kind=kind.value, updated_at=now)
    )
    inserted, _, _ = upsert_facts(
        conn, ref.document_id, filing.facts, filing.filed, now, stored=not new
    )
    return new, inserted


def comparisons(conn: Connection, issuer: str) -> list[AuditedComparison]:
    """The issuer's rows of ``audited_vs_reported``, each with its audited filing's date."""
    v = AUDITED_VS_REPORTED
    stmt = (
        select(v, documents.c.published_on)
        .join(
            documents,
            (documents.c.source == Origin.XBRL.value)
            & (documents.c.source_id == v.c.audited_accession),
        )
        .where(v.c.issuer == issuer)
        .order_by(v.c.metric, v.c.period_end, v.c.period_start, v.c.reported_document_id)
    )
    return [
        AuditedComparison(
            r.issuer,
            r.metric,
            r.period_start,
            r.period_end,
            r.unit,
            r.reported,
            r.reported_document_id,
            r.audited,
            r.audited_accession,
            r.audited_form,
            r.published_on,
            r.difference,
            r.outcome,
        )  # fmt: skip
        for r in conn.execute(stmt)
    ]


def reported_facts(conn: Connection, issuer: str, ends: Sequence[date]) -> list[tuple[str, Fact]]:
    """(document, fact) of the issuer's release figures (not quarantined) for periods ending
    on ``ends``: what an audited filing's figures are checked against."""
    stmt = (
        select(facts)
        .join(documents, documents.c.document_id == facts.c.document_id)
        .where(
            documents.c.issuer == issuer,
            documents.c.status != Status.QUARANTINED.value,
            facts.c.origin != Origin.XBRL.value,
            facts.c.period_end.in_(sorted(set(ends))),
        )
        .order_by(facts.c.document_id, facts.c.fact_id)
    )
    return [(r.document_id, fact_from_row(r)) for r in conn.execute(stmt)]


def held_filings(conn: Connection, issuer: str) -> dict[str, list[Fact]]:
    """The issuer's audited filings held (document id -> its XBRL figures), oldest first."""
    d = documents.c
    ids = conn.execute(
        select(d.document_id)
        .where(d.issuer == issuer, d.source == Origin.XBRL.value)
        .order_by(d.published_at, d.document_id)
    ).scalars()
    held: dict[str, list[Fact]] = {doc: [] for doc in ids}
    for document_id, fact in stored_facts(conn, list(held)):
        held[document_id].append(fact)
    return held


def accuracy(conn: Connection, issuer: str) -> list[Accuracy]:
    """The issuer's rows of ``extraction_accuracy``, by statement."""
    v = EXTRACTION_ACCURACY
    stmt = select(v).where(v.c.issuer == issuer).order_by(v.c.statement)
    return [
        Accuracy(r.issuer, r.statement, r.periods, r.compared, r.matched)
        for r in conn.execute(stmt)
    ]


def all_accuracy(conn: Connection) -> list[Accuracy]:
    """Every issuer's extraction accuracy (for ``filings status``)."""
    v = EXTRACTION_ACCURACY
    rows = conn.execute(select(v).order_by(v.c.issuer, v.c.statement))
    return [Accuracy(r.issuer, r.statement, r.periods, r.compared, r.matched) for r in rows]


def kept_accuracy(conn: Connection, issuer: str) -> dict[str, Accuracy]:
    """The last accuracy kept for each of the issuer's statements."""
    m = accuracy_measures
    last = (
        select(m.c.statement, func.max(m.c.measure_id).label("measure_id"))
        .where(m.c.issuer == issuer)
        .group_by(m.c.statement)
        .subquery()
    )
    stmt = select(m).join(last, last.c.measure_id == m.c.measure_id)
    return {
        r.statement: Accuracy(r.issuer, r.statement, r.periods, r.compared, r.matched)
        for r in conn.execute(stmt)
    }


def keep_accuracy(conn: Connection, measures: Sequence[Accuracy], now: datetime) -> None:
    """Keep measures (the caller passes only those that changed)."""
    rows = [
        {
            "issuer": a.issuer,
            "statement": a.statement,
            "periods": a.periods,
            "compared": a.compared,
            "matched": a.matched,
            "measured_at": now,
        }
        for a in measures
    ]
    if rows:
        conn.execute(accuracy_measures.insert(), rows)
