"""Real HKEx results announcements nobody here wrote (tests/fixtures/real/, Ernest Borel
Holdings, HKEx 01856): the standard Hong Kong IFRS layout, in English and Chinese, annual and
interim. Each is read row by row against its hand-made key (<stem>.key.csv) and its golden file
of every statement cell (tests/golden/rows/<stem>.json, written by hand from the PDF): label,
period, currency, value and precision of every cell, in printed order (unlabelled subtotals
are told apart by their order), and the section each row is printed under (the printed
outline: a heading's rows end at its total or unlabelled subtotal).
"""

from __future__ import annotations

import csv
from collections import Counter
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import ClassVar

import pytest

from domain.enums import DocKind
from domain.rowrecords import StatementRow
from tasks.extract import extract_file
from tests.golden.golden import load_section_rows

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"
KeyFact = tuple[str, str, date | None, date, str, Decimal]
Cell = tuple[str, str, date | None, date, str, int]  # statement, label, period, currency, nth
_READ: dict[str, tuple[StatementRow, ...]] = {}


def _rows(name: str) -> tuple[StatementRow, ...]:
    if name not in _READ:
        path = REAL / name
        _READ[name] = extract_file(name, path.read_bytes(), "EBORL").rows
    return _READ[name]


def _keys(name: str) -> list[KeyFact]:
    with (REAL / name).with_suffix(".key.csv").open(encoding="utf-8", newline="") as handle:
        return [
            (
                k["statement"], k["label"],
                date.fromisoformat(k["period_start"]) if k["period_start"] else None,
                date.fromisoformat(k["period_end"]), k["currency"], Decimal(k["value"]),
            )
            for k in csv.DictReader(handle)
        ]  # fmt: skip


def _numbered(keys: list[tuple[str, str, date | None, date, str]]) -> list[Cell]:
    """Each key with how many times it was seen before (the nth unlabelled subtotal)."""
    seen: Counter[tuple[str, str, date | None, date, str]] = Counter()
    numbered = []
    for key in keys:
        numbered.append((*key, seen[key]))
        seen[key] += 1
    return numbered


def _read_cells(rows: tuple[StatementRow, ...]) -> dict[Cell, tuple[Decimal, int]]:
    keys = [
        (r.statement.value, r.row_label, r.period_start, r.period_end, r.currency) for r in rows
    ]
    return {c: (r.value, r.decimals) for c, r in zip(_numbered(keys), rows, strict=True)}


def _golden_cells(document: str) -> dict[Cell, tuple[Decimal, int]]:
    golden = load_section_rows(document)  # in printed order, block by block
    keys = [(k[0], k[2], k[3], k[4], k[5]) for k in golden]
    return dict(zip(_numbered(keys), golden.values(), strict=True))


class RealDocument:
    """The checks every real document passes; subclasses name the document."""

    document: ClassVar[str]
    kind: ClassVar[DocKind]

    @pytest.fixture(scope="class")
    def rows(self) -> tuple[StatementRow, ...]:
        return _rows(self.document)

    def test_every_keyed_fact_is_read(self, rows: tuple[StatementRow, ...]) -> None:
        got = {
            (r.statement.value, r.row_label, r.period_start, r.period_end, r.currency, r.value)
            for r in rows
        }
        assert [k for k in _keys(self.document) if k not in got] == []

    def test_every_golden_cell_is_read_exactly(self, rows: tuple[StatementRow, ...]) -> None:
        got, golden = _read_cells(rows), _golden_cells(self.document)
        assert {k: (got.get(k), v) for k, v in golden.items() if got.get(k) != v} == {}

    def test_nothing_read_that_is_not_printed(self, rows: tuple[StatementRow, ...]) -> None:
        assert set(_read_cells(rows)) - set(_golden_cells(self.document)) == set()

    def test_every_row_is_in_its_printed_section(self, rows: tuple[StatementRow, ...]) -> None:
        placed = Counter(
            (r.statement.value, r.section, r.row_label, r.period_start, r.period_end, r.currency)
            for r in rows
        )
        assert placed == Counter(load_section_rows(self.document).keys())

    def test_it_is_a_results_document(self) -> None:
        path = REAL / self.document
        assert extract_file(path.name, path.read_bytes(), "EBORL").kind == self.kind


class TestErnestBorelAnnualResults2014English(RealDocument):
    document = "HK01856_2014FY_annual-results_en.pdf"
    kind = DocKind.RESULTS_ANNUAL


class TestErnestBorelAnnualResults2014Chinese(RealDocument):
    document = "HK01856_2014FY_annual-results_zh.pdf"
    kind = DocKind.RESULTS_ANNUAL


class TestErnestBorelInterimResults2014English(RealDocument):
    document = "HK01856_2014H1_interim-results_en.pdf"
    kind = DocKind.RESULTS_INTERIM
