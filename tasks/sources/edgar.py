"""SEC EDGAR: list an issuer's 6-K filings and the files that make them up.

Parsers here are pure (submissions JSON, ``-index.htm``); :class:`HttpEdgarClient` is the one
thing that talks to SEC, through :mod:`tasks.http` and URLs from :mod:`tasks.urls`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Protocol
from zoneinfo import ZoneInfo

import lxml.html

from tasks import urls
from tasks.errors import ParseError
from tasks.http import HttpClient, Response
from tasks.models import DocumentRef, Issuer, SourceFile

EASTERN = ZoneInfo("America/New_York")
RESULTS_FORMS = ("6-K", "6-K/A")
_COLUMNS = ("accessionNumber", "filingDate", "acceptanceDateTime", "form", "primaryDocument")


@dataclass(frozen=True, slots=True)
class FilingRow:
    """One row of the submissions ``filings`` column arrays."""

    accession: str
    form: str
    filing_date: date
    accepted_at: datetime
    primary_document: str
    description: str


class EdgarClient(Protocol):
    """What the pipeline needs from EDGAR."""

    def submissions(self, cik: str) -> Mapping[str, Any]: ...

    def submissions_page(self, name: str) -> Mapping[str, Any]: ...

    def filing_index(self, cik: str, accession: str) -> str: ...

    def fetch(self, url: str) -> Response: ...


def parse_accepted(value: str) -> datetime:
    """``acceptanceDateTime`` ends in "Z" but is US-Eastern wall-clock time."""
    naive = datetime.strptime(value[:19], "%Y-%m-%dT%H:%M:%S")
    return naive.replace(tzinfo=EASTERN)


def parse_submissions(data: Mapping[str, Any]) -> tuple[list[FilingRow], list[str]]:
    """Filing rows of a submissions body (or of a paging file) and the names of older pages."""
    filings = data.get("filings")
    columns = filings.get("recent", {}) if isinstance(filings, Mapping) else data
    pages = (
        [str(f["name"]) for f in filings.get("files", [])] if isinstance(filings, Mapping) else []
    )
    missing = [c for c in _COLUMNS if c not in columns]
    if missing:
        raise ParseError(f"submissions JSON lacks columns {missing}")
    return list(_rows(columns)), pages


def _rows(columns: Mapping[str, Sequence[Any]]) -> Iterator[FilingRow]:
    descriptions = columns.get("primaryDocDescription") or [""] * len(columns["accessionNumber"])
    for acc, filed, accepted, form, primary, desc in zip(
        columns["accessionNumber"],
        columns["filingDate"],
        columns["acceptanceDateTime"],
        columns["form"],
        columns["primaryDocument"],
        descriptions,
        strict=True,
    ):
        yield FilingRow(
            accession=acc,
            form=form,
            filing_date=date.fromisoformat(filed),
            accepted_at=parse_accepted(accepted),
            primary_document=primary,
            description=desc or "",
        )


def parse_filing_index(html: str, archives_url: str) -> list[SourceFile]:
    """Files of a filing from the "Document Format Files" table, typed by its Type column."""
    try:
        root = lxml.html.fromstring(html)
    except (ValueError, lxml.etree.ParserError) as exc:
        raise ParseError(f"filing index page unreadable: {exc}") from None
    tables = root.xpath('//table[@summary="Document Format Files"]')
    if not tables:
        raise ParseError("filing index page has no 'Document Format Files' table")
    files = []
    for row in tables[0].xpath(".//tr[td]"):
        cells = row.xpath("./td")
        links = cells[2].xpath(".//a/@href") if len(cells) >= 4 else []
        if not links:
            continue
        href = str(links[0]).replace("/ix?doc=", "")
        files.append(
            SourceFile(
                name=href.rsplit("/", 1)[-1],
                url=urls.sec_absolute(archives_url, href),
                doc_type=cells[3].text_content().strip(),
                description=cells[1].text_content().strip(),
            )
        )
    return files


def wanted_files(files: Sequence[SourceFile]) -> tuple[SourceFile, ...]:
    """The primary document and every EX-99.x exhibit, chosen by Type, never by file name."""
    return tuple(
        f for f in files if f.doc_type in RESULTS_FORMS or f.doc_type.upper().startswith("EX-99")
    )


def filing_ref(issuer: Issuer, row: FilingRow, archives_url: str) -> DocumentRef:
    """The document record of one filing row."""
    return DocumentRef(
        source="sec",
        source_id=row.accession,
        issuer=issuer.ticker,
        form=row.form,
        title=row.description or row.form,
        published_at=row.accepted_at,
        url=urls.sec_filing_index(archives_url, issuer.cik, row.accession),
    )


def list_filings(
    client: EdgarClient, issuer: Issuer, since: date, archives_url: str
) -> list[DocumentRef]:
    """The issuer's 6-K and 6-K/A filings on or after ``since``, walking older pages as needed."""
    rows, pages = parse_submissions(client.submissions(issuer.cik))
    for name in pages:
        if rows and min(r.filing_date for r in rows) < since:
            break  # everything older than `since` is not wanted: stop paging
        more, _ = parse_submissions(client.submissions_page(name))
        rows.extend(more)
    seen: set[str] = set()
    refs = []
    for row in rows:
        if row.form in RESULTS_FORMS and row.filing_date >= since and row.accession not in seen:
            seen.add(row.accession)
            refs.append(filing_ref(issuer, row, archives_url))
    return refs


class HttpEdgarClient:
    """EDGAR over HTTP, at the URLs configured (real SEC, a mirror, or the replay server)."""

    def __init__(self, http: HttpClient, data_url: str, archives_url: str) -> None:
        self._http = http
        self._data_url = data_url
        self.archives_url = archives_url

    def submissions(self, cik: str) -> Mapping[str, Any]:
        """The submissions JSON of one company."""
        return _json(self._http.get(urls.sec_submissions(self._data_url, cik)))

    def submissions_page(self, name: str) -> Mapping[str, Any]:
        """An older-filings page."""
        return _json(self._http.get(urls.sec_submissions_page(self._data_url, name)))

    def filing_index(self, cik: str, accession: str) -> str:
        """The ``-index.htm`` page of one filing."""
        return self._http.get(urls.sec_filing_index(self.archives_url, cik, accession)).text()

    def fetch(self, url: str) -> Response:
        """One Archives file."""
        return self._http.get(url)


def _json(response: Response) -> Mapping[str, Any]:
    try:
        data = json.loads(response.content)
    except ValueError:
        raise ParseError(f"{response.url}: not JSON (truncated or an error page?)") from None
    if not isinstance(data, Mapping):
        raise ParseError(f"{response.url}: JSON is not an object")
    return data
