"""What a statement table is, from its title lines and header: statement kind, scale, currency.

Issuer-independent: the words every results release uses ("Balance Sheets", "Statements of
Income", "in thousands", "RMB'000", "$"), so a release of an issuer without a label catalog
is still read row by row.
"""

from __future__ import annotations

import re

from domain.rowrecords import StatementKind
from tasks.parsers.documents.numbers import CellKind, parse_cell
from tasks.parsers.documents.raw_tables import RawTable
from tasks.parsers.documents.zh import has_han

# "In thousands of Renminbi"; PDF damage can cut the "In" ("n thousands of Re"), so the
# "thousands of" form is accepted too; "RMB'000" / "US$'000" headers are thousands as well.
_SCALE_RE = re.compile(
    r"\bin (thousands|millions)\b|\b(thousands|millions) of\b"
    # a currency's column head: "RMB'000", "US$'000", "RMB million", "RMB'Million", "HK$m",
    # "RMB thousands", "(in RMB millions)"
    r"|(?:RMB|US\$|HK\$|USD|HKD|\$)\s?['’]?\s?(000|thousands?|millions?|mn|m)\b"
    r"|\bin (?:RMB|US\$|HK\$|USD|HKD) (thousands|millions)\b"
    r"|(?:人民[幣币]|港[幣币]|美)?(千|百萬|百万)(?:港|美)?元",  # 人民幣千元, 人民币百万元, 千港元
    re.IGNORECASE,
)
_SCALES = {"thousands": 3, "millions": 6, "000": 3, "千": 3, "百萬": 6, "百万": 6}
_SCALES |= {"thousand": 3, "million": 6, "mn": 6, "m": 6}
PERIOD_TITLE_RE = re.compile(
    r"^(?:(?:as )?(?:of|at)|for the|three|six|nine|twelve|thirteen|year).*\b(?:19|20)\d{2}\b"
    r"|^(?:截至|於|于)\s*\S*(?:日|止年度|[個个]月)$",  # 截至十二月三十一日止年度, 於十二月三十一日
    re.IGNORECASE,
)
# (kind, title words), the first match wins: "comprehensive income" before "income"
_KINDS: tuple[tuple[StatementKind, re.Pattern[str]], ...] = (
    (
        StatementKind.NON_GAAP_RECONCILIATION,
        re.compile(r"reconcil.*non-gaap|non-gaap.*reconcil", re.I),
    ),
    # HKEx Chinese editions, traditional and simplified ("綜合損益及其他全面收益表" and
    # "綜合收益表" are the income statement; "綜合全面收益表" alone is comprehensive income)
    (
        StatementKind.INCOME_STATEMENT,
        re.compile(
            r"[損损]益(?:及其他全面收益)?表|利[潤润]表|[經经][營营]報表|经营报表|(?<!全面)收益表"
        ),
    ),
    (StatementKind.OTHER, re.compile(r"全面收[益入]表")),
    (
        StatementKind.BALANCE_SHEET,
        re.compile(r"[財财][務务][狀状][況况]表|[資资][產产][負负][債债]表"),
    ),
    (StatementKind.CASH_FLOW, re.compile(r"[現现]金流量表")),
    (StatementKind.OTHER, re.compile(r"statements? of comprehensive", re.I)),
    (StatementKind.BALANCE_SHEET, re.compile(r"balance sheets?|financial position", re.I)),
    (StatementKind.CASH_FLOW, re.compile(r"statements? of cash flows?", re.I)),
    (
        StatementKind.INCOME_STATEMENT,
        re.compile(
            r"statements? of (?:operations|income|earnings|profit or loss)|income statements?",
            re.I,
        ),
    ),
)
# the holding company's own statements, which annual reports print in a note ("STATEMENT
# OF FINANCIAL POSITION OF THE COMPANY", 本公司財務狀況表): another entity than the group's
_PARENT_ONLY = re.compile(
    r"\bof the company\b|\bcompany[- ]level\b|\bcompany['’]s (?:statement|balance)|本公司",
    re.IGNORECASE,
)
_CONSOLIDATED = re.compile(r"consolidated|綜合|综合|合併|合并", re.IGNORECASE)
_ZH_TITLE_CHARS = 30
_SENTENCE_BREAK = re.compile(r"[a-z)]\. [A-Z]")  # "... financial measures. For more ..."
# a sentence naming a statement: "... were classified as financial liabilities in the
# consolidated statement of financial position"
_IN_THE_STATEMENT = re.compile(
    r"\b(?:in|to|of|from|on|into)\s+the\s+(?:\w+\s+){0,3}statements?\s+of\b", re.IGNORECASE
)
# what may stand between two pages of one statement: a page number, a "continued" line
_BETWEEN_PAGES = re.compile(
    r"[-– ]*(?:page )?\d{1,3}[-– ]*|\(?continued\)?|[（(]?[續续][）)]?", re.IGNORECASE
)
# a title that says its statement goes on from the page before: "(continued)", "（續）"
CONTINUED = re.compile(r"\bcontinued\b|[（(][續续][）)]", re.IGNORECASE)
_EXCEPT_SHARES = re.compile(
    r"number of (?:ordinary )?shares|except(?: for)? shares?\b|shares? and per share", re.I
)
_CURRENCIES = (
    ("CNY", re.compile(r"\bRMB|Renminbi|\bCNY\b|¥|人民[幣币]")),
    ("HKD", re.compile(r"HK\$|\bHKD\b|Hong Kong dollars?|港元|港[幣币]", re.I)),
    ("USD", re.compile(r"US\$|\bUSD\b|U\.S\. dollars?|(?<![A-Z])\$|美元")),
)


