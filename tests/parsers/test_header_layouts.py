"""Statement headers in the arrangements real releases use, read row by row (tasks.parsers.
asreported) and into facts (the QFIN catalog): periods in one cell with the years and the
currencies on the next lines, the whole header in the label column, spanning groups, a
title naming two years, scale lines inside the table, footnote marks, split negatives, a
statement continued on the next page with or without its header, a USD column anywhere.
A column whose period stays ambiguous is refused with a reason, never guessed.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import ClassVar

from domain.records import Extraction
from domain.rowrecords import StatementKind
from tasks.extract import extract_file

DEC23, DEC24, MAR24 = date(2023, 12, 31), date(2024, 12, 31), date(2024, 3, 31)
Q4_23, Q4_24 = (date(2023, 10, 1), DEC23), (date(2024, 10, 1), DEC24)
BALANCE = "Unaudited Condensed Consolidated Balance Sheets"
OPERATIONS = "Unaudited Condensed Consolidated Statements of Operations"
SCALE = "(Amounts in thousands of Renminbi (“RMB”) and U.S. dollars (“USD”))"


def _read(text: str, name: str = "release.txt") -> Extraction:
    return extract_file(name, text.encode(), "QFIN")


def _rows(extraction: Extraction) -> dict[tuple[str, date | None, date], Decimal]:
    return {(r.row_label, r.period_start, r.period_end): r.value for r in extraction.rows}


def _facts(extraction: Extraction) -> dict[tuple[str, date | None, date], Decimal]:
    return {
        (f.metric, f.period_start, f.period_end): f.value
        for f in extraction.mapped
        if f.origin == "table"
    }


def _table(*lines: str) -> str:
    return "\n".join(lines) + "\n"


class TestPeriodsYearsCurrenciesOnThreeLines:
    text = _table(
        BALANCE,
        SCALE,
        "\tDecember 31, March 31, March 31,\t\t",
        "\t2023 2024 2024\t\t",
        "\tRMB RMB USD\t\t",
        "Cash and cash equivalents\t4,177,890\t6,337,134\t872,012",
        "TOTAL ASSETS\t45,818,572\t46,983,049\t6,465,160",
    )

    def test_each_column_gets_its_period_and_the_usd_column_is_no_row(self) -> None:
        result = _read(self.text)
        assert _rows(result) == {
            ("Cash and cash equivalents", None, DEC23): Decimal(4177890000),
            ("Cash and cash equivalents", None, MAR24): Decimal(6337134000),
            ("TOTAL ASSETS", None, DEC23): Decimal(45818572000),
            ("TOTAL ASSETS", None, MAR24): Decimal(46983049000),
        }
        assert {r.currency for r in result.rows} == {"CNY"}
        assert _facts(result)[("total_assets", None, MAR24)] == Decimal(46983049000)
        assert result.refused == ()


class TestWholeHeaderInTheLabelColumn:
    text = _table(
        BALANCE,
        SCALE,
        "December 31, 2023 December 31, 2024 December 31, 2024",
        "RMB RMB USD",
        "Cash and cash equivalents\t4,177,890\t6,337,134\t868,164",
    )

    def test_periods_belong_to_the_columns_in_order(self) -> None:
        result = _read(self.text)
        assert _rows(result) == {
            ("Cash and cash equivalents", None, DEC23): Decimal(4177890000),
            ("Cash and cash equivalents", None, DEC24): Decimal(6337134000),
        }
        assert _facts(result) == {
            ("cash_and_cash_equivalents", None, DEC23): Decimal(4177890000),
            ("cash_and_cash_equivalents", None, DEC24): Decimal(6337134000),
        }


def _cells(*figures: str) -> str:
    """EDGAR's two cells per figure: the figure, then its closing parenthesis (or nothing)."""
    out = []
    for figure in figures:
        split = figure.endswith(")")
        out.append(f"<td>{figure[:-1] if split else figure}</td><td>{')' if split else ''}</td>")
    return "".join(out)


class TestSpanningGroupsInHtml:
    wide = "".join(f'<td colspan="2">{t}</td>' for t in ("2023", "2024", "2024") * 2)
    money = "".join(f'<td colspan="2">{t}</td>' for t in ("RMB", "RMB", "USD") * 2)
    html = f"""<html><body><p>{OPERATIONS}</p><p>{SCALE}</p><table>
<tr><td></td><td colspan="6">Three Months Ended December 31,</td>
<td colspan="6">Year Ended December 31,</td></tr>
<tr><td></td>{wide}</tr><tr><td></td>{money}</tr>
<tr><td>Total net revenue<sup>(1)</sup></td>
{_cells("4,495,503", "4,462,599", "611,374", "16,290,536", "17,166,331", "2,351,766")}</tr>
<tr><td>Income taxes expense</td>
{_cells("(223,237)", "(476,060)", "(65,220)", "(1,021,001)", "(1,388,587)", "(190,236)")}</tr>
</table></body></html>"""

    def test_groups_give_durations_and_footnote_marks_leave_labels(self) -> None:
        result = _read(self.html, "release.htm")
        rows = _rows(result)
        assert len(rows) == 8
        assert rows[("Total net revenue", *Q4_24)] == Decimal(4462599000)
        assert rows[("Total net revenue", date(2023, 1, 1), DEC23)] == Decimal(16290536000)
        assert rows[("Income taxes expense", *Q4_23)] == Decimal(-223237000)
        facts = _facts(result)
        assert facts[("total_net_revenue", date(2024, 1, 1), DEC24)] == Decimal(17166331000)
        assert facts[("income_tax_expense", *Q4_23)] == Decimal(223237000)


