"""Fetch stage: what every source shares, around the :class:`~tasks.sources.protocol.Source`.

Listing is incremental: a cursor per source and issuer in the warehouse (``source_state``)
means a no-op run asks SEC and HKEx one question each. Downloads go into the raw archive;
immutable files (EDGAR Archives documents, HKEx PDFs) are never fetched twice, pages that may
change (filing indexes) are revalidated with If-Modified-Since, and a rate-limit block pauses
the source for every run on this warehouse until it is over. Nothing here knows which source
it is talking to.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from typing import ParamSpec, TypeVar

from sqlalchemy.engine import Connection, Engine

from domain.enums import SourceName, Status
from domain.errors import ConfigError, RateLimitedError
from domain.readouts import CachedPage, DocumentMeta
from domain.records import DocumentRef, Issuer, SourceFile, StoredFile
from storage import documents
from storage import source_state as state
from tasks.sources import disclosure
from tasks.sources.archive import RawArchive
from tasks.sources.listing import Listing
from tasks.sources.protocol import Source, Sources, Watched
from tasks.sources.retry import RETRY_DELAYS, RETRY_JITTER, only_transient
from tasks.stage_task import StageTask

P = ParamSpec("P")
R = TypeVar("R")


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


def _check_ready(engine: Engine, source: Source, now: datetime) -> None:
    if source.refusal():
        raise ConfigError(source.refusal())
    reason = pause_reason(engine, source.name, now)
    if reason:
        raise RateLimitedError(reason, pause_seconds=0)


def _pause(
    engine: Engine, source: str, exc: RateLimitedError, now: datetime, sources: Sources
) -> RateLimitedError:
    """Pause the source as the server asked, never longer than the cap; the error to raise
    (saying the cap when it applied)."""
    # SEC's block lasts about ten minutes whatever it says; a long Retry-After lasts as asked.
    cap = sources.max_pause_minutes * 60
    if exc.status == 403:
        asked = max(exc.pause_seconds, sources.pause_minutes * 60)
        reason = "SEC 403 Request Rate Threshold Exceeded"
    else:
        asked = exc.pause_seconds
        reason = f"HTTP {exc.status} asked to wait {asked:.0f} s (Retry-After)"
    if asked > cap:
        reason += f"; paused {cap / 60:.0f} min, the cap (FILINGS_MAX_PAUSE_MINUTES)"
    with engine.begin() as conn:
        state.set_pause(conn, source, now + timedelta(seconds=min(asked, cap)), reason)
    if asked <= cap:
        return exc
    status = exc.status or 429
    return RateLimitedError(f"{exc}; {reason}", url=exc.url, pause_seconds=cap, status=status)


def covers(issuer: Issuer, source: str) -> bool:
    """Whether a source lists the issuer: SEC needs its CIK, HKEx its stock code."""
    ids = {SourceName.SEC: issuer.cik, SourceName.HKEX: issuer.hkex_code}
    return bool(ids.get(SourceName(source), "any"))


def discover(
    engine: Engine, sources: Sources, source: str, issuer: Issuer, since: date, explicit: bool
) -> Listing:
    """What the source lists for the issuer: everything from ``since`` when ``explicit``
    (a backfill), else what is new since the stored cursor (a first run starts at ``since``)."""
    now, chosen = utcnow(), sources[source]
    _check_ready(engine, chosen, now)
    with engine.begin() as conn:
        stored = state.read_cursor(conn, chosen.name, issuer.ticker)
    cursor = {k: v for k, v in stored.items() if k == "stock_id"} if explicit else stored
    try:
        listing = chosen.discover(issuer, since, cursor, now)
    except RateLimitedError as exc:
        raise _pause(engine, chosen.name, exc, now, sources) from None
    covered = [c for c in (stored.get("covered_from"), listing.cursor.get("covered_from")) if c]
    if covered:  # what any run has listed back to stays covered
        listing.cursor["covered_from"] = min(covered)
    return listing


def ask(engine: Engine, sources: Sources, source: str, question: Callable[[Source], R]) -> R:
    """Ask a source one question besides listing and downloading (XBRL company facts):
    refused while it is paused; a rate-limit block pauses it for every run."""
    now, chosen = utcnow(), sources[source]
    _check_ready(engine, chosen, now)
    try:
        return question(chosen)
    except RateLimitedError as exc:
        raise _pause(engine, chosen.name, exc, now, sources) from None


def watch(
    engine: Engine, sources: Sources, source: str, issuers: Sequence[Issuer]
) -> dict[str, list[str]]:
    """The documents the source's cross-issuer listing shows that the warehouse has not
    recorded, by ticker of the ``issuers``: one request, whatever the number of issuers."""
    now, chosen = utcnow(), sources[source]
    _check_ready(engine, chosen, now)
    if not isinstance(chosen, Watched):
        return {}
    try:
        shown = chosen.latest(issuers)
    except RateLimitedError as exc:
        raise _pause(engine, chosen.name, exc, now, sources) from None
    with engine.begin() as conn:
        known = documents.recorded(conn, [d for ids in shown.values() for d in ids])
    news = {ticker: sorted(set(ids) - known) for ticker, ids in shown.items()}
    return {ticker: ids for ticker, ids in news.items() if ids}


def record_listing(engine: Engine, source: str, issuer: Issuer, listing: Listing) -> list[str]:
    """Record the listed documents (returning the ids new to the warehouse), their metadata,
    amendment and disclosure links, and the cursor, in one transaction (a failure means the
    next run lists again)."""
    if listing.fiscal_year_end and not issuer.fiscal_year_end:  # the issuers file wins
        issuer = replace(issuer, fiscal_year_end=listing.fiscal_year_end)
    with engine.begin() as conn:
        documents.upsert_issuers(conn, [issuer])
        new = documents.record_documents(conn, listing.refs)
        state.update_metadata(
            conn,
            [
                DocumentMeta(i.ref.document_id, i.ref.title, i.category, i.cancelled, i.revised)
                for i in listing.items
            ],
        )
        state.link_amendments(
            conn, {i.ref.document_id: i.amends for i in listing.items if i.amends}
        )
        link_disclosures(conn, issuer.ticker)
        state.write_cursor(conn, SourceName(source), issuer.ticker, listing.cursor)
    return new


def link_disclosures(conn: Connection, issuer: str) -> None:
    """Give every document of the issuer its disclosure id (:mod:`tasks.sources.disclosure`)."""
    docs = state.issuer_documents(conn, issuer)
    state.set_disclosures(conn, disclosure.links(issuer, docs))


def relink_disclosures(engine: Engine, issuer: str) -> None:
    """Link disclosures again once the issuer's documents are processed: extraction tells which
    6-Ks are results, so one run stores what two runs would (no field filled only later)."""
    # Read, then write in a transaction of its own: on SQLite a transaction that reads and
    # then writes fails at once when another run wrote in between; a write first waits.
    with engine.connect() as conn:
        docs = state.issuer_documents(conn, issuer)
    with engine.begin() as conn:
        state.set_disclosures(conn, disclosure.links(issuer, docs))


def pending(engine: Engine, issuer: str, force: bool = False) -> list[str]:
    """Documents of the issuer still to process (new, or failed before), without the ones
    their source cancelled (kept, never extracted); ``force``: every document again."""
    with engine.begin() as conn:
        return pending_on(conn, issuer, force)


def pending_on(conn: Connection, issuer: str, force: bool = False) -> list[str]:
    """:func:`pending` inside the caller's transaction."""
    todo = documents.documents_to_process(conn, issuer, force=force)
    cancelled = state.cancelled_ids(conn, todo)
    return [d for d in todo if d not in cancelled]


