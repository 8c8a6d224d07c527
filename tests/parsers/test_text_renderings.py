"""Real documents as laid-out text, at the character densities text extractors print them
(pdfplumber's ``extract_text(layout=True)``, the text ``pdftotext -layout`` gives: columns as
runs of spaces that shrink to one space when the page is dense, long labels pushing their
figures right, headers glued, "30June", justified prose spaced out). The text is taken from
the real PDFs when the test runs; every cell must be read as the PDF's golden file says, or
nothing be published. One class per document.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import ClassVar

import pdfplumber
import pytest

from tasks.extract import extract_file, parse_document
from tasks.parsers.statements.asreported import RowsRead, read_rows
from tests.golden.golden import load, load_section_rows, section_cells

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts" / "layouts"))
from render import render  # noqa: E402  (the layout harness's renderer, as test_layouts)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
# points per character: 3.5 spreads a page over ~170 columns, 9 packs it into ~65
DENSITIES = (3.5, 4.5, 6.0, 7.25, 9.0)


def laid_out(pdf: bytes, density: float) -> str:
    """A PDF's pages as laid-out text, parted by form feeds."""
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return "\f".join(p.extract_text(layout=True, x_density=density) or "" for p in doc.pages)


class RealAnnouncementAsText:
    stem: ClassVar[str]

    @pytest.fixture(scope="class", params=DENSITIES, ids=lambda d: f"{d} pt/char")
    def read(self, request: pytest.FixtureRequest) -> RowsRead:
        text = laid_out((FIXTURES / "real" / f"{self.stem}.pdf").read_bytes(), request.param)
        name = f"{self.stem}.txt"
        return read_rows(parse_document(name, text.encode("utf-8")), name)

    def test_every_golden_cell_is_read_in_its_section_and_nothing_else(
        self, read: RowsRead
    ) -> None:
        golden = load_section_rows(f"{self.stem}.pdf")
        got = section_cells(read.rows)
        assert {k: (got.get(k), v) for k, v in golden.items() if got.get(k) != v} == {}
        assert set(got) - set(golden) == set()
        assert read.refused == ()


class TestErnestBorelAnnualResults2014English(RealAnnouncementAsText):
    stem = "HK01856_2014FY_annual-results_en"


class TestErnestBorelAnnualResults2014Chinese(RealAnnouncementAsText):
    stem = "HK01856_2014FY_annual-results_zh"


class TestErnestBorelInterimResults2014English(RealAnnouncementAsText):
    stem = "HK01856_2014H1_interim-results_en"


class QfinReleaseAsText:
    """The real QFIN release text drawn as the replay archive's PDF (scripts/layouts), then
    taken as laid-out text: its 6-column statements (two periods x RMB, RMB, USD) print their
    figures one space apart at 6 points per character and more."""

    seed: ClassVar[str]

    @pytest.fixture(scope="class", params=(4.5, 6.0, 7.25), ids=lambda d: f"{d} pt/char")
    def facts(self, request: pytest.FixtureRequest) -> dict[object, object]:
        _, pdf = render((FIXTURES / "seeds" / self.seed).read_text(encoding="utf-8"), "pdf")
        text = laid_out(pdf, request.param).encode("utf-8")
        read = extract_file(f"{Path(self.seed).stem}.txt", text, "QFIN")
        return {f.key: f.value for f in read.facts if f.origin == "table"}

    def test_every_statement_fact_of_the_golden_file(self, facts: dict[object, object]) -> None:
        golden = load(self.seed).tables
        assert {k: (facts.get(k), v) for k, v in golden.items() if facts.get(k) != v} == {}
        assert set(facts) - set(golden) == set()


class TestQfinQ4_2023ReleaseAsText(QfinReleaseAsText):
    seed = "sec_0001741530_2024-03-12_6k_q4-2023.txt"


class TestQfinQ4_2024AnnouncementAsText(QfinReleaseAsText):
    seed = "hkex_03660_2025-03-17_q4-2024-results.txt"


class TestErnestBorelInterimResultsAsAReportsPages:
    """The real interim announcement's pages as a printed interim report carries them: the
    report's name at the head of every page and a bare page number ("23") at its foot in
    place of "– 3 –". A page number is no row of the statement above it."""

    stem = "HK01856_2014H1_interim-results_en"

    def test_every_golden_cell_is_read_and_nothing_refused(self) -> None:
        text = laid_out((FIXTURES / "real" / f"{self.stem}.pdf").read_bytes(), 6.0)
        pages = [
            "    Ernest Borel Holdings Limited    Interim Report 2014\n"
            + page.replace(f"– {number} –", "")
            + f"\n{' ' * 48}{number + 20}\n"
            for number, page in enumerate(text.split("\f"), start=1)
        ]
        name = f"{self.stem}.txt"
        read = read_rows(parse_document(name, "\f".join(pages).encode("utf-8")), name)
        golden = load_section_rows(f"{self.stem}.pdf")
        got = section_cells(read.rows)
        assert got == golden
        assert read.refused == ()
