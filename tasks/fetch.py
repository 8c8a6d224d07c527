"""Fetch stage: list what each source has for an issuer, and download new documents' files.

Listing is incremental: a cursor per source and issuer in the warehouse (``source_state``)
means a no-op run asks SEC and HKEx one question each. Downloads go into the raw archive;
immutable files (EDGAR Archives documents, HKEx PDFs) are never fetched twice, filing index
pages are revalidated with If-Modified-Since, and SEC's rate-limit block pauses the source
for every run on this warehouse until it is over.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from prefect import task
from prefect.cache_policies import NO_CACHE
from sqlalchemy.engine import Connection, Engine

from storage import source_state as state
from tasks import urls
from tasks.archive import RawArchive
from tasks.core.enums import SourceName
from tasks.core.errors import ConfigError, RateLimitedError
from tasks.core.records import DocumentRef, Issuer, SourceFile, StoredFile
from tasks.retry import RETRY_DELAYS, RETRY_JITTER, only_transient
from tasks.sources import disclosure, edgar, edgar_feed, hkex
from tasks.sources.clients import Sources, build_sources
from tasks.sources.listing import Listing

__all__ = ["Sources", "build_sources"]
HONG_KONG = hkex.HONG_KONG


def utcnow() -> datetime:
    """The clock of the fetch stage (tests replace it)."""
    return datetime.now(UTC)


def pause_reason(engine: Engine, source: str, now: datetime) -> str:
    """Why ``source`` must not be asked anything now ("" when it may)."""
    with engine.begin() as conn:
        pause = state.active_pause(conn, source, now)
    if pause is None:
        return ""
    until = pause.until.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return f"{source} paused until {until} ({pause.reason}); skipped, the next run resumes"


def _check_ready(engine: Engine, sources: Sources, source: str, now: datetime) -> None:
    if source == "sec" and sources.missing_identity:
        raise ConfigError(sources.missing_identity)
    reason = pause_reason(engine, source, now)
    if reason:
        raise RateLimitedError(reason, pause_seconds=0)


def _pause(
    engine: Engine, source: str, exc: RateLimitedError, now: datetime, minutes: float
) -> None:
    until = now + timedelta(seconds=max(exc.pause_seconds, minutes * 60))
    with engine.begin() as conn:
        state.set_pause(conn, source, until, "SEC 403 Request Rate Threshold Exceeded")


def discover(
    engine: Engine, sources: Sources, source: str, issuer: Issuer, since: date, explicit: bool
) -> Listing:
    """What the source lists for the issuer: everything from ``since`` when ``explicit``
    (a backfill), else what is new since the stored cursor (a first run starts at ``since``)."""
    now = utcnow()
    _check_ready(engine, sources, source, now)
    with engine.begin() as conn:
        stored = state.read_cursor(conn, source, issuer.ticker)
    cursor = {k: v for k, v in stored.items() if k == "stock_id"} if explicit else stored
    try:
        listing = _list(sources, source, issuer, since, cursor, now)
    except RateLimitedError as exc:
        _pause(engine, source, exc, now, sources.pause_minutes)
        raise
    covered = [c for c in (stored.get("covered_from"), listing.cursor.get("covered_from")) if c]
    if covered:  # what any run has listed back to stays covered
        listing.cursor["covered_from"] = min(covered)
    return listing


def _list(
    sources: Sources,
    source: str,
    issuer: Issuer,
    since: date,
    cursor: Mapping[str, str],
    now: datetime,
) -> Listing:
    if source == "sec":
        extra = []
        if sources.sec_latest_feed:
            extra = edgar_feed.parse_feed(sources.edgar.latest_feed(), issuer.cik)
        return edgar.list_edgar(
            sources.edgar, issuer, since, sources.sec_archives_url, cursor, extra
        )
    if source == "hkex":
        until = now.astimezone(HONG_KONG).date()
        return hkex.list_hkex(
            sources.hkex,
            issuer,
            since,
            until,
            sources.hkex_url,
            sources.hkex_language,
            cursor,
            sources.hkex_overlap_days,
        )
    raise ValueError(f"unknown source {source!r}: expected 'sec' or 'hkex'")


def record_listing(engine: Engine, source: str, issuer: Issuer, listing: Listing) -> None:
    """After the documents are registered: their metadata, amendment and disclosure links,
    and the cursor (stored last, so a failure means the next run lists again)."""
    with engine.begin() as conn:
        state.update_metadata(
            conn,
            [
                state.DocumentMeta(
                    i.ref.document_id, i.ref.title, i.category, i.cancelled, i.revised
                )
                for i in listing.items
            ],
        )
        state.link_amendments(
            conn, {i.ref.document_id: i.amends for i in listing.items if i.amends}
        )
        link_disclosures(conn, issuer.ticker)
        state.write_cursor(conn, source, issuer.ticker, listing.cursor)


def link_disclosures(conn: Connection, issuer: str) -> None:
    """Give every document of the issuer its disclosure id (:mod:`tasks.sources.disclosure`)."""
    docs = state.issuer_documents(conn, issuer)
    state.set_disclosures(conn, disclosure.links(issuer, docs))


def processable(engine: Engine, document_ids: Sequence[str]) -> list[str]:
    """``document_ids`` without the ones their source cancelled (kept, never extracted)."""
    with engine.begin() as conn:
        cancelled = state.cancelled_ids(conn, document_ids)
    return [d for d in document_ids if d not in cancelled]


def source_files(
    engine: Engine, sources: Sources, archive: RawArchive, ref: DocumentRef, cik: str
) -> tuple[SourceFile, ...]:
    """The files of a document worth downloading (EDGAR: primary + EX-99.x, by Type)."""
    if ref.source == "hkex":
        return ref.files or (SourceFile(ref.url.rsplit("/", 1)[-1], ref.url, "PDF"),)
    if ref.source != "sec":
        return ref.files
    url = edgar_index_url(sources, cik, ref.source_id)
    page = revalidate(engine, archive, sources.edgar, url)
    return edgar.wanted_files(
        edgar.parse_filing_index(page.decode("utf-8", "replace"), sources.sec_archives_url)
    )


def edgar_index_url(sources: Sources, cik: str, accession: str) -> str:
    """The ``-index.htm`` URL of a filing."""
    return urls.sec_filing_index(sources.sec_archives_url, cik, accession)


def revalidate(engine: Engine, archive: RawArchive, client: edgar.EdgarClient, url: str) -> bytes:
    """A page that may change: ask with If-Modified-Since, reuse the archived body on 304."""
    with engine.begin() as conn:
        cached = state.cached_page(conn, url)
    headers = {}
    if cached is not None and archive.has(cached.sha256):
        if cached.last_modified:
            headers["If-Modified-Since"] = cached.last_modified
        if cached.etag:
            headers["If-None-Match"] = cached.etag
    response = client.fetch(url, headers)
    if response.status == 304 and cached is not None and headers:
        return archive.get(cached.sha256)
    sha = archive.put(response.content, url=url, headers=response.headers)
    page = state.CachedPage(
        url, response.headers.get("ETag", ""), response.headers.get("Last-Modified", ""), sha
    )
    with engine.begin() as conn:
        state.remember_page(conn, page)
    return response.content


def fetch_files(
    engine: Engine,
    sources: Sources,
    archive: RawArchive,
    ref: DocumentRef,
    cik: str,
    already: Mapping[str, StoredFile],
) -> list[StoredFile]:
    """Download the document's files not yet archived; return every file it has."""
    if ref.source == "local":
        return list(already.values())  # dropped in by hand: archived when it was ingested
    now = utcnow()
    _check_ready(engine, sources, ref.source, now)
    try:
        return [
            _fetch_one(engine, sources, archive, ref, item, already)
            for item in source_files(engine, sources, archive, ref, cik)
        ]
    except RateLimitedError as exc:
        _pause(engine, ref.source, exc, now, sources.pause_minutes)
        raise


