"""Real releases as their original text: columns parted by runs of spaces, headers split over
lines, labels wrapped (pdftotext -layout style; tests/fixtures/laid_out, made from the real
QFIN seeds by scripts/laid_out_text.py). The text goes through the table model PDF pages use
and must give the same statement facts as the seed's tab-separated text. One class per
document.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import pytest

from domain.enums import Basis
from domain.records import Extraction
from tasks.extract import extract_file
from tests.golden.golden import load

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _extract(path: Path) -> Extraction:
    return extract_file(path.name, path.read_bytes(), "QFIN")


class LaidOutRelease:
    seed: ClassVar[str]
    kind: ClassVar[str]

    @pytest.fixture(scope="class")
    def laid_out(self) -> Extraction:
        return _extract(FIXTURES / "laid_out" / f"{Path(self.seed).stem}.layout.txt")

    @pytest.fixture(scope="class")
    def tabbed(self) -> Extraction:
        return _extract(FIXTURES / "seeds" / self.seed)

    def test_no_table_fact_differs_from_the_golden_file(self, laid_out: Extraction) -> None:
        golden = load(self.seed).tables
        got = {f.key: f.value for f in laid_out.facts if f.origin == "table"}
        assert {k: (v, golden.get(k)) for k, v in got.items() if golden.get(k) != v} == {}

    def test_every_fact_of_the_tab_separated_text_is_read(
        self, laid_out: Extraction, tabbed: Extraction
    ) -> None:
        ours = {f.key: f.value for f in laid_out.facts if f.origin == "table"}
        theirs = {f.key: f.value for f in tabbed.facts if f.origin == "table"}
        missing = set(theirs.items()) - set(ours.items())
        assert theirs and {key[3] for key, _ in missing} == self.not_read

    def test_a_results_document(self, laid_out: Extraction) -> None:
        assert laid_out.kind.value == self.kind

    not_read: ClassVar[set[Basis]] = set()


class TestQ4_2023Release(LaidOutRelease):
    seed = "sec_0001741530_2024-03-12_6k_q4-2023.txt"
    kind = "results_annual"

    def test_statement_rows_equal_the_tab_separated_texts(
        self, laid_out: Extraction, tabbed: Extraction
    ) -> None:
        def rows(e: Extraction) -> set[object]:
            return {
                (r.statement, r.row_label, r.period_start, r.period_end, r.value) for r in e.rows
            }

        assert len(rows(tabbed)) > 300  # two readings compared: neither empty
        assert rows(laid_out) == rows(tabbed)


class TestQ4_2024Announcement(LaidOutRelease):
    seed = "hkex_03660_2025-03-17_q4-2024-results.txt"
    kind = "results_annual"


class TestQ2_2024Release(LaidOutRelease):
    """The IFRS reconciliation's long column headers overprint each other when the seed is
    drawn (its PDF, hence its laid-out text, prints them garbled): its 28 facts the tab form
    reads are not read here. Every U.S. GAAP fact is."""

    seed = "sec_0001741530_2024-08-13_6k_q2-2024.txt"
    kind = "results_interim"
    not_read: ClassVar[set[Basis]] = {Basis.IFRS}
