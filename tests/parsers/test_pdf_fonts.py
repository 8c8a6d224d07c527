"""Running text and statement titles must not depend on how a PDF's fonts encode their glyphs.

A page is read from its ``(...) Tj`` literals only when its fonts decode bytes through a
standard table; every other page (embedded subset or CID fonts, /Differences, hex strings, ' or
", form XObjects) gets PDFium's text. Either way the characters are pdfplumber's.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pdfplumber
import pytest
import reportlab
from pdfminer.pdftypes import resolve1
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from tasks.extract import extract_file
from tasks.parsers.documents.pdf import parse_pdf
from tasks.parsers.documents.stream_text import page_literals
from tests.parsers.conftest import FIXTURES

REAL = FIXTURES / "reference" / "hkex" / "hkex_00328_2025-06-27_profit_warning_zh.pdf"
VERA = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"
Draw = Callable[[canvas.Canvas], None]

_BALANCE_SHEET = [
    (700, [(40, "Unaudited Condensed Consolidated Balance Sheets", False)]),
    (688, [(40, "(Amounts in thousands of Renminbi (RMB) and U.S. dollars (USD))", False)]),
    (670, [(330, "December 31, 2023", True), (410, "December 31, 2024", True),
           (490, "December 31, 2024", True)]),
    (658, [(330, "RMB", True), (410, "RMB", True), (490, "USD", True)]),
    (646, [(40, "TOTAL ASSETS", False), (330, "45,818,572", True), (410, "48,132,618", True),
           (490, "6,594,142", True)]),
    (634, [(40, "Goodwill", False), (330, "—", True), (410, "42,414", True),
           (490, "5,811", True)]),
]  # fmt: skip


def _font(name: str) -> str:
    """Register a test font once: an embedded TrueType subset, a CID font, or an encoding."""
    if name not in pdfmetrics.getRegisteredFontNames():
        if name == "Vera":
            pdfmetrics.registerFont(TTFont("Vera", str(VERA)))
        elif name == "STSong-Light":
            pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
        elif name == "Helvetica-Mac":
            pdfmetrics.registerFont(pdfmetrics.Font(name, "Helvetica", "MacRomanEncoding"))
    return name


def _render(*pages: Draw) -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    for draw in pages:
        pdf.setFont("Helvetica", 9)
        draw(pdf)
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _statement(font: str) -> Draw:
    def draw(pdf: canvas.Canvas) -> None:
        pdf.setFont(_font(font), 8)
        for y, cells in _BALANCE_SHEET:
            for x, text, right in cells:
                (pdf.drawRightString if right else pdf.drawString)(x, y, text)

    return draw


def _cover(pdf: canvas.Canvas) -> None:
    pdf.drawString(40, 800, "Qifu Technology, Inc. announces its results (standard font)")


def _facts(content: bytes) -> dict[tuple[object, ...], object]:
    return {f.key: f.value for f in extract_file("s.pdf", content, "QFIN").mapped}


def _squeezed(text: str) -> str:
    return "".join(text.split())


def _lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip()]


def _off_page(page: pdfplumber.page.Page) -> list[pdfplumber.page.CroppedPage]:
    """The page's lines whose characters all lie right of its box."""
    tops = {round(c["top"]) for c in page.chars if c["x0"] >= page.width}
    width = max(c["x1"] for c in page.chars)
    return [page.crop((page.width, top - 1, width, top + 9), strict=False) for top in sorted(tops)]


# --- the real HKEx announcement: Identity-H CID fonts, a form XObject ---------------------------


def test_real_announcement_prose_is_pdfplumbers_text() -> None:
    """PDFium's text: pdfplumber's lines, whitespace aside, but for text drawn off the page."""
    content = REAL.read_bytes()
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        assert all(page_literals(page.page_obj) is None for page in pdf.pages)
        expected = Counter(_squeezed(line) for p in pdf.pages for line in _lines(p.extract_text()))
        # printers' slug labels ("B_table indent_4.5 mm") are drawn right of the page's box
        off_page = {_squeezed(c.extract_text()) for p in pdf.pages for c in _off_page(p)}
    prose = parse_pdf(REAL.name, content).prose
    got = Counter(_squeezed(line) for line in _lines(prose))
    assert off_page and all(line not in got for line in off_page)
    assert got == Counter({k: n for k, n in expected.items() if k not in off_page})
    assert "盈利預警" in prose and "Alco Holdings Limited" in prose  # title and issuer
    assert len(prose) > 1000  # both pages' text, not the stream's few literal strings


# --- statements drawn with fonts whose bytes are not characters ----------------------------------


@pytest.mark.parametrize("font", ["Vera", "STSong-Light"], ids=["embedded-ttf", "cid-font"])
def test_statement_found_and_facts_equal_the_standard_font_version(
    font: str,
) -> None:
    standard = _facts(_render(_statement("Helvetica")))
    encoded = _render(_statement(font))
    with pdfplumber.open(io.BytesIO(encoded)) as pdf:
        assert page_literals(pdf.pages[0].page_obj) is None
    assert {key[0] for key in standard} == {"total_assets"}  # two periods
    assert len(standard) == 2
    assert _facts(encoded) == standard


