"""Fetch stage: list what each source has for an issuer, and download new documents' files.

Downloads go into the raw archive; a file already archived for a document is never fetched
again, so a rerun after a crash picks up exactly what is missing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

from prefect import task
from prefect.cache_policies import NO_CACHE

from tasks.archive import RawArchive
from tasks.config import Settings
from tasks.http import HttpClient, RateLimiter
from tasks.models import DocumentRef, Issuer, SourceFile, StoredFile
from tasks.retry import RETRY_DELAYS, only_transient
from tasks.sources import edgar, hkex


@dataclass(frozen=True, slots=True)
class Sources:
    """The clients of one run, built once at the edge from settings."""

    edgar: edgar.EdgarClient
    hkex: hkex.HkexClient
    sec_archives_url: str
    hkex_url: str
    hkex_language: str


def build_sources(settings: Settings) -> Sources:
    """HTTP clients for both sources, each with its own pace."""
    sec_http = HttpClient(
        user_agent=settings.sec_user_agent or "filings-pipeline replay@localhost",
        limiter=RateLimiter(1.0 / settings.sec_max_requests_per_second),
        timeout=settings.http_timeout_seconds,
    )
    hkex_http = HttpClient(
        user_agent=settings.sec_user_agent or "filings-pipeline replay@localhost",
        limiter=RateLimiter(settings.hkex_seconds_between_requests),
        timeout=settings.http_timeout_seconds,
    )
    return Sources(
        edgar=edgar.HttpEdgarClient(sec_http, settings.sec_data_url, settings.sec_archives_url),
        hkex=hkex.HttpHkexClient(hkex_http, settings.hkex_url),
        sec_archives_url=settings.sec_archives_url,
        hkex_url=settings.hkex_url,
        hkex_language=settings.hkex_language,
    )


def discover(
    sources: Sources, source: str, issuer: Issuer, since: date, until: date
) -> list[DocumentRef]:
    """Documents the source lists for the issuer between ``since`` and ``until``."""
    if source == "sec":
        return edgar.list_filings(sources.edgar, issuer, since, sources.sec_archives_url)
    if source == "hkex":
        return hkex.list_announcements(
            sources.hkex, issuer, since, until, sources.hkex_url, sources.hkex_language
        )
    raise ValueError(f"unknown source {source!r}: expected 'sec' or 'hkex'")


def source_files(sources: Sources, ref: DocumentRef, cik: str) -> tuple[SourceFile, ...]:
    """The files of a document worth downloading (EDGAR: primary + EX-99.x, by Type)."""
    if ref.source == "hkex":
        return ref.files or (SourceFile(ref.url.rsplit("/", 1)[-1], ref.url, "PDF"),)
    if ref.source != "sec":
        return ref.files
    page = sources.edgar.filing_index(cik, ref.source_id)
    return edgar.wanted_files(edgar.parse_filing_index(page, sources.sec_archives_url))


def fetch_files(
    sources: Sources,
    archive: RawArchive,
    ref: DocumentRef,
    cik: str,
    already: Mapping[str, StoredFile],
) -> list[StoredFile]:
    """Download the document's files not yet archived; return every file it has."""
    if ref.source == "local":
        return list(already.values())  # dropped in by hand: archived when it was ingested
    stored: list[StoredFile] = []
    for item in source_files(sources, ref, cik):
        previous = already.get(item.name)
        if previous is not None and archive.has(previous.sha256):
            stored.append(previous)
            continue
        client = sources.edgar if ref.source == "sec" else sources.hkex
        response = client.fetch(item.url)
        sha = archive.put(response.content, url=item.url, headers=response.headers)
        stored.append(
            StoredFile(
                name=item.name,
                url=item.url,
                sha256=sha,
                size=len(response.content),
                doc_type=item.doc_type,
            )
        )
    return stored


def read_files(archive: RawArchive, files: Sequence[StoredFile]) -> list[tuple[StoredFile, bytes]]:
    """The archived bytes of each file (re-extraction never re-downloads)."""
    return [(f, archive.get(f.sha256)) for f in files]


discover_task = task(
    name="discover",
    cache_policy=NO_CACHE,
    retries=3,
    retry_delay_seconds=RETRY_DELAYS,
    retry_condition_fn=only_transient,
)(discover)
fetch_files_task = task(
    name="fetch-files",
    cache_policy=NO_CACHE,
    retries=3,
    retry_delay_seconds=RETRY_DELAYS,
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
        source="local",
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
