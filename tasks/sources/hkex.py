"""HKEXnews: resolve an issuer's stockId and list its announcements by title search.

Pure: parsers for the stock list and title-search envelope and the listing logic work on what
an :class:`HkexClient` answers. The client that talks to HKEXnews, and HKEx as a source, are in
:mod:`tasks.sources.hkex_source`.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from datetime import date, datetime, timedelta
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from domain.enums import SourceName
from domain.errors import NotFoundError, ParseError
from domain.records import DocumentRef, Issuer, SourceFile
from tasks.sources import urls
from tasks.sources.http import Response
from tasks.sources.listing import Listed, Listing, from_iso, iso

HONG_KONG = ZoneInfo("Asia/Hong_Kong")
PAGE_ROWS = 100
MAX_ROW_RANGE = 10_000
# Category names HKEXnews prints in LONG_TEXT brackets -> their t2 codes.
CATEGORY_CODES = {
    "final results": "13300",
    "interim results": "13400",
    "quarterly results": "13600",
    "profit warning": "13500",
    "dividend or distribution": "13250",
    "dividend or distribution (announcement form)": "13251",
    "overseas regulatory announcement": "19810",
}
# What a document's ``form`` says for HKEx (the codes stay in its ``category``).
FORM_NAMES = {
    "13300": "Final Results",
    "13400": "Interim Results",
    "13600": "Quarterly Results",
    "13500": "Profit Warning",
    "13250": "Dividend or Distribution",
    "13251": "Dividend or Distribution (Announcement Form)",
    "19810": "Overseas Regulatory Announcement",
}
_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)
_REVISED = re.compile(r"^\(Headlines? Revised\)\s*", re.IGNORECASE)
_CANCELLED = re.compile(r"^\(Cancell?ed[^)]*\)\s*", re.IGNORECASE)
_JSONP = re.compile(r"^[^(]*\((.*)\)\s*;?\s*$", re.DOTALL)


class HkexClient(Protocol):
    """What the pipeline needs from HKEXnews."""

    def active_stocks(self) -> Sequence[Mapping[str, Any]]: ...

    def prefix_search(self, code: str) -> Sequence[Mapping[str, Any]]: ...

    def title_search(
        self, stock_id: int, start: date, end: date, row_range: int
    ) -> Mapping[str, Any]: ...

    def fetch(self, url: str, headers: Mapping[str, str] | None = None) -> Response: ...


def clean(text: str) -> str:
    """Decode HTML entities and turn ``<br/>`` into spaces."""
    return " ".join(html.unescape(_BR.sub(" ", text or "")).split())


def find_stock_id(stocks: Sequence[Mapping[str, Any]], code: str) -> int:
    """The stockId whose code matches exactly (``"03660"``)."""
    for stock in stocks:
        if str(stock.get("c", "")).zfill(5) == code.zfill(5):
            return int(stock["i"])
    raise NotFoundError(f"HKEx stock code {code} is not in the active stock list")


def parse_prefix(body: str) -> list[Mapping[str, Any]]:
    """The ``stockInfo`` rows of a ``prefix.do`` JSONP answer."""
    match = _JSONP.match(body.strip())
    try:
        data = json.loads(match.group(1) if match else body)
    except ValueError:
        raise ParseError("HKEx prefix.do answer is not JSONP") from None
    return list(data.get("stockInfo", [])) if isinstance(data, Mapping) else []


def resolve_stock_id(client: HkexClient, code: str) -> int:
    """The stockId of ``code``: the active stock list, else ``prefix.do`` with an exact match."""
    try:
        return find_stock_id(client.active_stocks(), code)
    except NotFoundError:
        hits = client.prefix_search(code)
    for hit in hits:
        if str(hit.get("code", "")).zfill(5) == code.zfill(5):
            return int(hit["stockId"])
    raise NotFoundError(f"HKEx stock code {code} is unknown to HKEXnews: check the issuers file")


def parse_envelope(body: Mapping[str, Any]) -> tuple[list[Mapping[str, Any]], bool]:
    """Rows and ``hasNextRow`` of a title-search answer (``result`` is a JSON string)."""
    raw = body.get("result")
    if raw in (None, "null", ""):
        return [], bool(body.get("hasNextRow"))
    try:
        rows = json.loads(raw) if isinstance(raw, str) else raw
    except ValueError:
        raise ParseError("HKEx title search: 'result' is not a JSON array") from None
    return list(rows), bool(body.get("hasNextRow"))


def windows(start: date, end: date) -> Iterator[tuple[date, date]]:
    """Consecutive search windows of at most 12 months (a longer one silently returns 0 rows)."""
    current = start
    while current <= end:
        try:
            limit = current.replace(year=current.year + 1) - timedelta(days=1)
        except ValueError:  # 29 February
            limit = current + timedelta(days=364)
        stop = min(limit, end)
        yield current, stop
        current = stop + timedelta(days=1)


def category(row: Mapping[str, Any]) -> str:
    """The t2 category code of a row, from its code field or its LONG_TEXT bracket."""
    if row.get("T2_CODE"):
        return str(row["T2_CODE"])
    names = re.findall(r"\[([^\]]+)\]", clean(str(row.get("LONG_TEXT", ""))))
    for name in names:
        for part in name.split(" / "):
            code = CATEGORY_CODES.get(part.strip().lower())
            if code:
                return code
    return "other"


def form_name(code: str) -> str:
    """The document's form as HKEXnews names its category ("HKEx Final Results"), never a
    bare code: "HKEx announcement" for one without a name here."""
    return f"HKEx {FORM_NAMES[code]}" if code in FORM_NAMES else "HKEx announcement"


def category_codes(row: Mapping[str, Any]) -> str:
    """The row's "t1/t2" category codes, e.g. "10000/13300" (t1 may be unknown)."""
    return f"{row.get('T1_CODE') or ''}/{category(row)}"


