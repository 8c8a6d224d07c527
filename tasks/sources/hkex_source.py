"""HKEXnews as a :class:`~tasks.sources.protocol.Source`: announcements and their PDFs.

:class:`HttpHkexClient` is the only code that talks to HKEXnews. HKEX's terms of use restrict
automated access: the pace is the user's to set (``FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS``,
default 1 s). The listing and its parsers are pure (:mod:`tasks.sources.hkex`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any
from urllib.parse import urlsplit

from domain.enums import SourceName
from domain.errors import ParseError
from domain.records import DocumentRef, Issuer, SourceFile, StoredFile
from tasks.sources import hkex, hkex_latest, transfer, urls
from tasks.sources.http import HttpClient, Response
from tasks.sources.listing import Listing, guarded
from tasks.sources.protocol import PageReader


class HttpHkexClient:
    """HKEXnews over HTTP at the configured base URL."""

    def __init__(self, http: HttpClient, hkex_url: str) -> None:
        self._http = http
        self.hkex_url = hkex_url

    def active_stocks(self) -> Sequence[Mapping[str, Any]]:
        """The active stock list (code -> stockId)."""
        data = _json(self._http.get(urls.hkex_active_stocks(self.hkex_url)))
        if not isinstance(data, list):
            raise ParseError("HKEx active stock list is not a JSON array")
        return data

    def prefix_search(self, code: str) -> Sequence[Mapping[str, Any]]:
        """``prefix.do`` rows for a code (a prefix search: match the code exactly)."""
        page = self._http.get(urls.hkex_prefix_search(self.hkex_url, code))
        return hkex.parse_prefix(page.text())

    def title_search(
        self, stock_id: int, start: date, end: date, row_range: int
    ) -> Mapping[str, Any]:
        """One title-search request."""
        url = urls.hkex_title_search(self.hkex_url, stock_id, start, end, row_range)
        data = _json(self._http.get(url))
        if not isinstance(data, Mapping):
            raise ParseError("HKEx title search answer is not a JSON object")
        return data

    def latest_listing(self, language: str) -> bytes:
        """The latest-announcements listing (first page) of the edition ``language``."""
        lang = "c" if language == "zh" else "e"
        return self._http.get(urls.hkex_latest_listing(self.hkex_url, lang)).content

    def fetch(self, url: str, headers: Mapping[str, str] | None = None) -> Response:
        """One announcement file."""
        return self._http.get(url, headers)


class HkexSource:
    """HKEXnews announcements of an issuer, by title search; each one is its PDF."""

    name = SourceName.HKEX
    listed = True

    def __init__(self, client: HttpHkexClient, *, language: str = "en", overlap_days: int = 7):
        self.client = client
        self.language = language
        self.overlap_days = overlap_days

    def refusal(self) -> str:
        """HKEx needs no declared identity: always "" (its pace is the limiter's)."""
        return ""

    def discover(
        self, issuer: Issuer, since: date, cursor: Mapping[str, str], now: datetime
    ) -> Listing:
        """Announcements from ``since`` to today in Hong Kong (see ``hkex.list_hkex``)."""
        until = now.astimezone(hkex.HONG_KONG).date()
        return guarded("HKEx title search", lambda: hkex.list_hkex(
            self.client, issuer, since, until, self.client.hkex_url, self.language, cursor,
            self.overlap_days,
        ))  # fmt: skip

    def latest(self, issuers: Sequence[Issuer]) -> dict[str, list[str]]:
        """The issuers' announcements in the latest listing, matched by stock code (one
        request)."""
        news = hkex_latest.parse_latest(self.client.latest_listing(self.language), self.language)
        found = {i.ticker: news.get(i.hkex_code.zfill(5), []) for i in issuers if i.hkex_code}
        return {t: [f"{self.name}:{n}" for n in ids] for t, ids in found.items() if ids}

    def files(
        self, ref: DocumentRef, cik: str, pages: PageReader, archived: Sequence[StoredFile]
    ) -> tuple[SourceFile, ...]:
        """The announcement's file as listed, else the PDF its link names, on the configured
        HKEx URL (a stored URL may name a replay server gone since, or an old base URL)."""
        if ref.files:
            return ref.files
        url = urls.hkex_document(self.client.hkex_url, urlsplit(ref.url).path)
        return (SourceFile(url.rsplit("/", 1)[-1], url, "PDF"),)

    def fetch(self, url: str, headers: Mapping[str, str] | None = None) -> Response:
        """One announcement file."""
        return self.client.fetch(url, headers)


def _json(response: Response) -> Any:
    return transfer.json_body(response.url, response.content, "HKEx answer")
