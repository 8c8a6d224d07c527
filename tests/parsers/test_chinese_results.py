"""HKEx results announcements in Chinese: the primary statements' rows read with no catalog.

The two PDFs are assembled (``scripts/zh_results.py``): what is real is every figure —
Qifu Technology's years ended December 31, 2023 and 2024 as printed in its HKEx results
announcement (the bundled seed, which these tests read the expected figures from) — and the
words HKEx Chinese editions print for titles, period headers and scale lines; the PDF, the
choice of lines and the simplified edition's restatement in millions are assembled. The
traditional edition prints 綜合財務狀況表 / 綜合損益表 / 綜合現金流量表 under "人民幣千元"
with years in Chinese numerals (二零二三年); the simplified one 综合财务状况表 / 综合损益表 /
综合现金流量表 under "人民币百万元" with Arabic years (2023年).
"""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from domain.enums import DocKind
from domain.records import Extraction, Fact, StoredFile
from domain.rowrecords import StatementKind
from tasks.extract import extract_document
from tasks.parsers.prose.classify import classify

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
ASSEMBLED = FIXTURES / "assembled"
SEED = FIXTURES / "seeds" / "hkex_03660_2025-03-17_q4-2024-results.txt"
HANT = ASSEMBLED / "hkex_03660_2025-03-17_fy-2024-results_zh-hant_assembled.pdf"
HANS = ASSEMBLED / "hkex_03660_2025-03-17_fy-2024-results_zh-hans_assembled.pdf"
YEARS = {2023: (date(2023, 1, 1), date(2023, 12, 31)), 2024: (date(2024, 1, 1), date(2024, 12, 31))}

# (statement, traditional label, simplified label, the seed's English label, metric)
TOTALS = [
    (StatementKind.BALANCE_SHEET, "資產總值", "资产总值", "TOTAL ASSETS", "total_assets"),
    (StatementKind.BALANCE_SHEET, "負債總額", "负债总额", "TOTAL LIABILITIES", "total_liabilities"),
    (StatementKind.BALANCE_SHEET, "權益總額", "权益总额", "TOTAL EQUITY", "total_equity"),
    (
        StatementKind.BALANCE_SHEET, "負債及權益總額", "负债及权益总额",
        "TOTAL LIABILITIES AND EQUITY", "total_liabilities_and_equity",
    ),
    (
        StatementKind.BALANCE_SHEET, "現金及現金等價物", "现金及现金等价物",
        "Cash and cash equivalents", "cash_and_cash_equivalents",
    ),
    (
        StatementKind.INCOME_STATEMENT, "收益總額", "收益总额", "Total net revenue",
        "total_net_revenue",
    ),
    (
        StatementKind.INCOME_STATEMENT, "除所得稅前溢利", "除所得税前溢利",
        "Income before income tax expense", "income_before_income_tax",
    ),
    (StatementKind.INCOME_STATEMENT, "年內溢利", "年内溢利", "Net income", "net_income"),
    (
        StatementKind.CASH_FLOW, "經營活動所得現金淨額", "经营活动所得现金净额",
        "Net cash provided by operating activities", "net_cash_operating",
    ),
    (
        StatementKind.CASH_FLOW, "投資活動所用現金淨額", "投资活动所用现金净额",
        "Net cash used in investing activities", "net_cash_investing",
    ),
]  # fmt: skip


def seed_figures(label: str, statement: StatementKind) -> dict[int, Decimal]:
    """The seed's RMB thousands for 2023 and 2024 (year columns) on the line named ``label``."""
    text = SEED.read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if ln.split("\t")[0] == label)
    cells = [
        Decimal(re.sub(r"[(),]", "", c)) * (-1 if "(" in c else 1) for c in line.split("\t")[1:]
    ]
    first = 0 if statement is StatementKind.BALANCE_SHEET else 3  # quarter columns come first
    return {2023: cells[first], 2024: cells[first + 1]}


def _extract(path: Path) -> Extraction:
    stored = StoredFile(path.name, f"https://www1.hkexnews.hk/{path.name}", "0" * 64, 1, "PDF")
    # no issuer catalog: an unknown ticker reads with the shared mapping only
    return extract_document(f"hkex:{path.stem}", [(stored, path.read_bytes())], "ZZZZ")


@pytest.fixture(scope="module")
def traditional() -> Extraction:
    return _extract(HANT)


@pytest.fixture(scope="module")
def simplified() -> Extraction:
    return _extract(HANS)


