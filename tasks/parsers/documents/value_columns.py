"""Positioned cells -> label + value columns, shared by the HTML, PDF and laid-out text parsers.

A value column is the horizontal extent shared by the figures under it: figures may be
right-aligned, centred or left-aligned, but within one column their extents overlap, and
distinct columns do not. Split fragments ("(" "366,065" ")", a lone "%") join the figure they
belong to; currency-symbol cells in figure rows are dropped; a spanning header cell is copied to
every column it covers.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from itertools import pairwise
from statistics import median

from tasks.parsers.documents.numbers import CellKind, is_year, parse_cell

CURRENCY_MARKS = frozenset({"$", "RMB", "US$", "USD$", "HK$", "¥"})
_ALIGNED = 3
_NOTE_WIDTH = 3  # characters of a note reference ("7", "12", "3a")
_CLOSERS = frozenset({")", "%", ")%", "%)"})
_COLUMN_HEAD = re.compile(r"(?:RMB|USD|US\$|HK\$|HKD)(?:['’]000)?|千港元|人民幣千元|人民币千元")

Span = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Placed:
    """A cell and its horizontal extent (HTML: grid columns, inclusive; PDF: points)."""

    start: float
    end: float
    text: str


def symbols(rows: list[list[Placed]]) -> tuple[str, ...]:
    """The currency marks printed in cells of their own (dropped from the figure rows)."""
    return tuple(dict.fromkeys(c.text for r in rows for c in r if c.text in CURRENCY_MARKS))


def heads(text: str) -> bool:
    """A word that heads one value column: a year, a currency ("RMB", "HK$'000")."""
    return is_year(text) or _COLUMN_HEAD.fullmatch(text.strip()) is not None


def is_figure(text: str) -> bool:
    """A figure or a figure fragment ("(366,065" with its ")" in the next cell)."""
    body = text.strip()
    if body.startswith("(") and not body.endswith(")"):
        body += ")"
    return parse_cell(body).kind in (CellKind.NUMBER, CellKind.NIL) and not is_year(body)


def _nil(text: str) -> bool:
    return parse_cell(text).kind is CellKind.NIL


def align(
    rows: list[list[Placed]],
    tolerance: float,
    regions: bool = False,
    in_order: bool = False,
    flowing: bool = False,
) -> list[list[str]]:
    """Rows of positioned cells -> rows of [label, value 1, ..., value n].

    ``regions``: header cells are placed by overlap with each column's band up to the previous
    column (PDF, where headers sit loosely over their figures) instead of by the exact grid
    columns they span (HTML). ``in_order``: a row with one figure per column fills the
    columns in order (laid-out text, where a long label pushes its figures to the right).
    """
    # columns are where amounts stand; a nil mark alone makes none (a dash before a label,
    # "— Basic", is no column)
    figures = sorted(
        (c.start, c.end) for r in rows for c in r if is_figure(c.text) and not _nil(c.text)
    )
    if in_order and not flowing:
        figures = _aligned(figures, min(r[0].start for r in rows if r))
    if not figures:
        return [[" ".join(c.text for c in row if c.text)] for row in rows]
    columns = _merge(figures, tolerance)
    # the rows read without the columns' geometry (loose builds on this module)
    from tasks.parsers.documents import counted_columns  # noqa: PLC0415

    if not in_order and counted_columns.crowded(rows, columns):
        # the figures stand in each line's flow, not in columns (a text's lines drawn as
        # text runs): read as laid-out text is, by count and order
        return align(rows, tolerance, regions, in_order=True, flowing=True)
    aligned = columns
    if in_order:
        columns = _counted(rows, [] if flowing else columns) or columns
    headers = _bands(columns) if regions else columns
    # a row's first words that start in the label column are its label, however far they run
    # (a long label printed across the NOTES column, a wrapped one's first line)
    reach = (min(r[0].start for r in rows if r) + columns[0][0]) / 2
    printed = rows
    if in_order:
        rows = [_label_figures(row, columns[0][0] - tolerance) for row in rows]
    out = [
        _heads_row(row, len(columns))
        or (in_order and (_in_order(row, len(columns)) or _pushed(row, columns)))
        or _place_row(row, columns, headers, tolerance, reach)
        for row in rows
    ]
    if columns is not aligned:
        # the figures share no column edges: the columns are counted, positions tell nothing
        out = counted_columns.without_geometry(printed, out)
    # (after the rows are read by count, which reads each printed line anew)
    return counted_columns.tails(out) if in_order else out


def _aligned(figures: list[Span], left: float) -> list[Span]:
    """Laid-out text: the figures whose right edge at least two others share (right-aligned
    columns), and note references clear of them all before the first; a figure a long label
    pushed into another column makes none, nor one at the margin (``left``). All when no edge
    is shared."""
    # a figure at the margin begins a label's line ("50,445,186 shares at"): no column
    figures = [f for f in figures if f[0] > left] or figures
    ends = Counter(end for _, end in figures)
    kept = [f for f in figures if ends[f[1]] >= _ALIGNED]
    if not kept:
        return figures
    # a note reference clear of every aligned column before the first of them is a column of
    # its own (a NOTES column with two references); a figure further right was pushed there
    # by its label, and a longer one is words of a label ("authorized 100,000,000")
    first = min(k[0] for k in kept)
    clear = [
        f
        for f in figures
        if f[1] < first
        and f[1] - f[0] <= _NOTE_WIDTH
        and not any(f[0] <= k[1] and k[0] <= f[1] for k in kept)
    ]
    return sorted(kept + clear)


def _counted(rows: list[list[Placed]], columns: list[Span]) -> list[Span]:
    """Laid-out text whose figures stand one space apart shares few right edges: when most
    rows with figures print the same number of them, more than the columns found, the table
    has that many columns, each where those rows print their n-th figure (the median span)."""
    printed = [[c for c in row if is_figure(c.text)] for row in rows]
    printed = [p for p in printed if p]
    counts = Counter(len(p) for p in printed)
    if not counts:
        return columns
    count, rows_with = counts.most_common(1)[0]
    if count <= len(columns) or rows_with * 2 < len(printed):
        return columns
    full = [p for p in printed if len(p) == count]
    spans = [
        (median(p[i].start for p in full), median(p[i].end for p in full)) for i in range(count)
    ]
    if any(a[1] >= b[0] for a, b in pairwise(spans)):
        return columns  # the n-th figures do not stand in order: no columns to be had
    return spans


def _pushed(row: list[Placed], columns: list[Span]) -> list[str] | None:
    """A row whose figures a long label pushed out of their columns (a figure in no column,
    or two in one): its figures keep their order and go to the columns nearest them, right
    edge to right edge (``_nearest``). None when every figure stands in a column of its own."""
    texts = [c for c in row if c.text.strip() and c.text.strip() not in CURRENCY_MARKS]
    first = next((i for i, c in enumerate(texts) if is_figure(c.text)), len(texts))
    figures = texts[first:]
    if not figures or len(figures) > len(columns) or not all(is_figure(c.text) for c in figures):
        return None
    hits = [_overlapping(c, columns, 0.0) for c in figures]
    if all(len(h) == 1 for h in hits) and len({h[0] for h in hits}) == len(hits):
        return None
    out = [" ".join(c.text for c in texts[:first]), *([""] * len(columns))]
    for figure, index in zip(figures, _nearest([f.end for f in figures], columns), strict=True):
        out[index + 1] = figure.text
    return out


def _nearest(ends: list[float], columns: list[Span]) -> list[int]:
    """The increasing column indices, one per figure, whose right edges are nearest the
    figures' (least total distance; dynamic programming over figures x columns)."""
    k, n = len(ends), len(columns)
    inf = float("inf")
    # cost[i][j]: figures i.. placed in columns j..
    cost = [[0.0 if i == k else inf for _ in range(n + 1)] for i in range(k + 1)]
    for i in range(k - 1, -1, -1):
        for j in range(n - 1, -1, -1):
            take = abs(ends[i] - columns[j][1]) + cost[i + 1][j + 1]
            cost[i][j] = min(take, cost[i][j + 1])
    out, j = [], 0
    for i in range(k):
        while cost[i][j] != abs(ends[i] - columns[j][1]) + cost[i + 1][j + 1]:
            j += 1
        out.append(j)
        j += 1
    return out


