"""SEC EDGAR: list an issuer's 6-K filings (and 8-Ks reporting results, item 2.02, of issuers
that file as U.S. domestic registrants) and the files that make them up.

Pure: the submissions JSON and ``-index.htm`` parsers and the listing logic work on what an
:class:`EdgarClient` answers. The client that talks to SEC, and EDGAR as a source, are in
:mod:`tasks.sources.edgar_source`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any, Protocol
from zoneinfo import ZoneInfo

import lxml.html

from domain.enums import SourceName
from domain.errors import ParseError
from domain.fiscal import valid_year_end
from domain.records import DocumentRef, Issuer, SourceFile
from domain.xbrlrecords import ANNUAL_FORMS, QUARTERLY_FORMS, AuditedFiling
from tasks.sources import urls
from tasks.sources.http import Response
from tasks.sources.listing import Listed, Listing, from_iso, iso

EASTERN = ZoneInfo("America/New_York")
RESULTS_FORMS = ("6-K", "6-K/A")
# an 8-K is listed when it reports results of operations (item 2.02), with its EX-99 exhibits
CURRENT_REPORT, RESULTS_ITEM = "8-K", "2.02"
_PERIODIC = (*ANNUAL_FORMS, *QUARTERLY_FORMS)
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
    report_date: date | None = None
    items: str = ""  # an 8-K's items ("2.02,9.01")

    @property
    def listed(self) -> bool:
        """A 6-K (or 6-K/A), or an 8-K reporting results of operations."""
        return self.form in RESULTS_FORMS or (
            self.form == CURRENT_REPORT and RESULTS_ITEM in self.items.split(",")
        )


@dataclass(frozen=True, slots=True)
class SubmissionsPage:
    """One ``filings.files[]`` entry: an older-filings page and the dates it spans."""

    name: str
    filing_from: date | None = None
    filing_to: date | None = None


class EdgarClient(Protocol):
    """What the pipeline needs from EDGAR."""

    def submissions(self, cik: str) -> Mapping[str, Any]: ...

    def submissions_page(self, name: str) -> Mapping[str, Any]: ...

    def filing_index(self, cik: str, accession: str) -> str: ...

    def fetch(self, url: str, headers: Mapping[str, str] | None = None) -> Response: ...


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


def parse_pages(data: Mapping[str, Any]) -> list[SubmissionsPage]:
    """The ``filings.files[]`` entries of a submissions body, with their date spans."""
    filings = data.get("filings")
    entries = filings.get("files", []) if isinstance(filings, Mapping) else []
    return [
        SubmissionsPage(str(e["name"]), from_iso(e.get("filingFrom")), from_iso(e.get("filingTo")))
        for e in entries
    ]


def _rows(columns: Mapping[str, Sequence[Any]]) -> Iterator[FilingRow]:
    count = len(columns["accessionNumber"])
    descriptions = columns.get("primaryDocDescription") or [""] * count
    report_dates = columns.get("reportDate") or [""] * count
    items = columns.get("items") or [""] * count
    for acc, filed, accepted, form, primary, desc, reported, item in zip(
        columns["accessionNumber"],
        columns["filingDate"],
        columns["acceptanceDateTime"],
        columns["form"],
        columns["primaryDocument"],
        descriptions,
        report_dates,
        items,
        strict=True,
    ):
        yield FilingRow(
            accession=acc,
            form=form,
            filing_date=date.fromisoformat(filed),
            accepted_at=parse_accepted(accepted),
            primary_document=primary,
            description=desc or "",
            report_date=from_iso(reported),
            items=str(item or ""),
        )


def parse_filing_index(html: str, archives_url: str, index_url: str = "") -> list[SourceFile]:
    """Files of a filing from the "Document Format Files" table, typed by its Type column. A
    link from the site's root (``/Archives/...``) is under ``archives_url``; a relative one
    (``tm123_ex99-1.htm``) is resolved against the page's own URL, ``index_url``."""
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
                url=urls.sec_absolute(archives_url, href, index_url),
                doc_type=cells[3].text_content().strip(),
                description=cells[1].text_content().strip(),
            )
        )
    return files


def wanted_files(files: Sequence[SourceFile]) -> tuple[SourceFile, ...]:
    """The primary document and every EX-99.x exhibit, chosen by Type, never by file name."""
    return tuple(
        f
        for f in files
        if f.doc_type in (*RESULTS_FORMS, CURRENT_REPORT) or f.doc_type.upper().startswith("EX-99")
    )


def filing_ref(issuer: Issuer, row: FilingRow, archives_url: str) -> DocumentRef:
    """The document record of one filing row (its index page as its URL)."""
    url = urls.sec_filing_index(archives_url, issuer.cik, row.accession)
    return _sec_ref(issuer, row.accession, row.form, row.description or row.form,
                    row.accepted_at, url)  # fmt: skip


