"""EDGAR's "latest filings" Atom feed: the fast path for filings the submissions JSON lags on.

Pure parser. Entries become :class:`~tasks.sources.edgar.FilingRow` values that
:func:`tasks.sources.edgar.list_edgar` reconciles with the submissions JSON by accession.
"""

from __future__ import annotations

import re
from datetime import date, datetime

import lxml.etree

from domain.errors import ParseError
from tasks.sources.edgar import RESULTS_FORMS, FilingRow

_NS = {"a": "http://www.w3.org/2005/Atom"}
_CIK = re.compile(r"\((\d{10})\)")
_ACCESSION = re.compile(r"accession-number=(\d{10}-\d{2}-\d{6})")


def parse_feed(xml: bytes, cik: str) -> list[FilingRow]:
    """The 6-K and 6-K/A entries of one company (10-digit CIK) in a getcurrent Atom feed."""
    return parse_all(xml).get(cik.zfill(10), [])


def parse_all(xml: bytes) -> dict[str, list[FilingRow]]:
    """Every 6-K and 6-K/A entry of a getcurrent Atom feed, by 10-digit CIK (feed order)."""
    try:
        root = lxml.etree.fromstring(xml, parser=lxml.etree.XMLParser(resolve_entities=False))
    except lxml.etree.XMLSyntaxError as exc:
        raise ParseError(f"latest-filings feed unreadable: {exc}") from None
    rows: dict[tuple[str, str], FilingRow] = {}
    for entry in root.iterfind("a:entry", _NS):
        title = entry.findtext("a:title", "", _NS)
        form = entry.find("a:category", _NS)
        term = form.get("term", "") if form is not None else ""
        found_cik = _CIK.search(title)
        accession = _ACCESSION.search(entry.findtext("a:id", "", _NS))
        updated = entry.findtext("a:updated", "", _NS)
        if term not in RESULTS_FORMS or not found_cik or not accession or not updated:
            continue
        # Unlike the JSON's acceptanceDateTime, the feed's time carries its real offset.
        accepted = datetime.fromisoformat(updated)
        rows[found_cik.group(1), accession.group(1)] = FilingRow(
            accession=accession.group(1),
            form=term,
            filing_date=_filed(entry) or accepted.date(),
            accepted_at=accepted,
            primary_document="",
            description=title.split(" - ", 1)[0],
        )
    by_cik: dict[str, list[FilingRow]] = {}
    for (cik, _), row in rows.items():
        by_cik.setdefault(cik, []).append(row)
    return by_cik


def _filed(entry: lxml.etree._Element) -> date | None:
    summary = entry.findtext("a:summary", "", _NS)
    match = re.search(r"Filed:</b>\s*(\d{4}-\d{2}-\d{2})", summary)
    return date.fromisoformat(match.group(1)) if match else None