def source_files(
    engine: Engine,
    sources: Sources,
    archive: RawArchive,
    ref: DocumentRef,
    cik: str,
    archived: Sequence[StoredFile] = (),
) -> tuple[SourceFile, ...]:
    """The files of a document worth downloading, as its source names them."""
    source = sources[ref.source]
    return source.files(ref, cik, lambda url: revalidate(engine, archive, source, url), archived)


def revalidate(engine: Engine, archive: RawArchive, source: Source, url: str) -> bytes:
    """A page that may change: ask with If-Modified-Since, reuse the archived body on 304."""
    with engine.begin() as conn:
        cached = state.cached_page(conn, url)
    headers = {}
    if cached is not None and archive.has(cached.sha256):
        if cached.last_modified:
            headers["If-Modified-Since"] = cached.last_modified
        if cached.etag:
            headers["If-None-Match"] = cached.etag
    response = source.fetch(url, headers)
    if response.status == 304 and cached is not None and headers:
        return archive.get(cached.sha256)
    sha = archive.put(response.content, url=url, headers=response.headers)
    page = CachedPage(
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
    now, source = utcnow(), sources[ref.source]
    _check_ready(engine, source, now)
    try:
        wanted = source_files(engine, sources, archive, ref, cik, list(already.values()))
        return [_fetch_one(engine, source, archive, item, already) for item in wanted]
    except RateLimitedError as exc:
        raise _pause(engine, source.name, exc, now, sources) from None


def _fetch_one(
    engine: Engine,
    source: Source,
    archive: RawArchive,
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
        response = source.fetch(item.url)
        sha, size = (
            archive.put(response.content, url=item.url, headers=response.headers),
            len(response.content),
        )
    return StoredFile(name=item.name, url=item.url, sha256=sha, size=size, doc_type=item.doc_type)


def download_document(
    engine: Engine, sources: Sources, archive: RawArchive, cik: str, document_id: str
) -> list[StoredFile]:
    """Download what the recorded document still lacks into the raw archive, record its files
    (status ``fetched``) and return them (their bytes stay in the archive: a run's downloads
    may run far ahead of its processing without holding them in memory)."""
    with engine.begin() as conn:
        ref = documents.get_document(conn, document_id)
        already = {f.name: f for f in documents.document_files(conn, document_id)}
    files = fetch_files(engine, sources, archive, ref, cik, already)
    with engine.begin() as conn:
        documents.record_files(conn, document_id, files)
        documents.set_status(conn, document_id, Status.FETCHED)
    return files


def archived(archive: RawArchive, files: Sequence[StoredFile]) -> list[tuple[StoredFile, bytes]]:
    """The files with their archived bytes (re-extraction never re-downloads)."""
    return [(f, archive.get(f.sha256)) for f in files]


def fetch_document(
    engine: Engine, sources: Sources, archive: RawArchive, cik: str, document_id: str
) -> list[tuple[StoredFile, bytes]]:
    """:func:`download_document`, then the files with their archived bytes."""
    return archived(archive, download_document(engine, sources, archive, cik, document_id))


# Transport errors a retry can fix are retried with growing, jittered delays; a rate block,
# a missing file or a bad answer is not (tasks.sources.retry).
def retried(name: str, fn: Callable[P, R]) -> StageTask[P, R]:
    """A task of ``fn`` retried only when the error is transient."""
    return StageTask(
        fn,
        name=name,
        retries=3,
        retry_delay_seconds=RETRY_DELAYS,
        retry_jitter_factor=RETRY_JITTER,
        retry_condition_fn=only_transient,
    )


discover_task = retried("discover", discover)
watch_task = retried("watch", watch)
fetch_task = retried("fetch", download_document)
