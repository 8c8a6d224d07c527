"""Source bookkeeping in the warehouse: throttle pauses, listing cursors, HTTP validators, and
what a source says about a document beyond its listing (category, revision, cancellation,
amendment, disclosure).

Functions take a ``Connection`` and run inside the caller's transaction.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import and_, select, update
from sqlalchemy.engine import Connection

from domain.readouts import CachedPage, DocumentMeta, Pause
from domain.records import ListedDocument
from storage.schema import document_files, documents, http_cache, source_state
from storage.sql import insert, utcnow

ALL_SCOPES = "*"


def _upsert_state(conn: Connection, source: str, scope: str, **values: Any) -> None:
    row = {"source": source, "scope": scope, "updated_at": utcnow(), **values}
    stmt = insert(conn, source_state).values(row)
    changed = {k: stmt.excluded[k] for k in row if k not in ("source", "scope")}
    conn.execute(stmt.on_conflict_do_update(index_elements=["source", "scope"], set_=changed))


def set_pause(conn: Connection, source: str, until: datetime, reason: str) -> None:
    """Block ``source`` (every scope) until ``until``."""
    _upsert_state(conn, source, ALL_SCOPES, paused_until=until, pause_reason=reason)


def active_pause(conn: Connection, source: str, now: datetime) -> Pause | None:
    """The pause still in force for ``source`` at ``now``, if any."""
    t = source_state.c
    stmt = select(t.paused_until, t.pause_reason).where(
        t.source == source, t.scope == ALL_SCOPES, t.paused_until.is_not(None)
    )
    row = conn.execute(stmt).one_or_none()
    if row is None or row.paused_until <= now:
        return None
    return Pause(until=row.paused_until, reason=row.pause_reason)


def read_cursor(conn: Connection, source: str, scope: str) -> dict[str, Any]:
    """The listing cursor of ``source`` for one issuer (a JSON object; empty when none)."""
    t = source_state.c
    stmt = select(t.cursor).where(t.source == source, t.scope == scope)
    text = conn.execute(stmt).scalar_one_or_none()
    if not text:
        return {}
    value = json.loads(text)
    return value if isinstance(value, dict) else {}


def write_cursor(conn: Connection, source: str, scope: str, cursor: Mapping[str, Any]) -> None:
    """Store the cursor after a successful listing."""
    text = json.dumps(dict(cursor), sort_keys=True, default=str)
    _upsert_state(conn, source, scope, cursor=text, last_success_at=utcnow())


def cached_page(conn: Connection, url: str) -> CachedPage | None:
    """Validators and archived body of a page fetched before."""
    t = http_cache.c
    stmt = select(t.url, t.etag, t.last_modified, t.sha256).where(t.url == url)
    row = conn.execute(stmt).one_or_none()
    return None if row is None else CachedPage(*row)


def remember_page(conn: Connection, page: CachedPage) -> None:
    """Record the validators of a page and where its body is archived."""
    row = {
        "url": page.url,
        "etag": page.etag,
        "last_modified": page.last_modified,
        "sha256": page.sha256,
        "fetched_at": utcnow(),
    }
    stmt = insert(conn, http_cache).values(row)
    changed = {k: stmt.excluded[k] for k in row if k != "url"}
    conn.execute(stmt.on_conflict_do_update(index_elements=["url"], set_=changed))


def archived_sha(conn: Connection, url: str) -> str | None:
    """The sha256 of a file some document already fetched from ``url``."""
    stmt = select(document_files.c.sha256).where(document_files.c.url == url).limit(1)
    found: str | None = conn.execute(stmt).scalar()
    return found


def update_metadata(conn: Connection, items: Iterable[DocumentMeta]) -> int:
    """Bring title, category and revision/cancellation flags up to date; return rows changed."""
    d = documents.c
    changed = 0
    for item in items:
        differs = (
            (d.title != item.title)
            | (d.category != item.category)
            | (d.is_cancelled != item.is_cancelled)
            | (d.headline_revised != item.headline_revised)
        )
        stmt = (
            update(documents)
            .where(and_(d.document_id == item.document_id, differs))
            .values(
                title=item.title,
                category=item.category,
                is_cancelled=item.is_cancelled,
                headline_revised=item.headline_revised,
                updated_at=utcnow(),
            )
        )
        changed += conn.execute(stmt).rowcount or 0
    return changed


def link_amendments(conn: Connection, links: Mapping[str, str]) -> None:
    """Record which document each amendment (document id -> amended document id) amends."""
    _set_where_changed(conn, "amends_document_id", links)


def set_disclosures(conn: Connection, links: Mapping[str, str]) -> None:
    """Set the disclosure id of documents (document id -> disclosure id)."""
    _set_where_changed(conn, "disclosure_id", links)


def _set_where_changed(conn: Connection, column: str, values: Mapping[str, str]) -> None:
    # Only rows whose value differs are touched, so updated_at means "something changed".
    target = documents.c[column]
    for document_id, value in values.items():
        stmt = (
            update(documents)
            .where(documents.c.document_id == document_id, target.is_distinct_from(value))
            .values({column: value, "updated_at": utcnow()})
        )
        conn.execute(stmt)


def issuer_documents(conn: Connection, issuer: str) -> list[ListedDocument]:
    """Every recorded document of an issuer, oldest first."""
    d = documents.c
    stmt = (
        select(
            d.document_id,
            d.source,
            d.form,
            d.category,
            d.kind,
            d.published_at,
            d.amends_document_id,
        )
        .where(d.issuer == issuer)
        .order_by(d.published_at, d.document_id)
    )
    return [
        ListedDocument(r[0], r[1], r[2], r[3], r[4] or "", r[5], r[6]) for r in conn.execute(stmt)
    ]


def cancelled_ids(conn: Connection, document_ids: Iterable[str]) -> set[str]:
    """Those of ``document_ids`` their source marked cancelled (kept, never extracted)."""
    wanted = list(document_ids)
    if not wanted:
        return set()
    stmt = select(documents.c.document_id).where(
        documents.c.document_id.in_(wanted), documents.c.is_cancelled.is_(True)
    )
    return set(conn.execute(stmt).scalars())
