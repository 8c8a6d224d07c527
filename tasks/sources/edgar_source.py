"""SEC EDGAR as a :class:`~tasks.sources.protocol.Source`: 6-K filings and their exhibits.

:class:`HttpEdgarClient` is the one thing that talks to SEC, through the shared HTTP client
(declared User-Agent, the run's limiter) at URLs from :mod:`tasks.sources.urls`; the listing
and the filing-index parsing are pure (:mod:`tasks.sources.edgar`, ``edgar_feed``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any

from domain.enums import SourceName
from domain.errors import ParseError
from domain.records import DocumentRef, Issuer, SourceFile, StoredFile
from tasks.sources import edgar, edgar_feed, transfer, urls
from tasks.sources.http import HttpClient, Response
from tasks.sources.listing import Listing, guarded
from tasks.sources.protocol import PageReader


class HttpEdgarClient:
    """EDGAR over HTTP, at the URLs configured (real SEC, a mirror, or the replay server)."""

    def __init__(self, http: HttpClient, data_url: str, archives_url: str) -> None:
        self._http = http
        self._data_url = data_url
        self.archives_url = archives_url
        self._feed: bytes | None = None

    def submissions(self, cik: str) -> Mapping[str, Any]:
        """The submissions JSON of one company."""
        return _json(self._http.get(urls.sec_submissions(self._data_url, cik)))

    def submissions_page(self, name: str) -> Mapping[str, Any]:
        """An older-filings page."""
        return _json(self._http.get(urls.sec_submissions_page(self._data_url, name)))

    def filing_index(self, cik: str, accession: str) -> str:
        """The ``-index.htm`` page of one filing."""
        return self._http.get(urls.sec_filing_index(self.archives_url, cik, accession)).text()

    def fetch(self, url: str, headers: Mapping[str, str] | None = None) -> Response:
        """One Archives file (``headers`` for a conditional request)."""
        return self._http.get(url, headers)

    def company_facts(self, cik: str) -> Response:
        """Every XBRL fact the company filed (NotFoundError: SEC holds none for the CIK)."""
        return self._http.get(urls.sec_company_facts(self._data_url, cik))

    def latest_feed(self, again: bool = False) -> bytes:
        """The "latest filings" Atom feed of 6-Ks: asked once per client (i.e. once per run),
        unless ``again`` (a watching run reads it anew each time; its readings are kept)."""
        if self._feed is None or again:
            self._feed = self._http.get(urls.sec_latest_filings_atom(self.archives_url)).content
        return self._feed


class EdgarSource:
    """EDGAR's 6-K filings: listed from the submissions JSON (and the latest-filings feed when
    configured); a filing's files are the primary document and its EX-99.x exhibits."""

    name = SourceName.SEC
    listed = True

    def __init__(
        self, client: HttpEdgarClient, *, latest_feed: bool = False, missing_identity: str = ""
    ) -> None:
        self.client = client
        self.latest_feed = latest_feed
        self._missing_identity = missing_identity

    def refusal(self) -> str:
        """Why SEC must not be asked (no declared User-Agent for a live run); "" when it may."""
        return self._missing_identity

    def discover(
        self, issuer: Issuer, since: date, cursor: Mapping[str, str], now: datetime
    ) -> Listing:
        """The issuer's 6-K and 6-K/A filings on or after ``since`` (see ``edgar.list_edgar``)."""
        extra: list[edgar.FilingRow] = []
        if self.latest_feed:
            extra = edgar_feed.parse_feed(self.client.latest_feed(), issuer.cik)
        archives = self.client.archives_url
        return guarded(
            "EDGAR submissions",
            lambda: edgar.list_edgar(self.client, issuer, since, archives, cursor, extra),
        )

    def latest(self, issuers: Sequence[Issuer]) -> dict[str, list[str]]:
        """The issuers' 6-K filings in the latest-filings feed, matched by CIK (one request)."""
        rows = edgar_feed.parse_all(self.client.latest_feed(again=True))
        found = {i.ticker: rows.get(i.cik.zfill(10), []) for i in issuers if i.cik}
        return {
            t: [f"{self.name}:{r.accession}" for r in hits] for t, hits in found.items() if hits
        }

    def files(
        self, ref: DocumentRef, cik: str, pages: PageReader, archived: Sequence[StoredFile]
    ) -> tuple[SourceFile, ...]:
        """The primary document and EX-99.x exhibits named by the filing's index page."""
        archives = self.client.archives_url
        index = urls.sec_filing_index(archives, cik, ref.source_id)
        page = pages(index)
        return edgar.wanted_files(
            edgar.parse_filing_index(page.decode("utf-8", "replace"), archives, index)
        )

    def fetch(self, url: str, headers: Mapping[str, str] | None = None) -> Response:
        """One Archives file."""
        return self.client.fetch(url, headers)

    def company_facts(self, cik: str) -> Response:
        """The issuer's XBRL company facts (one request, through the same client and pacer)."""
        return self.client.company_facts(cik)

    @property
    def archives_url(self) -> str:
        """Where EDGAR's Archives are reached (a filing's folder is named from it)."""
        return self.client.archives_url


def _json(response: Response) -> Mapping[str, Any]:
    data = transfer.json_body(response.url, response.content, "submissions answer")
    if not isinstance(data, Mapping):
        raise ParseError(f"{response.url}: JSON is not an object")
    return data
