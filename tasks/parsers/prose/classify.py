"""Document kind from its text: results release (quarterly/interim/annual), dividend form,
6-K cover page, or other."""

from __future__ import annotations

import re
from decimal import Decimal

from domain.enums import DocKind
from tasks.parsers.documents import running_text

# a results document's own words: US releases' "financial results", HKEx announcements' and
# reports' titles ("ANNUAL RESULTS ANNOUNCEMENT", "INTERIM REPORT", 業績公告, 中期報告, 年報)
_RESULTS = re.compile(
    r"(unaudited )?financial results|(?:annual|interim|final) results|results announcement"
    r"|(?:annual|interim) report\b|[財财][務务][業业][績绩]|[業业][績绩]公告"
    r"|(?:全年|年度|中期|末期)[業业][績绩]|中期[報报]告|年[報报]",
    re.I,
)
# a primary statement's title, US GAAP or IFRS, English or Chinese
_STATEMENT = re.compile(
    r"(?:condensed )?consolidated (?:balance sheets?|statements? of (?:operations|income))"
    r"|statements? of (?:profit or loss|financial position|cash flows|comprehensive income)"
    r"|[綜综]合(?:[財财][務务][狀状][況况]|[損损]益|[資资][產产][負负][債债]|[現现]金流量)"
    r"|[財财][務务][狀状][況况]表|[現现]金流量表|全面收益表",
    re.I,
)
_RATE = re.compile(r"rate of RMB\s*(\d+\.\d+)\s+to\s+US\\?\$\s*1(?:\.00)?\b")
_TITLE = 1500  # characters of a document's start its title is printed within
# the period a results document covers, in its title's words, English and Chinese
_ANNUAL = re.compile(
    r"full year|annual results|final results|annual report\b|全年[業业][績绩]|年度[業业][績绩]"
    r"|止年度|年[報报]",
    re.I,
)
_INTERIM = re.compile(
    r"interim|second quarter|six months ended|中期[業业][績绩]|中期[報报]告|止六[個个]月", re.I
)


def classify(text: str, has_statements: bool) -> DocKind:
    """Classify by the announcement's own words; a results release must carry statements
    (read, or titled: an IFRS statement of profit or loss / financial position / cash flows)."""
    head = running_text.join_cjk(running_text.clean(text[:20000]))
    if "Cash Dividend Announcement for Equity Issuer" in head:
        return DocKind.DIVIDEND_FORM
    if has_statements or (_RESULTS.search(head) and _STATEMENT.search(running_text.join_cjk(text))):
        return _results_kind(head)
    if re.search(r"Form 6-K", head) and "FOREIGN PRIVATE ISSUER" in head.upper():
        return DocKind.COVER_PAGE
    return DocKind.OTHER


def _results_kind(head: str) -> DocKind:
    """Annual, interim or quarterly: the title's first period word decides ("INTERIM REPORT"
    mentions the annual report later); else any in the head, annual first."""
    title = head[:_TITLE]
    first = min(
        ((m.start(), kind) for rx, kind in _PERIODS for m in [rx.search(title)] if m),
        default=None,
    )
    if first is not None:
        return first[1]
    for rx, kind in _PERIODS:
        if rx.search(head):
            return kind
    return DocKind.RESULTS_QUARTERLY


_PERIODS = ((_ANNUAL, DocKind.RESULTS_ANNUAL), (_INTERIM, DocKind.RESULTS_INTERIM))


def usd_rate(text: str) -> Decimal | None:
    """RMB per USD of the convenience translation ("at a rate of RMB7.2993 to US$1.00")."""
    rates = {Decimal(m[1]) for m in _RATE.finditer(text)}
    return rates.pop() if len(rates) == 1 else None
