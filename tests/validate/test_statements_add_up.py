"""A reading proves itself (domain/arithmetic.py, the statements_add_up gate rule): real
statements add up, a statement with one total altered is caught as such, naming the row, the
printed figure and the sum of its rows.

The Ernest Borel columns are the hand-written golden files' (tests/golden/rows, read off the
PDFs) in printed order; Buckle's are read by the parser from its real EX-99.1, once as filed
and once with its Total assets altered.
"""

from __future__ import annotations

import json
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from domain.arithmetic import Line, columns, prove
from expectations.gate import statements_add_up_rule
from expectations.rules import Context
from tasks.extract import extract_file
from tests.golden.golden import GOLDEN, printed

BUCKLE = (
    Path(__file__).resolve().parent.parent
    / "fixtures/reference/sec/sec_8k_ex99-1_buckle_earnings_release.htm"
)
ALTERED_TOTAL_ASSETS = (b"976,270", b"979,270")  # its first 976,270 is Total assets


def golden_balance_sheet(stem: str, column: int) -> list[Line]:
    """A golden file's statement of financial position, one column, in printed order."""
    data = json.loads((GOLDEN / "rows" / f"{stem}.json").read_text(encoding="utf-8"))
    lines = []
    for block in data["statements"]:
        if block["statement"] == "balance_sheet":
            for label, *values in block["rows"]:
                value, decimals = printed(values[column], block["scale"])
                lines.append(Line(label, value, decimals))
    return lines


def thousands(*rows: tuple[str, str]) -> list[Line]:
    return [Line(label, printed(text, 3)[0], -3) for label, text in rows]


# Ernest Borel's 2014 statement of profit or loss, 2014 column, as printed (OCI items above
# their total; per-share rows are not money and are left out by columns())
EB_INCOME_2014 = thousands(
    ("Revenue", "602,624"), ("Cost of sales", "(235,908)"), ("Gross profit", "366,716"),
    ("Other gains and losses", "(9,102)"), ("Other income", "1,285"),
    ("Distribution expenses", "(186,920)"), ("Administrative expenses", "(65,903)"),
    ("Listing expenses", "(22,012)"), ("Finance costs", "(5,017)"),
    ("Profit before tax", "79,047"), ("Income tax expense", "(20,236)"),
    ("Profit for the year attributable to owners of the Company", "58,811"),
    ("Remeasurement of defined benefit scheme", "(453)"),
    ("Exchange differences arising on translation of foreign operations", "(19,764)"),
    ("Other comprehensive (expense) income for the year", "(20,217)"),
    ("Total comprehensive income for the year", "38,594"),
)  # fmt: skip


@pytest.mark.parametrize(
    "stem",
    [
        "HK01856_2014FY_annual-results_en",
        "HK01856_2014FY_annual-results_zh",
        "HK01856_2014H1_interim-results_en",
    ],
)
@pytest.mark.parametrize("column", [0, 1])
def test_real_hk_balance_sheets_prove_themselves(stem: str, column: int) -> None:
    proof = prove(golden_balance_sheet(stem, column), balance_sheet=True)
    assert proof.disagreements == () and proof.unproved == 0
    assert proof.balanced  # net assets = total equity; the interim's two 483,414 lines
    assert proof.proved >= 8


def test_a_real_ifrs_income_statement_proves_itself() -> None:
    proof = prove(EB_INCOME_2014)
    assert (proof.proved, proof.unproved, proof.disagreements) == (5, 0, ())


def test_a_misread_row_above_profit_before_tax_is_caught_there() -> None:
    # "Other income 3 1,136" in flowed text, its note taken for this year's figure: no row
    # labelled total covers other income, the income statement's own subtotal does
    lines = [replace(x, value=Decimal(3000)) if x.label == "Other income" else x
             for x in EB_INCOME_2014]  # fmt: skip
    (found,) = prove(lines).disagreements
    assert (found.label, found.printed, found.nearest) == ("Profit before tax", 79047000, 77765000)


def test_an_altered_subtotal_is_named_with_its_printed_figure_and_the_sum() -> None:
    lines = golden_balance_sheet("HK01856_2014FY_annual-results_en", 0)
    at = next(i for i, x in enumerate(lines) if x.value == Decimal(802241000))  # current assets
    lines[at] = replace(lines[at], value=Decimal(812241000))
    (found,) = prove(lines, balance_sheet=True).disagreements
    assert (found.label, found.printed, found.nearest) == ("", 812241000, 802241000)


def test_an_altered_total_equity_is_named() -> None:
    lines = golden_balance_sheet("HK01856_2014FY_annual-results_en", 1)
    lines[-1] = replace(lines[-1], value=Decimal(455904000))
    (found,) = prove(lines, balance_sheet=True).disagreements
    assert (found.label, found.printed, found.nearest) == ("TOTAL EQUITY", 455904000, 455104000)


def test_a_summary_of_selected_lines_is_not_judged() -> None:
    # cash and restricted cash printed, the other current assets not: nothing to prove
    lines = thousands(("Cash", "4,177,890"), ("Restricted cash", "3,381,107"),
                      ("Total current assets", "39,796,028"))  # fmt: skip
    assert prove(lines, balance_sheet=True).disagreements == ()


def _gate(content: bytes) -> list[str]:
    extraction = extract_file(BUCKLE.name, content, "BKE")
    ctx = Context.of_extraction("doc", extraction)
    rows = statements_add_up_rule("statements_add_up", {}, [], ctx).rows
    return [f"{r.period}: {r.lhs} vs {r.rhs}" for r in rows if r.gap > r.tolerance]


def test_buckle_as_filed_adds_up() -> None:
    extraction = extract_file(BUCKLE.name, BUCKLE.read_bytes(), "BKE")
    assert len(columns(extraction.rows)) == 7
    assert _gate(BUCKLE.read_bytes()) == []


def test_buckle_with_total_assets_altered_is_caught_as_such() -> None:
    altered = BUCKLE.read_bytes().replace(*ALTERED_TOTAL_ASSETS, 1)
    assert _gate(altered) == ["balance sheet 2024-11-02 USD 'Total assets': 979270000 vs 976270000"]