def test_mixed_document_reads_each_page_its_own_way() -> None:
    content = _render(_cover, _statement("Vera"))
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        fast = [page_literals(page.page_obj) is not None for page in pdf.pages]
        statement_text = pdf.pages[1].extract_text()
    assert fast == [True, False]
    doc = parse_pdf("mixed.pdf", content)
    assert doc.prose.startswith("Qifu Technology, Inc. announces its results (standard font)\n")
    assert doc.prose.endswith(statement_text)
    assert len(doc.tables) == 1
    mixed = _facts(content)
    assert mixed  # two readings compared: neither empty
    assert mixed == _facts(_render(_cover, _statement("Helvetica")))


# --- which pages the stream may be trusted for, and the text either way -------------------------


def _plain(pdf: canvas.Canvas) -> None:
    pdf.drawString(40, 800, "Net income (loss) was RMB(1,234) — 5% ‘quoted’ €")


def _mac_roman(pdf: canvas.Canvas) -> None:
    pdf.setFont(_font("Helvetica-Mac"), 9)
    pdf.drawString(40, 800, "Café déjà vu: 12")  # é is byte 0x8E, not cp1252's Ž


def _differences(pdf: canvas.Canvas) -> None:
    pdf.drawString(40, 820, "x")  # registers Helvetica (/F1) with the page
    pdf._code.append("BT /F1 9 Tf 40 800 Td (ABC) Tj ET")


def _hex(pdf: canvas.Canvas) -> None:
    pdf.drawString(40, 820, "x")
    pdf._code.append("BT /F1 9 Tf 40 800 Td <48657820737472696e67> Tj ET")


def _quote(pdf: canvas.Canvas) -> None:
    pdf.drawString(40, 820, "x")
    pdf._code.append("BT /F1 9 Tf 12 TL 40 800 Td (next line) ' 1 2 (spaced) \" ET")


def _form(pdf: canvas.Canvas) -> None:
    pdf.beginForm("header")
    pdf.drawString(40, 820, "Text inside a form XObject 7,777")
    pdf.endForm()
    pdf.doForm("header")
    pdf.drawString(40, 700, "outside the form")


def _embedded(pdf: canvas.Canvas) -> None:
    pdf.setFont(_font("Vera"), 10)
    pdf.drawString(40, 800, "Embedded subset font: Total assets 45,818,572 — €")


def _cid(pdf: canvas.Canvas) -> None:
    pdf.setFont(_font("STSong-Light"), 10)
    pdf.drawString(40, 800, "盈利預警 profit warning 2025")


CASES: dict[str, tuple[Draw, bool]] = {
    "winansi": (_plain, True),
    "macroman": (_mac_roman, True),
    "hex-string": (_hex, False),
    "quote-operators": (_quote, False),
    "form-xobject": (_form, False),
    "embedded-ttf": (_embedded, False),
    "cid-font": (_cid, False),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_fast_path_only_where_trusted_and_same_characters(case: str) -> None:
    draw, trusted = CASES[case]
    content = _render(draw)
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        expected = pdf.pages[0].extract_text()
        assert (page_literals(pdf.pages[0].page_obj) is not None) is trusted
    assert _squeezed(expected)  # the case draws text: the comparison would be vacuous otherwise
    assert _squeezed(parse_pdf("c.pdf", content).prose) == _squeezed(expected)


def test_differences_are_not_read_as_winansi() -> None:
    content = _render(_differences)
    helvetica = b"/BaseFont /Helvetica /Encoding /WinAnsiEncoding"
    assert helvetica in content
    # same byte length: 65 (A) shows the glyph "Z" under the font's own encoding
    patched = b"/BaseFont /Helvetica /Encoding<</Differences[65/Z]>>"
    patched += b" " * (len(helvetica) - len(patched))
    content = content.replace(helvetica, patched)
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        assert page_literals(pdf.pages[0].page_obj) is None
        expected = pdf.pages[0].extract_text()
    assert "ZBC" in expected
    assert _squeezed(parse_pdf("d.pdf", content).prose) == _squeezed(expected)


def test_macroman_bytes_decode_through_their_own_table() -> None:
    with pdfplumber.open(io.BytesIO(_render(_mac_roman))) as pdf:
        literals = page_literals(pdf.pages[0].page_obj)
    assert literals is not None
    assert "".join(literals) == "Café déjà vu: 12"  # the spaces are drawn in Symbol


def test_font_restored_by_q_Q_is_the_one_that_shows() -> None:
    def first(pdf: canvas.Canvas) -> None:
        # reportlab's name for the first subset of the first embedded font (asserted below)
        pdf._code.append("BT /F2+0 10 Tf ET")  # selected, nothing shown with it yet
        pdf.saveState()
        pdf.setFont("Helvetica", 9)
        pdf.drawString(40, 780, "inside")
        pdf.restoreState()  # Q: the embedded font is current again
        pdf._code.append("BT 1 0 0 1 40 760 Tm (after) Tj ET")

    def second(pdf: canvas.Canvas) -> None:
        pdf.setFont(_font("Vera"), 10)
        pdf.drawString(40, 800, "the embedded font is used on the document")

    content = _render(first, second)
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        fonts = resolve1(pdf.pages[0].page_obj.resources["Font"])
        assert "ToUnicode" in resolve1(fonts["F2+0"])  # the embedded subset
        assert page_literals(pdf.pages[0].page_obj) is None
        expected = [page.extract_text() for page in pdf.pages]
    assert _squeezed(parse_pdf("q.pdf", content).prose) == _squeezed("".join(expected))
