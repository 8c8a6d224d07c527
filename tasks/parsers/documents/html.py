"""EDGAR HTML exhibit -> RawTables (via lxml).

Text blocks between tables become the next table's preamble (its title and scale note).
Colspans are expanded to grid columns; grid.align then finds the value columns.
"""

from __future__ import annotations

import re

from lxml import etree, html

from domain.errors import ParseError
from tasks.parsers.documents.numbers import clean_cell
from tasks.parsers.documents.raw_tables import ParsedDocument, RawTable, make_rows
from tasks.parsers.documents.value_columns import Placed, align, symbols
from tasks.parsers.tables.headers import header_lines

_FOOTNOTE = re.compile(r"\(?[0-9a-z*†‡]{1,3}\)?|\*+\d*", re.IGNORECASE)
_BLOCKS = frozenset({"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "center"})


def parse_html(name: str, content: bytes) -> ParsedDocument:
    """Parse an HTML exhibit into tables with their preambles."""
    try:
        root = html.document_fromstring(content)
    except (etree.ParserError, ValueError) as exc:
        raise ParseError(f"{name}: unreadable HTML ({exc})") from exc
    walker = _Walker()
    walker.walk(root)
    walker.flush()
    text = "\n".join(walker.all_lines)
    return ParsedDocument(tuple(walker.tables), text, "\n".join(walker.prose))


class _Walker:
    """Document-order walk collecting text lines and tables."""

    def __init__(self) -> None:
        self.tables: list[RawTable] = []
        self.lines: list[str] = []
        self.all_lines: list[str] = []
        self.prose: list[str] = []
        self.buffer: list[str] = []

    def flush(self) -> None:
        line = clean_cell(" ".join(self.buffer))
        self.buffer = []
        if line:
            self.lines.append(line)
            self.all_lines.append(line)
            self.prose.append(line)

    def walk(self, element: html.HtmlElement) -> None:
        tag = element.tag if isinstance(element.tag, str) else ""
        if tag == "table":
            self.flush()
            self._table(element)
        elif tag == "sup" and _FOOTNOTE.fullmatch(element.text_content().strip()):
            pass  # a footnote mark ("net income<sup>7</sup>") is not part of the sentence
        elif tag not in ("script", "style", "head"):
            if tag in _BLOCKS:
                self.flush()
            self.buffer.append(element.text or "")
            for child in element:
                self.walk(child)
            if tag in _BLOCKS:
                self.flush()
        self.buffer.append(element.tail or "")

    def _table(self, table: html.HtmlElement) -> None:
        grid = [_placed_row(tr) for tr in table.iter("tr")]
        rows = [list(r) for r in make_rows(align(grid, tolerance=0))]
        # title rows inside the table belong to the title, not a header in the label column
        # (a heading of the statement's body, "Non-current assets:", stays in the table)
        titles = []
        while rows and not any(rows[0][1:]) and not _stays(rows[0][0]):
            titles.append(rows.pop(0)[0])  # title rows inside the table belong to the title
        self.lines.extend(titles)
        # a table of text lines only (a letterhead with the release's date) is document text
        self.all_lines.extend(["\t".join(r) for r in rows] if rows else titles)
        if rows:
            locator = f"table {len(self.tables) + 1}"
            self.tables.append(RawTable(locator, tuple(self.lines), make_rows(rows), symbols(grid)))
        self.lines = []


def _stays(label: str) -> bool:
    return label.rstrip().endswith(":") or bool(header_lines((label,)))


def _placed_row(tr: html.HtmlElement) -> list[Placed]:
    cells: list[Placed] = []
    column = 0
    for td in tr:
        if not isinstance(td.tag, str) or td.tag not in ("td", "th"):
            continue
        span = _span(td.get("colspan"))
        cells.append(Placed(column, column + span - 1, clean_cell(" ".join(_text(td)))))
        column += span
    return cells


def _text(element: html.HtmlElement) -> list[str]:
    """A cell's text without its footnote marks (``<sup>(1)</sup>``, ``<sup>*</sup>``)."""
    out = [element.text or ""]
    for child in element:
        if not (child.tag == "sup" and _FOOTNOTE.fullmatch((child.text_content() or "").strip())):
            out.extend(_text(child))
        out.append(child.tail or "")
    return out


def _span(value: str | None) -> int:
    try:
        return max(1, int(value or 1))
    except ValueError:
        return 1
