"""Malformed and hostile documents: seeded mutations of real documents, per format, each read
or refused with one line of the project's errors, never an unhandled exception.

CI runs ``FILINGS_FUZZ_CASES`` (default 25) cases per format; ``python -m benchmarks.faults``
runs 1,000 per format and prints the counts.
"""

from __future__ import annotations

import os
import random

import pytest

from benchmarks import fuzz
from domain.errors import ParseError

CASES = int(os.environ.get("FILINGS_FUZZ_CASES", "25"))


def _check(fmt: str) -> None:
    tally = fuzz.fuzz(fmt, CASES)
    assert tally.cases == CASES and tally.read + tally.refused == CASES
    assert tally.unhandled == []


class TestFuzzedHtml:
    def test_mutated_exhibits(self):
        _check("html")


class TestFuzzedPdf:
    def test_mutated_announcements(self):
        _check("pdf")


class TestFuzzedText:
    def test_mutated_seed_texts(self):
        _check("text")


class TestFuzzedJsonFeeds:
    def test_mutated_submissions_and_title_search(self):
        _check("json")


class TestMutator:
    """The mutations are real: seeded, and they change the document."""

    def test_same_seed_same_case_and_the_document_changes(self):
        original = (
            b"<html><body><table><tr><td>Revenue</td><td>1,234</td></tr></table></body></html>"
        )
        first = [fuzz.mutate(random.Random(7), original) for _ in range(3)]
        assert first[0] == first[1] == first[2]
        cases = [fuzz.mutate(random.Random(seed), original) for seed in range(50)]
        assert len(set(cases)) > 40 and sum(c != original for c in cases) > 45

    @pytest.mark.parametrize("fmt", ["html", "pdf", "text", "json"])
    def test_some_cases_are_still_read_and_some_refused(self, fmt):
        tally = fuzz.fuzz(fmt, 40, seed=1)
        assert tally.read > 0 and tally.refused > 0, tally


def _pages(count: int) -> bytes:
    """A PDF of ``count`` pages, a line of text on each."""
    import io

    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    pdf = canvas.Canvas(out)
    for number in range(count):
        pdf.drawString(72, 720, f"Page {number + 1}")
        pdf.showPage()
    pdf.save()
    return out.getvalue()


class TestPdfBomb:
    """A PDF with thousands of pages, or one that reads for too long, is refused in one line
    (the run goes on with the next document)."""

    def test_thousands_of_pages_are_refused_before_reading_them(self):
        from tasks.extract import parse_document

        with pytest.raises(ParseError) as caught:
            parse_document("bomb.pdf", _pages(3000))
        assert "3000 pages, more than 2000; refused" in str(caught.value)

    def test_a_pdf_still_read_past_its_time_is_refused(self):
        from tasks.parsers.documents.pdf import parse_pdf

        real = (fuzz.ROOT / "hkex" / "03660" / "11480512.pdf").read_bytes()
        with pytest.raises(ParseError) as caught:
            parse_pdf("slow.pdf", real, max_seconds=0.0)
        message = str(caught.value)
        assert "still reading page 1 of" in message and "\n" not in message
        assert parse_pdf("real.pdf", real).tables  # within the default bounds it is read