def _label_figures(row: list[Placed], first: float) -> list[Placed]:
    """Words and figures printed before the first column are one label when a figure among
    them is followed by words ("50,445,186 shares at", "(1) Derived from audited ...") or
    the row prints no figure further right ("Common stock, authorized 100,000,000"); a
    figure the columns begin with ("period  10,512,363  7,558,997 ...") stays a figure."""
    lead = [c for c in row if c.end < first and c.text not in CURRENCY_MARKS]
    if len(lead) < 2 or lead != row[: len(lead)] or all(is_figure(c.text) for c in lead):
        return row
    if all(heads(c.text) for c in lead):
        return row  # "2023  2024  2024" at the margin: column heads, not a label
    worded = any(is_figure(a.text) and not is_figure(b.text) for a, b in pairwise(lead))
    if not worded and any(is_figure(c.text) for c in row[len(lead) :]):
        return row
    label = Placed(lead[0].start, lead[-1].end, " ".join(c.text for c in lead))
    return [label, *row[len(lead) :]]


def _heads_row(row: list[Placed], count: int) -> list[str] | None:
    """A row of exactly one column head per column ("2023 2024 2024", "RMB RMB USD"), however
    close they stand: one to each column, in order."""
    if len(row) == count and all(heads(c.text) for c in row):
        return ["", *(c.text.strip() for c in row)]
    return None


