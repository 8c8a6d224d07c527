"""Running text of a document, cleaned for reading figures out of sentences.

Footnote marks ("loans^{*7}", "rate*¹³", "income**14"), markdown emphasis and escaped dollars
are removed; line wraps become spaces. Section headings ("Fourth Quarter 2023 Financial
Results", "Full Year 2024 Operational Highlights") give every sentence its reporting period.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

Period = tuple[date, date]

_FOOTNOTES = (
    re.compile(r"\^\{\*?\d+\}"),
    re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹]+"),
    re.compile(r"\*+\d+\b"),
    re.compile(r"\*+"),
    # a footnote number glued to a word in PDF text ("Non-GAAP9 net income"); never after
    # "RMB", whose digits are the figure
    re.compile(r"(?:(?<=[a-z]{2})|(?<=GAAP))\d{1,2}(?=\s)"),
)
_SPACES = re.compile(r"  +")
_PAGE_NUMBER = re.compile(
    r"^[ \t]*[-–]?[ \t]*(?:page[ \t]*)?\d{1,3}[ \t]*[-–]?[ \t]*$", re.MULTILINE | re.IGNORECASE
)
_CJK = r"[\u3001-\u303f\u3400-\u9fff\uff00-\uffef]"
_CJK_GAP = re.compile(rf"(?<={_CJK})[ \t]+(?={_CJK})")
_STRETCH = 1 << 16  # characters cleaned at a time
_WHITESPACE = str.maketrans({c: " " for c in "\n\r\t\f\v\xa0\u2028\u2029"})
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_HEADING = re.compile(
    r"\b(?:(?P<q>First|Second|Third|Fourth) Quarter|(?P<fy>Full Year)) (?P<y>(?:19|20)\d{2}) "
    r"(?:Business|Financial|Operational) (?:Highlights|Results)\b"
)
# Headings after which sentences belong to no reporting period (dividend, outlook, boilerplate).
_SECTION_END = re.compile(
    r"(?<![“\"])(?:30 Day\+ Delinquency Rate by Vintage|Semi-Annual Dividend|Business Outlook|"
    r"Board Change|Update on Share Repurchase|Use of Non-GAAP Financial Measures|"
    r"Exchange Rate Information)"
)
_MONTHS = "|".join(m for m in calendar.month_name if m)
DATE_RE = re.compile(rf"\b({_MONTHS}) (\d{{1,2}}), ((?:19|20)\d{{2}})\b")
DAY_FIRST_RE = re.compile(rf"\b(\d{{1,2}}) ({_MONTHS}) ((?:19|20)\d{{2}})\b")
_MONTH_NUMBER = {m: i for i, m in enumerate(calendar.month_name) if m}


@dataclass(frozen=True, slots=True)
class Section:
    """A stretch of text under one results heading."""

    start: int
    heading: str
    period: Period | None  # None after a non-results heading


def clean(text: str) -> str:
    """Footnote marks and emphasis removed, whitespace collapsed to single spaces.

    A long text is cleaned a stretch of lines at a time: each pass over the whole text would
    hold two more copies of it (the pass's pieces and its result). No pattern reaches past a
    line break, and a stretch ends with one, so stretches clean exactly as the whole; only a
    run of spaces can meet across two of them, and is joined here.
    """
    pieces: list[str] = []
    for stretch in _stretches(text):
        piece = _clean_lines(stretch)
        if piece[:1] == " " and pieces and pieces[-1][-1] == " ":
            piece = piece[1:]
        if piece:
            pieces.append(piece)
    while pieces and not pieces[0].lstrip():
        pieces.pop(0)
    while pieces and not pieces[-1].rstrip():
        pieces.pop()
    if not pieces:
        return ""
    pieces[0] = pieces[0].lstrip()
    pieces[-1] = pieces[-1].rstrip()
    return "".join(pieces)


def _clean_lines(text: str) -> str:
    # a page number between two halves of a sentence ("... between RMB1.75 billion and" /
    # "12" / "RMB1.85 billion ...") is not part of it
    text = _PAGE_NUMBER.sub("", text)
    # translate first: a regex over every line break would build one fragment per line
    text = text.replace("\\$", "$").translate(_WHITESPACE)
    for pattern in _FOOTNOTES:
        text = pattern.sub("", text)
    return _SPACES.sub(" ", text)


def join_cjk(text: str) -> str:
    """Chinese as printed: a PDF text layer that spaces out Chinese characters ("香 港，2015年
    年 度 業 績") loses the spaces between two CJK characters or full-width marks."""
    return _CJK_GAP.sub("", text)


def _stretches(text: str) -> Iterator[str]:
    """The text in pieces of about ``_STRETCH`` characters, each cut just after a line break."""
    start = 0
    while start < len(text):
        cut = text.find("\n", start + _STRETCH)
        end = len(text) if cut < 0 else cut + 1
        yield text[start:end]
        start = end


def sections(text: str) -> list[Section]:
    """Results headings and section ends of cleaned text, in order."""
    found = [Section(m.start(), m[0], _heading_period(m)) for m in _HEADING.finditer(text)]
    found += [Section(m.start(), m[0], None) for m in _SECTION_END.finditer(text)]
    return sorted(found, key=lambda s: s.start)


def section_at(found: list[Section], position: int) -> Section | None:
    """The section a position of the text falls in (None before the first heading)."""
    current = None
    for section in found:
        if section.start > position:
            break
        current = section
    return current


def _heading_period(match: re.Match[str]) -> Period:
    year = int(match["y"])
    return full_year(year) if match["fy"] else quarter(year, _ORDINALS[match["q"].lower()])


def quarter(year: int, number: int) -> Period:
    """Calendar quarter ``number`` (1-4) of ``year``."""
    first = 3 * number - 2
    return date(year, first, 1), month_end(year, first + 2)


def full_year(year: int) -> Period:
    """January to December of ``year``."""
    return date(year, 1, 1), date(year, 12, 31)


def half(year: int, number: int) -> Period:
    """First (1) or second (2) half of ``year``."""
    return (
        (date(year, 1, 1), date(year, 6, 30))
        if number == 1
        else (date(year, 7, 1), date(year, 12, 31))
    )


def month_end(year: int, month: int) -> date:
    """Last day of a month."""
    return date(year, month, calendar.monthrange(year, month)[1])


def shift_year(period: Period, year: int) -> Period:
    """The same months in another year."""
    start, end = period
    return date(year, start.month, 1), month_end(year, end.month)


def prior_quarter(period: Period) -> Period:
    """The three months before a quarter."""
    start = period[0]
    year, month = (start.year, start.month - 3) if start.month > 3 else (start.year - 1, 10)
    return date(year, month, 1), month_end(year, month + 2)


def next_quarter(period: Period) -> Period:
    """The three months after a period's last month."""
    end = period[1]
    year, month = (end.year, end.month + 1) if end.month < 12 else (end.year + 1, 1)
    return date(year, month, 1), month_end(year, month + 2)


def ordinal(word: str) -> int:
    """ "first" -> 1 ... "fourth" -> 4."""
    return _ORDINALS[word.lower()]


def parse_date(match: re.Match[str]) -> date:
    """A DATE_RE ("March 12, 2024") or DAY_FIRST_RE ("12 April 2024") match -> date."""
    if match.re is DAY_FIRST_RE:
        return date(int(match[3]), _MONTH_NUMBER[match[2]], int(match[1]))
    return date(int(match[3]), _MONTH_NUMBER[match[1]], int(match[2]))