def statement_kind(line: str, header_text: str = "") -> StatementKind | None:
    """The statement a title line names (an IFRS column header makes it the IFRS
    reconciliation); None when the line names none."""
    if "IFRS" in header_text and "GAAP" in header_text:
        return StatementKind.IFRS_RECONCILIATION
    if len(line) > 300 or line.rstrip().endswith((".", "。")) or not titled(line):
        return None  # a sentence that mentions a statement is not its title
    if _PARENT_ONLY.search(line) and not _CONSOLIDATED.search(line):
        return None  # the holding company's own (an annual report's note), not the group's
    if "IFRS" in line and "GAAP" in line and "non-gaap" not in line.lower():
        return StatementKind.IFRS_RECONCILIATION  # its columns' heads printed on the title line
    return next((kind for kind, words in _KINDS if words.search(line)), None)


def titled(line: str) -> bool:
    """Whether a line can be a title, not a line of running text that names a statement:
    it does not begin in lower case ("therefore the same as ... statement of profit or loss")
    or inside a quotation ("“Unaudited Reconciliations of GAAP and Non-GAAP Results” set"),
    holds no end of a sentence, and in Chinese it is short (a title is a dozen characters, a
    text line forty)."""
    squeezed = "".join(line.split())
    if squeezed[:1].islower() or squeezed[:1] in "“”\"‘’'" or _SENTENCE_BREAK.search(line):
        return False
    if _IN_THE_STATEMENT.search(line):
        return False
    return not has_han(squeezed) or len(squeezed) <= _ZH_TITLE_CHARS


def scale_of(text: str) -> int | None:
    """Power of ten a scale line states ("in thousands" -> 3), None when none is stated."""
    match = _SCALE_RE.search(text)
    if match is None:
        return None
    return _SCALES[next(g for g in match.groups() if g).lower()]


def currencies_in(text: str) -> list[str]:
    """ISO codes of the currencies a header or title names, in the order of first mention."""
    found = [(m.start(), code) for code, rx in _CURRENCIES for m in [rx.search(text)] if m]
    return [code for _, code in sorted(found)]


def except_shares(text: str) -> bool:
    """True when the scale line exempts share counts ("except for number of shares", "except
    share and per share amounts"); "except per share amounts" exempts only per-share figures."""
    return _EXCEPT_SHARES.search(text) is not None


_EXCEPT_PER_SHARE = re.compile(r"\bexcept\b[^.;)]*\bper (?:ordinary )?(?:share|ADS)\b", re.I)


def except_per_share(text: str) -> bool:
    """True when the scale line exempts per-share figures ("except for number of shares and
    per share data", "except per share amounts")."""
    return _EXCEPT_PER_SHARE.search(text) is not None


def is_continuation(preamble: tuple[str, ...]) -> bool:
    """True when nothing but page furniture stands above a table: it continues the previous
    statement on a new page."""
    return all(_BETWEEN_PAGES.fullmatch(line.strip()) for line in preamble)


def lists_statements(table: RawTable) -> bool:
    """True when two rows or more of a table are a statement's title and one figure: a
    report's list of contents ("Condensed Consolidated Statement of Financial Position  35"),
    whose page numbers are no statement's figures (a title wrapped over two lines there
    heads it). A heading naming a statement has no figure ("Reconciliation of Non-GAAP Net
    Income to Net Income" in a reconciliation)."""
    entries = (
        row
        for row in table.rows
        if row
        and sum(parse_cell(c).kind is CellKind.NUMBER for c in row[1:]) == 1
        and statement_kind(row[0]) is not None
    )
    return next(entries, None) is not None and next(entries, None) is not None


def header_text(table: RawTable) -> str:
    """The text of a table's rows that carry no figure: its header, headings, scale notes."""
    return " ".join(
        c
        for row in table.rows
        if not any(parse_cell(x).kind is CellKind.NUMBER for x in row[1:])
        for c in row
        if c
    )
