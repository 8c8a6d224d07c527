"""The shared table record every format parser produces.

A table is rows of cells: cell 0 is the row label, cells 1..n are the value columns (header
rows use the same positions). Format parsers (text, HTML, PDF) only have to get cells into the
right columns; asreported.py reads them into statement rows, mapping.py those into facts.
"""

from __future__ import annotations

from dataclasses import dataclass

from tasks.parsers.documents.numbers import clean_cell

Row = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RawTable:
    """One table as printed, with the text lines that came just before it."""

    locator: str  # "table 3" or "page 14, table 1"
    preamble: tuple[str, ...]  # lines between the previous table and this one (title, scale)
    rows: tuple[Row, ...]
    symbols: tuple[str, ...] = ()  # currency marks printed in cells of their own ("$", "RMB")
    # how far each row's label is indented, in steps (PDF, laid-out text; empty when unknown)
    indents: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    """A document reduced to its tables and its running text."""

    tables: tuple[RawTable, ...]
    body: str  # all text, tables included (with ``prose_first``: all text after the prose)
    prose: str = ""  # running text without the tables, in reading order (narrative, outlook)
    # PDF: the text is the prose then the table lines; joined only when asked for, so that a
    # long document's running text is not held twice
    prose_first: bool = False
    # PDF: (page number, offset in ``prose`` where that page's running text starts)
    pages: tuple[tuple[int, int], ...] = ()

    @property
    def text(self) -> str:
        """All text, tables included, for classification and look-ups (built on each call
        when ``prose_first``: keep the result only as long as it is needed)."""
        if not self.prose_first:
            return self.body
        return f"{self.prose}\n{self.body}" if self.body else self.prose


def make_rows(rows: list[list[str]]) -> tuple[Row, ...]:
    """Clean cells, drop rows that are entirely empty and pad every row to the same width."""
    cleaned = [[clean_cell(c) for c in row] for row in rows]
    cleaned = [row for row in cleaned if any(row)]
    return _padded(cleaned)


def kept(rows: list[list[str]]) -> list[bool]:
    """Which rows make_rows keeps (those with a cell that is not empty)."""
    return [any(clean_cell(c) for c in row) for row in rows]


def _padded(cleaned: list[list[str]]) -> tuple[Row, ...]:
    width = max((len(row) for row in cleaned), default=0)
    return tuple(tuple(row + [""] * (width - len(row))) for row in cleaned)
