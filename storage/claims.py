"""Document claims: of several workers racing on the same documents, one processes each.

A claim is a row per document with the claiming worker and an expiry; a worker that died
leaves a claim the next one takes over once it has expired. Functions take a ``Connection``
and run inside the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Connection

from storage.documents import TO_PROCESS
from storage.schema import document_claims, documents
from storage.sql import insert


def claim(
    conn: Connection, document_id: str, worker: str, now: datetime, lease: timedelta, force: bool
) -> bool:
    """Claim the document for ``worker`` until ``now + lease``: False when another worker's
    claim holds, or when (unless ``force``) it no longer needs processing."""
    c = document_claims.c
    stmt = insert(conn, document_claims).values(
        document_id=document_id, worker=worker, claimed_at=now, expires_at=now + lease
    )
    # The upsert takes the row lock (PostgreSQL) or the write lock (SQLite): a racing worker
    # waits here, then sees the claim and gets no row back.
    stmt = stmt.on_conflict_do_update(
        index_elements=["document_id"],
        set_={k: stmt.excluded[k] for k in ("worker", "claimed_at", "expires_at")},
        where=(c.expires_at < now) | (c.worker == worker),
    ).returning(c.document_id)
    if conn.execute(stmt).first() is None:
        return False
    status = conn.execute(
        select(documents.c.status).where(documents.c.document_id == document_id)
    ).scalar_one()
    if force or status in TO_PROCESS:
        return True
    release(conn, document_id, worker)  # done by another worker since this one listed it
    return False


def release(conn: Connection, document_id: str | None, worker: str) -> None:
    """Drop the worker's claim once the document is processed (or failed); ``None``: every
    claim the worker still holds (its run is over)."""
    c = document_claims.c
    stmt = delete(document_claims).where(c.worker == worker)
    if document_id is not None:
        stmt = stmt.where(c.document_id == document_id)
    conn.execute(stmt)


def holder(conn: Connection, document_id: str) -> str | None:
    """The worker holding the document's claim, if any."""
    c = document_claims.c
    found = conn.execute(select(c.worker).where(c.document_id == document_id)).scalar()
    return str(found) if found is not None else None


def hand_over(
    conn: Connection, document_id: str, giver: str, taker: str, now: datetime, lease: timedelta
) -> bool:
    """Pass ``giver``'s claim on the document to ``taker`` for a new lease; False when
    ``giver`` no longer holds it (taken back, or taken over after it lapsed)."""
    c = document_claims.c
    stmt = (
        update(document_claims)
        .where(c.document_id == document_id, c.worker == giver)
        .values(worker=taker, claimed_at=now, expires_at=now + lease)
    )
    return bool(conn.execute(stmt).rowcount)


def lease(conn: Connection, document_id: str) -> tuple[str, datetime] | None:
    """Who holds the document's claim and until when; None when nobody does."""
    c = document_claims.c
    row = conn.execute(select(c.worker, c.expires_at).where(c.document_id == document_id)).first()
    return (str(row.worker), row.expires_at) if row is not None else None


def in_flight(conn: Connection, issuer: str, now: datetime, gone: Callable[[str], bool]) -> int:
    """How many of the issuer's documents a worker holds a live claim on (being processed);
    not those of a worker that is ``gone`` (killed between loading a document and releasing
    it: its claim would keep the issuer unsettled until the lease ran out)."""
    c = document_claims.c
    stmt = (
        select(c.worker)
        .select_from(document_claims.join(documents, documents.c.document_id == c.document_id))
        .where(documents.c.issuer == issuer, c.expires_at > now)
    )
    return sum(1 for worker in conn.execute(stmt).scalars() if not gone(str(worker)))
