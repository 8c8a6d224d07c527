"""A narrative figure's page and its document's restating footnote, on QFIN's real releases."""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path

import pdfplumber

from domain.records import Fact
from tasks.extract import extract_file
from tasks.parsers.prose.footnotes import restating_notes
from tasks.sources.replay import default_archive_root

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
ARCHIVE = default_archive_root()
REASON = (
    "Retrospectively excluding the impact of discontinued service, which did not have and is "
    "not expected to have a material impact on our overall business, financial condition, and "
    "results of operations."
)


def _narrative(facts: tuple[Fact, ...]) -> dict[tuple[str, date | None, date], Fact]:
    return {(f.metric, f.period_start, f.period_end): f for f in facts if f.origin == "narrative"}


class TestHkex03660Q4_2024ResultsPdf:
    """The Q4 2024 results announcement as HKEXnews serves it (40 pages)."""

    PDF = ARCHIVE / "hkex" / "03660" / "11480512.pdf"

    def _read(self) -> dict[tuple[str, date | None, date], Fact]:
        return _narrative(extract_file("2025031700512.pdf", self.PDF.read_bytes(), "QFIN").facts)

    def test_restated_loan_volume_carries_its_note_and_page(self) -> None:
        found = self._read()
        q4_2023 = found[("loan_volume_total", date(2023, 10, 1), date(2023, 12, 31))]
        assert q4_2023.note == REASON
        assert q4_2023.provenance.locator == (
            "page 2, narrative: Fourth Quarter 2024 Business Highlights"
        )
        with pdfplumber.open(io.BytesIO(self.PDF.read_bytes())) as pdf:
            printed = pdf.pages[1].extract_text()
        assert "RMB89,561 million" in printed
        balance = found[("outstanding_loan_balance", None, date(2023, 12, 31))]
        assert balance.note == REASON  # note 6 restates too
        fy = found[("loan_volume_total", date(2023, 1, 1), date(2023, 12, 31))]
        assert fy.note == REASON and fy.provenance.locator.startswith("page 3, ")

    def test_a_figure_its_note_does_not_restate_has_none(self) -> None:
        found = self._read()
        # "RMB38,798 million of such loan volume": marked by note 5 (what ICE is), no reason
        light = found[("loan_volume_capital_light", date(2023, 10, 1), date(2023, 12, 31))]
        assert light.note == ""
        assert all(
            not f.note
            for (metric, _, _), f in found.items()
            if not metric.startswith(("loan", "outstanding"))
        )


class TestHkex03660Q4_2024ResultsText:
    """The same announcement as text (markers written "volume^{*4}")."""

    TEXT = FIXTURES / "seeds" / "hkex_03660_2025-03-17_q4-2024-results.txt"

    def test_only_the_restating_notes_are_kept(self) -> None:
        notes = restating_notes(self.TEXT.read_text(encoding="utf-8"))
        assert notes == {"4": REASON, "6": REASON}

    def test_notes_without_pages(self) -> None:
        facts = extract_file(self.TEXT.name, self.TEXT.read_bytes(), "QFIN").facts
        found = _narrative(facts)
        q4_2023 = found[("loan_volume_total", date(2023, 10, 1), date(2023, 12, 31))]
        assert q4_2023.note == REASON
        assert not q4_2023.provenance.locator.startswith("page")


class TestSec0001741530Q2_2024Text:
    """QFIN's Q2 2024 6-K as text: its notes define terms and restate nothing."""

    TEXT = FIXTURES / "seeds" / "sec_0001741530_2024-08-13_6k_q2-2024.txt"

    def test_no_note_no_reason(self) -> None:
        assert restating_notes(self.TEXT.read_text(encoding="utf-8")) == {}
        facts = extract_file(self.TEXT.name, self.TEXT.read_bytes(), "QFIN").facts
        assert [f for f in facts if f.note] == []
