"""Dividends declared in real announcements (tests/fixtures/real/: Ernest Borel's 2014 results,
English and Chinese; QFIN's are in the golden files), and in sentences as other issuers print
them: every declaration is one record, with its amount per share (Hong Kong cents as dollars),
its period and its payment date; a sentence declaring none gives none."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from tasks.extract import extract_file
from tasks.parsers.prose.dividends import extract_dividends

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"
FY2014 = (date(2014, 1, 1), date(2014, 12, 31))
H1_2024 = (date(2024, 1, 1), date(2024, 6, 30))


def _read(name: str) -> list[tuple[object, ...]]:
    found = extract_file(name, (REAL / name).read_bytes(), "EBORL").dividends
    return [
        (
            d.currency,
            d.per_share,
            d.per_ads,
            d.period_start,
            d.period_end,
            d.record_date,
            d.payment_date,
        )
        for d in found
    ]


class TestErnestBorelAnnualResults2014English:
    def test_the_final_dividend_of_hk8_cents_for_fy2014_paid_8_july_2015(self) -> None:
        # printed three times (highlights, note 6, "FINAL DIVIDEND"): one dividend. Its record
        # date is the register's closure "on Thursday, 18 June 2015" ("In order to determine
        # the Shareholders' entitlement to the proposed final dividend, ..."), not the one of
        # 11 and 12 June for the vote at the AGM.
        assert _read("HK01856_2014FY_annual-results_en.pdf") == [
            ("HKD", Decimal("0.08"), None, *FY2014, date(2015, 6, 18), date(2015, 7, 8))
        ]


class TestErnestBorelAnnualResults2014Chinese:
    def test_the_final_dividend_of_8_hk_cents_for_fy2014_paid_8_july_2015(self) -> None:
        # 本公司將於2015年6月18日（星期四）暫停辦理股份過戶登記手續 ...
        # 為釐定股東有權收取擬派末期股息
        assert _read("HK01856_2014FY_annual-results_zh.pdf") == [
            ("HKD", Decimal("0.08"), None, *FY2014, date(2015, 6, 18), date(2015, 7, 8))
        ]


class TestErnestBorelInterimResults2014English:
    def test_no_interim_dividend_is_declared(self) -> None:
        # "The Board has not recommended to declare any interim dividend ..."
        assert _read("HK01856_2014H1_interim-results_en.pdf") == []


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (
            "The Board has resolved to declare an interim dividend of HK$0.05 per share for "
            "the six months ended 30 June 2024 (2023: HK$0.04 per share). The interim dividend "
            "will be paid on or about Friday, 20 September 2024.",
            ("HKD", Decimal("0.05"), None, *H1_2024, None, date(2024, 9, 20)),
        ),
        (
            "The Board declared a quarterly cash dividend of $0.35 per share payable on "
            "January 26, 2024 to shareholders of record at the close of business on "
            "January 12, 2024.",
            ("USD", Decimal("0.35"), None, None, None, date(2024, 1, 12), date(2024, 1, 26)),
        ),
        (
            "The Board recommended the payment of a final dividend of RMB0.20 (2023: RMB0.15) "
            "per share for the year ended 31 December 2024. The record date for determining "
            "the entitlement to the final dividend is Tuesday, 10 June 2025.",
            (
                "CNY",
                Decimal("0.20"),
                None,
                date(2024, 1, 1),
                date(2024, 12, 31),
                date(2025, 6, 10),
                None,
            ),
        ),
        (
            "董事會議決宣派截至2024年6月30日止六個月的中期股息每股0.10港元（2023年：每股0.08港元）。"
            "中期股息預期將於2024年9月20日（星期五）派付。",
            ("HKD", Decimal("0.10"), None, *H1_2024, None, date(2024, 9, 20)),
        ),
        (
            "A special dividend of HK10 cents per share was approved by the Board.",
            ("HKD", Decimal("0.10"), None, None, None, None, None),
        ),
        (
            "The Board has recommended the payment of a final dividend of HKD4.50 per share "
            "(2023: HKD3.40 per share) for the year ended 31 December 2024.",
            ("HKD", Decimal("4.50"), None, date(2024, 1, 1), date(2024, 12, 31), None, None),
        ),
        (
            "The Directors have declared an interim dividend of 12 Hong Kong cents per share "
            "for the six months ended 30 June 2024.",
            ("HKD", Decimal("0.12"), None, *H1_2024, None, None),
        ),
        (
            "董事會建議派發截至2024年12月31日止年度的末期股息每股人民幣0.20元。",
            ("CNY", Decimal("0.20"), None, date(2024, 1, 1), date(2024, 12, 31), None, None),
        ),
    ],
    ids=[
        "hk-interim",
        "us-quarterly",
        "rmb-final-record-date",
        "zh-interim",
        "verb-after",
        "hkd-glued",
        "hong-kong-cents",
        "zh-rmb-before",
    ],  # fmt: skip
)
def test_a_declaration_as_issuers_print_it(sentence: str, expected: tuple[object, ...]) -> None:
    assert _declared(sentence) == [expected]


def _declared(text: str) -> list[tuple[object, ...]]:
    return [
        (d.currency, d.per_share, d.per_ads, d.period_start, d.period_end, d.record_date,
         d.payment_date)
        for d in extract_dividends(text, "release.txt")
    ]  # fmt: skip


def test_a_regular_and_a_special_dividend_in_one_sentence_are_two() -> None:
    text = (
        "The board of directors has approved a regular annual cash dividend and a special "
        "cash dividend for the fiscal year ended March 31, 2024, of US$0.125 per ordinary "
        "share, or US$1.00 per ADS, and US$0.0825 per ordinary share, or US$0.66 per ADS, "
        "respectively."
    )
    fy = (date(2023, 4, 1), date(2024, 3, 31))
    assert _declared(text) == [
        ("USD", Decimal("0.125"), Decimal("1.00"), *fy, None, None),
        ("USD", Decimal("0.0825"), Decimal("0.66"), *fy, None, None),
    ]


def test_a_quarterly_dividend_per_share_and_per_ads_in_brackets() -> None:
    text = (
        "The board of directors approved a dividend of $0.0870 per share (US$2.1750 per ADS) "
        "for the fourth quarter of 2024 to holders of record as of the close of business on "
        "March 7, 2025, payable in U.S. dollars."
    )
    assert _declared(text) == [
        ("USD", Decimal("0.0870"), Decimal("2.1750"), date(2024, 10, 1), date(2024, 12, 31),
         date(2025, 3, 7), None)
    ]  # fmt: skip


@pytest.mark.parametrize(
    "sentence",
    [
        "The Board does not recommend the payment of a final dividend (2023: HK$0.10 per share).",
        "The directors of the Company do not recommend the payment of an interim dividend.",
        "The Board has not recommended to declare any interim dividend for the six months ended "
        "30 June 2014.",
        "The Board has proposed a final dividend of approximately HK$27,795,000 in total.",
        "董事會不建議派發截至2024年6月30日止六個月的中期股息（2023年：每股0.08港元）。",
    ],
)
def test_no_dividend_declared_gives_none(sentence: str) -> None:
    assert extract_dividends(sentence, "release.txt") == ()


def test_a_final_dividend_naming_no_period_is_of_the_year_the_statements_report() -> None:
    text = "The Board has recommended a final dividend of HK$0.12 per share."
    periods = [(date(2024, 4, 1), date(2025, 3, 31)), (date(2023, 4, 1), date(2024, 3, 31))]
    (d,) = extract_dividends(text, "release.txt", periods)
    assert (d.period_start, d.period_end) == (date(2024, 4, 1), date(2025, 3, 31))


def test_a_quarterly_dividend_naming_no_period_is_of_the_quarter_the_statements_report() -> None:
    # a US retailer's third-quarter release: 13 and 39 weeks, this year's and last year's
    text = "The Board declared a quarterly cash dividend of $0.35 per share."
    periods = [
        (date(2024, 8, 4), date(2024, 11, 2)),
        (date(2023, 7, 30), date(2023, 10, 28)),
        (date(2024, 2, 4), date(2024, 11, 2)),
        (date(2023, 1, 29), date(2023, 10, 28)),
    ]
    (d,) = extract_dividends(text, "release.txt", periods)
    assert (d.period_start, d.period_end) == (date(2024, 8, 4), date(2024, 11, 2))
    assert extract_dividends(text, "release.txt")[0].period_end is None  # no statements: none


@pytest.mark.parametrize(
    ("closure", "record"),
    [
        (
            "For determining the entitlement to the final dividend, the register of members "
            "will be closed from Monday, 22 June 2015 to Wednesday, 24 June 2015 (both days "
            "inclusive), during which period no transfer of shares will be registered.",
            date(2015, 6, 24),
        ),
        (
            "The Register of Members will be closed on 18 June 2015. In order to qualify for the "
            "final dividend, all transfers must be lodged not later than 4:30 p.m. on 17 June "
            "2015.",
            date(2015, 6, 18),
        ),
        ("本公司將於2015年6月22日至2015年6月24日（包括首尾兩日）暫停辦理股份過戶登記，以釐定獲派末期股息的資格。",
         date(2015, 6, 24)),
        ("釐定股東獲派末期股息資格的記錄日期為2025年6月10日（星期二）。", date(2025, 6, 10)),
        (
            "To determine the entitlement to attend and vote at the AGM, the register of members "
            "will be closed from 10 June 2015 to 12 June 2015. Transfers must be lodged by 9 June "
            "2015.",
            None,
        ),
    ],
    ids=[
        "from-to", "one-day-then-entitlement", "zh-from-to", "zh-record-date",
        "closed-for-the-vote",
    ],
)  # fmt: skip
def test_a_book_closure_or_a_record_date_for_the_dividend_gives_its_record_date(
    closure: str, record: date | None
) -> None:
    text = f"The Board recommended a final dividend of HK$0.10 per share for FY2014. {closure}"
    (d,) = extract_dividends(text, "announcement.txt")
    assert d.record_date == record


def test_a_dividend_already_paid_has_its_payment_date() -> None:
    # an annual report on the year's interim dividend
    text = (
        "An interim dividend of HK$0.05 per share for the six months ended 30 June 2024 was "
        "declared by the Board and was paid to shareholders on 20 September 2024."
    )
    assert _declared(text) == [("HKD", Decimal("0.05"), None, *H1_2024, None, date(2024, 9, 20))]


def test_a_date_belongs_to_the_declaration_it_follows() -> None:
    text = (
        "During the year the Board declared an interim dividend of HK$0.05 per share for the "
        "six months ended 30 June 2024. The Board recommended a final dividend of HK$0.10 per "
        "share for the year ended 31 December 2024, to be paid on or about 10 July 2025."
    )
    assert _declared(text) == [
        ("HKD", Decimal("0.05"), None, *H1_2024, None, None),
        ("HKD", Decimal("0.10"), None, date(2024, 1, 1), date(2024, 12, 31), None,
         date(2025, 7, 10)),
    ]  # fmt: skip