def _in_order(row: list[Placed], count: int) -> list[str] | None:
    """[label, figure 1, ..., figure n] when the row is words and then exactly one figure per
    column; None otherwise."""
    texts = [c.text.strip() for c in row if c.text.strip() not in CURRENCY_MARKS]
    first = next((i for i, t in enumerate(texts) if is_figure(t)), len(texts))
    figures = texts[first:]
    if len(figures) != count or not all(is_figure(t) for t in figures):
        return None
    return [" ".join(texts[:first]), *figures]


def _merge(spans: list[Span], tolerance: float) -> list[Span]:
    merged: list[Span] = []
    for start, end in spans:
        if merged and start <= merged[-1][1] + tolerance:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _bands(columns: list[Span]) -> list[Span]:
    first_width = columns[0][1] - columns[0][0]
    lefts = [columns[0][0] - first_width] + [right for _, right in columns[:-1]]
    return [(left, right) for left, (_, right) in zip(lefts, columns, strict=True)]


def _overlapping(cell: Placed, spans: list[Span], share: float) -> list[int]:
    out = []
    for i, (left, right) in enumerate(spans):
        overlap = min(cell.end, right) - max(cell.start, left)
        if overlap >= share * min(cell.end - cell.start, right - left):
            out.append(i)
    return out


def _place_row(
    row: list[Placed], columns: list[Span], headers: list[Span], tolerance: float, reach: float
) -> list[str]:
    label: list[str] = []
    cells: list[list[str]] = [[] for _ in columns]
    last, prefix = -1, ""
    data = any(is_figure(c.text) for c in row)
    # a row with nothing in the label column is a header row: its words are the columns'
    labelled = data or bool(row) and row[0].start < reach
    for cell in row:
        text = cell.text.strip()
        if not text or (data and text in CURRENCY_MARKS):
            continue
        if text in _CLOSERS and last >= 0:
            cells[last].append(text)
            continue
        if text == "(" and data:
            prefix = "("  # the opening of a negative split over cells: "(" "366,065" ")"
            continue
        before = cell.end < columns[0][0] - tolerance or (cell is row[0] and cell.start < reach)
        if labelled and before and (not is_figure(text) or _nil(text)):
            label.append(text)
            continue
        targets = _targets(cell, columns, headers, data)
        for index in targets:
            cells[index].append(prefix + text)
        prefix, last = "", (targets[-1] if targets else last)
    joiner = "" if data else " "
    return [" ".join(label)] + [joiner.join(parts) for parts in cells]


def _targets(cell: Placed, columns: list[Span], headers: list[Span], data: bool) -> list[int]:
    hits = _overlapping(cell, columns, 0.0)[:1] if data else _overlapping(cell, headers, 0.5)
    # a head set flush with the left edge of a column's figures heads that column too (a
    # spanning head left-aligned in its cells, as w3m prints it)
    flush = [i for i, (left, _) in enumerate(columns) if not data and left == cell.start]
    hits = sorted({*hits, *flush})
    if hits:
        return hits
    after = [i for i, (left, _) in enumerate(columns) if left >= cell.start]
    return after[:1]
