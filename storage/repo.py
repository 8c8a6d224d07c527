"""The warehouse API: set-based, idempotent writes and the queries the flows need.

Functions taking a ``Connection`` run inside the caller's transaction (``engine.begin()``);
``load_document`` takes the engine because it owns its transaction. Loading and alerting
live in their own modules and are re-exported here.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.engine import Connection

from storage import schema
from storage.alerting import add_alerts, claim_delivery, mark_delivery, pending_deliveries
from storage.loading import document_facts, load_document
from storage.schema import TABLES, documents, issuers, runs
from storage.sql import Row, chunks, insert, utcnow
from tasks.core.enums import DocKind, Status
from tasks.core.errors import UnknownDocumentError
from tasks.core.records import (
    DocumentRef,
    Issuer,
    LoadCounts,
    NewAlert,
    PendingDelivery,
    StoredFile,
)

__all__ = [
    "LoadCounts",
    "NewAlert",
    "PendingDelivery",
    "UnknownDocumentError",
    "add_alerts",
    "claim_delivery",
    "document_facts",
    "document_files",
    "document_status",
    "get_document",
    "documents_to_process",
    "finish_run",
    "known_document_ids",
    "load_document",
    "mark_delivery",
    "pending_deliveries",
    "record_documents",
    "record_files",
    "set_kind",
    "set_status",
    "start_run",
    "table_counts",
    "upsert_issuers",
]

# A document left at extracted/validated by a crash is picked up again: loading is idempotent.
_TO_PROCESS = (
    Status.FETCHED.value,
    Status.EXTRACTED.value,
    Status.VALIDATED.value,
    Status.FAILED.value,
)


def upsert_issuers(conn: Connection, items: Iterable[Issuer]) -> None:
    """Insert issuers, or update name/CIK/HKEx code of the ones already known."""
    rows = list({i.ticker: _issuer_row(i) for i in items}.values())
    for chunk in chunks(rows):
        stmt = insert(conn, issuers).values(chunk)
        changed = {c: stmt.excluded[c] for c in ("name", "cik", "hkex_code")}
        differs = (
            (issuers.c.name != stmt.excluded.name)
            | (issuers.c.cik != stmt.excluded.cik)
            | (issuers.c.hkex_code != stmt.excluded.hkex_code)
        )
        conn.execute(
            stmt.on_conflict_do_update(index_elements=["ticker"], set_=changed, where=differs)
        )


def _issuer_row(issuer: Issuer) -> Row:
    return {
        "ticker": issuer.ticker,
        "name": issuer.name,
        "cik": issuer.cik,
        "hkex_code": issuer.hkex_code,
    }


def record_documents(conn: Connection, refs: Iterable[DocumentRef]) -> list[str]:
    """Record listed documents as ``fetched``; returns the ids that were new, in input order."""
    now = utcnow()
    rows = {ref.document_id: _document_row(ref, now) for ref in refs}
    created: set[str] = set()
    for chunk in chunks(list(rows.values())):
        stmt = (
            insert(conn, documents)
            .values(chunk)
            .on_conflict_do_nothing()
            .returning(documents.c.document_id)
        )
        created.update(conn.execute(stmt).scalars())
    return [doc_id for doc_id in rows if doc_id in created]


def _document_row(ref: DocumentRef, now: Any) -> Row:
    return {
        "document_id": ref.document_id,
        "source": ref.source,
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


def known_document_ids(conn: Connection, issuer: str, source: str) -> set[str]:
    """Ids of every document already recorded for an issuer from a source."""
    stmt = select(documents.c.document_id).where(
        documents.c.issuer == issuer, documents.c.source == source
    )
    return set(conn.execute(stmt).scalars())


def _update_document(conn: Connection, document_id: str, **values: Any) -> None:
    stmt = (
        update(documents)
        .where(documents.c.document_id == document_id)
        .values(updated_at=utcnow(), **values)
    )
    if conn.execute(stmt).rowcount == 0:
        raise UnknownDocumentError(f"unknown document {document_id!r}")


def set_status(conn: Connection, document_id: str, status: Status, reason: str = "") -> None:
    """Move a document to ``status``; ``reason`` says why (shown to operators)."""
    _update_document(conn, document_id, status=Status(status).value, status_reason=reason)


def set_kind(conn: Connection, document_id: str, kind: DocKind | str) -> None:
    """Record what a document turned out to be (results, dividend form, ...)."""
    _update_document(conn, document_id, kind=DocKind(kind).value)


def document_status(conn: Connection, document_id: str) -> Status | None:
    """The document's status, or None when it is not recorded."""
    stmt = select(documents.c.status).where(documents.c.document_id == document_id)
    status = conn.execute(stmt).scalar_one_or_none()
    return None if status is None else Status(status)