def _fetch_one(
    engine: Engine,
    sources: Sources,
    archive: RawArchive,
    ref: DocumentRef,
    item: SourceFile,
    already: Mapping[str, StoredFile],
) -> StoredFile:
    previous = already.get(item.name)
    if previous is not None and previous.url == item.url and archive.has(previous.sha256):
        return previous
    sha = archive.lookup(item.url)  # immutable: fetched before, perhaps by a run that died
    if sha is None:
        with engine.begin() as conn:
            known = state.archived_sha(conn, item.url)
        sha = known if known and archive.has(known) else None
    if sha is not None:
        size = previous.size if previous and previous.sha256 == sha else len(archive.get(sha))
    else:
        client = sources.edgar if ref.source == "sec" else sources.hkex
        response = client.fetch(item.url)
        sha, size = (
            archive.put(response.content, url=item.url, headers=response.headers),
            len(response.content),
        )
    return StoredFile(name=item.name, url=item.url, sha256=sha, size=size, doc_type=item.doc_type)


def read_files(archive: RawArchive, files: Sequence[StoredFile]) -> list[tuple[StoredFile, bytes]]:
    """The archived bytes of each file (re-extraction never re-downloads)."""
    return [(f, archive.get(f.sha256)) for f in files]


discover_task = task(
    name="discover",
    cache_policy=NO_CACHE,
    retries=3,
    retry_delay_seconds=RETRY_DELAYS,
    retry_jitter_factor=RETRY_JITTER,
    retry_condition_fn=only_transient,
)(discover)
fetch_files_task = task(
    name="fetch-files",
    cache_policy=NO_CACHE,
    retries=3,
    retry_delay_seconds=RETRY_DELAYS,
    retry_jitter_factor=RETRY_JITTER,
    retry_condition_fn=only_transient,
)(fetch_files)


def archive_local_file(
    archive: RawArchive, issuer: Issuer, path: Path
) -> tuple[DocumentRef, StoredFile]:
    """Store a hand-dropped file and describe it as a ``local`` document (keyed by content)."""
    content = path.read_bytes()
    url = path.resolve().as_uri()
    sha = archive.put(content, url=url, headers={})
    ref = DocumentRef(
        source=SourceName.LOCAL,
        source_id=sha[:16],
        issuer=issuer.ticker,
        form="local",
        title=path.name,
        published_at=datetime.now(UTC),
        url=url,
        files=(SourceFile(name=path.name, url=url, doc_type=path.suffix.lstrip(".").upper()),),
    )
    stored = StoredFile(name=path.name, url=url, sha256=sha, size=len(content), doc_type="local")
    return ref, stored
