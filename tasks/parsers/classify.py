"""Document kind from its text: results release (quarterly/interim/annual), dividend form,
6-K cover page, or other."""

from __future__ import annotations

import re
from decimal import Decimal

from tasks.core.enums import DocKind

_RESULTS = re.compile(
    r"(unaudited )?financial results|[財财][務务][業业][績绩]|[業业][績绩]公告", re.I
)
_STATEMENT = re.compile(
    r"condensed consolidated (balance sheets?|statements? of operations)"
    r"|[綜综]合(?:[財财][務务][狀状][況况]|[損损]益|[資资][產产][負负][債债])",
    re.I,
)
_RATE = re.compile(r"rate of RMB\s*(\d+\.\d+)\s+to\s+US\\?\$\s*1(?:\.00)?\b")


# a Chinese edition's headline: "全年業績", "截至二零二四年十二月三十一日止年度之...業績公告"
_ZH_ANNUAL = re.compile(r"全年[業业][績绩]|年度[業业][績绩]|止年度")
_ZH_INTERIM = re.compile(r"中期[業业][績绩]|止六[個个]月")


def classify(text: str, has_statements: bool) -> DocKind:
    """Classify by the announcement's own words; a results release must carry statements."""
    head = text[:20000]
    if "Cash Dividend Announcement for Equity Issuer" in head:
        return DocKind.DIVIDEND_FORM
    if has_statements or (_RESULTS.search(head) and _STATEMENT.search(text)):
        lowered = head.lower()
        if "full year" in lowered or "annual results" in lowered or _ZH_ANNUAL.search(head):
            return DocKind.RESULTS_ANNUAL
        if (
            "interim" in lowered
            or "second quarter" in lowered
            or "six months ended" in lowered
            or _ZH_INTERIM.search(head)
        ):
            return DocKind.RESULTS_INTERIM
        return DocKind.RESULTS_QUARTERLY
    if re.search(r"Form 6-K", head) and "FOREIGN PRIVATE ISSUER" in head.upper():
        return DocKind.COVER_PAGE
    return DocKind.OTHER


def usd_rate(text: str) -> Decimal | None:
    """RMB per USD of the convenience translation ("at a rate of RMB7.2993 to US$1.00")."""
    rates = {Decimal(m[1]) for m in _RATE.finditer(text)}
    return rates.pop() if len(rates) == 1 else None
