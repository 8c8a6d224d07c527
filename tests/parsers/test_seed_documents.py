"""Statement facts from the four seeds and the HTML/PDF renderings of the same disclosures.

One class per document, one fact per test.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from domain.enums import DocKind
from tests.parsers.conftest import (
    DIVIDEND_PDF,
    DIVIDEND_TEXT,
    Q2_2024_COVER_HTML,
    Q2_2024_HTML,
    Q2_2024_IFRS_HTML,
    Q2_2024_TEXT,
    Q4_2023_HTML,
    Q4_2023_TEXT,
    Q4_2024_PDF,
    Q4_2024_TEXT,
    extraction,
    fact,
)

Q2 = (date(2024, 4, 1), date(2024, 6, 30))
H1 = (date(2024, 1, 1), date(2024, 6, 30))
Q4_24 = (date(2024, 10, 1), date(2024, 12, 31))
FY_24 = (date(2024, 1, 1), date(2024, 12, 31))


class TestQ4_2023Text:
    path = Q4_2023_TEXT

    def test_total_equity_at_year_end(self) -> None:
        assert fact(self.path, "total_equity", date(2023, 12, 31)).value == Decimal("22009857000")

    def test_other_services_fees_credit_driven(self) -> None:
        f = fact(
            self.path, "other_services_fees_credit_driven", date(2023, 12, 31), date(2023, 10, 1)
        )
        assert f.value == Decimal("69835000")

    def test_other_services_fees_platform(self) -> None:
        f = fact(self.path, "other_services_fees_platform", date(2023, 12, 31), date(2023, 10, 1))
        assert f.value == Decimal("103769000")

    def test_investment_loss_dash_is_not_a_fact_row(self) -> None:
        # "Investment loss  -  -" is known-ignored: listed neither as fact nor as unmapped.
        assert not any(u.row_label == "Investment loss" for u in extraction(self.path).unmapped)

    def test_eps_per_ads_not_scaled(self) -> None:
        f = fact(self.path, "eps_diluted_per_ads", date(2023, 12, 31), date(2023, 10, 1))
        assert (f.value, f.unit, f.scale, f.decimals) == (Decimal("6.88"), "CNY/ADS", 0, 2)

    def test_weighted_shares_are_plain_counts(self) -> None:
        f = fact(self.path, "weighted_avg_shares_basic", date(2023, 12, 31), date(2023, 1, 1))
        assert (f.value, f.unit) == (Decimal("320749805"), "shares")

    def test_negative_cash_flow_in_parentheses(self) -> None:
        f = fact(self.path, "net_cash_investing", date(2023, 12, 31), date(2023, 1, 1))
        assert f.value == Decimal("-11147789000")

    def test_margin_is_percent(self) -> None:
        f = fact(self.path, "non_gaap_operating_margin", date(2023, 12, 31), date(2023, 10, 1))
        assert (f.value, f.unit) == (Decimal("29.4"), "percent")

    def test_usd_rate(self) -> None:
        assert extraction(self.path).usd_rate == Decimal("7.0999")

    def test_kind_is_annual_results(self) -> None:
        assert extraction(self.path).kind is DocKind.RESULTS_ANNUAL

    def test_provenance_points_at_the_cell(self) -> None:
        p = fact(self.path, "total_equity", date(2023, 12, 31)).provenance
        assert (p.locator, p.row_label, p.raw_text) == ("table 1", "TOTAL EQUITY", "22,009,857")


class TestQ2_2024Text:
    path = Q2_2024_TEXT

    def test_total_net_revenue_quarter(self) -> None:
        assert fact(self.path, "total_net_revenue", Q2[1], Q2[0]).value == Decimal("4160063000")

    def test_six_months_from_garbled_header(self) -> None:
        # header printed "Six m | Six months ended June": period still Jan-Jun
        assert fact(self.path, "total_net_revenue", H1[1], H1[0]).value == Decimal("8313246000")

    def test_merged_equity_row_gives_no_fact(self) -> None:
        assert not any(
            f.metric in ("total_equity", "noncontrolling_interests")
            and f.period_end == Q2[1]
            and f.basis == "us_gaap"
            for f in extraction(self.path).facts
        )

    def test_merged_equity_row_is_listed_refused(self) -> None:
        # its cells hold two figures each ("72,374 22,009,857"): the row reading refuses them
        refused = {
            r.reason.split(" [")[0]
            for r in extraction(self.path).refused
            if r.row_label == "Noncontrolling interests TOTAL EQUITY"
        }
        assert refused == {"damaged cell '72,374 22,009,857'", "damaged cell '64,211 22,632,979'"}

    def test_wrapped_label_joined(self) -> None:
        f = fact(self.path, "net_income_attributable_to_company", Q2[1], Q2[0])
        assert f.value == Decimal("1380528000")

    def test_reversal_keeps_its_sign(self) -> None:
        f = fact(self.path, "provision_contingent_liabilities", Q2[1], Q2[0])
        assert f.value == Decimal("-213267000")

    def test_ifrs_fact_from_reconciliation(self) -> None:
        f = fact(self.path, "total_assets", Q2[1], None, "ifrs")
        assert f.value == Decimal("45296102000")

    def test_ifrs_without_period_title_gives_no_fact(self) -> None:
        # the first IFRS operations table lost its "Six months ended June 30, 2023" title
        assert not any(
            f.basis == "ifrs" and f.period_end == date(2023, 6, 30)
            for f in extraction(self.path).facts
        )

    def test_unlabelled_damaged_rows_warned(self) -> None:
        assert any("without a readable row label" in w for w in extraction(self.path).warnings)


class TestQ2_2024Html:
    path = Q2_2024_HTML

    def test_total_net_revenue_quarter(self) -> None:
        assert fact(self.path, "total_net_revenue", Q2[1], Q2[0]).value == Decimal("4160063000")

    def test_total_equity_at_june_30(self) -> None:
        assert fact(self.path, "total_equity", Q2[1]).value == Decimal("22632979000")

    def test_income_tax_expense_positive(self) -> None:
        assert fact(self.path, "income_tax_expense", Q2[1], Q2[0]).value == Decimal("700055000")

    def test_usd_column_never_a_fact(self) -> None:
        # 572,443 is the USD convenience figure of total net revenue
        assert all(f.provenance.raw_text != "572,443" for f in extraction(self.path).facts)

    def test_only_damaged_narrative_figures_unmapped(self) -> None:
        # every statement row maps; the two damaged narrative figures are refused and listed
        reasons = [u.reason for u in extraction(self.path).unmapped]
        assert len(reasons) == 2
        assert all(r.startswith("damaged figure") for r in reasons)

    def test_usd_rate(self) -> None:
        assert extraction(self.path).usd_rate == Decimal("7.2672")

    def test_kind_is_interim(self) -> None:
        assert extraction(self.path).kind is DocKind.RESULTS_INTERIM


class TestQ2_2024IfrsHtml:
    path = Q2_2024_IFRS_HTML

    def test_ifrs_net_income_six_months(self) -> None:
        f = fact(self.path, "net_income", H1[1], H1[0], "ifrs")
        assert f.value == Decimal("2014994000")

    def test_ifrs_income_tax_positive(self) -> None:
        f = fact(self.path, "income_tax_expense", H1[1], H1[0], "ifrs")
        assert f.value == Decimal("971975000")

    def test_only_ifrs_basis(self) -> None:
        assert {f.basis for f in extraction(self.path).facts} == {"ifrs"}


class TestQ4_2023Html:
    path = Q4_2023_HTML

    def test_total_equity_at_year_end(self) -> None:
        assert fact(self.path, "total_equity", date(2023, 12, 31)).value == Decimal("22009857000")

    def test_split_negative_cells(self) -> None:
        f = fact(self.path, "net_cash_financing", date(2023, 12, 31), date(2023, 10, 1))
        assert f.value == Decimal("-911621000")


class TestQ4_2024Text:
    path = Q4_2024_TEXT

    def test_total_assets(self) -> None:
        assert fact(self.path, "total_assets", date(2024, 12, 31)).value == Decimal("48132618000")

    def test_total_net_revenue_quarter(self) -> None:
        f = fact(self.path, "total_net_revenue", Q4_24[1], Q4_24[0])
        assert f.value == Decimal("4482252000")

    def test_income_tax_expense_positive(self) -> None:
        assert fact(self.path, "income_tax_expense", FY_24[1], FY_24[0]).value > 0


class TestQ4_2024Pdf:
    path = Q4_2024_PDF

    def test_total_assets(self) -> None:
        assert fact(self.path, "total_assets", date(2024, 12, 31)).value == Decimal("48132618000")

    def test_total_net_revenue_quarter(self) -> None:
        f = fact(self.path, "total_net_revenue", Q4_24[1], Q4_24[0])
        assert f.value == Decimal("4482252000")

    def test_income_tax_expense_positive(self) -> None:
        f = fact(self.path, "income_tax_expense", Q4_24[1], Q4_24[0])
        assert f.value == Decimal("20042000")

    def test_locator_names_the_page(self) -> None:
        p = fact(self.path, "total_assets", date(2024, 12, 31)).provenance
        assert p.locator.startswith("page ")

    def test_centred_reconciliation_columns(self) -> None:
        f = fact(self.path, "non_gaap_net_income", Q4_24[1], Q4_24[0])
        assert f.value == Decimal("1972387000")

    def test_kind_is_annual(self) -> None:
        assert extraction(self.path).kind is DocKind.RESULTS_ANNUAL

    def test_usd_rate(self) -> None:
        assert extraction(self.path).usd_rate == Decimal("7.2993")


class TestDividendForms:
    def test_text_form_kind(self) -> None:
        assert extraction(DIVIDEND_TEXT).kind is DocKind.DIVIDEND_FORM

    def test_pdf_form_kind(self) -> None:
        assert extraction(DIVIDEND_PDF).kind is DocKind.DIVIDEND_FORM

    def test_pdf_form_has_no_statement_facts(self) -> None:
        assert extraction(DIVIDEND_PDF).facts == ()


class TestCoverPage:
    def test_kind(self) -> None:
        assert extraction(Q2_2024_COVER_HTML).kind is DocKind.COVER_PAGE