class TestOneQuarterGroupOverThreeYearColumns:
    """A first-quarter release: one "Three months ended March 31," spans 2023, 2024 and the
    2024 USD column (EDGAR HTML with colspans, and the same as laid-out text)."""

    years = "".join(f'<td colspan="2">{t}</td>' for t in ("2023", "2024", "2024"))
    money = "".join(f'<td colspan="2">{t}</td>' for t in ("RMB", "RMB", "USD"))
    html = f"""<html><body><p>{OPERATIONS}</p><p>{SCALE}</p><table>
<tr><td></td><td colspan="6">Three months ended March 31,</td></tr>
<tr><td></td>{years}</tr><tr><td></td>{money}</tr>
<tr><td>Total net revenue</td>{_cells("4,164,147", "4,225,133", "585,178")}</tr>
<tr><td>Income taxes expense</td>{_cells("(253,561)", "(249,876)", "(34,607)")}</tr>
</table></body></html>"""
    text = _table(
        OPERATIONS,
        SCALE,
        "                              Three months ended March 31,",
        "                              2023          2024          2024",
        "                              RMB           RMB           USD",
        "Total net revenue        4,164,147     4,225,133       585,178",
        "Income taxes expense      (253,561)     (249,876)      (34,607)",
    )
    expected: ClassVar = {
        ("Total net revenue", date(2023, 1, 1), date(2023, 3, 31)): Decimal(4164147000),
        ("Total net revenue", date(2024, 1, 1), MAR24): Decimal(4225133000),
        ("Income taxes expense", date(2023, 1, 1), date(2023, 3, 31)): Decimal(-253561000),
        ("Income taxes expense", date(2024, 1, 1), MAR24): Decimal(-249876000),
    }

    def test_html_columns_are_the_two_quarters(self) -> None:
        assert _rows(_read(self.html, "release.htm")) == self.expected

    def test_laid_out_text_columns_are_the_two_quarters(self) -> None:
        assert _rows(_read(self.text)) == self.expected


class TestAmbiguousColumnRefused:
    text = _table(
        BALANCE,
        SCALE,
        "\tDecember 31,\tDecember 31,",
        "\tRMB\tRMB",
        "Cash and cash equivalents\t4,177,890\t6,337,134",
    )

    def test_no_year_anywhere_is_refused_with_the_reason(self) -> None:
        result = _read(self.text)
        assert result.rows == ()
        assert {(r.statement, r.row_label) for r in result.refused} == {
            (StatementKind.BALANCE_SHEET, "Cash and cash equivalents")
        }
        assert all("period not readable from the header" in r.reason for r in result.refused)
        assert _facts(result) == {}


class TestTitleNamingTwoYears:
    text = _table(
        OPERATIONS,
        "For the three months ended December 31, 2023 and 2024",
        SCALE,
        "\t2023\t2024",
        "\tRMB\tRMB",
        "Total net revenue\t4,495,503\t4,462,599",
    )

    def test_each_column_takes_its_own_year(self) -> None:
        assert _rows(_read(self.text)) == {
            ("Total net revenue", *Q4_23): Decimal(4495503000),
            ("Total net revenue", *Q4_24): Decimal(4462599000),
        }


class TestScaleInsideTheTableAndNilAndFootnotes:
    text = _table(
        BALANCE,
        "\tDecember 31, 2023\tDecember 31, 2024",
        "(In thousands of RMB)\t\t",
        "\tRMB\tRMB",
        "Cash and cash equivalents (1)\t4,177,890²\t6,337,134",
        "Restricted cash*\t—\t(1,234\t)",
    )

    def test_values_read_exactly(self) -> None:
        result = _read(self.text)
        assert _rows(result) == {
            ("Cash and cash equivalents", None, DEC23): Decimal(4177890000),
            ("Cash and cash equivalents", None, DEC24): Decimal(6337134000),
            ("Restricted cash", None, DEC23): Decimal(0),
            ("Restricted cash", None, DEC24): Decimal(-1234000),
        }
        assert result.refused == ()


class TestContinuedOnTheNextPage:
    first = (
        BALANCE,
        SCALE,
        "\tDecember 31, 2023\tDecember 31, 2024\tDecember 31, 2024",
        "\tRMB\tRMB\tUSD",
        "Cash and cash equivalents\t4,177,890\t6,337,134\t868,164",
        "",
        "12",
        "",
    )

    def test_without_the_header_repeated(self) -> None:
        text = _table(*self.first, "TOTAL ASSETS\t45,818,572\t46,983,049\t6,436,726")
        rows = _rows(_read(text))
        assert rows[("TOTAL ASSETS", None, DEC24)] == Decimal(46983049000)
        assert len(rows) == 4

    def test_with_the_header_repeated(self) -> None:
        text = _table(
            *self.first,
            f"{BALANCE} (continued)",
            "\tDecember 31, 2023\tDecember 31, 2024\tDecember 31, 2024",
            "\tRMB\tRMB\tUSD",
            "TOTAL ASSETS\t45,818,572\t46,983,049\t6,436,726",
        )
        result = _read(text)
        assert _rows(result)[("TOTAL ASSETS", None, DEC23)] == Decimal(45818572000)
        assert _facts(result)[("total_assets", None, DEC24)] == Decimal(46983049000)


class TestUsdColumnFirst:
    text = _table(
        BALANCE,
        SCALE,
        "\tDecember 31, 2024\tDecember 31, 2023\tDecember 31, 2024",
        "\tUSD\tRMB\tRMB",
        "Cash and cash equivalents\t868,164\t4,177,890\t6,337,134",
    )

    def test_usd_column_is_not_a_row(self) -> None:
        assert _rows(_read(self.text)) == {
            ("Cash and cash equivalents", None, DEC23): Decimal(4177890000),
            ("Cash and cash equivalents", None, DEC24): Decimal(6337134000),
        }
