"""Hand-built facts from QFIN's Q4 2024 results (hkex_03660_2025-03-17_q4-2024-results.txt)."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

from domain.records import Fact, Provenance

DOC = "hkex_03660_2025-03-17_q4-2024-results.txt"
DEC23, DEC24 = date(2023, 12, 31), date(2024, 12, 31)
Q4_23 = (date(2023, 10, 1), DEC23)
Q4_24 = (date(2024, 10, 1), DEC24)
FY_23 = (date(2023, 1, 1), DEC23)
FY_24 = (date(2024, 1, 1), DEC24)

# Balance sheet, RMB thousands: (metric, December 31 2023, December 31 2024).
BALANCE_SHEET = [
    ("total_current_assets", "39,796,028", "42,780,568"),
    ("total_non_current_assets", "6,022,544", "5,352,050"),
    ("total_assets", "45,818,572", "48,132,618"),
    ("total_current_liabilities", "19,899,619", "17,472,209"),
    ("total_non_current_liabilities", "3,909,096", "6,414,190"),
    ("total_liabilities", "23,808,715", "23,886,399"),
    ("total_company_equity", "21,937,483", "24,190,043"),
    ("noncontrolling_interests", "72,374", "56,176"),
    ("total_equity", "22,009,857", "24,246,219"),
    ("total_liabilities_and_equity", "45,818,572", "48,132,618"),
]
# Statement of operations, RMB thousands: Q4 2023, Q4 2024, FY 2023, FY 2024.
REVENUE = [
    ("credit_driven_services_revenue", "3,248,263", "2,889,500", "11,738,560", "11,719,027"),
    ("loan_facilitation_fees_capital_heavy", "481,195", "362,958", "1,667,119", "1,016,514"),
    ("financing_income", "1,485,446", "1,667,340", "5,109,921", "6,636,511"),
    ("guarantee_release_revenue", "1,211,787", "761,827", "4,745,898", "3,695,017"),
    ("other_services_fees_credit_driven", "69,835", "97,375", "215,622", "370,985"),
    ("platform_services_revenue", "1,247,240", "1,592,752", "4,551,467", "5,446,629"),
    ("loan_facilitation_fees_capital_light", "696,985", "515,062", "3,213,955", "2,116,797"),
    ("referral_services_fees", "446,486", "907,207", "950,016", "2,842,637"),
    ("other_services_fees_platform", "103,769", "170,483", "387,496", "487,195"),
    ("total_net_revenue", "4,495,503", "4,482,252", "16,290,027", "17,165,656"),
]


def fact(
    metric: str,
    printed: str,
    period: tuple[date | None, date],
    *,
    unit: str = "CNY",
    scale: int = 3,
    decimals: int = -3,
    origin: str = "table",
) -> Fact:
    """A fact as the extractor would emit it from a printed cell."""
    value = Decimal(printed.replace(",", "")) * Decimal(10) ** scale
    prov = Provenance(DOC, "table", metric, str(period[1]), printed)
    return Fact(metric, period[0], period[1], value, unit, scale, decimals, prov, origin=origin)


def q4_2024_facts() -> list[Fact]:
    """Balance sheet (2 instants) and revenue breakdown (4 periods) of the Q4 2024 results."""
    facts = []
    for metric, v23, v24 in BALANCE_SHEET:
        facts += [fact(metric, v23, (None, DEC23)), fact(metric, v24, (None, DEC24))]
    for metric, *values in REVENUE:
        for printed, period in zip(values, (Q4_23, Q4_24, FY_23, FY_24), strict=True):
            facts.append(fact(metric, printed, period))
    return facts


def altered(
    facts: list[Fact], metric: str, period_end: date, delta: int, period_start: date | None = None
) -> list[Fact]:
    """The same facts with one figure moved by ``delta`` whole units."""
    hits = [f for f in facts if f.key == (metric, period_start, period_end, "us_gaap")]
    assert len(hits) == 1, (metric, period_end)
    return [replace(f, value=f.value + delta) if f is hits[0] else f for f in facts]
