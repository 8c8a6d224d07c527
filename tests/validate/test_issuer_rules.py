"""Generic identities hold for every issuer; issuer-specific rules only where declared."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from domain.records import Fact, Provenance, ValidationResult
from tasks.extract import declared_rules
from tasks.validate import validate_facts

# A retailer's 13-week quarter in USD, whose statements book tax and net income like QFIN's
# do not (an equity-method line below tax breaks "pre-tax - tax = net income").
QUARTER = (date(2024, 8, 4), date(2024, 11, 2))
END = (None, date(2024, 11, 2))


def _fact(metric: str, value: str, period: tuple[date | None, date], unit: str = "USD") -> Fact:
    return Fact(
        metric=metric,
        period_start=period[0],
        period_end=period[1],
        value=Decimal(value),
        unit=unit,
        scale=3,
        decimals=-3 if unit == "USD" else 2,
        provenance=Provenance("ex99-1.htm", "table 1", metric, "Nov 2, 2024", value),
    )


RETAILER = [
    _fact("total_net_revenue", "293618000", QUARTER),
    _fact("income_before_income_tax", "58506000", QUARTER),
    _fact("income_tax_expense", "14334000", QUARTER),
    _fact("net_income", "46000000", QUARTER),  # + an equity-method share booked below tax
    _fact("eps_basic_per_share", "0.89", QUARTER, "USD/share"),
    _fact("total_assets", "1000000000", END),
    _fact("total_liabilities_and_equity", "1000000000", END),
]


def _names(results: list[ValidationResult]) -> dict[str, bool]:
    return {r.expectation: r.success for r in results}


def test_no_qfin_rule_is_applied_to_an_issuer_that_declares_none() -> None:
    results = _names(validate_facts("sec:bke", RETAILER, declared=declared_rules("BKE")))
    assert declared_rules("BKE") == frozenset()
    assert not {"pretax_less_tax_is_net_income", "periods_end_at_month_end",
                "eps_basic_per_ads_is_twice_per_share", "revenue_segments_sum_to_total",
                "results_hold_core_metrics"} & set(results)  # fmt: skip
    # Generic rules stay, and a USD statement's units are its metrics' units.
    assert results["balance_sheet_balances"] is True
    assert results["unit_matches_metric"] is True
    assert all(results.values()), [n for n, ok in results.items() if not ok]


def test_the_same_facts_fail_the_rules_qfin_declares() -> None:
    declared = declared_rules("QFIN")
    assert {"pretax_less_tax_is_net_income", "periods_end_at_month_end"} <= declared
    results = _names(validate_facts("sec:bke", RETAILER, declared=declared))
    assert results["pretax_less_tax_is_net_income"] is False
    assert results["periods_end_at_month_end"] is False


def test_a_generic_identity_still_quarantines_any_issuer() -> None:
    unbalanced = [*RETAILER[:-1], _fact("total_liabilities_and_equity", "999000000", END)]
    results = _names(validate_facts("sec:bke", unbalanced, declared=frozenset()))
    assert results["balance_sheet_balances"] is False