def audited_filing_ref(issuer: Issuer, filing: AuditedFiling, archives_url: str) -> DocumentRef:
    """The document an audited filing's XBRL company facts are recorded as: its folder on
    EDGAR as its URL, published at the start of its (US-Eastern) filing day."""
    url = urls.sec_filing_folder(archives_url, issuer.cik, filing.accession)
    filed = datetime.combine(filing.filed, time(), tzinfo=EASTERN)
    title = f"{filing.form} (XBRL company facts)"
    return _sec_ref(issuer, filing.accession, filing.form, title, filed, url, SourceName.XBRL)


def _sec_ref(
    issuer: Issuer,
    accession: str,
    form: str,
    title: str,
    published_at: datetime,
    url: str,
    source: SourceName = SourceName.SEC,
) -> DocumentRef:
    return DocumentRef(source=source, source_id=accession, issuer=issuer.ticker, form=form,
                       title=title, published_at=published_at, url=url)  # fmt: skip


def list_filings(
    client: EdgarClient,
    issuer: Issuer,
    since: date,
    archives_url: str,
    covered_from: date | None = None,
) -> list[DocumentRef]:
    """The issuer's 6-K and 6-K/A filings (and results 8-Ks) on or after ``since`` (see
    :func:`list_edgar`)."""
    cursor = {"covered_from": iso(covered_from)} if covered_from else {}
    return list_edgar(client, issuer, since, archives_url, cursor).refs


def list_edgar(
    client: EdgarClient,
    issuer: Issuer,
    since: date,
    archives_url: str,
    cursor: Mapping[str, Any],
    extra: Sequence[FilingRow] = (),
) -> Listing:
    """One submissions request, plus older pages only for dates no earlier run covered.

    New filings always appear in ``recent``, so once a run has listed everything back to
    ``since`` (the cursor's ``covered_from``) later runs never page. ``extra`` rows (from the
    latest-filings feed) fill in what the JSON does not show yet; the caller diffs by accession.
    """
    body = client.submissions(issuer.cik)
    rows, _ = parse_submissions(body)
    covered = from_iso(cursor.get("covered_from"))
    if covered is None or covered > since:
        rows.extend(_older_rows(client, parse_pages(body), rows, since))
    known = {r.accession for r in rows}
    rows.extend(r for r in extra if r.accession not in known)
    wanted = _unique(r for r in rows if r.listed and r.filing_date >= since)
    amends = amendment_links(rows)
    items = tuple(
        Listed(
            ref=filing_ref(issuer, row, archives_url),
            amends=f"sec:{amends[row.accession]}" if row.accession in amends else "",
        )
        for row in wanted
    )
    newest = max((r.filing_date for r in rows), default=None)
    # the newest 20-F/10-K/10-Q: the audit stage asks for XBRL company facts when it moves
    periodic = max((r.filing_date for r in rows if r.form in _PERIODIC), default=None)
    start = min(since, covered) if covered else since
    cursor_out = {"covered_from": iso(start), "newest": iso(newest)}
    if periodic:
        cursor_out["periodic"] = iso(periodic)
    return Listing(items, cursor_out, fiscal_year_end(body))


def fiscal_year_end(body: Mapping[str, Any]) -> str:
    """SEC's ``fiscalYearEnd`` ("0201"), or "" when absent or not a month and day."""
    value = str(body.get("fiscalYearEnd") or "").strip()
    return value if valid_year_end(value) else ""


def _older_rows(
    client: EdgarClient, pages: Sequence[SubmissionsPage], rows: Sequence[FilingRow], since: date
) -> list[FilingRow]:
    older: list[FilingRow] = []
    oldest = min((r.filing_date for r in rows), default=None)
    for page in pages:
        if page.filing_to is not None and page.filing_to < since:
            continue  # the page's dates say it holds nothing wanted
        if page.filing_to is None and oldest is not None and oldest < since:
            break  # undated pages run backwards: once past `since`, stop
        more, _ = parse_submissions(client.submissions_page(page.name))
        older.extend(more)
        oldest = min((r.filing_date for r in more), default=oldest)
    return older


def _unique(rows: Iterator[FilingRow]) -> list[FilingRow]:
    seen: dict[str, FilingRow] = {}
    for row in rows:
        seen.setdefault(row.accession, row)
    return sorted(seen.values(), key=lambda r: (r.accepted_at, r.accession))


def amendment_links(rows: Sequence[FilingRow]) -> dict[str, str]:
    """Accession of each 6-K/A -> accession of the 6-K it amends.

    EDGAR does not say which filing an amendment amends. We take the latest earlier 6-K with the
    same report date, else the latest earlier 6-K.
    """
    originals = sorted((r for r in rows if r.form == "6-K"), key=lambda r: r.accepted_at)
    links: dict[str, str] = {}
    for row in rows:
        if row.form != "6-K/A":
            continue
        earlier = [o for o in originals if o.accepted_at < row.accepted_at]
        same = [o for o in earlier if row.report_date and o.report_date == row.report_date]
        chosen = (same or earlier)[-1:]
        if chosen:
            links[row.accession] = chosen[0].accession
    return links
