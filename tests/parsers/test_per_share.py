"""Per-share amounts as printed (tasks/parsers/documents/numbers.py and the row unit): in Hong Kong
cents / 港仙 (the unit named by the label), glued to their currency ("RMB0.002"), and on the
line below their label."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from domain.rowrecords import StatementRow
from tasks.extract import parse_document
from tasks.parsers.documents.numbers import CellKind, cents_of, parse_cell
from tasks.parsers.statements.asreported import read_rows
from tasks.parsers.statements.standard import row_unit


@pytest.mark.parametrize(
    ("label", "currency"),
    [
        ("— Basic (Hong Kong cents)", "HKD"),
        ("Earnings per share — basic (HK cents)", "HKD"),
        ("— 基本（港仙）", "HKD"),
        ("Basic (RMB cents)", "CNY"),
        ("Diluted (US cents)", "USD"),
        ("Basic earnings per share (cents)", ""),
        ("Basic", None),
        ("Percentage of centsible things", None),
    ],
)
def test_the_label_says_a_figure_is_in_cents_and_of_which_currency(
    label: str, currency: str | None
) -> None:
    assert cents_of(label) == currency


@pytest.mark.parametrize(
    ("text", "value", "currency"),
    [
        ("RMB0.002", "0.002", "CNY"),
        ("HK$0.08", "0.08", "HKD"),
        ("US$ 1.25", "1.25", "USD"),
        ("(RMB0.05)", "-0.05", "CNY"),
        ("0.002 RMB", "0.002", "CNY"),
        ("$4.50", "4.50", ""),  # a bare dollar sign is the column's currency
    ],
)
def test_a_figure_glued_to_its_currency(text: str, value: str, currency: str) -> None:
    cell = parse_cell(text)
    assert (cell.kind, cell.value, cell.currency) == (CellKind.NUMBER, Decimal(value), currency)


_TABLE = """<html><head><meta charset="utf-8"></head><body>
<p>CONSOLIDATED STATEMENTS OF OPERATIONS</p>
<table>
<tr><td></td><td>Year ended December 31, 2014</td><td>Year ended December 31, 2013</td></tr>
<tr><td></td><td>HK$'000</td><td>HK$'000</td></tr>
<tr><td>Revenue</td><td>602,624</td><td>604,013</td></tr>
<tr><td>Earnings per share</td><td></td><td></td></tr>
<tr><td>— Basic (Hong Kong cents)</td><td>18.82</td><td>33.10</td></tr>
<tr><td>Dividend per share</td><td></td><td></td></tr>
<tr><td></td><td>RMB0.002</td><td>RMB0.001</td></tr>
</table></body></html>"""


@pytest.fixture(scope="module")
def rows() -> dict[tuple[str, date], StatementRow]:
    read = read_rows(parse_document("release.htm", _TABLE.encode()), "release.htm")
    return {(r.row_label, r.period_end): r for r in read.rows}


def test_hong_kong_cents_are_hundredths_of_a_dollar_per_share(
    rows: dict[tuple[str, date], StatementRow],
) -> None:
    basic = rows[("— Basic (Hong Kong cents)", date(2014, 12, 31))]
    assert (basic.value, basic.currency, basic.scale, basic.decimals) == (
        Decimal("0.1882"), "HKD", -2, 4,
    )  # fmt: skip
    assert rows[("— Basic (Hong Kong cents)", date(2013, 12, 31))].value == Decimal("0.331")
    assert rows[("Revenue", date(2014, 12, 31))].value == Decimal(602624000)


def test_a_figure_on_the_line_below_its_label_glued_to_its_currency(
    rows: dict[tuple[str, date], StatementRow],
) -> None:
    dividend = rows[("Dividend per share", date(2014, 12, 31))]
    assert (dividend.value, dividend.currency, dividend.scale) == (Decimal("0.002"), "CNY", 0)


def test_a_row_in_cents_is_stored_per_share(rows: dict[tuple[str, date], StatementRow]) -> None:
    basic = rows[("— Basic (Hong Kong cents)", date(2014, 12, 31))]
    assert row_unit(basic) == "HKD/share"
    assert row_unit(rows[("Revenue", date(2014, 12, 31))]) == "HKD"
