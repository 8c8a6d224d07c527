"""Cell parsing and HTML/PDF cell placement on small hand-written documents."""

from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from tasks.extract import extract_file
from tasks.parsers.documents.numbers import CellKind, parse_cell

_HTML = b"""<html><body>
<p>Unaudited Condensed Consolidated Statements of Operations</p>
<p>(Amounts in thousands of Renminbi (&#8220;RMB&#8221;) and U.S. dollars (&#8220;USD&#8221;))</p>
<table>
<tr><td></td><td colspan="6">Three months ended June 30,</td><td colspan="3"></td></tr>
<tr><td></td><td colspan="3">2023</td><td colspan="3">2024</td><td colspan="3">2024</td></tr>
<tr><td></td><td colspan="3">RMB</td><td colspan="3">RMB</td><td colspan="3">USD</td></tr>
<tr><td>Other income, net</td><td>(</td><td>366,065</td><td>)</td><td>RMB</td><td>(1,234</td>
<td>)</td><td>US$</td><td>(170)</td><td></td></tr>
<tr><td>Interest income, net</td><td>&#160;</td><td>&#8212;</td><td></td><td></td><td>45,987</td>
<td></td><td></td><td>6,328</td><td></td></tr>
<tr><td>Income taxes</td><td colspan="9"></td></tr>
<tr><td>expense</td><td></td><td>(272,934)</td><td></td><td></td><td>(700,055)</td><td></td><td></td>
<td>(96,331)</td><td></td></tr>
</table></body></html>"""


def _pdf() -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 8)
    lines = [
        (700, [(40, "Unaudited Condensed Consolidated Balance Sheets")]),
        (688, [(40, "(Amounts in thousands of Renminbi (RMB) and U.S. dollars (USD))")]),
        (
            670,
            [
                (330, "December 31, 2023", True),
                (410, "December 31, 2024", True),
                (490, "December 31, 2024", True),
            ],
        ),
        (658, [(330, "RMB", True), (410, "RMB", True), (490, "USD", True)]),
        (
            646,
            [
                (40, "TOTAL ASSETS"),
                (330, "45,818,572", True),
                (410, "48,132,618", True),
                (490, "6,594,142", True),
            ],
        ),
        (634, [(40, "Goodwill"), (330, "—", True), (410, "42,414", True), (490, "5,811", True)]),
    ]
    for y, cells in lines:
        for x, text, *right in cells:
            (pdf.drawRightString if right else pdf.drawString)(x, y, text)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


class TestCellParsing:
    def test_parentheses_negative(self) -> None:
        assert parse_cell("(366,065)").value == Decimal("-366065")

    def test_dash_is_nil(self) -> None:
        assert parse_cell("—").kind is CellKind.NIL

    def test_leading_zero_group_is_damaged(self) -> None:
        assert parse_cell("0,405,081").kind is CellKind.DAMAGED

    def test_dotted_thousands_are_damaged(self) -> None:
        assert parse_cell("1.005.440").kind is CellKind.DAMAGED

    def test_two_figures_in_one_cell_are_damaged(self) -> None:
        assert parse_cell("72,374 22,009,857").kind is CellKind.DAMAGED

    def test_unbalanced_parenthesis_is_damaged(self) -> None:
        assert parse_cell("(366,065").kind is CellKind.DAMAGED

    def test_percent(self) -> None:
        cell = parse_cell("27.9%")
        assert (cell.value, cell.percent) == (Decimal("27.9"), True)


class TestSmallHtml:
    def _facts(self) -> dict[tuple[str, date | None], Decimal]:
        result = extract_file("small.htm", _HTML, "QFIN")
        return {(f.metric, f.period_start): f.value for f in result.mapped}

    def test_negative_split_over_three_cells(self) -> None:
        assert self._facts()[("other_income_net", date(2023, 4, 1))] == Decimal("-366065000")

    def test_negative_split_over_two_cells(self) -> None:
        assert self._facts()[("other_income_net", date(2024, 4, 1))] == Decimal("-1234000")

    def test_dash_is_zero_in_a_row_with_numbers(self) -> None:
        assert self._facts()[("interest_income_net", date(2023, 4, 1))] == Decimal(0)

    def test_wrapped_label_lowercase_continuation(self) -> None:
        assert self._facts()[("income_tax_expense", date(2024, 4, 1))] == Decimal("700055000")

    def test_usd_column_skipped(self) -> None:
        result = extract_file("small.htm", _HTML, "QFIN")
        assert len([f for f in result.mapped if f.metric == "other_income_net"]) == 2


class TestSmallPdf:
    def test_total_assets(self) -> None:
        facts = {
            (f.metric, f.period_end): f.value for f in extract_file("s.pdf", _pdf(), "QFIN").mapped
        }
        assert facts[("total_assets", date(2024, 12, 31))] == Decimal("48132618000")

    def test_usd_never_a_fact(self) -> None:
        raws = {f.provenance.raw_text for f in extract_file("s.pdf", _pdf(), "QFIN").mapped}
        assert "6,594,142" not in raws

    def test_damaged_pdf_raises_parse_error(self) -> None:
        import pytest

        from domain.errors import ParseError

        with pytest.raises(ParseError, match="broken.pdf"):
            extract_file("broken.pdf", b"%PDF-1.4 garbage", "QFIN")
