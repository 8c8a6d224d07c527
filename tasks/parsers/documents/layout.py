"""Printed lines -> tables: the one table model of PDF pages and laid-out text.

A page is lines of positioned words (PDF: points; pdftotext-style text: character columns).
Words join into cells; a page's lines are a title block (the statement's title, its period and
scale lines), rows, and running text. A title block opens a table, running text closes it, and
every other line is a row of the grid; grid.align then finds the value columns, each header
cell going to the columns its horizontal span covers.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from domain.rowrecords import StatementKind
from tasks.parsers.documents import wrapping
from tasks.parsers.documents.numbers import clean_cell
from tasks.parsers.documents.raw_tables import RawTable, kept, make_rows
from tasks.parsers.documents.value_columns import Placed, align, heads, is_figure, symbols
from tasks.parsers.tables.statement_titles import statement_kind

_TITLE = re.compile(
    r"^(unaudited|(?:interim )?condensed consolidated|\(amounts in|\(in thousands|otherwise noted"
    r"|except for|as (of|at) |(three|six|nine) months ended|year ended|appendix"
    r"|(?:未經審核|未经审核)?(?:中期)?(?:簡明|简明)?(?:綜合|综合)\S*表(?:\s*[（(][續续][）)])?$"
    r"|截至|[於于]\S*日$"
    r"|for the |at \d{1,2} \w+ \d{4}$|\(?continued\)?$|[（(][續续][）)]$"
    r"|\(expressed in [a-z ]+\)$|（以\S{1,6}列示）$)",
    re.IGNORECASE,
)
# what a header line holds and a title's second line does not: a digit, a currency
_HEADER_MARK = re.compile(r"\d|RMB|\$|HK|US|港元|人民")
_DAY = re.compile(r"[0-3]?\d")
_MONTH = re.compile(
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?", re.IGNORECASE
)
# a page number printed as page furniture: "– 2 –", "- 12 -"
_PAGE_NUMBER = re.compile(r"[-–—]\s*\d{1,3}\s*[-–—]")
_BARE_PAGE_NUMBER = re.compile(r"(?:page\s*)?\d{1,3}(?:\s*(?:/|of)\s*\d{1,3})?", re.IGNORECASE)
_YEAR = re.compile(r"(?:19|20)\d\d")
_GLUED = re.compile(r"(?<=\d)(?=[A-Z][a-z])")  # "2023December" where header cells touch
_IN_LABEL = re.compile(r"\(\d{1,2}\)|[-–—]|\*+\d*")
_CURRENCY_WORD = re.compile(r"人民[幣币]|港[幣币]|港元|美元")
_CURRENCY_CODE = {"人民": "RMB", "港幣": "HK$", "港币": "HK$", "港元": "HK$", "美元": "US$"}
_YUAN = re.compile(r"(\(?[\d,]*\.?\d+\)?)\s*元")  # "0.002元", "(0.030)元"
_NOTES_HEAD = re.compile(r"notes?|附[註注]", re.IGNORECASE)
_PROSE_SHARE = 0.8
_NAME_LINES = 2  # a company's name above a statement's title
_INDENT_SHARE = 0.06


@dataclass(frozen=True, slots=True)
class Units:
    """Distances in the page's own unit: the widest gap inside a cell, how far from the left
    margin a title may start and running text may be indented, and the column tolerance."""

    word_gap: float
    margin: float
    indent: float
    tolerance: float
    in_order: bool = False  # grid.align's: rows with one figure per column fill them in order
    indent_step: float = 1.0  # how far a label's indent moves to go one level in


def page_tables(
    where: str, lines: list[list[Placed]], units: Units, carried: tuple[str, ...] = ()
) -> tuple[list[RawTable], tuple[str, ...]]:
    """A page's lines -> tables: a title block (the statement's title, period, scale lines)
    opens a table, running text closes it; every other line is a row of the grid.

    ``carried``: the title lines the previous page ended with (a title printed at the foot of
    a page, its table on the next); returned likewise for the next page."""
    lines = _per_share_lines(_without_furniture([ln for ln in lines if ln]))
    left = _margin(lines)
    prose = _prose_lines(lines, left, units)
    out: list[RawTable] = []
    preamble: list[str] = list(carried)
    titles = len(carried)  # how many lines at the end of the preamble are no running text
    rows: list[list[Placed]] = []
    for i, line in enumerate(lines):
        # a statement's title wraps: "... PROFIT OR LOSS AND OTHER" / "COMPREHENSIVE INCOME"
        wraps = bool(preamble) and not rows and _wraps_title(preamble[-1], _text(line))
        at_margin = line[0].start <= left + units.margin
        wraps = wraps and at_margin and not _HEADER_MARK.search(_text(line))
        # a line or two of words at the margin (a company's name) opens no table yet
        words_only = len(rows) <= _NAME_LINES and _trailing_words(rows) == len(rows)
        words_only = words_only and all(r[0].start <= left + units.margin for r in rows)
        if i in prose or wraps or _is_title(line, at_margin, rows, words_only, _named(preamble)):
            # lines of words just before a statement's title ("THE BUCKLE, INC.") head it
            named = i not in prose and statement_kind(_text(line)) is not None
            words = _trailing_words(rows) if named else 0
            lead, rows = [_text(r) for r in rows[len(rows) - words :]], rows[: len(rows) - words]
            if rows:
                out.append(_table(f"{where}, table {len(out) + 1}", preamble, rows, units))
                preamble, rows, titles = [], [], 0
            preamble += lead
            if wraps and statement_kind(preamble[-1]) is None:  # the title's words, joined
                preamble[-1] = f"{preamble[-1]} {_text(line)}"
                continue
            preamble.append(_text(line))
            titles = 0 if i in prose else titles + 1
        else:
            rows.append(line)
    if rows:
        out.append(_table(f"{where}, table {len(out) + 1}", preamble, rows, units))
        return out, ()
    return out, tuple(preamble[len(preamble) - titles :])


def _per_share_lines(lines: list[list[Placed]]) -> list[list[Placed]]:
    """A per-share figure printed under its currency ("人民幣" above "0.002元", one pair per
    column, beside the label) is one row: the figure with its currency glued ("RMB0.002")."""
    out: list[list[Placed]] = []
    for line in lines:
        glued = _under_currency(out[-1], line) if out else None
        if glued is None:
            out.append(line)
        else:
            out[-1] = glued
    return out


def _under_currency(above: list[Placed], line: list[Placed]) -> list[Placed] | None:
    heads = [_CURRENCY_WORD.fullmatch(c.text) for c in above[1:]]
    amounts = [_YUAN.fullmatch(c.text) for c in line]
    if not heads or len(heads) != len(line) or not all(heads) or not all(amounts):
        return None
    glued = [above[0]]
    for head, cell, amount in zip(heads, line, amounts, strict=True):
        assert head is not None and amount is not None
        glued.append(Placed(cell.start, cell.end, f"{_CURRENCY_CODE[head[0][:2]]}{amount[1]}"))
    return glued


def _margin(lines: list[list[Placed]]) -> float:
    """The page's left margin: the leftmost start at least two lines share (a running head
    printed further left is no margin), else the leftmost start."""
    starts = Counter(round(line[0].start) for line in lines)
    shared = [start for start, count in starts.items() if count >= 2]
    return float(min(shared)) if shared else min((ln[0].start for ln in lines), default=0.0)


def _without_furniture(lines: list[list[Placed]]) -> list[list[Placed]]:
    """The page without its page numbers: "– 2 –" anywhere, and as its first or last line a
    bare "23" or "Page 23", or a running head or foot ("Interim Report 2014 ... 25"): words
    and one page number at either end (a figure alone there is the page's number, not a
    row; a row prints its figures after its label, and two periods' of them)."""
    kept = [ln for ln in lines if not _PAGE_NUMBER.fullmatch(_text(ln))]
    while kept and _is_running_line(kept[-1]):
        kept.pop()
    while kept and _is_running_line(kept[0]):
        kept.pop(0)
    return kept


def _is_running_line(line: list[Placed]) -> bool:
    if _BARE_PAGE_NUMBER.fullmatch(_text(line)):
        return True
    figures = [c for c in line if is_figure(c.text) and not _YEAR.fullmatch(c.text)]
    ends = (line[0], line[-1])
    return (
        len(line) >= 2
        and len(figures) == 1
        and figures[0] in ends
        and _BARE_PAGE_NUMBER.fullmatch(figures[0].text) is not None
        and statement_kind(_text(line)) is None
        and any(ch.isalpha() for c in line if c is not figures[0] for ch in c.text)
    )


def cells(words: list[dict], units: Units) -> list[Placed]:
    """One line's words (text, x0, x1; left to right) -> cells: words a word gap apart join,
    but a figure stands alone (a dash or a footnote mark after a word stays in the label)."""
    out: list[Placed] = []
    for word in _dates(words, units):
        text = clean_cell(word["text"])
        prev = out[-1] if out else None
        near = prev is not None and word["x0"] - prev.end <= units.word_gap
        # "EPS - diluted", "Total net revenue (1)": part of the label, not a value column
        joinable = not is_figure(text) or (near and _IN_LABEL.fullmatch(text) is not None)
        # "2023 2024", "RMB RMB": one header word per column, however close they stand
        joinable = joinable and not (heads(text) and prev is not None and heads(prev.text))
        if prev is not None and near and joinable and not is_figure(prev.text):
            out[-1] = Placed(prev.start, word["x1"], f"{prev.text} {text}")
        else:
            out.append(Placed(word["x0"], word["x1"], text))
    return [piece for cell in out for piece in _unglue(cell)]


def _text(line: list[Placed]) -> str:
    return " ".join(c.text for c in line)


def _is_title(
    line: list[Placed],
    at_margin: bool,
    rows: list[list[Placed]],
    words_only: bool,
    open_kind: StatementKind | None,
) -> bool:
    """A title line at the margin without amounts; a line naming a statement where no table
    is open, or naming another statement than the open table's once it has figures (in the
    non-GAAP reconciliation, "Reconciliation of Non-GAAP Net Income" is a heading; after
    the income statement's rows, "CONSOLIDATED BALANCE SHEETS" is a title)."""
    text = _text(line)
    if not at_margin or _has_amount(line):
        return False
    if _TITLE.match(text):
        return True
    kind = statement_kind(text) if len(text) <= 150 else None
    opened = any(_has_amount(r) for r in rows)
    # rows of words without a digit (running text, no header yet) are no table: a
    # statement's name opens one
    worded = not any(ch.isdigit() for r in rows for ch in _text(r))
    return kind is not None and (words_only or worded or (opened and open_kind not in (None, kind)))


def _wraps_title(last: str, text: str) -> bool:
    """Whether a line may go on a title line above: that line names a statement, or the two
    together do ("CONDENSED CONSOLIDATED STATEMENT OF FINANCIAL" / "POSITION")."""
    return statement_kind(last) is not None or statement_kind(f"{last} {text}") is not None


def _named(preamble: list[str]) -> StatementKind | None:
    """The statement the nearest preamble line naming one names (None when none does)."""
    return next((k for ln in reversed(preamble) for k in [statement_kind(ln)] if k), None)


def _trailing_words(rows: list[list[Placed]], most: int = _NAME_LINES) -> int:
    """How many of the last rows (at most ``most``) are words alone, no digit: a name
    ("THE BUCKLE, INC."), not a period or an amount."""
    count = 0
    for row in reversed(rows):
        # (a line in lower case is the rest of the label above it: "restricted cash, end")
        if any(ch.isdigit() for ch in _text(row)) or wrapping.goes_on(_text(row)):
            break
        count += 1
    return min(count, most)


def _prose_lines(lines: list[list[Placed]], left: float, units: Units) -> set[int]:
    """The lines of running text: from the margin across the text width, ending in words,
    in a paragraph (next to another such line) or ending a sentence. A paragraph of the
    notes ends the table above it and is no row of the next."""
    right = max((line[-1].end for line in lines), default=0.0)
    # a paragraph's indent grows with the rendering's scale (characters per point in text)
    indent = max(units.indent, _INDENT_SHARE * (right - left))
    wide = [
        ln[-1].end - ln[0].start >= _PROSE_SHARE * (right - left)
        and ln[0].start <= left + indent
        and not is_figure(ln[-1].text)  # a row ends in its figures, a sentence in words
        for ln in lines
    ]
    out = set()
    for i, line in enumerate(lines):
        paragraph = (i > 0 and wide[i - 1]) or (i + 1 < len(lines) and wide[i + 1])
        if wide[i] and (paragraph or _text(line).rstrip().endswith((".", "。"))):
            out.add(i)
    return out


def _has_amount(line: list[Placed]) -> bool:
    """Whether a line prints an amount: a figure that is not a day of a date ("FOR THE YEAR
    ENDED 31 DECEMBER 2014" is a title, not a row)."""
    months = any(_MONTH.match(w) for c in line for w in c.text.split())
    return any(is_figure(c.text) and not (months and _DAY.fullmatch(c.text)) for c in line)


def _table(locator: str, preamble: list[str], rows: list[list[Placed]], units: Units) -> RawTable:
    rows = _without_empty_notes(rows, units)
    aligned = align(rows, units.tolerance, regions=True, in_order=units.in_order)
    left = min(row[0].start for row in rows)
    steps = [round((row[0].start - left) / units.indent_step) for row in rows]
    indents = tuple(n for n, keep in zip(steps, kept(aligned), strict=True) if keep)
    return RawTable(locator, tuple(preamble), make_rows(aligned), symbols(rows), indents)


def _without_empty_notes(rows: list[list[Placed]], units: Units) -> list[list[Placed]]:
    """A NOTES / 附註 head over no figure (a page of the statement citing no note) is no
    column: left in, it would head the first value column ("附註 人民幣千元")."""
    figures = [c for row in rows for c in row[1:] if is_figure(c.text)]

    def empty(cell: Placed) -> bool:  # no figure within a head's width of it
        near = max(cell.end - cell.start, 3 * units.tolerance)
        over = (c for c in figures if c.start <= cell.end + near)
        return _NOTES_HEAD.fullmatch(cell.text) is not None and not any(
            c.end >= cell.start - near for c in over
        )

    out = [[c for c in row if len(row) < 2 or not empty(c)] for row in rows]
    return [row for row in out if row]


def _dates(words: list[dict], units: Units) -> list[dict]:
    """A day and the month after it as one word ("30 June"): a date, not a figure."""
    out: list[dict] = []
    for word in words:
        prev = out[-1] if out else None
        if (
            prev is not None
            and _DAY.fullmatch(prev["text"])
            and _MONTH.fullmatch(word["text"])
            and word["x0"] - prev["x1"] <= units.word_gap
        ):
            out[-1] = {**prev, "text": f"{prev['text']} {word['text']}", "x1": word["x1"]}
        else:
            out.append(word)
    return out


def _unglue(cell: Placed) -> list[Placed]:
    parts = _GLUED.split(cell.text)
    if len(parts) == 1:
        return [cell]
    per_char = (cell.end - cell.start) / max(len(cell.text), 1)
    out, x = [], cell.start
    for part in parts:
        out.append(Placed(x, x + per_char * len(part), part.strip()))
        x += per_char * len(part)
    return out
