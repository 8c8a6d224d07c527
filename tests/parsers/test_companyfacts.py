"""The company facts parser on a real SEC body: Logistic Properties of the Americas (LPA, CIK
1997711), a 20-F filer reporting in IFRS (tests/fixtures/reference/sec). Expected values are
read by hand from the JSON."""

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from domain.enums import Basis, Origin
from domain.errors import ParseError
from domain.xbrlrecords import AuditedFiling
from tasks.parsers.forms.companyfacts import (
    concept_map,
    newest_filed,
    parse_company_facts,
    reporting_currency,
)

REF = Path(__file__).resolve().parents[1] / "fixtures" / "reference" / "sec"
LPA = REF / "sec_companyfacts_CIK0001997711_lpa_20f_ifrs.json"
FY2023_20F, FY2024_20F = "0001493152-24-016772", "0001997711-25-000030"


def _value(filing: AuditedFiling, metric: str, start: date | None, end: date) -> Decimal:
    (found,) = [
        f.value
        for f in filing.facts
        if (f.metric, f.period_start, f.period_end) == (metric, start, end)
    ]
    return found


class TestLpaCompanyFacts:
    """LPA's two 20-Fs (FY2023 filed 2024-04-26, FY2024 filed 2025-04-02)."""

    @pytest.fixture(scope="class")
    def filings(self) -> dict[str, AuditedFiling]:
        return {f.accession: f for f in parse_company_facts(LPA.read_bytes(), LPA.name)}

    def test_one_record_per_filing_with_mapped_figures(self, filings):
        # the 20-F/A (0001641172-25-002932) carries only a dei cover fact: nothing mapped
        assert list(filings) == [FY2023_20F, FY2024_20F]
        assert [(f.form, f.filed) for f in filings.values()] == [
            ("20-F", date(2024, 4, 26)),
            ("20-F", date(2025, 4, 2)),
        ]

    def test_ifrs_full_figures_map_to_metrics(self, filings):
        fy23 = filings[FY2023_20F]
        year = (date(2023, 1, 1), date(2023, 12, 31))
        assert _value(fy23, "total_net_revenue", *year) == Decimal("39436343")
        assert _value(fy23, "net_income", *year) == Decimal("7156005")
        assert _value(fy23, "net_income_attributable_to_company", *year) == Decimal("3139333")
        assert _value(fy23, "income_tax_expense", *year) == Decimal("4980622")
        assert _value(fy23, "total_assets", None, date(2023, 12, 31)) == Decimal("590825310")

    def test_a_loss_keeps_its_sign(self, filings):
        fy24 = filings[FY2024_20F]
        year = (date(2024, 1, 1), date(2024, 12, 31))
        assert _value(fy24, "net_income_attributable_to_company", *year) == Decimal("-29285428")
        assert _value(fy24, "eps_basic_per_share", *year) == Decimal("-0.94")

    def test_each_filing_keeps_its_own_comparative(self, filings):
        # FY2022 basic EPS: 0.048 in the FY2023 20-F, 0.28 in the FY2024 one (restated)
        year = (date(2022, 1, 1), date(2022, 12, 31))
        assert _value(filings[FY2023_20F], "eps_basic_per_share", *year) == Decimal("0.048")
        assert _value(filings[FY2024_20F], "eps_basic_per_share", *year) == Decimal("0.28")

    def test_provenance_units_basis_and_origin(self, filings):
        fact = next(f for f in filings[FY2024_20F].facts if f.metric == "eps_diluted_per_share")
        assert (fact.unit, fact.basis, fact.origin) == ("USD/share", Basis.IFRS, Origin.XBRL)
        assert fact.provenance.locator == "ifrs-full:DilutedEarningsLossPerShare"
        assert fact.provenance.document == LPA.name
        assert FY2024_20F in fact.provenance.column and "filed 2025-04-02" in fact.provenance.column
        assert fact.decimals == 2  # as filed: -0.94, 0.11, 0.28
        revenue = next(f for f in filings[FY2024_20F].facts if f.metric == "total_net_revenue")
        assert revenue.decimals == 0  # whole dollars, taken as exact

    def test_other_currencies_are_left_out(self, filings):
        # ProceedsFromSalesOfInvestmentProperty has COP figures; nothing unmapped or in COP
        units = {f.unit for filing in filings.values() for f in filing.facts}
        assert units == {"USD", "USD/share"}

    def test_cash_generated_from_operations_is_not_operating_cash_flow(self, filings):
        # ifrs-full:CashFlowsFromUsedInOperations is before interest and tax paid
        metrics = {f.metric for filing in filings.values() for f in filing.facts}
        assert "net_cash_operating" not in metrics
        assert len(filings[FY2023_20F].facts) == 40 and len(filings[FY2024_20F].facts) == 41

    def test_reporting_currency_is_the_most_used(self):
        import json

        concepts = json.loads(LPA.read_bytes())["facts"]["ifrs-full"]
        assert reporting_currency(concepts) == "USD"


def test_every_mapped_metric_is_in_metrics_csv():
    from domain.metrics import metrics

    assert {c.metric for c in concept_map().values()} <= set(metrics())


def test_convenience_translation_in_usd_is_not_a_second_figure():
    body = b"""{"cik": 1, "entityName": "X", "facts": {"us-gaap": {"NetIncomeLoss": {"units": {
      "CNY": [{"start": "2023-01-01", "end": "2023-12-31", "val": 4275123000, "accn": "a-1",
               "fy": 2023, "fp": "FY", "form": "20-F", "filed": "2024-04-26"},
              {"start": "2022-01-01", "end": "2022-12-31", "val": 3900000000, "accn": "a-1",
               "fy": 2023, "fp": "FY", "form": "20-F", "filed": "2024-04-26"}],
      "USD": [{"start": "2023-01-01", "end": "2023-12-31", "val": 602138000, "accn": "a-1",
               "fy": 2023, "fp": "FY", "form": "20-F", "filed": "2024-04-26"}]}}}}}"""
    (filing,) = parse_company_facts(body)
    assert [(f.value, f.unit) for f in filing.facts] == [
        (Decimal("3900000000"), "CNY"),
        (Decimal("4275123000"), "CNY"),
    ]


def test_a_body_without_facts_is_a_parse_error():
    with pytest.raises(ParseError, match="lack the 'facts'"):
        parse_company_facts(b'{"cik": 1}')
    with pytest.raises(ParseError, match="not valid JSON"):
        parse_company_facts(b"<html>")


def test_newest_filing_date_counts_cover_facts():
    # LPA's 20-F/A of 2025-04-07 holds only a dei cover fact: still the newest filing
    assert newest_filed(LPA.read_bytes()) == date(2025, 4, 7)
