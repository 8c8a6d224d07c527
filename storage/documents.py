"""Issuers and documents in the warehouse: recording what sources list, their files, status.

Set-based and idempotent: recording a document twice changes nothing. Functions take a
``Connection`` and run inside the caller's transaction (``engine.begin()``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, or_, select, update
from sqlalchemy.engine import Connection

from domain.enums import DocKind, SourceName, Status
from domain.errors import UnknownDocumentError
from domain.readouts import DocumentInfo
from domain.records import (
    DocumentRef,
    Issuer,
    StoredFile,
)
from storage import schema
from storage.mapping import (
    FILE_COLUMNS,
    REF_COLUMNS,
    document_row,
    file_from_row,
    file_row,
    info_from_row,
    issuer_row,
    ref_from_row,
)
from storage.schema import documents, issuers
from storage.sql import chunks, insert, utcnow

# A document left at extracted/validated by a crash is picked up again: loading is idempotent.
# A failed one too, unless it was refused (not the issuer's: a rerun cannot change that).
REFUSED = "refused: "
TO_PROCESS = (
    Status.FETCHED.value,
    Status.EXTRACTED.value,
    Status.VALIDATED.value,
    Status.FAILED.value,
)


def upsert_issuers(conn: Connection, items: Iterable[Issuer]) -> None:
    """Insert issuers, or update name/CIK/HKEx code and fiscal year end of the ones already
    known (an issuer whose fiscal year end is not given keeps the stored one)."""
    rows = list({i.ticker: issuer_row(i) for i in items}.values())
    for chunk in chunks(rows):
        stmt = insert(conn, issuers).values(chunk)
        changed = {c: stmt.excluded[c] for c in ("name", "cik", "hkex_code")}
        year_end = func.coalesce(
            func.nullif(stmt.excluded.fiscal_year_end, ""), issuers.c.fiscal_year_end
        )
        changed["fiscal_year_end"] = year_end
        differs = (
            (issuers.c.name != stmt.excluded.name)
            | (issuers.c.cik != stmt.excluded.cik)
            | (issuers.c.hkex_code != stmt.excluded.hkex_code)
            | (issuers.c.fiscal_year_end != year_end)
        )
        conn.execute(
            stmt.on_conflict_do_update(index_elements=["ticker"], set_=changed, where=differs)
        )


def record_documents(conn: Connection, refs: Iterable[DocumentRef]) -> list[str]:
    """Record listed documents as ``fetched``; returns the ids that were new, in input order.

    A document listed before and not loaded yet takes the address listed now: a source that
    corrects a bad link must not leave the document failing on the old one for good. A loaded
    document keeps the address its stored facts came from."""
    now = utcnow()
    rows = {ref.document_id: document_row(ref, now) for ref in refs}
    created: set[str] = set()
    for chunk in chunks(list(rows.values())):
        stmt = (
            insert(conn, documents)
            .values(chunk)
            .on_conflict_do_nothing()
            .returning(documents.c.document_id)
        )
        created.update(conn.execute(stmt).scalars())
    again = [{"id": d, "new_url": r["url"]} for d, r in rows.items() if d not in created]
    if again:
        d = documents.c
        readdressed = (
            update(documents)
            .where(d.document_id == bindparam("id"), d.url != bindparam("new_url"))
            .where(or_(*(d.status == s for s in TO_PROCESS)))  # IN cannot go to executemany
            .values(url=bindparam("new_url"), updated_at=now)
        )
        conn.execute(readdressed, again)
    return [doc_id for doc_id in rows if doc_id in created]


def known_document_ids(conn: Connection, issuer: str, source: str) -> set[str]:
    """Ids of every document already recorded for an issuer from a source."""
    stmt = select(documents.c.document_id).where(
        documents.c.issuer == issuer, documents.c.source == source
    )
    return set(conn.execute(stmt).scalars())


def recorded(conn: Connection, document_ids: Iterable[str]) -> set[str]:
    """Which of ``document_ids`` the warehouse has recorded (any status)."""
    wanted = sorted(set(document_ids))
    found: set[str] = set()
    for start in range(0, len(wanted), 500):  # under every driver's parameter limit
        chunk = wanted[start : start + 500]
        stmt = select(documents.c.document_id).where(documents.c.document_id.in_(chunk))
        found.update(conn.execute(stmt).scalars())
    return found


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


def forget_document(conn: Connection, document_id: str) -> None:
    """Remove a document that holds nothing but its files (a refused hand-dropped file)."""
    for table in (schema.document_claims, schema.document_files, documents):
        conn.execute(table.delete().where(table.c.document_id == document_id))


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
    # an audited filing's figures come from XBRL company facts: nothing to fetch or extract
    stmt = select(documents.c.document_id).where(documents.c.source != SourceName.XBRL.value)
    if not force:
        stmt = stmt.where(
            documents.c.status.in_(TO_PROCESS), ~documents.c.status_reason.startswith(REFUSED)
        )
    if issuer is not None:
        stmt = stmt.where(documents.c.issuer == issuer)
    stmt = stmt.order_by(documents.c.published_at, documents.c.document_id)
    return list(conn.execute(stmt).scalars())


def record_files(conn: Connection, document_id: str, files: Iterable[StoredFile]) -> None:
    """Record a document's fetched files; a re-fetch with new content updates the row."""
    now = utcnow()
    rows = list({f.name: file_row(document_id, f, now) for f in files}.values())
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
    stmt = select(*(documents.c[c] for c in REF_COLUMNS)).where(
        documents.c.document_id == document_id
    )
    row = conn.execute(stmt).one_or_none()
    if row is None:
        raise UnknownDocumentError(f"unknown document {document_id!r}")
    return ref_from_row(row)


