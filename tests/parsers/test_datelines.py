"""Datelines as releases and HKEx announcements print them (tasks/parsers/prose/dateline.py), and
the
real announcements of tests/fixtures/real dated by their own."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from tasks.extract import parse_document
from tasks.parsers.documents import running_text
from tasks.parsers.prose.identity import publication_date

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("SHANGHAI, China, May 19, 2024 (GLOBE NEWSWIRE) -- Qifu Technology, Inc.", "2024-05-19"),
        ("NEW YORK, March 5, 2024 /PRNewswire/ -- Acme Corp. today", "2024-03-05"),
        ("HONG KONG, Sept. 12, 2023 /PRNewswire-FirstCall/ -- Acme", "2023-09-12"),
        # the date nearest the wire's mark, not the period in the headline before it
        (
            "Results for the Quarter Ended September 30, 2024 BEIJING--(BUSINESS WIRE)--Dec. 4, "
            "2024-- Acme Ltd. today",
            "2024-12-04",
        ),
        ("By order of the Board Hong Kong, 30 March 2015 As at the date", "2015-03-30"),
        (
            "Hong Kong, Macau and Southeast Asia markets grew. Hong Kong, 28 August 2014",
            "2014-08-28",
        ),
        ("Shanghai, China, March 16, 2025 Qifu Technology", "2025-03-16"),
        ("Date: March 12, 2024", "2024-03-12"),
        ("Announcement date 13 March 2024", "2024-03-13"),
        ("香港，二零一五年三月三十日", "2015-03-30"),
        ("上海，2024年5月19日", "2024-05-19"),
    ],
)
def test_a_dateline_gives_the_publication_date(text: str, day: str) -> None:
    assert publication_date(text) == date.fromisoformat(day)


@pytest.mark.parametrize(
    "text",
    [
        "Net income was RMB1.2 billion for the quarter ended March 12, 2024",
        "the record date is 13 March 2024",
        "香港，二零一五年十三月三十日",  # no such month
    ],
)
def test_a_date_that_is_no_dateline_is_not_one(text: str) -> None:
    assert publication_date(text) is None


def test_a_text_layer_that_spaces_out_chinese_characters_is_read_as_printed() -> None:
    assert publication_date(running_text.clean("承 董 事 會 命\n香 港，2015年3月30日")) == date(
        2015, 3, 30
    )


@pytest.mark.parametrize(
    ("name", "day"),
    [
        ("HK01856_2014FY_annual-results_en.pdf", "2015-03-30"),
        ("HK01856_2014FY_annual-results_zh.pdf", "2015-03-30"),
        ("HK01856_2014H1_interim-results_en.pdf", "2014-08-28"),
    ],
)
def test_real_announcements_are_dated_by_their_own_dateline(name: str, day: str) -> None:
    doc = parse_document(name, (REAL / name).read_bytes())
    assert publication_date(running_text.clean(doc.prose or doc.text)) == date.fromisoformat(day)