def _period(statement: StatementKind, year: int) -> tuple[date | None, date]:
    start, end = YEARS[year]
    return (None, end) if statement is StatementKind.BALANCE_SHEET else (start, end)


class TestTraditionalEdition:
    """綜合財務狀況表 / 綜合損益表 / 綜合現金流量表, 人民幣千元, 二零二三年 / 二零二四年."""

    def test_it_is_an_annual_results_announcement_with_every_row_read(self, traditional):
        assert traditional.kind is DocKind.RESULTS_ANNUAL
        assert len(traditional.rows) == 2 * (11 - 1 + 7 + 7)  # the heading row has no value
        assert traditional.refused == ()
        assert {r.currency for r in traditional.rows} == {"CNY"}
        assert {r.scale for r in traditional.rows} == {3}

    @pytest.mark.parametrize(("statement", "label", "_", "english", "metric"), TOTALS)
    def test_totals_are_the_real_figures_in_whole_yuan(
        self, traditional, statement, label, _, english, metric
    ):
        expected = seed_figures(english, statement)
        rows = {
            r.period_end.year: r
            for r in traditional.rows
            if r.row_label == label and r.statement is statement
        }
        for year, thousands in expected.items():
            row = rows[year]
            assert (row.period_start, row.period_end) == _period(statement, year)
            assert row.value == thousands * 1000
        facts = {f.period_end.year: f for f in _mapped(traditional) if f.metric == metric}
        assert {y: abs(f.value) for y, f in facts.items()} == {
            y: abs(v) * 1000 for y, v in expected.items()
        }
        _published_only_when_proved(traditional, metric)

    def test_the_balance_sheet_sections_close_at_their_totals(self, traditional):
        sections = {r.row_label: r.section for r in traditional.rows}
        assert sections["現金及現金等價物"] == "流動資產"
        assert sections["流動資產總值"] == "流動資產"
        assert sections["資產總值"] == ""


class TestSimplifiedEdition:
    """综合财务状况表 / 综合损益表 / 综合现金流量表, 人民币百万元, 2023年 / 2024年."""

    def test_it_is_read_in_millions_to_the_printed_precision(self, simplified):
        assert simplified.kind is DocKind.RESULTS_ANNUAL
        assert simplified.refused == ()
        assert {(r.currency, r.scale, r.decimals) for r in simplified.rows} == {("CNY", 6, -5)}

    @pytest.mark.parametrize(("statement", "_", "label", "english", "metric"), TOTALS)
    def test_totals_are_the_real_figures_rounded_as_printed(
        self, simplified, statement, _, label, english, metric
    ):
        expected = seed_figures(english, statement)
        rows = {
            r.period_end.year: r
            for r in simplified.rows
            if r.row_label == label and r.statement is statement
        }
        for year, thousands in expected.items():
            assert _period(statement, year) == (rows[year].period_start, rows[year].period_end)
            # one decimal of a million: within half of 100,000 yuan of the real figure
            assert abs(rows[year].value - thousands * 1000) <= 50_000
        assert {f.period_end.year for f in _mapped(simplified) if f.metric == metric} == {
            2023, 2024
        }  # fmt: skip
        _published_only_when_proved(simplified, metric)


# A summary of selected lines: its balance sheet totals balance (published, proved), but its
# cash line adds up to nothing printed and its cash flows print no change in cash (line items).
UNTIED = {"cash_and_cash_equivalents", "net_cash_operating", "net_cash_investing"}


def _mapped(extraction: Extraction) -> tuple[Fact, ...]:
    return extraction.facts + extraction.unproven


def _published_only_when_proved(extraction: Extraction, metric: str) -> None:
    published = [f for f in extraction.facts if f.metric == metric]
    if metric in UNTIED:
        assert published == []
    else:
        assert published and all(f.proved_by.startswith("identity: ") for f in published)


def test_a_chinese_results_announcement_is_results_even_when_no_statement_was_read() -> None:
    # the statement gate then quarantines it with its reason: never loaded silently empty
    head = "奇富科技股份有限公司\n截至二零二四年十二月三十一日止年度之未經審核財務業績公告\n"
    assert classify(head + "綜合財務狀況表\n", False) is DocKind.RESULTS_ANNUAL
    assert classify(head.replace("止年度", "止六個月") + "综合损益表", False) is (
        DocKind.RESULTS_INTERIM
    )
    assert classify("盈利警告\n本公司股東及潛在投資者", False) is DocKind.OTHER
