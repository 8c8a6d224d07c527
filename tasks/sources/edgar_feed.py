"""EDGAR's "latest filings" Atom feed: the fast path for filings the submissions JSON lags on.

Pure parser. Entries become :class:`~tasks.sources.edgar.FilingRow` values that
:func:`tasks.sources.edgar.list_edgar` reconciles with the submissions JSON by accession.
"""

from __future__ import annotations

import re
from datetime import date, datetime

import lxml.etree

from tasks.core.errors import ParseError
from tasks.sources.edgar import RESULTS_FORMS, FilingRow

_NS = {"a": "http://www.w3.org/2005/Atom"}
_CIK = re.compile(r"\((\d{10})\)")
_ACCESSION = re.compile(r"accession-number=(\d{10}-\d{2}-\d{6})")


def parse_feed(xml: bytes, cik: str) -> list[FilingRow]:
    """The 6-K and 6-K/A entries of one company (10-digit CIK) in a getcurrent Atom feed."""
    try:
        root = lxml.etree.fromstring(xml, parser=lxml.etree.XMLParser(resolve_entities=False))
    except lxml.etree.XMLSyntaxError as exc:
        raise ParseError(f"latest-filings feed unreadable: {exc}") from None
    rows: dict[str, FilingRow] = {}
    for entry in root.iterfind("a:entry", _NS):
        title = entry.findtext("a:title", "", _NS)
        form = entry.find("a:category", _NS)
        term = form.get("term", "") if form is not None else ""
        found_cik = _CIK.search(title)
        accession = _ACCESSION.search(entry.findtext("a:id", "", _NS))
        updated = entry.findtext("a:updated", "", _NS)
        if term not in RESULTS_FORMS or not found_cik or not accession or not updated:
            continue
        if found_cik.group(1) != cik.zfill(10):
            continue
        # Unlike the JSON's acceptanceDateTime, the feed's time carries its real offset.
        accepted = datetime.fromisoformat(updated)
        rows[accession.group(1)] = FilingRow(
            accession=accession.group(1),
            form=term,
            filing_date=_filed(entry) or accepted.date(),
            accepted_at=accepted,
            primary_document="",
            description=title.split(" - ", 1)[0],
        )
    return list(rows.values())


def _filed(entry: lxml.etree._Element) -> date | None:
    summary = entry.findtext("a:summary", "", _NS)
    match = re.search(r"Filed:</b>\s*(\d{4}-\d{2}-\d{2})", summary)
    return date.fromisoformat(match.group(1)) if match else None
