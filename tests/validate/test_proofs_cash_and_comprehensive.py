"""Opening + change (+ exchange) = closing cash, and the comprehensive income identities
(domain/identities), on real documents through the production reading, then the same
statements altered: the figures they prove are published with the identity, a figure changed
by one digit holds the document naming the identity and its sums. The expected figures are
the printed ones (tests/golden/rows lists each statement's cells, checked against the rendered
pages); none is in the documents' hand keys. One class per document.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest

from domain.metrics import figure_period, metrics
from domain.records import Extraction, Fact, StoredFile
from tasks.extract import extract_document
from tasks.parsers.statements.proving import prove_document
from tests.validate.test_proofs import FIXTURES, THOUSAND, failing, published, read, reread

OPENING = "opening_cash_plus_change_and_exchange_is_closing"
OPENING_US = "opening_cash_plus_change_is_closing"
SHARES = "comprehensive_income_attributable_plus_noncontrolling"


def proved(extraction: Extraction, metric: str, end: str) -> tuple[Decimal, str]:
    (fact,) = published(extraction, metric, end)
    return fact.value / THOUSAND, fact.proved_by


def altered(extraction: Extraction, label: str, year: int, value: Decimal) -> Extraction:
    """The statements with one printed figure (``label``, column ending in ``year``) changed."""
    rows = tuple(
        replace(r, value=value) if r.row_label == label and r.period_end.year == year else r
        for r in extraction.rows
    )
    return reread(extraction, rows)


def _reasons(extraction: Extraction) -> dict[str, tuple[Decimal, Decimal]]:
    return {r.period: (r.lhs, r.rhs) for r in failing(extraction)}


class TestFullshareInterimReport2022English:
    """Its cash flow statement (RMB'000) prints the exchange effect after the change; its
    statement of profit or loss and other comprehensive income the owners' and non-controlling
    interests' shares of the total."""

    @pytest.fixture(scope="class")
    def extraction(self) -> Extraction:
        return read(FIXTURES / "real" / "HK00607_2022H1_interim-report_en.pdf", "FSH")

    def test_opening_change_and_exchange_make_the_closing_cash(
        self, extraction: Extraction
    ) -> None:
        assert failing(extraction) == []
        how = f"identity: {OPENING}"
        # 3,473,102 + 2,067,477 + 38,585 = 5,579,164; the opening is of 31 December 2021
        assert proved(extraction, "cash_and_restricted_cash_begin", "2021-12-31") == (
            3_473_102,
            how,
        )
        assert proved(extraction, "effect_of_exchange_rate_changes", "2022-06-30") == (38_585, how)
        assert proved(extraction, "cash_and_restricted_cash_begin", "2020-12-31") == (
            2_490_570,
            how,
        )
        (closing,) = published(extraction, "cash_and_restricted_cash_end", "2022-06-30")
        assert (closing.value, closing.period_start) == (5_579_164 * THOUSAND, None)

    def test_comprehensive_income_and_its_shares(self, extraction: Extraction) -> None:
        how = f"identity: {SHARES}"
        end = "2022-06-30"
        assert proved(extraction, "total_comprehensive_income", end) == (102_387, how)
        assert proved(extraction, "total_comprehensive_income_attributable_to_company", end) == (
            -66_270,
            how,
        )
        assert proved(
            extraction, "total_comprehensive_income_attributable_to_noncontrolling", end
        ) == (168_657, how)
        # 206,096 - 103,709 = 102,387
        assert proved(extraction, "other_comprehensive_income", end) == (
            -103_709,
            "identity: profit_plus_other_comprehensive_income",
        )

    def test_an_opening_balance_changed_by_one_digit_is_held(self, extraction: Extraction) -> None:
        label = "Cash and cash equivalents at the beginning of the period"
        wrong = altered(extraction, label, 2022, Decimal("3473112000"))
        group = "cash flow 2022-01-01..2022-06-30 CNY"
        assert _reasons(wrong) == {
            f"{group}: {OPENING}": (Decimal("5579174000"), Decimal("5579164000")),
            f"{group}: {OPENING_US}": (Decimal("5540589000"), Decimal("5579164000")),
        }
        assert not published(wrong, "cash_and_restricted_cash_begin", "2021-12-31")
        assert not published(wrong, "cash_and_restricted_cash_end", "2022-06-30")


class TestFullshareInterimReport2022Chinese:
    """中期簡明綜合現金流量表 and 損益及其他全面收益表, the same figures as the English edition."""

    @pytest.fixture(scope="class")
    def extraction(self) -> Extraction:
        return read(FIXTURES / "real" / "HK00607_2022H1_interim-report_zh.pdf", "FSH")

    def test_published_proved(self, extraction: Extraction) -> None:
        assert failing(extraction) == []
        assert proved(extraction, "cash_and_restricted_cash_begin", "2021-12-31") == (
            3_473_102,
            f"identity: {OPENING}",
        )
        assert proved(extraction, "total_comprehensive_income", "2022-06-30") == (
            102_387,
            f"identity: {SHARES}",
        )

    def test_an_owners_share_changed_by_one_digit_is_held(self, extraction: Extraction) -> None:
        label = "以下應佔期內全面收益╱（虧損）總額：–本公司權益股東"
        wrong = altered(extraction, label, 2022, Decimal("-66370000"))
        assert _reasons(wrong) == {
            f"income statement 2022-01-01..2022-06-30 CNY: {SHARES}": (
                Decimal("102287000"),
                Decimal("102387000"),
            )
        }
        company = "total_comprehensive_income_attributable_to_company"
        assert not published(wrong, company, "2022-06-30")
        assert published(wrong, company, "2021-06-30")  # the other period still proved


class TestAnxinChinaInterimResults2013English:
    """Cash flow statement: 'CASH AND CASH EQUIVALENTS AT 1 JANUARY' / 'AT 30 JUNE', the
    exchange effect after the change; a non-controlling interests' share printed '–'."""

    @pytest.fixture(scope="class")
    def extraction(self) -> Extraction:
        return read(FIXTURES / "real" / "HK01149_2013H1_interim-results_en.pdf", "AXC")

    def test_published_proved(self, extraction: Extraction) -> None:
        assert failing(extraction) == []
        # 1,580,697 + 357,030 + 26,668 = 1,964,395 (HK$'000)
        assert proved(extraction, "cash_and_restricted_cash_begin", "2012-12-31") == (
            1_580_697,
            f"identity: {OPENING}",
        )
        assert proved(extraction, "cash_and_restricted_cash_end", "2012-06-30") == (
            1_141_505,
            f"identity: {OPENING}",
        )
        nci = "total_comprehensive_income_attributable_to_noncontrolling"
        assert proved(extraction, nci, "2013-06-30") == (0, f"identity: {SHARES}")
        assert proved(extraction, nci, "2012-06-30") == (-49, f"identity: {SHARES}")

    def test_a_closing_balance_changed_by_one_digit_is_held(self, extraction: Extraction) -> None:
        wrong = altered(extraction, "CASH AND CASH EQUIVALENTS AT 30 JUNE", 2012,
                        Decimal("1141605000"))  # fmt: skip
        reasons = _reasons(wrong)
        assert reasons[f"cash flow 2012-01-01..2012-06-30 HKD: {OPENING}"] == (
            Decimal("1141505000"),
            Decimal("1141605000"),
        )
        assert not published(wrong, "cash_and_restricted_cash_end", "2012-06-30")


class TestAnxinChinaInterimResults2013Chinese:
    """於一月一日之現金及現金等值 / 於六月三十日之現金及現金等值; 本期間綜合收入總額."""

    @pytest.fixture(scope="class")
    def extraction(self) -> Extraction:
        return read(FIXTURES / "real" / "HK01149_2013H1_interim-results_zh.pdf", "AXC")

    def test_published_proved(self, extraction: Extraction) -> None:
        assert failing(extraction) == []
        assert proved(extraction, "cash_and_restricted_cash_begin", "2012-12-31") == (
            1_580_697,
            f"identity: {OPENING}",
        )
        assert proved(extraction, "total_comprehensive_income", "2013-06-30") == (
            481_854,
            f"identity: {SHARES}",
        )


class TestErnestBorelAnnualResults2014English:
    """No cash flow statement; no profit line but the owners' (no non-controlling interests):
    the owners' profit + other comprehensive income = total comprehensive income."""

    @pytest.fixture(scope="class")
    def extraction(self) -> Extraction:
        return read(FIXTURES / "real" / "HK01856_2014FY_annual-results_en.pdf", "EBH")

    def test_published_proved(self, extraction: Extraction) -> None:
        assert failing(extraction) == []
        how = "identity: owners_profit_plus_other_comprehensive_income"
        # 58,811 - 20,217 = 38,594 (HK$'000)
        assert proved(extraction, "total_comprehensive_income", "2014-12-31") == (38_594, how)
        assert proved(extraction, "other_comprehensive_income", "2013-12-31") == (8_005, how)
        assert not [f for f in extraction.facts if f.metric.startswith("cash_and_restricted")]

    def test_an_other_comprehensive_income_changed_by_one_digit_is_held(
        self, extraction: Extraction
    ) -> None:
        label = "Other comprehensive (expense) income for the year"
        wrong = altered(extraction, label, 2014, Decimal("-20317000"))
        group = "income statement 2014-01-01..2014-12-31 HKD"
        key = f"{group}: owners_profit_plus_other_comprehensive_income"
        assert _reasons(wrong) == {key: (Decimal("38494000"), Decimal("38594000"))}
        assert not published(wrong, "total_comprehensive_income", "2014-12-31")


class TestErnestBorelAnnualResults2014Chinese:
    """年內其他全面（開支）收益 and 年內總全面收益, under 本公司擁有人應佔年度溢利."""

    @pytest.fixture(scope="class")
    def extraction(self) -> Extraction:
        return read(FIXTURES / "real" / "HK01856_2014FY_annual-results_zh.pdf", "EBH")

    def test_published_proved(self, extraction: Extraction) -> None:
        assert failing(extraction) == []
        how = "identity: owners_profit_plus_other_comprehensive_income"
        assert proved(extraction, "other_comprehensive_income", "2014-12-31") == (-20_217, how)
        assert proved(extraction, "total_comprehensive_income", "2013-12-31") == (101_026, how)


class TestErnestBorelInterimResults2014English:
    """Profit for the period + other comprehensive expense = total comprehensive income."""

    @pytest.fixture(scope="class")
    def extraction(self) -> Extraction:
        return read(FIXTURES / "real" / "HK01856_2014H1_interim-results_en.pdf", "EBH")

    def test_published_proved(self, extraction: Extraction) -> None:
        assert failing(extraction) == []
        how = "identity: profit_plus_other_comprehensive_income"
        assert proved(extraction, "total_comprehensive_income", "2014-06-30") == (12_759, how)
        assert proved(extraction, "other_comprehensive_income", "2014-06-30") == (-748, how)


class TestQfinQ4_2023Release:
    """A U.S. GAAP cash flow statement: the exchange effect printed before the change, inside
    it; the three months' opening balance is of 30 September."""

    @pytest.fixture(scope="class")
    def extraction(self) -> Extraction:
        path = FIXTURES / "seeds" / "sec_0001741530_2024-03-12_6k_q4-2023.txt"
        content = path.read_bytes()
        stored = StoredFile(path.name, "", "", len(content), "txt")
        return extract_document(path.name, [(stored, content)], "QFIN")

    def test_the_opening_balance_plus_the_change_is_the_closing_one(
        self, extraction: Extraction
    ) -> None:
        assert failing(extraction) == []
        how = f"identity: {OPENING_US}"
        # 8,005,398 - 446,401 = 7,558,997 (RMB'000), three months; 10,512,363 - 2,953,366, year
        assert proved(extraction, "cash_and_restricted_cash_begin", "2023-09-30") == (
            8_005_398,
            how,
        )
        assert proved(extraction, "cash_and_restricted_cash_begin", "2022-12-31") == (
            10_512_363,
            how,
        )

    def test_a_changed_opening_balance_is_held(self, extraction: Extraction) -> None:
        facts = [_bumped(f) for f in extraction.facts]
        wrong = reread_facts(extraction, facts)
        group = "cash flow 2023-10-01..2023-12-31 CNY"
        assert f"{group}: {OPENING_US}" in _reasons(wrong)


def _bumped(fact: Fact) -> Fact:
    """The Q4 2023 opening balance a digit off (8,005,398 -> 8,005,498 thousand)."""
    if fact.metric == "cash_and_restricted_cash_begin" and fact.period_end.isoformat() == (
        "2023-09-30"
    ):
        return replace(fact, value=fact.value + 100 * THOUSAND)
    return fact


def reread_facts(extraction: Extraction, facts: list[Fact]) -> Extraction:
    proven, _ = prove_document(facts, extraction.rows)
    return replace(extraction, facts=proven.facts, verdicts=proven.verdicts)


def test_an_opening_balance_is_of_the_day_before_its_column_starts() -> None:
    opening, closing = (metrics()[m] for m in ("cash_and_restricted_cash_begin",
                                               "cash_and_restricted_cash_end"))  # fmt: skip
    half = (date(2022, 1, 1), date(2022, 6, 30))
    assert figure_period(opening, *half) == (None, date(2021, 12, 31))
    assert figure_period(closing, *half) == (None, date(2022, 6, 30))
    assert figure_period(opening, None, date(2022, 6, 30)) is None  # no start printed
