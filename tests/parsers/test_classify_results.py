"""What makes a document a results document (tasks/parsers/prose/classify.py): its own words and a
primary statement's title, US GAAP or IFRS, English or Chinese, announcements and reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.enums import DocKind
from tasks.extract import parse_document
from tasks.parsers.prose.classify import classify

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("HK01856_2014FY_annual-results_en.pdf", DocKind.RESULTS_ANNUAL),
        ("HK01856_2014FY_annual-results_zh.pdf", DocKind.RESULTS_ANNUAL),
        ("HK01856_2014H1_interim-results_en.pdf", DocKind.RESULTS_INTERIM),
    ],
)
def test_real_announcements_are_results_by_their_titles_alone(name: str, kind: DocKind) -> None:
    # no statement read (has_statements False): the headline and statement titles decide
    doc = parse_document(name, (REAL / name).read_bytes())
    assert classify(doc.text, False) is kind


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (
            "2014 ANNUAL RESULTS ANNOUNCEMENT\nCONSOLIDATED STATEMENT OF PROFIT OR LOSS AND OTHER\n"
            "COMPREHENSIVE INCOME",
            DocKind.RESULTS_ANNUAL,
        ),
        (
            "FINAL RESULTS FOR THE YEAR ENDED 31 MARCH 2025\nCONSOLIDATED STATEMENT OF FINANCIAL "
            "POSITION",
            DocKind.RESULTS_ANNUAL,
        ),
        (
            "INTERIM REPORT 2024\nas set out in our annual report 2023\nCONDENSED CONSOLIDATED "
            "STATEMENT OF CASH FLOWS",
            DocKind.RESULTS_INTERIM,
        ),
        (
            "ANNUAL REPORT 2024\ninterim dividend paid\nCONSOLIDATED STATEMENT OF CASH FLOWS",
            DocKind.RESULTS_ANNUAL,
        ),
        (
            "UNAUDITED INTERIM RESULTS FOR THE SIX MONTHS ENDED 30 JUNE 2014\nCONDENSED "
            "CONSOLIDATED STATEMENTS OF PROFIT OR LOSS",
            DocKind.RESULTS_INTERIM,
        ),
        ("2014年 年 度 業 績 公 告\n綜 合 財 務 狀 況 表", DocKind.RESULTS_ANNUAL),
        ("中期報告2024\n簡明綜合現金流量表", DocKind.RESULTS_INTERIM),
        ("截至二零二五年三月三十一日止年度之全年業績公告\n綜合損益表", DocKind.RESULTS_ANNUAL),
    ],
)
def test_ifrs_titles_make_a_results_document(text: str, kind: DocKind) -> None:
    assert classify(text, False) is kind


@pytest.mark.parametrize(
    "text",
    [
        "PROFIT WARNING\nThe Board expects a loss for the year.",
        "盈利警告\n本公司股東及潛在投資者",
        # a statement named in a sentence of a circular, no results headline
        "PROPOSED SHARE CONSOLIDATION\nSee the consolidated statement of financial position.",
    ],
)
def test_other_announcements_are_not_results(text: str) -> None:
    assert classify(text, False) is DocKind.OTHER
