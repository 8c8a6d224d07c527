"""Which documents are one disclosure: the same results released on SEC and on HKEXnews.

Pure. A disclosure id is issuer + fiscal quarter for results (``QFIN:results:2024Q4``): the
quarter is the last one ended before publication (issuers publish within ~3 months). A
document is a results release when HKEx files it under 13300/13400/13600 or extraction found
results in it (its kind). An SEC 6-K published within 36 hours of an HKEx results announcement
joins it; a 6-K/A follows what it amends; an HKEx overseas regulatory announcement (19810-19870,
the mirror of a US filing) joins the 6-K published within 36 hours before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from zoneinfo import ZoneInfo

from domain.enums import SourceName
from domain.records import ListedDocument

HONG_KONG = ZoneInfo("Asia/Hong_Kong")
RESULTS_CATEGORIES = ("13300", "13400", "13600")
NEAR = timedelta(hours=36)


def quarter_before(day: date) -> str:
    """The fiscal quarter (calendar quarters) last ended before ``day``: "2024Q4"."""
    quarter = (day.month - 1) // 3  # quarters finished this year
    return f"{day.year - 1}Q4" if quarter == 0 else f"{day.year}Q{quarter}"


def _t2(doc: ListedDocument) -> str:
    return doc.category.rsplit("/", 1)[-1]


def is_results(doc: ListedDocument) -> bool:
    """A results release, by HKEx category or by what extraction found (an audited XBRL
    filing is no release: it is checked against them, never linked to one)."""
    if doc.source == SourceName.XBRL:
        return False
    return _t2(doc) in RESULTS_CATEGORIES or doc.kind.startswith("results_")


def _results_id(issuer: str, doc: ListedDocument) -> str:
    return f"{issuer}:results:{quarter_before(doc.published_at.astimezone(HONG_KONG).date())}"


def _near(a: ListedDocument, b: ListedDocument) -> bool:
    return abs(a.published_at - b.published_at) <= NEAR


def links(issuer: str, docs: Sequence[ListedDocument]) -> dict[str, str]:
    """document id -> disclosure id for every document that belongs to one."""
    found: dict[str, str] = {}
    sec = [d for d in docs if d.source == SourceName.SEC and d.form == "6-K"]
    hkex = [d for d in docs if d.source == SourceName.HKEX]
    for doc in docs:
        if is_results(doc) and doc.form != "6-K/A":
            found[doc.document_id] = _results_id(issuer, doc)
    for hk in (d for d in hkex if _t2(d) in RESULTS_CATEGORIES):
        for filing in sec:
            if _near(filing, hk):
                found.setdefault(filing.document_id, found[hk.document_id])
    for hk in (d for d in hkex if "19810" <= _t2(d) <= "19870"):
        before = [s for s in sec if s.published_at <= hk.published_at and _near(s, hk)]
        if before:
            filing = before[-1]
            disclosure = found.get(filing.document_id) or f"{issuer}:{filing.document_id}"
            found[filing.document_id] = found[hk.document_id] = disclosure
    for doc in docs:
        if doc.amends_document_id and doc.amends_document_id in found:
            found[doc.document_id] = found[doc.amends_document_id]
    return found
