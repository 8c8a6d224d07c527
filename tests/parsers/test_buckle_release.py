"""The first real exhibit in the suite: The Buckle, Inc.'s EX-99.1 earnings release (EDGAR
markup as filed, USD, fiscal periods in weeks), read row by row against a hand-written golden
file (tests/golden/rows/). No label catalog is involved: statement rows are issuer-independent.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from decimal import Decimal
from pathlib import Path

import pytest

from domain.rowrecords import StatementKind, StatementRow
from tasks.extract import extract_file, parse_document
from tasks.parsers.documents.raw_tables import ParsedDocument
from tasks.parsers.statements.asreported import RowsRead, read_rows
from tests.golden.golden import RowKey, load_rows

DOCUMENT = (
    Path(__file__).resolve().parent.parent
    / "fixtures/reference/sec/sec_8k_ex99-1_buckle_earnings_release.htm"
)


def _key(row: StatementRow) -> RowKey:
    return (row.statement.value, row.row_label, row.period_start, row.period_end, row.currency)


class TestBuckleEarningsRelease:
    @pytest.fixture(scope="class")
    def read(self) -> RowsRead:
        return read_rows(parse_document(DOCUMENT.name, DOCUMENT.read_bytes()), DOCUMENT.name)

    @pytest.fixture(scope="class")
    def golden(self) -> dict[RowKey, tuple[Decimal, int]]:
        return load_rows(DOCUMENT.name)

    def test_every_golden_row_is_read_exactly(
        self, read: RowsRead, golden: dict[RowKey, tuple[Decimal, int]]
    ) -> None:
        got = {_key(r): (r.value, r.decimals) for r in read.rows}
        wrong = {k: (got.get(k), v) for k, v in golden.items() if got.get(k) != v}
        assert wrong == {}

    def test_nothing_read_that_is_not_printed(
        self, read: RowsRead, golden: dict[RowKey, tuple[Decimal, int]]
    ) -> None:
        counts = Counter(_key(r) for r in read.rows)
        assert {k for k, n in counts.items() if n > 1} == set()
        assert set(counts) - set(golden) == set()

    def test_no_row_refused(self, read: RowsRead) -> None:
        assert read.refused == ()

    def test_rows_carry_their_statement_and_provenance(self, read: RowsRead) -> None:
        by_kind = Counter(r.statement for r in read.rows)
        assert by_kind == {StatementKind.INCOME_STATEMENT: 60, StatementKind.BALANCE_SHEET: 84}
        sales = next(r for r in read.rows if r.row_label.startswith("SALES"))
        assert sales.table_title == "CONSOLIDATED STATEMENTS OF INCOME"
        assert sales.provenance.raw_text == "293,618"
        assert sales.provenance.column == "Thirteen Weeks Ended November 2, 2024"
        assert (sales.scale, sales.decimals, sales.row_index) == (3, -3, 0)
        selling = next(r for r in read.rows if r.row_label == "Selling")
        assert selling.section == "OPERATING EXPENSES"

    def test_extraction_carries_the_rows_whatever_the_issuer_catalog(self, read: RowsRead) -> None:
        # the QFIN catalog maps none of Buckle's labels, yet every row is still read
        extraction = extract_file(DOCUMENT.name, DOCUMENT.read_bytes(), "QFIN")
        assert len(read.rows) == 144  # two readings compared: neither empty
        assert extraction.rows == read.rows
        assert extraction.refused == ()


def _as_text(doc: ParsedDocument) -> str:
    """The release's tables as a text prints them: title lines, then tab-separated rows, the
    dollar sign glued to the first row of figures ("$293,618") as wire text has it."""
    lines: list[str] = []
    for table in doc.tables:
        lines += table.preamble[-4:]
        glued = bool(table.symbols)
        for row in table.rows:
            if glued and all(c[:1].isdigit() for c in row[1:]):
                row, glued = (row[0], *(f"${c}" for c in row[1:])), False
            lines.append("\t".join(row))
        lines.append("")
    return "\n".join(lines)


class TestBuckleEarningsReleaseAsText:
    """The same release as text, its currency only in the "$" glued to figures."""

    def test_every_golden_row_is_read_exactly(self) -> None:
        text = _as_text(parse_document(DOCUMENT.name, DOCUMENT.read_bytes())).encode()
        read = read_rows(parse_document("buckle.txt", text), "buckle.txt")
        got = {_key(r): (r.value, r.decimals) for r in read.rows}
        assert got == load_rows(DOCUMENT.name)
        assert read.refused == ()


def _laid_out(doc: ParsedDocument, label_width: int) -> str:
    """The release's tables as a text printer lays them out: the company's name and title
    lines, labels wrapped at ``label_width`` characters, every column right-aligned in a
    width of its longest cell plus two (as lynx or a wire service's text prints them)."""
    lines: list[str] = []
    for table in doc.tables:
        lines += [f"    {p}" for p in table.preamble[-4:]] + [""]
        widths = [
            max(10, *(len(row[i]) + 2 for row in table.rows)) for i in range(1, len(table.rows[0]))
        ]
        glued = bool(table.symbols)
        for row in table.rows:
            cells = list(row[1:])
            if glued and all(c[:1].isdigit() for c in cells):
                cells, glued = [f"${c}" for c in cells], False
            wrapped = textwrap.wrap(row[0], label_width - 2) or [""]
            lines += [f"    {part}" for part in wrapped[:-1]]
            figures = "".join(c.rjust(w) for c, w in zip(cells, widths, strict=True))
            lines.append(f"    {wrapped[-1].ljust(label_width)}{figures}")
        lines.append("")
    return "\n".join(lines)


class TestBuckleEarningsReleaseLaidOut:
    """The same release as laid-out text: the company's name above each title ("THE BUCKLE,
    INC."), the common stock label wrapped over lines that begin and end with share counts
    ("50,445,186 shares at February 3, 2024, and"), a footnote "(1) Derived from audited
    financial statements." under the balance sheet."""

    @pytest.fixture(scope="class")
    def doc(self) -> ParsedDocument:
        return parse_document(DOCUMENT.name, DOCUMENT.read_bytes())

    def test_with_wide_labels_every_golden_row_is_read_exactly(self, doc: ParsedDocument) -> None:
        read = read_rows(parse_document("buckle.txt", _laid_out(doc, 70).encode()), "buckle.txt")
        assert {_key(r): (r.value, r.decimals) for r in read.rows} == load_rows(DOCUMENT.name)
        assert read.refused == ()

    @pytest.mark.parametrize("width", [30, 40, 50])
    def test_with_wrapped_labels_every_golden_row_is_read_exactly(
        self, doc: ParsedDocument, width: int
    ) -> None:
        """Labels wrapped in capitals ("OPERATING LEASE RIGHT-OF-USE" / "ASSETS") or after a
        semicolon, or with the next line beginning with a figure ("... at October" / "28,
        2023"), are read whole: where the printer wrapped them, the line could not take the
        next word within the widest label."""
        read = read_rows(parse_document("b.txt", _laid_out(doc, width).encode()), "b.txt")
        assert {_key(r): (r.value, r.decimals) for r in read.rows} == load_rows(DOCUMENT.name)
        assert read.refused == ()
