"""Column headers -> periods, currency and role of each value column.

Headers are multi-row ("Three months ended June 30," / "2023 2024 2024" / "RMB RMB USD") and in
text or PDF form a spanning header sits only in the first column of its group, sometimes split
or garbled ("Six m" | "Six months ended June"). Groups end at the USD convenience column, so a
column missing its period words borrows them from its own group, never from a neighbour's.
Anything ambiguous (two years, months counted to a day that is not a month end) leaves the
period unknown.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from tasks.parsers.documents.raw_tables import Row
from tasks.parsers.documents.zh import englished

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_MONTH_RE = re.compile(r"\b(" + "|".join(_MONTHS) + r")\b\s*(\d{1,2}(?!\d))?", re.IGNORECASE)
_DURATION_RE = re.compile(
    r"\b(three|six|nine|twelve|year|thirteen|twenty[- ]six|thirty[- ]nine|fifty[- ]two|"
    r"fifty[- ]three)\b|\b(\d{1,2})[- ]weeks?\b",
    re.IGNORECASE,
)
# Retailers count fiscal periods in weeks ("Thirteen Weeks Ended November 2, 2024"): weeks are
# stored as negative numbers so that a duration stays one int.
_DURATION = {"three": 3, "six": 6, "nine": 9, "twelve": 12, "year": 12, "thirteen": -13}
_DURATION |= {"twentysix": -26, "thirtynine": -39, "fiftytwo": -52, "fiftythree": -53}
_SPELLED = re.compile(
    r"\b(?:three|six|nine|twelve|thirteen|twenty[- ]six|thirty[- ]nine|fifty[- ]two|fifty[- ]three"
    r"|\d{1,2})[- ](?:m ?o ?n ?t ?h ?s?|weeks?)\b|\byears? ended\b",
    re.IGNORECASE,
)
_YEAR_RE = re.compile(r"\b((?:19|20)\d{2})\b")
_MONTH_NAMES = "|".join(_MONTHS)
_ENDED = (
    r"(?:three|six|nine|twelve|thirteen|twenty[- ]six|thirty[- ]nine|fifty[- ]two|fifty[- ]three"
    r"|\d{1,2})[- ](?:m ?o ?n ?t ?h ?s?|weeks?)[- ]ended|(?:fiscal )?years? ended|as (?:of|at)"
)
# the pieces a one-line header is cut into, tried in this order: whole periods ("Three months
# ended June 30, 2024", "December 31,"), durations alone, years, currencies
_PIECES = (
    re.compile(
        rf"(?:\b(?:{_ENDED})[ ,]*)?\b(?:{_MONTH_NAMES})\s+\d{{1,2}}\b"
        r"(?:,?\s*(?:19|20)\d{2}\b)?,?",
        re.IGNORECASE,
    ),
    re.compile(rf"\b(?:{_ENDED})\b,?", re.IGNORECASE),
    re.compile(r"\b(?:19|20)\d{2}\b"),
    re.compile(r"RMB|US\$|\bUSD\b|HK\$|\bHKD\b"),
)
_FILLER = re.compile(
    r"\((?:un)?audited\)|\b(?:un)?audited\b|\(\d\)|[(),:*]|[（(]?未?經審核[）)]?|[（(]?未?经审核[）)]?"
    r"|附[註注]",
    re.IGNORECASE,
)
_USD_RE = re.compile(r"\bUSD\b|US\$")
# "31 December 2014", "30 June": the day before the month (Hong Kong, British style)
_DAY_FIRST = re.compile(
    rf"\b(\d{{1,2}})\s*({_MONTH_NAMES})\b(\s+(?:19|20)\d{{2}}\b)?", re.IGNORECASE
)
# a column of note references ("NOTES", "Note", "附註"): no figure of the statement
_NOTES = re.compile(r"\s*(?:notes?|附[註注]|附[註注]編號)\s*", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Column:
    """One value column of a table."""

    index: int  # position in the row (0 is the label)
    header: str  # header as printed, rows joined
    role: str  # "value" | "usd" | "ifrs" | "gaap" | "adjustment" | "notes"
    start: date | None  # None for an instant
    end: date | None  # None when the period could not be read


def resolve_columns(
    header_rows: list[Row], width: int, title: str, lead: tuple[str, ...] = ()
) -> list[Column]:
    """Read every value column's period and role from the header rows and the table title.

    ``lead``: header lines printed above the table or in its label column ("December 31,
    2023 December 31, 2024"); a row whose one text names as many periods (years, currencies)
    as the table has value columns gives them to the columns in order.
    """
    rows = [(line, *([""] * (width - 1))) for line in header_lines(lead)] + header_rows
    notes = {i for i in range(1, width) if _NOTES.fullmatch(" ".join(r[i] for r in rows if r[i]))}
    # Chinese periods, years and currencies read as their English words ("二零二三年" -> "2023")
    header_rows = [spread(tuple(dated(c) for c in row), notes) for row in rows]
    title = dated(title)
    usd = [_is_usd(header_rows, i) for i in range(width)]
    groups = _groups(usd[1:])
    filled = _fill_groups(header_rows, groups) if any(usd) else header_rows
    ifrs = any("IFRS" in cell for row in header_rows for cell in row[1:])
    columns = []
    for group in groups:
        group_text = " ".join(row[i] for row in header_rows for i in group if row[i])
        for i in group:
            own = " ".join(row[i] for row in filled if row[i])
            start, end = _period(own, group_text, title)
            role = "notes" if i in notes else "usd" if usd[i] else "value"
            if role == "notes":
                start = end = None  # note references: no period, no figure of the statement
            columns.append(Column(i, own, role, start, end))
    return _ifrs_roles(columns) if ifrs else columns


def without_notes(rows: tuple[Row, ...], columns: list[Column]) -> tuple[Row, ...]:
    """Rows with the cells of the note-reference columns blanked: "EARNINGS PER SHARE  7" is a
    heading, not a row with a figure."""
    notes = {c.index for c in columns if c.role == "notes"}
    if not notes:
        return rows
    return tuple(tuple("" if i in notes else c for i, c in enumerate(r)) for r in rows)


def dated(text: str) -> str:
    """A header's periods in one word order: Chinese ones as English words, and day-first
    dates ("31 DECEMBER 2014", "30 June") as month-first ("December 31, 2014", "June 30")."""
    return _DAY_FIRST.sub(_month_first, englished(text))


def phrase_period(text: str) -> tuple[date | None, date | None]:
    """The period a phrase names ("for the year ended 31 December 2014", "截至二零一四年六月三十日
    止六個月"): (start, end), start None for an instant, both None when it names none exactly."""
    return _period(dated(text), "", "")


def _month_first(match: re.Match[str]) -> str:
    year = f",{match[3]}" if match[3] else ""
    return f"{match[2]} {match[1]}{year}"


def header_lines(lines: tuple[str, ...]) -> list[str]:
    """The trailing lines that hold nothing but header words (dates, years, currencies)."""
    out: list[str] = []
    for line in reversed(lines):
        rest = englished(line)
        for rx in _PIECES:
            rest = rx.sub(" ", rest)
        if re.search(r"[A-Za-z0-9\u3400-\u9fff]", _FILLER.sub(" ", rest)) or rest == line:
            break
        out.insert(0, line)
    return out


def spread(row: Row, notes: frozenset[int] | set[int] = frozenset()) -> Row:
    """A header row whose one text holds as many periods, years or currencies as the table
    has value columns (or a divisor of that: one per group) -> one per value column, in
    order. A NOTES column (``notes``) is no value column."""
    values = [i for i in range(1, len(row)) if i not in notes]
    texts = {c for i, c in enumerate(row) if c and i not in notes}
    count = len(values)
    if len(texts) != 1 or count < 2:
        return row
    text = texts.pop()
    if not any(row[1:]) and _one_part(text):
        return ("", *([text] * (len(row) - 1)))
    for rx in _PIECES:
        parts = [m.group(0).strip(" ,") for m in rx.finditer(text)]
        rest = _FILLER.sub(" ", rx.sub(" ", text))
        if len(parts) >= 2 and count % len(parts) == 0 and not re.search(r"[A-Za-z0-9]", rest):
            out = ["", *row[1:]]
            each = count // len(parts)
            for n, i in enumerate(values):
                out[i] = parts[n // each]
            return tuple(out)
    return row


def _one_part(text: str) -> bool:
    """A header line in the label column naming one period part and no year ("December
    31,", "Three months ended"): it heads every value column."""
    if _YEAR_RE.search(text):
        return False
    for rx in _PIECES:
        parts = rx.findall(text)
        if parts:
            rest = _FILLER.sub(" ", rx.sub(" ", text))
            return len(parts) == 1 and not re.search(r"[A-Za-z0-9]", rest)
    return False


def _is_usd(rows: list[Row], i: int) -> bool:
    return i > 0 and any(_USD_RE.search(row[i]) for row in rows)


def _groups(usd_flags: list[bool]) -> list[list[int]]:
    groups: list[list[int]] = [[]]
    for offset, flag in enumerate(usd_flags):
        groups[-1].append(offset + 1)
        if flag:
            groups.append([])
    return [g for g in groups if g]


def _fill_groups(rows: list[Row], groups: list[list[int]]) -> list[Row]:
    """Forward-fill spanning header text within each group, row by row."""
    out = []
    for row in rows:
        cells = list(row)
        for group in groups:
            last = ""
            for i in group:
                last = cells[i] or last
                cells[i] = cells[i] or last
        out.append(tuple(cells))
    return out


def _ifrs_roles(columns: list[Column]) -> list[Column]:
    """IFRS reconciliation: the last "reported under IFRSs" column is the fact, the first
    U.S. GAAP column is the cross-check, the rest are adjustments."""
    ifrs = [c for c in columns if "IFRS" in c.header and "reported" in c.header.lower()]
    ifrs_index = ifrs[-1].index if ifrs else -1
    gaap = [c for c in columns if "GAAP" in c.header and c.index != ifrs_index]
    gaap_index = gaap[0].index if gaap else -1
    out = []
    for c in columns:
        role = {ifrs_index: "ifrs", gaap_index: "gaap"}.get(c.index, "adjustment")
        out.append(Column(c.index, c.header, role, c.start, c.end))
    return out


def _period(own: str, group: str, title: str) -> tuple[date | None, date | None]:
    if _two(_month_days, own, group) or _two(_durations, own, group):
        return None, None
    months = _first_duration(own) or _first_duration(group) or _first_duration(title)
    month_day = _month_day(own) or _month_day(group) or _month_day(title)
    year = _single_year(own, title)
    if month_day is None or year is None:
        return None, None
    month, day = month_day
    last = calendar.monthrange(year, month)[1]
    if day is not None and not 1 <= day <= last:
        return None, None  # "June 31" is a misread, never a date
    end = date(year, month, day or last)
    if months is not None and months < 0:
        return end - timedelta(weeks=-months) + timedelta(days=1), end
    if months and end.day != last:
        return None, None  # months counted to a day that is not a month end: ambiguous
    return (_start(end, months) if months else None), end


def _first_duration(text: str) -> int | None:
    match = _DURATION_RE.search(text)
    return None if match is None else _duration(match)


def _duration(match: re.Match[str]) -> int:
    if match[2]:
        return -int(match[2])
    return _DURATION[re.sub(r"[- ]", "", match[1].lower())]


def _two(named: Callable[[str], set[Any]], own: str, group: str) -> bool:
    """Whether a column's own header names two dates (durations), or names none under a group
    naming several: no telling which is the column's."""
    mine = named(own)
    return len(mine) > 1 or (not mine and len(named(group)) > 1)


def _durations(text: str) -> set[str]:
    """The durations a header spells out in full ("Three months ended", "Year ended"); a
    fragment of a neighbour's ("Six m", overprinted) is none."""
    return {re.sub(r"[\s-]+", " ", m[0].lower()) for m in _SPELLED.finditer(text)}


def _month_days(text: str) -> set[tuple[int, int | None]]:
    return {(_MONTHS[m[1].lower()], int(m[2]) if m[2] else None) for m in _MONTH_RE.finditer(text)}


def _month_day(text: str) -> tuple[int, int | None] | None:
    match = _MONTH_RE.search(text)
    if match is None:
        return None
    return _MONTHS[match[1].lower()], int(match[2]) if match[2] else None


def _single_year(own: str, title: str) -> int | None:
    """The column's own year, else the title's only year; None when that is not one year.
    The title names the current period ("FOR THE YEAR ENDED 31 DECEMBER 2014"): a column
    headed 2013 is the same period a year before."""
    years = set(_YEAR_RE.findall(own))
    title_years = set(_YEAR_RE.findall(title))
    chosen = years or title_years
    return int(chosen.pop()) if len(chosen) == 1 else None


def _start(end: date, months: int) -> date:
    month = end.month - months + 1
    year = end.year
    while month <= 0:
        month += 12
        year -= 1
    return date(year, month, 1)