def document_files(conn: Connection, document_id: str) -> list[StoredFile]:
    """The fetched files of a document, by name."""
    t = schema.document_files
    stmt = (
        select(*(t.c[c] for c in FILE_COLUMNS))
        .where(t.c.document_id == document_id)
        .order_by(t.c.name)
    )
    return [file_from_row(row) for row in conn.execute(stmt)]


def document_info(conn: Connection, document_id: str) -> DocumentInfo:
    """The document's issuer, source, kind, status and publication date."""
    d = documents.c
    stmt = select(
        d.document_id, d.issuer, d.source, d.kind, d.status, d.published_on, d.disclosure_id
    ).where(d.document_id == document_id)
    row = conn.execute(stmt).one_or_none()
    if row is None:
        raise UnknownDocumentError(f"unknown document {document_id!r}: check the id in documents")
    return info_from_row(row)


def same_file_documents(
    conn: Connection, issuer: str, sha256: str, name: str
) -> list[tuple[str, str]]:
    """(document_id, status) of the issuer's documents holding this file already: the same
    content (sha256), or a file of the same name from a source (the same exhibit fetched)."""
    f = schema.document_files
    same = (f.c.sha256 == sha256) | (
        (f.c.name == name) & (documents.c.source != SourceName.LOCAL.value)
    )
    rows = conn.execute(
        select(documents.c.document_id, documents.c.status)
        .join(f, f.c.document_id == documents.c.document_id)
        .where(documents.c.issuer == issuer, same)
        .distinct()
        .order_by(documents.c.document_id)
    )
    return [(r.document_id, r.status) for r in rows]


def published_times(conn: Connection, document_ids: Iterable[str]) -> dict[str, datetime]:
    """When each of the documents was published (the ones recorded)."""
    ids = sorted(set(document_ids))
    if not ids:
        return {}
    stmt = select(documents.c.document_id, documents.c.published_at).where(
        documents.c.document_id.in_(ids)
    )
    return {r.document_id: r.published_at for r in conn.execute(stmt)}