def documents_to_process(
    conn: Connection, issuer: str | None = None, *, force: bool = False
) -> list[str]:
    """Documents still to process (new, interrupted, or failed last time), oldest first.

    ``force`` returns every document of the issuer, to re-extract from the raw archive.
    """
    stmt = select(documents.c.document_id)
    if not force:
        stmt = stmt.where(documents.c.status.in_(_TO_PROCESS))
    if issuer is not None:
        stmt = stmt.where(documents.c.issuer == issuer)
    stmt = stmt.order_by(documents.c.published_at, documents.c.document_id)
    return list(conn.execute(stmt).scalars())


def record_files(conn: Connection, document_id: str, files: Iterable[StoredFile]) -> None:
    """Record a document's fetched files; a re-fetch with new content updates the row."""
    now = utcnow()
    rows = list(
        {
            f.name: {
                "document_id": document_id,
                "name": f.name,
                "url": f.url,
                "sha256": f.sha256,
                "size": f.size,
                "doc_type": f.doc_type,
                "fetched_at": now,
            }
            for f in files
        }.values()
    )
    t = schema.document_files
    for chunk in chunks(rows):
        stmt = insert(conn, t).values(chunk)
        cols = ("url", "sha256", "size", "doc_type", "fetched_at")
        differs = (
            (t.c.sha256 != stmt.excluded.sha256)
            | (t.c.url != stmt.excluded.url)
            | (t.c.size != stmt.excluded.size)
            | (t.c.doc_type != stmt.excluded.doc_type)
        )
        conn.execute(
            stmt.on_conflict_do_update(
                index_elements=["document_id", "name"],
                set_={c: stmt.excluded[c] for c in cols},
                where=differs,
            )
        )


def get_document(conn: Connection, document_id: str) -> DocumentRef:
    """The recorded document, as its source listed it (files come from ``document_files``)."""
    d = documents.c
    stmt = select(d.source, d.source_id, d.issuer, d.form, d.title, d.published_at, d.url).where(
        d.document_id == document_id
    )
    row = conn.execute(stmt).one_or_none()
    if row is None:
        raise UnknownDocumentError(f"unknown document {document_id!r}")
    return DocumentRef(*row)


def document_files(conn: Connection, document_id: str) -> list[StoredFile]:
    """The fetched files of a document, by name."""
    t = schema.document_files
    stmt = (
        select(t.c.name, t.c.url, t.c.sha256, t.c.size, t.c.doc_type)
        .where(t.c.document_id == document_id)
        .order_by(t.c.name)
    )
    return [StoredFile(*row) for row in conn.execute(stmt)]


def start_run(conn: Connection, flow_run_id: str | None) -> str:
    """Record the start of a pipeline run; returns its run_id."""
    run_id = uuid.uuid4().hex
    conn.execute(
        runs.insert().values(
            run_id=run_id,
            flow_run_id=flow_run_id,
            started_at=utcnow(),
            status="running",
            summary="{}",
        )
    )
    return run_id


def finish_run(conn: Connection, run_id: str, status: str, summary: dict[str, Any]) -> None:
    """Record how a run ended; ``summary`` is stored as JSON (Decimal and dates as text)."""
    text = json.dumps(summary, sort_keys=True, default=str)
    stmt = (
        update(runs)
        .where(runs.c.run_id == run_id)
        .values(finished_at=utcnow(), status=status, summary=text)
    )
    if conn.execute(stmt).rowcount == 0:
        raise LookupError(f"unknown run {run_id!r}")


def table_counts(conn: Connection) -> dict[str, int]:
    """Row count of every warehouse table (to check that a rerun changes nothing)."""
    return {t.name: conn.execute(select(func.count()).select_from(t)).scalar_one() for t in TABLES}
