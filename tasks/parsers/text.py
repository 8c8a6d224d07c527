"""Plain text (tab-separated statement tables) -> RawTables.

A table is a run of lines containing tabs; a blank line or a line without tabs ends it. The
text lines since the previous table become the table's preamble (its title and scale note).
"""

from __future__ import annotations

from tasks.parsers.numbers import clean_cell
from tasks.parsers.tables import ParsedDocument, RawTable, make_rows


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
    return RawTable(f"table {number}", tuple(preamble), make_rows(rows))
