"""Pages drawn with encoded fonts: running text from PDFium, pdfminer only on statement pages.

The results announcement rendered with embedded TrueType subsets (the benchmark's rendering)
must give the whole Extraction that pdfplumber's own text gives, and the standard-font
fixture's.
"""

from __future__ import annotations

import dataclasses
import io
import re
import threading

import pdfplumber
import pypdfium2
import pytest

from benchmarks import pdf as bench
from domain.errors import ParseError
from domain.records import Extraction, Fact
from tasks.extract import extract_file
from tasks.parsers.documents import pdf as pdf_module
from tasks.parsers.documents.pdf import parse_pdf
from tasks.parsers.documents.pdfium_text import PageTexts
from tests.parsers.conftest import Q4_2024_PDF

NAME = Q4_2024_PDF.name  # both renderings are extracted under the fixture's name


@pytest.fixture(scope="module")
def truetype_pdf(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    with bench.truetype():
        path = bench.long_results_pdf(13, tmp_path_factory.mktemp("tt"), "_truetype")
    return path.read_bytes()


class _PlumberTexts:
    """PageTexts as the glyph path gave them before PDFium: pdfplumber's ``extract_text``."""

    def __init__(self, content: bytes) -> None:
        self._pdf = pdfplumber.open(io.BytesIO(content))

    def text(self, index: int) -> str:
        return self._pdf.pages[index].extract_text()

    def __enter__(self) -> _PlumberTexts:
        return self

    def __exit__(self, *exc: object) -> None:
        self._pdf.close()


def test_truetype_extraction_equals_pdfplumbers_text(
    truetype_pdf: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    ours = extract_file(NAME, truetype_pdf, "QFIN")
    monkeypatch.setattr(pdf_module, "PageTexts", _PlumberTexts)
    plumbers = extract_file(NAME, truetype_pdf, "QFIN")
    assert ours.facts and ours.guidance and ours.dividends
    assert any(f.origin == "narrative" for f in ours.facts)
    assert ours == plumbers  # everything, provenance included


def _context(fact: Fact) -> Fact:
    """A narrative fact with its context snippet's spaces before punctuation taken out.

    The standard rendering's fast path reads a superscript footnote marker as its own line:
    "solutions\\n*5\\n, representing" cleans to "solutions , r..." where glyph text (pdfplumber's
    and PDFium's alike) has "solutions*5, re...": the snippet is cut at a fixed width.
    """
    prov = fact.provenance
    column = re.sub(r"\s+(?=[,.;:])", "", prov.column)
    return dataclasses.replace(fact, provenance=dataclasses.replace(prov, column=column[:100]))


def _comparable(extraction: Extraction) -> Extraction:
    facts = tuple(_context(f) if f.origin == "narrative" else f for f in extraction.facts)
    twins = tuple(_context(f) for f in extraction.narrative_twins)
    return dataclasses.replace(extraction, facts=facts, narrative_twins=twins)


def test_truetype_extraction_equals_the_standard_font_fixture(
    truetype_pdf: bytes,
) -> None:
    ours = extract_file(NAME, truetype_pdf, "QFIN")
    standard = extract_file(NAME, Q4_2024_PDF.read_bytes(), "QFIN")
    assert len(standard.facts) > 200 and standard.guidance and standard.dividends
    # table facts, guidance, dividends, unmapped, warnings, usd rate: exactly
    assert [f for f in ours.facts if f.origin == "table"] == [
        f for f in standard.facts if f.origin == "table"
    ]
    assert (ours.guidance, ours.dividends, ours.unmapped) == (
        standard.guidance,
        standard.dividends,
        standard.unmapped,
    )
    assert (ours.warnings, ours.usd_rate, ours.kind) == (
        standard.warnings,
        standard.usd_rate,
        standard.kind,
    )
    # narrative facts: the same, but for the one footnote-marker space in a context snippet
    assert _comparable(ours) == _comparable(standard)


def test_pdfminer_reads_only_statement_pages(
    truetype_pdf: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    read: list[int] = []
    original = pdf_module.page_words

    def counting(page: pdfplumber.page.Page, contents: list[object] | None = None) -> list:
        read.append(page.page_number)
        return original(page, contents)

    monkeypatch.setattr(pdf_module, "page_words", counting)
    doc = parse_pdf("tt.pdf", truetype_pdf)
    pages = {int(t.locator.split(",")[0].removeprefix("page ")) for t in doc.tables}
    assert pages and sorted(read) == sorted(pages)  # each statement page once, no other page
    assert bench.page_count(truetype_pdf) > len(pages)


def test_pdfium_failure_is_a_one_line_parse_error(
    truetype_pdf: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(*args: object) -> None:
        raise pypdfium2.PdfiumError("Failed to load document\n(PDFium: Data format error).")

    monkeypatch.setattr(pypdfium2, "PdfDocument", failing)
    with pytest.raises(ParseError, match="tt.pdf: unreadable PDF") as info:
        parse_pdf("tt.pdf", truetype_pdf)
    assert "\n" not in str(info.value)


def test_page_texts_end_lines_in_newlines_and_close(truetype_pdf: bytes) -> None:
    texts = PageTexts(truetype_pdf)
    first = texts.text(0)
    texts.close()
    assert "\r" not in first and first.count("\n") > 5
    assert texts.text(0) == first  # reopened on use after close


def test_threads_take_turns_with_pdfium(truetype_pdf: bytes) -> None:
    expected = parse_pdf("tt.pdf", truetype_pdf).prose
    results: list[str] = []

    def run() -> None:
        results.append(parse_pdf("tt.pdf", truetype_pdf).prose)

    threads = [threading.Thread(target=run) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 3
