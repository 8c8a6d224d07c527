"""Real documents as flowed text: every word one space apart, no column positions (a PDF's
text as pdfplumber's ``extract_text()`` or ``pdftotext`` without ``-layout`` give it, a copy
from a PDF viewer; a release's tab-separated text with its tabs as spaces, as wire text
prints it). The text is
taken from the real PDFs and seeds when the test runs. Every figure is read as the golden
file or the tab-separated text says, or its row is refused; none is read into another
column. One class per document.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path
from typing import ClassVar

import pdfplumber
import pytest

from tasks.extract import extract_file, parse_document
from tasks.parsers.documents import flowed
from tasks.parsers.statements.asreported import RowsRead, read_rows
from tests.golden.golden import load_rows, load_section_rows, section_cells
from tests.parsers.test_buckle_release import DOCUMENT as BUCKLE
from tests.parsers.test_buckle_release import _as_text, _key, _laid_out

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def flowed_text(pdf: bytes) -> str:
    """A PDF's pages as pdfplumber's plain text, parted by form feeds."""
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return "\f".join(p.extract_text() or "" for p in doc.pages)


def _unsectioned(cells: dict) -> Counter:
    return Counter((k[0], *k[2:], v) for k, v in cells.items())


class RealAnnouncementAsFlowedText:
    stem: ClassVar[str]
    # rows whose section only indentation shows: the flowed text keeps them under the
    # heading above ("Item that may be subsequently reclassified to profit or loss:")
    section_not_printed: ClassVar[set[str]]

    @pytest.fixture(scope="class")
    def text(self) -> str:
        return flowed_text((FIXTURES / "real" / f"{self.stem}.pdf").read_bytes())

    @pytest.fixture(scope="class")
    def read(self, text: str) -> RowsRead:
        name = f"{self.stem}.txt"
        return read_rows(parse_document(name, text.encode("utf-8")), name)

    def test_the_text_is_flowed(self, text: str) -> None:
        assert sum(flowed.is_flowed(page) for page in text.split("\f")) >= 2

    def test_every_golden_cell_is_read_and_nothing_else(self, read: RowsRead) -> None:
        golden = load_section_rows(f"{self.stem}.pdf")
        got = section_cells(read.rows)
        assert _unsectioned(got) == _unsectioned(golden)
        assert read.refused == ()

    def test_every_row_is_in_its_section_but_those_only_indentation_places(
        self, read: RowsRead
    ) -> None:
        golden = load_section_rows(f"{self.stem}.pdf")
        got = section_cells(read.rows)
        moved = {k[2] for k in set(golden) ^ set(got)}
        assert moved == self.section_not_printed


class TestErnestBorelAnnualResults2014English(RealAnnouncementAsFlowedText):
    stem = "HK01856_2014FY_annual-results_en"
    section_not_printed = {
        "Other comprehensive (expense) income for the year",
        "Total comprehensive income for the year",
    }


class TestErnestBorelAnnualResults2014Chinese(RealAnnouncementAsFlowedText):
    stem = "HK01856_2014FY_annual-results_zh"
    section_not_printed = {"年內其他全面（開支）收益", "年內總全面收益"}


class TestErnestBorelInterimResults2014English(RealAnnouncementAsFlowedText):
    stem = "HK01856_2014H1_interim-results_en"
    section_not_printed = {
        "Other comprehensive expense for the period",
        "Total comprehensive income for the period",
    }


class TestErnestBorelAnnualWithANoteBesideOneFigure:
    """The annual's flowed text with two balance-sheet rows printed as some printers print
    them: a note reference and one figure, the other year's cell left blank instead of "–"
    ("Derivative financial instruments 10 705": this year's; "Amounts due from shareholders
    7 10": last year's). Two figures under NOTES 2014 2013 read three ways; the one under
    which the balance sheet's totals equal their rows wins
    (tasks/parsers/statements/best_reading.py)."""

    stem = "HK01856_2014FY_annual-results_en"
    edits = {
        "Derivative financial instruments 705 –": "Derivative financial instruments 10 705",
        "Amounts due from shareholders – 10": "Amounts due from shareholders 7 10",
    }

    @pytest.fixture(scope="class")
    def read(self) -> RowsRead:
        text = flowed_text((FIXTURES / "real" / f"{self.stem}.pdf").read_bytes())
        for printed, edited in self.edits.items():
            assert printed in text
            text = text.replace(printed, edited)
        name = f"{self.stem}.txt"
        return read_rows(parse_document(name, text.encode("utf-8")), name)

    def test_each_figure_is_read_into_the_column_the_arithmetic_proves(
        self, read: RowsRead
    ) -> None:
        edited = ("Derivative financial instruments", "Amounts due from shareholders")
        got = {
            (r.row_label, r.period_end.year, r.value) for r in read.rows if r.row_label in edited
        }
        assert got == {(edited[0], 2014, 705_000), (edited[1], 2013, 10_000)}

    def test_every_other_golden_cell_is_read_as_printed(self, read: RowsRead) -> None:
        blanked = {
            ("Derivative financial instruments", 2013),
            ("Amounts due from shareholders", 2014),
        }
        golden = {
            k: v
            for k, v in _unsectioned(load_section_rows(f"{self.stem}.pdf")).items()
            if (k[1], k[3].year) not in blanked
        }
        assert _unsectioned(section_cells(read.rows)) == Counter(golden)


class QfinReleaseAsFlowedText:
    """The real QFIN release's tab-separated text with each run of tabs and spaces as one
    space: its 3-column tables print margins in two columns of three ("GAAP operating margin
    24.2% 28.5%": which two is not in the text)."""

    seed: ClassVar[str]

    @pytest.fixture(scope="class")
    def both(self) -> tuple[dict, dict, set[str]]:
        tabbed = (FIXTURES / "seeds" / self.seed).read_text(encoding="utf-8")
        spaced = "\n".join(" ".join(line.split()) for line in tabbed.splitlines())
        theirs = extract_file(self.seed, tabbed.encode(), "QFIN")
        ours = extract_file(self.seed, spaced.encode(), "QFIN")
        refused = {r.row_label for r in ours.refused}

        def table(facts) -> dict:
            return {f.key: f for f in facts if f.origin == "table"}

        return table(theirs.facts), table(ours.facts), refused

    def test_no_figure_differs_and_none_is_added(self, both) -> None:
        theirs, ours, _ = both
        assert len(theirs) > 150 and ours  # two readings compared: neither empty
        assert {k: f.value for k, f in ours.items() if k not in theirs} == {}
        changed = {k: (f.value, theirs[k].value) for k, f in ours.items()}
        assert {k: pair for k, pair in changed.items() if pair[0] != pair[1]} == {}

    def test_a_figure_not_read_is_on_a_refused_row(self, both) -> None:
        theirs, ours, refused = both
        missing = {f.provenance.row_label for k, f in theirs.items() if k not in ours}
        assert missing and all(any(r.startswith(m) for r in refused) for m in missing)
        assert len(ours) >= len(theirs) * 0.9


class TestQ4_2023Release(QfinReleaseAsFlowedText):
    seed = "sec_0001741530_2024-03-12_6k_q4-2023.txt"


class TestQ4_2024Announcement(QfinReleaseAsFlowedText):
    seed = "hkex_03660_2025-03-17_q4-2024-results.txt"


class TestBuckleEarningsReleaseAsFlowedText:
    """Buckle's real EX-99.1 as wire text with one space between cells: dated headers
    ("November 2, 2024 October 28, 2023 ...", "ASSETS November 2, 2024 February 3, 2024 (1)
    October 28, 2023"), their durations in one line above ("Thirteen Weeks Ended Thirteen
    Weeks Ended Thirty-Nine Weeks Ended Thirty-Nine Weeks Ended"), "$" glued to figures."""

    @pytest.fixture(scope="class")
    def read(self) -> RowsRead:
        tabbed = _as_text(parse_document(BUCKLE.name, BUCKLE.read_bytes()))
        spaced = "\n".join(" ".join(line.split()) for line in tabbed.splitlines())
        return read_rows(parse_document("buckle.txt", spaced.encode()), "buckle.txt")

    def test_every_golden_row_is_read_exactly_and_nothing_else(self, read: RowsRead) -> None:
        assert {_key(r): (r.value, r.decimals) for r in read.rows} == load_rows(BUCKLE.name)
        assert read.refused == ()

    @staticmethod
    def _wrapped(width: int) -> str:
        laid = _laid_out(parse_document(BUCKLE.name, BUCKLE.read_bytes()), width)
        return "\n".join(" ".join(line.split()) for line in laid.splitlines())

    @pytest.mark.parametrize("width", [30, 40])
    def test_with_labels_wrapped_every_golden_row_is_read_exactly(self, width: int) -> None:
        """The common stock's label wrapped over nine lines, its last part without a letter
        ("50,445,386 shares at October" / "28, 2023 508 504 504"): before, that line was left
        unread and the rest of the balance sheet refused (10 rows)."""
        read = read_rows(parse_document("b.txt", self._wrapped(width).encode()), "b.txt")
        assert {_key(r): (r.value, r.decimals) for r in read.rows} == load_rows(BUCKLE.name)
        assert read.refused == ()

    @pytest.mark.parametrize("width", [30, 70])
    def test_with_the_dollar_sign_apart_every_golden_row_is_read_exactly(self, width: int) -> None:
        """The "$" in a cell of its own in the HTML, a word of its own as text ("Cash and cash
        equivalents $ 301,958 $ 268,213 $ 311,657"): before, the 7 cells of those rows were
        read under the label "Cash and cash equivalents $" (no refusal, no golden match)."""
        text = re.sub(r"\$(?=[\d(])", "$ ", self._wrapped(width))
        assert "$ 301,958 $ 268,213 $ 311,657" in text
        read = read_rows(parse_document("b.txt", text.encode()), "b.txt")
        assert {_key(r): (r.value, r.decimals) for r in read.rows} == load_rows(BUCKLE.name)
        assert read.refused == ()

    def test_a_wrapped_labels_last_part_of_figures_only_is_refused_not_read(self) -> None:
        # one figure more than the columns after a label's first part: not a label's end
        text = self._wrapped(30).replace("assets 22,236 18,846", "99 22,236 18,846", 1)
        read = read_rows(parse_document("b.txt", text.encode()), "b.txt")
        assert "Prepaid expenses and other" in {r.row_label for r in read.refused}
        assert not [r for r in read.rows if r.row_label.startswith("Prepaid")]


def test_a_currency_printed_apart_joins_its_figure_but_not_a_year() -> None:
    words = flowed._words("Cash $ 301,958 $ (1,234) RMB 2024 US$ 12.5")
    assert words == ["Cash", "$301,958", "$(1,234)", "RMB", "2024", "US$12.5"]
