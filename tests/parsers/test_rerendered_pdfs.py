"""Real HKEx PDFs re-rendered by the tools people pass them through (tests/fixtures/renderings:
Ghostscript's pdfwrite, poppler's pdftocairo): another file of the same document is read the
same, or refused in one line when its text cannot be read, never read as something else.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.errors import ParseError, RefusedFileError
from domain.records import Issuer
from expectations.gate import statements_add_up_rule, statements_proved_rule, statements_read_rule
from expectations.rules import Context
from tasks.extract import extract_file, inspect_local_file, parse_document
from tests.golden.golden import load_section_rows, section_cells

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
RENDERINGS = FIXTURES / "renderings"


class TestErnestBorelAnnualResultsRedistilledByGhostscript:
    """`gs -sDEVICE=pdfwrite` of the real FY2014 English announcement (new fonts, content
    streams and text runs; the same page): every golden cell, nothing held."""

    PDF = RENDERINGS / "HK01856_2014FY_annual-results_en.gs-pdfwrite.pdf"

    def test_reads_every_golden_cell_and_proves_it(self) -> None:
        read = extract_file(self.PDF.name, self.PDF.read_bytes(), "EBORL")
        golden = load_section_rows("HK01856_2014FY_annual-results_en.pdf")
        got = section_cells(read.rows)
        assert len(golden) == 90  # every cell of its four statements
        assert {k: (got.get(k), v) for k, v in golden.items() if got.get(k) != v} == {}
        ctx = Context.of_extraction("doc", read)
        rows = statements_read_rule("read", {}, list(read.facts), ctx).rows
        rows += statements_add_up_rule("add_up", {}, [], ctx).rows
        rows += statements_proved_rule("proved", {}, [], ctx).rows
        assert rows and [r.period for r in rows if r.gap > r.tolerance] == []

    def test_publishes_what_the_original_publishes(self) -> None:
        original = FIXTURES / "real" / "HK01856_2014FY_annual-results_en.pdf"
        again = extract_file(self.PDF.name, self.PDF.read_bytes(), "EBORL").facts
        first = extract_file(original.name, original.read_bytes(), "EBORL").facts
        assert len(first) > 20
        assert sorted((f.key, f.value) for f in again) == sorted((f.key, f.value) for f in first)


class TestAnxinInterimResultsChineseRenderedByPdftocairo:
    """`pdftocairo -pdf` of the real Chinese interim results: its Chinese glyphs lose their
    Unicode map (the text layer prints U+FFFD for 16,102 of 20,382 characters). Refused as
    unreadable, in one line, before any check of whose it is or when it was published (it
    was refused for "no dateline" before)."""

    PDF = RENDERINGS / "HK01149_2013H1_interim-results_zh.pdftocairo.pdf"
    AXC = Issuer(ticker="AXC", name="Anxin-China Holdings Limited", cik="", hkex_code="01149")

    def test_parsing_refuses_it_saying_why(self) -> None:
        with pytest.raises(ParseError) as caught:
            parse_document(self.PDF.name, self.PDF.read_bytes())
        said = str(caught.value)
        assert "\n" not in said
        assert said.startswith(f"{self.PDF.name}: its text cannot be read: 16,102 of 20,382 ")
        assert "get the issuer's original file" in said

    def test_a_dropped_copy_is_refused_with_nothing_stored(self) -> None:
        with pytest.raises(RefusedFileError, match="its text cannot be read.*; nothing stored"):
            inspect_local_file(self.PDF, [self.AXC], "AXC", None)

    def test_the_original_is_readable(self) -> None:
        original = FIXTURES / "real" / "HK01149_2013H1_interim-results_zh.pdf"
        assert parse_document(original.name, original.read_bytes()).tables
