"""Plain text (tab-separated statement tables) -> RawTables.

A table is a run of lines containing tabs; a blank line or a line without tabs ends it. The
text lines since the previous table become the table's preamble (its title and scale note).
"""

from __future__ import annotations

from tasks.parsers.numbers import clean_cell
from tasks.parsers.tables import ParsedDocument, RawTable, Row, make_rows

_CLOSERS = frozenset({")", "%", ")%", "%)"})


def parse_text(text: str) -> ParsedDocument:
    """Split a text document into tables (tab-separated rows) and their preambles."""
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
