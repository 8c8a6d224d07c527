"""Plain text -> RawTables: tab-separated tables (or pipe rows, "| a | b |", read as tabs),
or text laid out in columns of spaces.

With tabs, a table is a run of lines containing tabs; a blank line or a line without tabs ends
it, and the text lines since the previous table become its preamble (title and scale note).
Without tabs (pdftotext -layout, a release's original text), each line's words keep their
character columns and go through the table model PDF pages use (layout): runs of spaces part
the cells, a header cell belongs to the columns its characters span, a form feed is a page.
"""

from __future__ import annotations

import re

from tasks.parsers.documents import flowed
from tasks.parsers.documents.layout import Units, cells, page_tables
from tasks.parsers.documents.numbers import clean_cell
from tasks.parsers.documents.raw_tables import ParsedDocument, RawTable, Row, make_rows
from tasks.parsers.documents.value_columns import Placed
from tasks.parsers.statements.best_reading import chosen

_CLOSERS = frozenset({")", "%", ")%", "%)"})


# laid-out text is measured in characters: one space joins words, two part cells
CHARACTERS = Units(word_gap=1.0, margin=2.0, indent=6.0, tolerance=0.0, in_order=True)
_WORD = re.compile(r"\S+")
_PIPE_RULE = re.compile(r":?-{2,}:?|")
_PIPE_TABLE_ROWS = 3


def parse_text(text: str) -> ParsedDocument:
    """Split a text document into tables and their preambles."""
    # pipe tables: at least a few rows of figures between pipes (a "QFIN | 3660" line is none)
    if sum(_is_pipe_row(line) for line in text.splitlines()) >= _PIPE_TABLE_ROWS:
        text = _pipes_as_tabs(text)
    if "\t" not in text:
        return _laid_out(text)
    tables: list[RawTable] = []
    preamble: list[str] = []
    rows: list[list[str]] = []
    for line in text.splitlines():
        if "\t" in line:
            rows.append(line.split("\t"))
            continue
        if rows:
            tables.append(_table(len(tables) + 1, preamble, rows))
            preamble, rows = [], []
        if line.strip():
            preamble.append(clean_cell(line))
    if rows:
        tables.append(_table(len(tables) + 1, preamble, rows))
    prose = "\n".join(line for line in text.splitlines() if "\t" not in line)
    return ParsedDocument(tuple(t for t in tables if t.rows), text, prose)


def _is_pipe_row(line: str) -> bool:
    """Cells parted by two or more pipes, one of them a figure."""
    return line.count("|") >= 2 and any(ch.isdigit() for ch in line)


def _pipes_as_tabs(text: str) -> str:
    """A text whose tables are pipe rows, with tabs for pipes."""
    piped = [ln.strip() for ln in text.splitlines() if "|" in ln]
    edged = sum(r.endswith("|") for r in piped) * 2 > len(piped)  # "| a | b |" or "a | b"
    lines = (_pipes_to_tabs(line, edged) for line in text.splitlines())
    return "\n".join(line for line in lines if line is not None)


def _pipes_to_tabs(line: str, edged: bool) -> str | None:
    """A Markdown-style table row ("| Revenue | 1,234 | 5,678 |", as HTML-to-text converters
    print tables) as a tab-separated one; its rule ("|---|---:|") as None. Without edges
    a leading pipe is an empty label cell."""
    body = line.strip()
    if "|" not in body:
        return line
    if edged:
        body = body.removeprefix("|").removesuffix("|")
    cells = body.split("|")
    if "-" in body and all(_PIPE_RULE.fullmatch(c.strip()) for c in cells):
        return None
    return "\t".join(c.strip() for c in cells)


def _laid_out(text: str) -> ParsedDocument:
    """Text whose columns are runs of spaces: each page's lines as positioned words. The
    running text is all of it, as a PDF's is (tables included). Flowed pages are laid out
    first; where they read more than one way, their statements' arithmetic chooses."""
    pages, choices = flowed.relaid_pages(text.split("\f"))
    read: _Pages = {}  # each reading changes one line: the other pages are read once
    return chosen(pages, choices, lambda laid: _document(text, laid, read))


_Pages = dict[tuple[str, tuple[str, ...]], tuple[list[RawTable], tuple[str, ...]]]


def _document(text: str, pages: list[str], read: _Pages) -> ParsedDocument:
    tables: list[RawTable] = []
    carried: tuple[str, ...] = ()
    for number, page in enumerate(pages, start=1):
        key = (f"{number}\f{page}", carried)
        if key not in read:
            lines = [_line_cells(line) for line in page.splitlines()]
            read[key] = page_tables(f"page {number}", lines, CHARACTERS, carried)
        found, carried = read[key]
        tables.extend(found)
    return ParsedDocument(tuple(t for t in tables if t.rows), text, text)


def _line_cells(line: str) -> list[Placed]:
    words = [{"text": m[0], "x0": m.start(), "x1": m.end()} for m in _WORD.finditer(line)]
    return cells(words, CHARACTERS)


def _table(number: int, preamble: list[str], rows: list[list[str]]) -> RawTable:
    return RawTable(f"table {number}", tuple(preamble), _drop_empty(make_rows(_close(rows))))


def _close(rows: list[list[str]]) -> list[list[str]]:
    """A negative split over two cells ("(1,234" + ")") or a lone "%": joined to its figure,
    the emptied cell left in place so that the columns stay where they are."""
    out = []
    for row in rows:
        cells = list(row)
        for i in range(2, len(cells)):
            if cells[i].strip() in _CLOSERS and cells[i - 1].strip():
                cells[i - 1], cells[i] = cells[i - 1].strip() + cells[i].strip(), ""
        out.append(cells)
    return out


def _drop_empty(rows: tuple[Row, ...]) -> tuple[Row, ...]:
    """Value columns empty in every row (the closing-parenthesis slots) are no columns."""
    if not rows:
        return rows
    keep = [i for i in range(len(rows[0])) if i == 0 or any(row[i] for row in rows)]
    return tuple(tuple(row[i] for i in keep) for row in rows)
