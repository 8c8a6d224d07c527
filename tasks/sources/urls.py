"""Every remote URL the pipeline requests is built here, and only here."""

from __future__ import annotations

from datetime import date
from urllib.parse import urlencode, urljoin, urlsplit


def _cik_int(cik: str) -> str:
    return str(int(cik))


def sec_submissions(data_url: str, cik: str) -> str:
    """The submissions JSON of one company (10-digit zero-padded CIK)."""
    return f"{data_url}/submissions/CIK{cik.zfill(10)}.json"


def sec_submissions_page(data_url: str, name: str) -> str:
    """An older-filings page named in ``filings.files[].name``."""
    return f"{data_url}/submissions/{name}"


def sec_company_facts(data_url: str, cik: str) -> str:
    """Every XBRL fact the company filed (us-gaap, ifrs-full) with accession, form and date."""
    return f"{data_url}/api/xbrl/companyfacts/CIK{cik.zfill(10)}.json"


def sec_filing_folder(archives_url: str, cik: str, accession: str) -> str:
    """The Archives folder of one filing (trailing slash)."""
    return f"{archives_url}/Archives/edgar/data/{_cik_int(cik)}/{accession.replace('-', '')}/"


def sec_filing_index(archives_url: str, cik: str, accession: str) -> str:
    """The ``-index.htm`` page whose Type column names the exhibits."""
    return sec_filing_folder(archives_url, cik, accession) + f"{accession}-index.htm"


def sec_archive_file(archives_url: str, cik: str, accession: str, name: str) -> str:
    """One file of a filing."""
    return sec_filing_folder(archives_url, cik, accession) + name


def sec_company_tickers(archives_url: str) -> str:
    """SEC's list of every registrant's ticker, CIK and name."""
    return f"{archives_url}/files/company_tickers.json"


def sec_absolute(archives_url: str, href: str, page_url: str = "") -> str:
    """An EDGAR link as an absolute URL: a full URL as it is, one from the site's root under
    ``archives_url`` (a mirror's base may have a path), a relative one against ``page_url``
    (the page it was found on; glued to the host it was refused: ``http://h:1tm...htm``)."""
    if urlsplit(href).scheme:
        return href
    if href.startswith("/") or not page_url:
        return f"{archives_url}/{href.lstrip('/')}"
    return urljoin(page_url, href)


def sec_latest_filings_atom(archives_url: str, form: str = "6-K", count: int = 100) -> str:
    """The "latest filings" Atom feed, the fast path for new filings."""
    query = urlencode({"action": "getcurrent", "type": form, "count": count, "output": "atom"})
    return f"{archives_url}/cgi-bin/browse-edgar?{query}"


def hkex_active_stocks(hkex_url: str, lang: str = "e") -> str:
    """The active stock list mapping stock codes to HKEXnews stockIds."""
    return f"{hkex_url}/ncms/script/eds/activestock_sehk_{lang}.json"


def hkex_latest_listing(hkex_url: str, lang: str = "e", page: int = 1) -> str:
    """The latest-announcements listing of the Main Board (last day, newest first)."""
    return f"{hkex_url}/ncms/json/eds/lcisehk1relsd{lang}_{page}.json"


def hkex_prefix_search(hkex_url: str, code: str) -> str:
    """JSONP stock lookup by prefix (match the code exactly in the answer)."""
    query = urlencode(
        {"callback": "callback", "lang": "EN", "type": "A", "name": code, "market": "SEHK"}
    )
    return f"{hkex_url}/search/prefix.do?{query}"


def hkex_title_search(
    hkex_url: str, stock_id: int, start: date, end: date, row_range: int, lang: str = "EN"
) -> str:
    """Title search for one stock over one window (at most 12 months)."""
    query = urlencode(
        {
            "sortDir": 0,
            "sortByOptions": "DateTime",
            "category": 0,
            "market": "SEHK",
            "stockId": stock_id,
            "documentType": -1,
            "fromDate": start.strftime("%Y%m%d"),
            "toDate": end.strftime("%Y%m%d"),
            "title": "",
            "searchType": 0,
            "t1code": -2,
            "t2Gcode": -2,
            "t2code": -2,
            "rowRange": row_range,
            "lang": lang,
        }
    )
    return f"{hkex_url}/search/titleSearchServlet.do?{query}"


def hkex_document(hkex_url: str, file_link: str) -> str:
    """A document from its FILE_LINK (site-relative path)."""
    return file_link if file_link.startswith("http") else f"{hkex_url}{file_link}"


# Where people read a document: its public site, whatever mirror or replay server fetched it.
PUBLIC_SITES = {
    "sec": "https://www.sec.gov",
    "xbrl": "https://www.sec.gov",
    "hkex": "https://www1.hkexnews.hk",
}


def public_document_url(source: str, url: str) -> str:
    """The document's address on its public site (EDGAR filing index, HKEx PDF): the path
    a mirror or the replay server served it under, on the public host; else the URL as is."""
    site = PUBLIC_SITES.get(source)
    parts = urlsplit(url)
    if site is None or parts.scheme not in ("http", "https"):
        return url
    return site + parts.path + (f"?{parts.query}" if parts.query else "")
