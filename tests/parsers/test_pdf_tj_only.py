"""A PDF whose text is drawn only with TJ arrays can't be read from ``(...) Tj`` literals.

Its page is then read from the glyphs: the statement is found there and the running text comes
from the glyph text map (pdfminer_words, not page.chars / page.extract_text); the facts must be
those
of the same page drawn with plain Tj strings.
"""

from __future__ import annotations

import io

import pdfplumber
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

from tasks.extract import extract_file
from tasks.parsers.documents.pdf import parse_pdf
from tasks.parsers.documents.pdfminer_words import page_text
from tasks.parsers.documents.stream_text import page_literals
from tests.parsers.test_cells import _pdf


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _tj_pdf() -> bytes:
    """test_cells' balance sheet, every string shown by a TJ array (some with kerning)."""
    lines = [
        (700, [(40, "Unaudited Condensed Consolidated Balance Sheets", False)]),
        (688, [(40, "(Amounts in thousands of Renminbi (RMB) and U.S. dollars (USD))", False)]),
        (670, [(x, "December 31, 2023" if x == 330 else "December 31, 2024", True)
               for x in (330, 410, 490)]),
        (658, [(330, "RMB", True), (410, "RMB", True), (490, "USD", True)]),
        (646, [(40, "TOTAL ASSETS", False), (330, "45,818,572", True),
               (410, "48,132,618", True), (490, "6,594,142", True)]),
        (634, [(40, "Goodwill", False), (330, "-", True), (410, "42,414", True),
               (490, "5,811", True)]),
    ]  # fmt: skip
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setFont("Helvetica", 8)
    pdf.drawString(0, 0, "")  # registers Helvetica (/F1) with the page and shows nothing
    for y, cells in lines:
        for x, text, right in cells:
            left = x - stringWidth(text, "Helvetica", 8) if right else x
            head, tail = _escape(text[:3]), _escape(text[3:])
            pdf._code.append(f"BT /F1 8 Tf 1 0 0 1 {left:.3f} {y} Tm [({head}) 0 ({tail})] TJ ET")
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def test_tj_arrays_are_not_read_from_the_stream() -> None:
    with pdfplumber.open(io.BytesIO(_tj_pdf())) as pdf:
        assert page_literals(pdf.pages[0].page_obj) is None
    with pdfplumber.open(io.BytesIO(_pdf())) as pdf:  # the Tj version is
        assert "TOTAL ASSETS" in (page_literals(pdf.pages[0].page_obj) or [])


def test_statement_found_and_facts_equal_the_tj_version() -> None:
    def facts(content: bytes) -> dict[tuple[object, ...], object]:
        return {f.key: f.value for f in extract_file("s.pdf", content, "QFIN").mapped}

    tj = facts(_tj_pdf())
    assert tj  # the statement page was found without literal strings
    assert tj == facts(_pdf())


def test_running_text_is_the_pdfplumber_text() -> None:
    content = _tj_pdf()
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        expected = pdf.pages[0].extract_text()
        assert page_text(pdf.pages[0]) == expected
    assert "Balance Sheets" in expected
    assert parse_pdf("s.pdf", content).prose == expected
