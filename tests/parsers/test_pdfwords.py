"""The fast reader must give exactly extract_words() and extract_text(), whatever the text state.

Each case draws text in a way that moves glyphs differently (spacing operators, TJ kerning,
rotation, skew, embedded subset fonts, form XObjects, a shifted MediaBox, a rotated page) and
compares our words with pdfplumber's on every page.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pdfplumber
import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from domain.errors import ParseError
from tasks.parsers.documents import pdf as pdf_module
from tasks.parsers.documents.pdf import parse_pdf
from tasks.parsers.documents.pdfminer_words import page_text, page_words
from tests.parsers.conftest import ARCHIVE, DIVIDEND_PDF, FIXTURES, Q4_2024_PDF

Draw = Callable[[canvas.Canvas], None]


def _render(draw: Draw, rotation: int = 0) -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    pdf.setPageRotation(rotation)
    pdf.setFont("Helvetica", 9)
    draw(pdf)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _plain(pdf: canvas.Canvas) -> None:
    pdf.drawString(40, 800, "Total revenue  and  other income, net")
    pdf.drawRightString(400, 800, "(1,234,567)")
    pdf.drawString(40, 780, "ﬁnancing ﬂows")  # ligatures: expanded by the word extractor
    pdf.drawString(40, 760, "Glued")
    pdf.drawString(64.5, 760, "Words")  # 2 pt after "Glued": joined into one word


def _spacing(pdf: canvas.Canvas) -> None:
    text = pdf.beginText(40, 800)
    text.setCharSpace(1.5)
    text.setWordSpace(6)
    text.setHorizScale(80)
    text.textLine("Net income attributable to shareholders 4,160,063")
    text.setRise(3)
    text.setCharSpace(0)
    text.textLine("risen text 12.5%")
    pdf.drawText(text)


def _kerning(pdf: canvas.Canvas) -> None:
    pdf.drawString(40, 820, "x")  # registers Helvetica as /F1 on the page
    # TJ arrays: small kerns stay inside a word, a large one (-900) splits it
    pdf._code.append("BT /F1 9 Tf 1 0 0 1 40 800 Tm [(Ker) 40 (ned) -900 (gap) 200 (ok)] TJ ET")
    pdf._code.append("BT /F1 9 Tf 1 0 0 1 40 780 Tm [(RMB) -2500 (\\(366,065\\))] TJ ET")


def _rotated(pdf: canvas.Canvas) -> None:
    pdf.drawString(40, 800, "upright line 1,000")
    pdf.saveState()
    pdf.translate(300, 400)
    pdf.rotate(90)
    pdf.drawString(0, 0, "rotated ninety 2,000")
    pdf.restoreState()
    pdf.saveState()
    pdf.translate(100, 300)
    pdf.skew(10, 0)
    pdf.drawString(0, 0, "skewed text 3,000")
    pdf.restoreState()
    pdf.saveState()
    pdf.translate(100, 200)
    pdf.scale(-1, 1)
    pdf.drawString(0, 0, "mirrored 4,000")
    pdf.restoreState()


def _embedded(pdf: canvas.Canvas) -> None:
    import reportlab

    vera = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"
    pdfmetrics.registerFont(TTFont("VeraTest", str(vera)))
    pdf.setFont("VeraTest", 10)
    pdf.drawString(40, 800, "Embedded subset font: Total assets 45,818,572")
    pdf.drawRightString(500, 780, "—  (96,331)  €")


def _form(pdf: canvas.Canvas) -> None:
    pdf.beginForm("header")
    pdf.setFont("Helvetica", 8)
    pdf.drawString(40, 820, "Text inside a form XObject 7,777")
    pdf.endForm()
    pdf.doForm("header")
    pdf.drawString(40, 700, "outside the form")


CASES: dict[str, Draw] = {
    "plain": _plain,
    "spacing": _spacing,
    "kerning": _kerning,
    "rotated": _rotated,
    "embedded": _embedded,
    "form": _form,
}


def _assert_same_words(content: bytes, **open_args: object) -> None:
    with pdfplumber.open(io.BytesIO(content), **open_args) as pdf:  # type: ignore[arg-type]
        drawn = 0  # a report's blank pages draw none; the document must draw some
        for page in pdf.pages:
            ours, theirs = page_words(page), page.extract_words()
            drawn += len(theirs)
            assert ours == theirs
            assert page_text(page) == page.extract_text()
        assert drawn, "the case draws no words: the comparison would be vacuous"


@pytest.mark.parametrize("case", sorted(CASES))
def test_same_words_as_pdfplumber(case: str) -> None:
    _assert_same_words(_render(CASES[case]))


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_rotated_page(rotation: int) -> None:
    _assert_same_words(_render(_plain, rotation=rotation))


def test_shifted_mediabox() -> None:
    content = _render(_plain)
    box = b"/MediaBox [ 0 0 595.2756 841.8898 ]"
    assert box in content
    # same byte length, so the cross-reference offsets stay valid
    _assert_same_words(content.replace(box, b"/MediaBox [ 9 7 595.2756 841.8898 ]"))


def test_unicode_normalisation_applied() -> None:
    _assert_same_words(_render(_plain), unicode_norm="NFKC")


def test_kerning_splits_words_like_pdfplumber() -> None:
    with pdfplumber.open(io.BytesIO(_render(_kerning))) as pdf:
        texts = [w["text"] for w in page_words(pdf.pages[0])]
    assert texts[1:3] == ["Kerned", "gapok"]


@pytest.mark.parametrize(
    "path",
    sorted([*ARCHIVE.rglob("*.pdf"), *FIXTURES.rglob("*.pdf")]),
    ids=lambda p: p.name if isinstance(p, Path) else "",
)
def test_fixture_documents(path: Path) -> None:
    _assert_same_words(path.read_bytes())


@pytest.mark.parametrize("path", [Q4_2024_PDF, DIVIDEND_PDF], ids=["results", "dividend"])
def test_fallback_path_gives_the_same_document(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    content = path.read_bytes()
    fast = parse_pdf(path.name, content)
    monkeypatch.setattr(pdf_module, "page_words", lambda *args: [])  # forces extract_words
    assert parse_pdf(path.name, content) == fast


def test_results_tables_come_from_the_fast_reader() -> None:
    assert len(parse_pdf(Q4_2024_PDF.name, Q4_2024_PDF.read_bytes()).tables) >= 6


def test_interpreter_failure_is_a_one_line_parse_error(monkeypatch: pytest.MonkeyPatch) -> None:
    class Failing:
        def __init__(self, *args: object) -> None:
            pass

        def process_page(self, page: object) -> None:
            raise RuntimeError("bad operator\nsecond line")

    monkeypatch.setattr("tasks.parsers.documents.pdfminer_words.PDFPageInterpreter", Failing)
    with pytest.raises(ParseError, match="broken.pdf: unreadable PDF") as info:
        parse_pdf("broken.pdf", Q4_2024_PDF.read_bytes())
    assert "\n" not in str(info.value)
