"""Real HKEXnews announcements and reports in the standard Hong Kong IFRS layout (Ernest Borel,
01856; Fullshare, 00607; Anxin-China, 01149; tests/fixtures/real, keys by hand in
``<stem>.key.csv``): the statement tables
are found, their NOTES column skipped, each value column's period composed from the title
block ("FOR THE YEAR ENDED 31 DECEMBER 2014") and the year printed above it, the currency and
scale from the column heads (HK$'000, 千港元). One class per document.

Per-share keys are in currency per share (18.82 Hong Kong cents -> 0.1882); converting cents
is the per-share reader's job, so here those rows are checked for period and currency only.
"""

from __future__ import annotations

import csv
from collections import Counter
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import ClassVar

import pytest

from domain.rowrecords import StatementKind, StatementRow
from tasks.extract import parse_document
from tasks.parsers.statements.asreported import RowsRead, read_rows
from tests.golden.golden import load_section_rows, section_cells

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"
Key = tuple[str, str, date | None, date, str]
_CENTS = ("cents", "港仙")


def _norm(label: str) -> str:
    return "".join(label.split()).lower()


def _keys(stem: str) -> dict[Key, Decimal]:
    with (REAL / f"{stem}.key.csv").open(encoding="utf-8") as handle:
        return {
            (
                row["statement"],
                _norm(row["label"]),
                date.fromisoformat(row["period_start"]) if row["period_start"] else None,
                date.fromisoformat(row["period_end"]),
                row["currency"],
            ): Decimal(row["value"])
            for row in csv.DictReader(handle)
        }


def _key(row: StatementRow) -> Key:
    label = _norm(row.row_label)
    return (row.statement.value, label, row.period_start, row.period_end, row.currency)


class RealAnnouncement:
    stem: ClassVar[str]
    counts: ClassVar[dict[StatementKind, int]]

    @pytest.fixture(scope="class")
    def read(self) -> RowsRead:
        path = REAL / f"{self.stem}.pdf"
        return read_rows(parse_document(path.name, path.read_bytes()), path.name)

    def test_every_keyed_amount_is_read_with_its_period_and_currency(self, read: RowsRead) -> None:
        got: dict[Key, list[Decimal]] = {}
        for row in read.rows:
            got.setdefault(_key(row), []).append(row.value)
        keys = _keys(self.stem)
        missing = {k: v for k, v in keys.items() if k not in got}
        wrong = {
            k: (got[k], v)
            for k, v in keys.items()
            if k in got and not any(c in k[1] for c in _CENTS) and got[k] != [v]
        }
        assert (missing, wrong) == ({}, {})

    def test_every_golden_cell_is_read_in_its_section(self, read: RowsRead) -> None:
        golden = load_section_rows(f"{self.stem}.pdf")
        got = section_cells(read.rows)
        assert len(got) == len(read.rows)
        assert {k: (got.get(k), v) for k, v in golden.items() if got.get(k) != v} == {}
        assert set(got) - set(golden) == set()

    def test_only_the_statements_are_read_and_nothing_refused(self, read: RowsRead) -> None:
        assert Counter(r.statement for r in read.rows) == self.counts
        assert read.refused == ()

    def test_the_notes_column_is_no_value(self, read: RowsRead) -> None:
        revenue = [
            r for r in read.rows if r.row_index == 0 and r.statement.value == "income_statement"
        ]
        assert len(revenue) == 2  # "Revenue  3  602,624  604,013": note 3 is no column
        assert all(r.value > 100_000_000 for r in revenue)
        assert not any(
            "NOTES" in r.provenance.column or "附註" in r.provenance.column for r in read.rows
        )


class TestAnnualResults2014English(RealAnnouncement):
    stem = "HK01856_2014FY_annual-results_en"
    counts: ClassVar = {StatementKind.INCOME_STATEMENT: 36, StatementKind.BALANCE_SHEET: 54}

    def test_comparative_year_takes_the_titles_month_and_day(self, read: RowsRead) -> None:
        periods = {(r.period_start, r.period_end) for r in read.rows}
        assert periods == {
            (date(2014, 1, 1), date(2014, 12, 31)),
            (date(2013, 1, 1), date(2013, 12, 31)),
            (None, date(2014, 12, 31)),
            (None, date(2013, 12, 31)),
        }
        assert {r.currency for r in read.rows} == {"HKD"}


