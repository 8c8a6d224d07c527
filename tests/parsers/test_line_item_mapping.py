"""Statement rows -> line items: the metric of the fact read from the same cell, else a unit."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

from domain.enums import Origin
from domain.records import Fact, Provenance
from domain.rowrecords import LineItem, StatementKind, StatementRow
from tasks.parsers.statements.metric_mapping import standard_facts
from tasks.parsers.statements.standard import line_items, row_unit

Q = (date(2024, 10, 1), date(2024, 12, 31))


def _row(label: str, value: str, index: int, currency: str = "CNY") -> StatementRow:
    return StatementRow(
        statement=StatementKind.INCOME_STATEMENT,
        table_title="UNAUDITED CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS",
        row_label=label,
        row_index=index,
        section="",
        period_start=Q[0],
        period_end=Q[1],
        currency=currency,
        value=Decimal(value),
        scale=3,
        decimals=-3,
        provenance=Provenance("ex99-1.htm", "table 3", label, "Q4 2024 RMB", value),
    )


def _fact(metric: str, row: StatementRow, unit: str = "CNY", **kw: object) -> Fact:
    return Fact(
        metric=metric,
        period_start=row.period_start,
        period_end=row.period_end,
        value=row.value,
        unit=unit,
        scale=3,
        decimals=-3,
        provenance=row.provenance,
        **kw,  # type: ignore[arg-type]
    )


OTHER_A = _row("Other services fees", "100", 1)
OTHER_B = _row("Other services fees", "100", 5)  # the same label and figure in another section
REVENUE = _row("Total net revenue", "4482252000", 6)
EPS = _row("Net income per ADS - Basic", "12.54", 9)
ROWS = (OTHER_A, OTHER_B, REVENUE, EPS)


def test_each_table_fact_names_the_metric_of_its_own_cell() -> None:
    facts = [
        _fact("other_services_fees_credit_driven", OTHER_A),
        _fact("other_services_fees_platform", replace(OTHER_B, row_label="x")),
        _fact("total_net_revenue", REVENUE),
        _fact("eps_basic_per_ads", EPS, unit="CNY/ADS"),
    ]
    assert line_items(ROWS, facts) == (
        LineItem(OTHER_A, "CNY", "other_services_fees_credit_driven"),
        LineItem(OTHER_B, "CNY", "other_services_fees_platform"),
        LineItem(REVENUE, "CNY", "total_net_revenue"),
        LineItem(EPS, "CNY/ADS", "eps_basic_per_ads"),
    )


def test_narrative_figures_and_other_values_map_nothing() -> None:
    narrative = _fact("total_net_revenue", REVENUE, origin=Origin.NARRATIVE)
    elsewhere = _fact("net_income", replace(REVENUE, value=Decimal("1")))
    items = line_items(ROWS, [narrative, elsewhere])
    assert [i.metric for i in items] == [None, None, None, None]
    assert [i.unit for i in items] == ["CNY", "CNY", "CNY", "CNY/ADS"]


def test_a_row_nothing_maps_takes_its_unit_from_currency_and_label() -> None:
    assert row_unit(_row("Basic earnings per share", "1.62", 0, "USD")) == "USD/share"
    assert row_unit(_row("Weighted average shares", "51000000", 0, "")) == "shares"
    assert row_unit(_row("Gross margin %", "48.5", 0, "")) == "percent"
    assert row_unit(_row("Number of stores", "441", 0, "")) == "count"


def _usd(label: str, value: str, index: int, section: str = "", **kw: object) -> StatementRow:
    row = replace(_row(label, value, index, "USD"), section=section, **kw)  # type: ignore[arg-type]
    return replace(row, provenance=replace(row.provenance, locator="table 1"))


THIRTEEN_WEEKS = {"period_start": date(2024, 8, 4), "period_end": date(2024, 11, 2)}
RETAILER = (
    _usd("SALES, Net of returns and allowances", "293618000", 0, **THIRTEEN_WEEKS),
    _usd("COST OF SALES (Including buying, distribution, and occupancy costs)", "153547000", 1,
         **THIRTEEN_WEEKS),
    _usd("Selling", "71986000", 2, "OPERATING EXPENSES:", **THIRTEEN_WEEKS),
    _usd("General and administrative", "13602000", 3, "OPERATING EXPENSES:", **THIRTEEN_WEEKS),
    _usd("", "85588000", 4, "OPERATING EXPENSES:", **THIRTEEN_WEEKS),
    _usd("INCOME TAX EXPENSE", "-14334000", 5, **THIRTEEN_WEEKS),
    _usd("NET INCOME", "44172000", 6, **THIRTEEN_WEEKS),
    _usd("Basic", "0.89", 7, "EARNINGS PER SHARE:", **THIRTEEN_WEEKS),
    replace(_usd("Total assets", "1000000", 8, period_start=None, period_end=date(2024, 11, 2)),
            statement=StatementKind.BALANCE_SHEET),
)  # fmt: skip


def test_the_shared_mapping_reads_a_retailer_in_its_own_currency_and_weeks() -> None:
    got = {
        (f.metric, f.unit, f.value, f.period_start, f.period_end)
        for f in standard_facts(RETAILER, [])
    }
    q = (date(2024, 8, 4), date(2024, 11, 2))
    assert got == {
        ("total_net_revenue", "USD", Decimal("293618000"), *q),
        ("cost_of_revenue", "USD", Decimal("153547000"), *q),
        ("total_operating_expenses", "USD", Decimal("85588000"), *q),  # the unlabelled total
        ("income_tax_expense", "USD", Decimal("14334000"), *q),  # an expense is positive
        ("net_income", "USD", Decimal("44172000"), *q),
        ("eps_basic_per_share", "USD/share", Decimal("0.89"), *q),
        ("total_assets", "USD", Decimal("1000000"), None, date(2024, 11, 2)),
    }


def test_an_overlay_fact_wins_over_the_shared_mapping() -> None:
    # The catalog read net income from another row for the same period: it stays alone.
    overlay = _fact("net_income", RETAILER[5], unit="USD")
    got = standard_facts(RETAILER, [overlay])
    assert "net_income" not in {f.metric for f in got}
    assert "income_tax_expense" not in {f.metric for f in got}  # its cell was read by the overlay


def test_an_unlabelled_row_that_is_not_the_sum_above_is_no_total() -> None:
    wrong = replace(RETAILER[4], value=Decimal("85000000"))
    got = standard_facts((*RETAILER[:4], wrong), [])
    assert "total_operating_expenses" not in {f.metric for f in got}


def test_a_fact_stored_positive_or_as_an_instant_still_names_its_row() -> None:
    tax = _row("Income tax expense", "-223237000", 10)  # printed "(223,237)"
    closing = _row("Cash, cash equivalents and restricted cash, end of period", "7558997000", 11)
    facts = [
        _fact("income_tax_expense", replace(tax, value=Decimal("223237000"))),
        replace(_fact("cash_and_restricted_cash_end", closing), period_start=None),
    ]
    assert [i.metric for i in line_items((tax, closing), facts)] == [
        "income_tax_expense",
        "cash_and_restricted_cash_end",
    ]
