"""Narrative, outlook and dividend readers on short passages written like the releases."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from domain.precision import rounded
from tasks.parsers.prose.dividends import extract_dividends
from tasks.parsers.prose.narrative import extract_narrative
from tasks.parsers.prose.outlook import extract_guidance
from tasks.parsers.statements.catalog import LabelCatalog
from tasks.parsers.statements.checks import reconcile

Q4 = "Fourth Quarter 2024 Financial Results\n"
Q4_24 = (date(2024, 10, 1), date(2024, 12, 31))


def _values(text: str, catalog: LabelCatalog) -> dict[tuple[str, date | None, date], Decimal]:
    result = extract_narrative(text, catalog, "doc")
    return {(f.metric, f.period_start, f.period_end): f.value for f in result.facts}


class TestNarrative:
    def test_comparatives_get_their_own_periods(self, catalog: LabelCatalog) -> None:
        text = Q4 + (
            "Total net revenue was RMB4,482.3 million (US$614.1 million), compared to "
            "RMB4,495.5 million in the same period of 2023, and RMB4,370.2 million in the "
            "prior quarter."
        )
        assert _values(text, catalog) == {
            ("total_net_revenue", *Q4_24): Decimal("4482300000"),
            ("total_net_revenue", date(2023, 10, 1), date(2023, 12, 31)): Decimal("4495500000"),
            ("total_net_revenue", date(2024, 7, 1), date(2024, 9, 30)): Decimal("4370200000"),
        }

    def test_precision_of_a_rounded_figure(self, catalog: LabelCatalog) -> None:
        fact = extract_narrative(Q4 + "Net income was RMB1,912.7 million.", catalog, "d").facts[0]
        assert (fact.scale, fact.decimals, fact.origin) == (6, -5, "narrative")

    def test_damaged_figure_is_refused_and_reported(self, catalog: LabelCatalog) -> None:
        text = Q4 + "Funding costs were RMB71.860 million, compared to RMB1.5 million in 2023."
        result = extract_narrative(text, catalog, "doc")
        assert all(f.provenance.raw_text != "RMB71.860 million" for f in result.facts)
        assert not any(
            f.value in (Decimal("71860000"), Decimal("71860000000")) for f in result.facts
        )
        assert [u.reason[:14] for u in result.refused] == ["damaged figure"]

    def test_glued_footnote_does_not_turn_non_gaap_into_gaap(self, catalog: LabelCatalog) -> None:
        text = Q4 + "- Non-GAAP9 net income was RMB1,972.4 million (US$270.2 million)."
        assert list(_values(text, catalog)) == [("non_gaap_net_income", *Q4_24)]

    def test_billion_summaries_are_not_values(self, catalog: LabelCatalog) -> None:
        text = Q4 + "“Total net revenue was RMB4.50 billion for the quarter,” he said."
        assert _values(text, catalog) == {}

    def test_clause_takes_the_period_stated_earlier_in_its_sentence(
        self, catalog: LabelCatalog
    ) -> None:
        text = "Full Year 2024 Financial Highlights\nDay-1 delinquency rate was 4.8% in the "
        text += "fourth quarter, and 30-day collection rate was 88.1%."
        assert _values(text, catalog)[("collection_rate_30d", *Q4_24)] == Decimal("88.1")

    def test_other_services_fees_by_context(self, catalog: LabelCatalog) -> None:
        text = Q4 + (
            "Net revenue from Platform Services was RMB1,592.8 million. "
            "Other services fees were RMB170.5 million."
        )
        assert ("other_services_fees_platform", *Q4_24) in _values(text, catalog)

    def test_text_outside_results_sections_is_not_read(self, catalog: LabelCatalog) -> None:
        assert _values("Total net revenue was RMB4,482.3 million.", catalog) == {}


class TestReconcile:
    def test_rounded_half_up(self) -> None:
        assert rounded(Decimal("4482250000"), -5) == Decimal("4482300000")

    def test_agreeing_narrative_is_not_stored_twice(self, catalog: LabelCatalog) -> None:
        text = Q4 + "Net income was RMB1,912.7 million."
        narrative = list(extract_narrative(text, catalog, "d").facts)
        table = [narrative[0].__class__(**{**_fields(narrative[0]), "value": Decimal("1912667000"),
                                           "origin": "table", "decimals": -3})]  # fmt: skip
        facts, warnings = reconcile(table, narrative, "d")
        assert (len(facts), warnings) == (1, [])

    def test_disagreeing_narrative_is_a_warning(self, catalog: LabelCatalog) -> None:
        narrative = list(
            extract_narrative(Q4 + "Net income was RMB1,999.9 million.", catalog, "d").facts
        )
        table = [narrative[0].__class__(**{**_fields(narrative[0]), "value": Decimal("1912667000"),
                                           "origin": "table", "decimals": -3})]  # fmt: skip
        facts, warnings = reconcile(table, narrative, "d")
        assert [f.value for f in facts] == [Decimal("1912667000")] and len(warnings) == 1


def _fields(fact: object) -> dict[str, object]:
    return {name: getattr(fact, name) for name in fact.__slots__}  # type: ignore[attr-defined]


class TestOutlook:
    def test_range_and_growth(self, catalog: LabelCatalog) -> None:
        text = (
            "Shanghai, China, March 16, 2025, Qifu. Business Outlook As such, for the first "
            "quarter of 2025, the Company expects to generate a net income between RMB1.75 "
            "billion and RMB1.85 billion and a non-GAAP net income between RMB1.80 billion and "
            "RMB1.90 billion, representing a year-on-year growth between 49% and 58%."
        )
        first, second = extract_guidance(text, catalog, "d").guidance
        assert (first.metric, first.low, first.high, first.growth_low_pct) == (
            "net_income",
            Decimal("1750000000"),
            Decimal("1850000000"),
            None,
        )
        assert (second.growth_low_pct, second.growth_high_pct) == (Decimal(49), Decimal(58))
        assert (first.period_start, first.period_end, first.issued_on) == (
            date(2025, 1, 1),
            date(2025, 3, 31),
            date(2025, 3, 16),
        )

    def test_guidance_on_the_call(self, catalog: LabelCatalog) -> None:
        text = (
            "Shanghai, China, March 12, 2024, Qifu. Fourth Quarter 2023 Financial Results x. "
            "Business Outlook The Company will provide forward-looking guidance in connection "
            "with this quarterly earnings announcement on its earnings conference call."
        )
        (record,) = extract_guidance(text, catalog, "d").guidance
        assert (record.numeric, record.low, record.period_start) == (False, None, date(2024, 1, 1))

    def test_no_date_no_guidance(self, catalog: LabelCatalog) -> None:
        text = "Business Outlook for the first quarter of 2025, a net income between RMB1 billion"
        text += " and RMB2 billion."
        result = extract_guidance(text, catalog, "d")
        assert result.guidance == () and len(result.warnings) == 1


class TestDividends:
    def test_form_with_label_and_value_on_separate_lines(self) -> None:
        text = "\n".join([
            "Cash Dividend Announcement for Equity Issuer",
            "Dividend declared", "USD 0.29 per share",
            "Reporting period end for the dividend declared", "31 December 2023",
            "Dividend type", "Interim (Semi-annual)",
            "Ex-dividend date", "12 April 2024", "Record date", "15 April 2024",
            "Payment date", "21 May 2024",
        ])  # fmt: skip
        (d,) = extract_dividends(text, "form.pdf")
        assert (d.per_share, d.per_ads, d.period_start, d.ex_date, d.payment_date) == (
            Decimal("0.29"),
            None,
            date(2023, 7, 1),
            date(2024, 4, 12),
            date(2024, 5, 21),
        )