class TestAnnualResults2014Chinese(RealAnnouncement):
    stem = "HK01856_2014FY_annual-results_zh"
    counts: ClassVar = {StatementKind.INCOME_STATEMENT: 36, StatementKind.BALANCE_SHEET: 54}


class TestInterimResults2014English(RealAnnouncement):
    stem = "HK01856_2014H1_interim-results_en"
    counts: ClassVar = {StatementKind.INCOME_STATEMENT: 34, StatementKind.BALANCE_SHEET: 52}

    def test_half_years_and_two_year_ends(self, read: RowsRead) -> None:
        periods = {(r.statement, r.period_start, r.period_end) for r in read.rows}
        assert periods == {
            (StatementKind.INCOME_STATEMENT, date(2014, 1, 1), date(2014, 6, 30)),
            (StatementKind.INCOME_STATEMENT, date(2013, 1, 1), date(2013, 6, 30)),
            (StatementKind.BALANCE_SHEET, None, date(2014, 6, 30)),
            (StatementKind.BALANCE_SHEET, None, date(2013, 12, 31)),
        }


class TestFullshareInterimReport2022English(RealAnnouncement):
    """A 121-page interim report: the statements among the discussion and notes, each over
    two or three pages joined by "(continued)", the statement of changes in equity left out."""

    stem = "HK00607_2022H1_interim-report_en"
    counts: ClassVar = {
        StatementKind.INCOME_STATEMENT: 88,
        StatementKind.BALANCE_SHEET: 108,
        StatementKind.CASH_FLOW: 92,
    }

    def test_the_balance_sheets_last_page_is_read(self, read: RowsRead) -> None:
        equity = {
            (r.row_label, r.period_end): r.value
            for r in read.rows
            if r.statement is StatementKind.BALANCE_SHEET and r.row_label == "Total equity"
        }
        assert equity == {
            ("Total equity", date(2022, 6, 30)): Decimal("17823088000"),
            ("Total equity", date(2021, 12, 31)): Decimal("17995855000"),
        }
        assert not any("CHANGES IN EQUITY" in r.table_title.upper() for r in read.rows)


class TestFullshareInterimReport2022Chinese(RealAnnouncement):
    """The Chinese edition: labels drawn a line below their figures' boxes, paired by
    baseline; EPS "人民幣" above "0.002元"; the same cells as the English edition."""

    stem = "HK00607_2022H1_interim-report_zh"
    counts: ClassVar = TestFullshareInterimReport2022English.counts

    def test_same_figures_as_the_english_edition(self, read: RowsRead) -> None:
        path = REAL / f"{TestFullshareInterimReport2022English.stem}.pdf"
        english = read_rows(parse_document(path.name, path.read_bytes()), path.name)
        cells = [(r.statement, r.period_start, r.period_end, r.value) for r in read.rows]
        assert cells
        assert cells == [(r.statement, r.period_start, r.period_end, r.value) for r in english.rows]


class TestAnxinInterimResults2013English(RealAnnouncement):
    stem = "HK01149_2013H1_interim-results_en"
    counts: ClassVar = {
        StatementKind.INCOME_STATEMENT: 44,
        StatementKind.BALANCE_SHEET: 52,
        StatementKind.CASH_FLOW: 16,
    }


class TestAnxinInterimResults2013Chinese(RealAnnouncement):
    stem = "HK01149_2013H1_interim-results_zh"
    counts: ClassVar = TestAnxinInterimResults2013English.counts

    def test_hk_cents_in_chinese(self, read: RowsRead) -> None:
        eps = [r for r in read.rows if r.row_label == "每股盈利－基本（港幣仙）"]
        assert [(r.value, r.currency) for r in eps] == [
            (Decimal("0.1474"), "HKD"),
            (Decimal("0.1105"), "HKD"),
        ]
