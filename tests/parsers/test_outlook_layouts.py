"""The Business Outlook of the Q4 2024 results announcement (text seed) read across the breaks
real releases put in it: a page break (blank lines and a page number) or a new paragraph in the
middle of the sentence, and footnote markers glued to words ("net income*13 between")."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.records import Guidance
from tasks.extract import extract_file

SEED = (
    Path(__file__).resolve().parent.parent
    / "fixtures/seeds/hkex_03660_2025-03-17_q4-2024-results.txt"
)
SPLIT = "RMB1.75 billion and RMB1.85"
MARK = "non-GAAP net income^{*13} between"


def _guidance(text: str) -> tuple[Guidance, ...]:
    return extract_file(SEED.name, text.encode(), "QFIN").guidance


class TestQ4_2024OutlookAcrossBreaks:
    @pytest.fixture(scope="class")
    def text(self) -> str:
        return SEED.read_text(encoding="utf-8")

    @pytest.fixture(scope="class")
    def printed(self, text: str) -> tuple[Guidance, ...]:
        found = _guidance(text)
        assert {g.metric for g in found} == {"net_income", "non_gaap_net_income"}
        return found

    @pytest.mark.parametrize(
        ("old", "new"),
        [
            (SPLIT, "RMB1.75 billion and\n\n12\n\nRMB1.85"),
            (SPLIT, "RMB1.75 billion and\n\n- 12 -\n\nRMB1.85"),
            (SPLIT, "RMB1.75 billion and\n\nRMB1.85"),
            (MARK, "non-GAAP net income*13 between"),
            (MARK, "non-GAAP net income13 between"),
            (MARK, "non-GAAP net income¹³ between"),
        ],
    )
    def test_same_guidance(
        self, text: str, printed: tuple[Guidance, ...], old: str, new: str
    ) -> None:
        assert old in text
        assert _guidance(text.replace(old, new)) == printed