def _flagged(row: Mapping[str, Any], pattern: re.Pattern[str]) -> bool:
    fields = ("TITLE", "LONG_TEXT", "SHORT_TEXT")
    return any(pattern.match(clean(str(row.get(f, "")))) for f in fields)


def is_revised(row: Mapping[str, Any]) -> bool:
    """HKEXnews marks a corrected headline "(Headlines Revised)"."""
    return _flagged(row, _REVISED)


def row_title(row: Mapping[str, Any]) -> str:
    """The headline without the revision/cancellation markers."""
    title = clean(str(row.get("TITLE", "")))
    return _CANCELLED.sub("", _REVISED.sub("", title))


def row_ref(issuer: Issuer, row: Mapping[str, Any], hkex_url: str) -> DocumentRef:
    """The document record of one title-search row."""
    link = str(row["FILE_LINK"])
    title = row_title(row)
    published = datetime.strptime(str(row["DATE_TIME"]), "%d/%m/%Y %H:%M")
    url = urls.hkex_document(hkex_url, link)
    return DocumentRef(
        source=SourceName.HKEX,
        source_id=str(row["NEWS_ID"]),
        issuer=issuer.ticker,
        form=form_name(category(row)),
        title=title,
        published_at=published.replace(tzinfo=HONG_KONG),
        url=url,
        files=(
            SourceFile(
                name=link.rsplit("/", 1)[-1], url=url, doc_type=str(row.get("FILE_TYPE", ""))
            ),
        ),
    )


def is_cancelled(row: Mapping[str, Any]) -> bool:
    """Cancelled announcements are kept but marked, never extracted."""
    return _flagged(row, _CANCELLED)


def wanted(row: Mapping[str, Any], language: str) -> bool:
    """English editions by default; Chinese ``_c.pdf`` editions by configuration."""
    chinese = str(row.get("FILE_LINK", "")).lower().endswith("_c.pdf")
    return chinese if language == "zh" else not chinese


def search_window(
    client: HkexClient, stock_id: int, start: date, end: date
) -> list[Mapping[str, Any]]:
    """All rows of one window, growing the cumulative ``rowRange`` until no next row."""
    row_range = PAGE_ROWS
    while True:
        rows, has_next = parse_envelope(client.title_search(stock_id, start, end, row_range))
        if not has_next or row_range >= MAX_ROW_RANGE:
            return rows
        row_range = min(row_range + PAGE_ROWS, MAX_ROW_RANGE)


def list_announcements(
    client: HkexClient, issuer: Issuer, since: date, until: date, hkex_url: str, language: str
) -> list[DocumentRef]:
    """The issuer's announcements published between ``since`` and ``until`` (inclusive)."""
    return list_hkex(client, issuer, since, until, hkex_url, language, {}).refs


def list_hkex(
    client: HkexClient,
    issuer: Issuer,
    since: date,
    until: date,
    hkex_url: str,
    language: str,
    cursor: Mapping[str, Any],
    overlap_days: int = 7,
) -> Listing:
    """Title-search the issuer from ``since`` (or, once covered, the cursor minus an overlap).

    The overlap re-lists the last days so late postings, revised headlines and cancellations
    are seen; the stockId is kept in the cursor so a no-op run asks one question.
    """
    stock_id = int(cursor.get("stock_id") or resolve_stock_id(client, issuer.hkex_code))
    covered, searched = from_iso(cursor.get("covered_from")), from_iso(cursor.get("searched_to"))
    start = since
    if covered is not None and searched is not None and covered <= since:
        start = max(since, min(searched, until) - timedelta(days=overlap_days))
    items: dict[str, Listed] = {}
    for begin, end in windows(start, until):
        for row in search_window(client, stock_id, begin, end):
            if wanted(row, language):
                ref = row_ref(issuer, row, hkex_url)
                items[ref.source_id] = Listed(
                    ref, category_codes(row), is_cancelled(row), is_revised(row)
                )
    ordered = tuple(sorted(items.values(), key=lambda i: (i.ref.published_at, i.ref.source_id)))
    new_cursor = {
        "stock_id": str(stock_id),
        "covered_from": iso(min(since, covered) if covered else since),
        "searched_to": iso(until),
    }
    return Listing(ordered, new_cursor)
