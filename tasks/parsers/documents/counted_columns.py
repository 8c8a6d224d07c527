"""Columns without geometry: a table whose positions say nothing about its columns.

Laid-out text whose figures share no column edges (labels push them right, one space or a run
of spaces apart: a release's text as published) has columns only by count. Its header lines
stand where the typesetter put them ("Three months ended" far right, "  2023  2024  2024" at
the margin), not over the figures, so their positions are not read: each header line of
period words (durations, dates, years, currencies) is one text, which the header reader
gives to the value columns in order when it names one per column, or one per group of equal
width (:func:`tasks.parsers.tables.headers.spread`). A row of ratios one short of the columns per
convenience-currency column ("GAAP net income margin 24.6% 42.7%" under RMB RMB USD) gives
them to the reporting-currency columns: a ratio is the same in any currency and is not
translated. Anything else keeps the reading by position (and is refused when that fails).

A PDF whose figures stand in each line's flow (``crowded``: two in one column in most rows)
is read as such a text. In laid-out text a line of words right after a row whose label it
finishes (``tails``: a narrow label column wrapped below its figures) joins that label.
"""

from __future__ import annotations

import re
from collections import Counter

from tasks.parsers.documents import wrapping
from tasks.parsers.documents.value_columns import Placed, Span, _overlapping, is_figure
from tasks.parsers.tables.headers import header_lines

_USD = re.compile(r"USD|US\$")
_CURRENCY = re.compile(r"\bRMB\b|\bUSD\b|US\$|HK\$|\bHKD\b")
_RATIO = re.compile(r"\(?-?\d[\d,]*(?:\.\d+)?%\)?")


def without_geometry(rows: list[list[Placed]], aligned: list[list[str]]) -> list[list[str]]:
    """``aligned`` (the rows as placed by position) with the header lines read as texts and
    the ratio rows read in order."""
    count = len(aligned[0]) - 1 if aligned else 0
    out = [_header_text(row, count) or placed for row, placed in zip(rows, aligned, strict=True)]
    usd = _convenience(out, count)
    return [_ratios(row, count, usd) or placed for row, placed in zip(rows, out, strict=True)]


def _header_text(row: list[Placed], count: int) -> list[str] | None:
    """A line of period words only, as one text in the label column (the header reader
    spreads it); None for any other line."""
    text = " ".join(c.text.strip() for c in row if c.text.strip())
    if not text or any(is_figure(c.text) for c in row) or header_lines((text,)) != [text]:
        return None
    return [text, *([""] * count)]


def _convenience(rows: list[list[str]], count: int) -> list[int]:
    """The value columns a header line heads with the convenience currency ("RMB RMB USD":
    the third), one currency per column."""
    for row in rows:
        marks = _CURRENCY.findall(" ".join(row))
        if len(marks) == count and not any(is_figure(c) for c in row):
            return [i for i, mark in enumerate(marks, start=1) if _USD.fullmatch(mark)]
    return []


def _ratios(row: list[Placed], count: int, usd: list[int]) -> list[str] | None:
    """A row of words and then one figure per column (a nil mark one of them: "Goodwill -
    41,210 5,804"), in order; a row of ratios one short per convenience column, in the
    reporting-currency columns; None for any other row."""
    words = " ".join(c.text.strip() for c in row).split()
    first = len(words)
    while first and is_figure(words[first - 1]):
        first -= 1
    figures = words[first:]
    if len(figures) == count:
        return [" ".join(words[:first]), *figures]
    if not figures or len(figures) != count - len(usd):
        return None
    if not all(_RATIO.fullmatch(f) for f in figures):
        return None
    out = [" ".join(words[:first]), *([""] * count)]
    reporting = [i for i in range(1, count + 1) if i not in usd]
    for index, figure in zip(reporting, figures, strict=True):
        out[index] = figure
    return out


def crowded(rows: list[list[Placed]], columns: list[Span]) -> bool:
    """Whether most rows printing two figures or more print two in one column."""
    counts = [
        Counter(i for c in row if is_figure(c.text) for i in _overlapping(c, columns, 0.0)[:1])
        for row in rows
    ]
    several = [c for c in counts if c.total() >= 2]
    return sum(max(c.values()) >= 2 for c in several) * 2 > len(several)


def tails(rows: list[list[str]]) -> list[list[str]]:
    """A line of words alone right after a row with figures whose label it finishes (the
    label left unfinished, "... 50,445,186 shares at February 3,", or the line in lower
    case, "services" under "Credit driven  2,776,748 ..."): joined to that label, the line
    emptied (a text printer wrapped the label in a narrow column, below its figures)."""
    out = [list(row) for row in rows]
    target: list[str] | None = None  # the row with figures the lines below may finish
    for i, row in enumerate(out):
        if any(row[1:]):
            target = row if row[0] else None
            continue
        label = row[0]
        if target and label and wrapping.continues(target[0], label):
            target[0] = f"{target[0]} {label}"
            out[i] = [""] * len(row)
        else:
            target = None
    return out
