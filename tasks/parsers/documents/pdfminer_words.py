"""One PDF page's words and text, as pdfplumber gives them, without its per-glyph objects.

pdfplumber's words come from ``page.chars``: pdfminer builds an LTChar per glyph, then
pdfplumber turns each one into a dict of some twenty resolved attributes (colours, font,
matrix...). On a statement page that is most of the parse time. Here pdfminer's interpreter
(pdfplumber's engine, with the PDF's own resource manager, so embedded and encoded fonts decode
as usual) drives a device that records only what pdfplumber's WordExtractor reads: text and
box. The box arithmetic is LTChar's, and the words come from pdfplumber's own WordExtractor with
its defaults, so the result equals ``page.extract_words()`` (and ``page_text`` equals
``page.extract_text()``).
"""

from __future__ import annotations

import copy
from typing import Any
from unicodedata import normalize

import pdfplumber
from pdfminer.layout import LTChar
from pdfminer.pdfcolor import PDFColorSpace
from pdfminer.pdfdevice import PDFTextDevice, PDFTextSeq
from pdfminer.pdffont import PDFFont, PDFUnicodeNotDefined
from pdfminer.pdfinterp import PDFGraphicState, PDFPageInterpreter, PDFResourceManager
from pdfminer.pdfpage import PDFPage
from pdfminer.pdftypes import PDFStream, resolve1
from pdfminer.utils import Matrix, Point
from pdfplumber.utils.exceptions import PdfminerException
from pdfplumber.utils.text import WordExtractor, chars_to_textmap

Char = dict[str, Any]


def page_words(page: pdfplumber.page.Page, contents: list[object] | None = None) -> list[Char]:
    """The page's words (text, x0, x1, top, bottom, ...), equal to ``page.extract_words()``."""
    return words_of(page_chars(page, contents))


def baseline_words(page: pdfplumber.page.Page, contents: list[object] | None = None) -> list[Char]:
    """The page's words with their glyphs grouped into lines by baseline, not by box: two
    fonts' boxes on one line may stand a line apart (a Chinese label's box below its figures'
    and its dash's), their baselines do not. Each word keeps its glyphs' own box and gives
    its first glyph's ``baseline`` (from the top, like ``top``)."""
    chars = page_chars(page, contents)
    by_base = [
        {**c, "top": c["baseline"] - 1.0, "bottom": c["baseline"]} if c["upright"] else {**c}
        for c in chars
    ]
    originals = {id(b): c for b, c in zip(by_base, chars, strict=True)}
    out = []
    for word, glyphs in WordExtractor().iter_extract_tuples(by_base):
        own = [originals[id(g)] for g in glyphs]
        top, bottom = min(g["top"] for g in own), max(g["bottom"] for g in own)
        doctop = min(g["doctop"] for g in own)
        out.append({**word, "top": top, "bottom": bottom, "doctop": doctop})
        out[-1].update(height=bottom - top, baseline=own[0]["baseline"])
    return out


def page_text(page: pdfplumber.page.Page) -> str:
    """The page's text, equal to ``page.extract_text()`` (pdfplumber's text map, our glyphs)."""
    return text_of(page, page_chars(page))


def words_of(chars: list[Char]) -> list[Char]:
    """Words from a page's ``page_chars`` (read the glyphs once for both words and text)."""
    return [
        {k: v for k, v in word.items() if k != "baseline"}
        for word in WordExtractor().extract_words(chars)
    ]


def text_of(page: pdfplumber.page.Page, chars: list[Char]) -> str:
    """The page text from its ``page_chars``."""
    textmap = chars_to_textmap(
        chars,
        layout_bbox=page.bbox,
        layout_width=page.width,
        layout_height=page.height,
    )
    return textmap.as_string


def page_chars(page: pdfplumber.page.Page, contents: list[object] | None = None) -> list[Char]:
    """Every glyph drawn on the page as {text, x0, x1, top, bottom, doctop, upright}.

    ``contents``: the page's ``decoded_contents`` when the caller has them already.
    """
    pdf = page.pdf
    device = _GlyphDevice(pdf.rsrcmgr, page)
    clone = copy.copy(page.page_obj)  # the page, drawn from copies of its streams
    clone.contents = decoded_contents(page.page_obj) if contents is None else contents
    try:
        PDFPageInterpreter(pdf.rsrcmgr, device).process_page(clone)
    except Exception as exc:  # any pdfminer failure, wrapped the way page.chars wraps it
        raise PdfminerException(exc) from exc
    return device.chars


def decoded_contents(page: PDFPage) -> list[object]:
    """Decoded copies of the page's content streams.

    pdfminer keeps a decoded stream in the document's object cache until the PDF is closed:
    reading every page from the originals would hold every page's stream at once. A copy goes
    with the page.
    """
    out: list[object] = []
    for ref in page.contents:
        stream = resolve1(ref)
        if isinstance(stream, PDFStream):
            stream = copy.copy(stream)
            stream.get_data()  # decoded once, kept by the copy for each reader of the page
        out.append(stream)
    return out


class _GlyphDevice(PDFTextDevice):
    """Records each glyph as the few keys of pdfplumber's char dict that words are built from."""

    def __init__(self, rsrcmgr: PDFResourceManager, page: pdfplumber.page.Page) -> None:
        super().__init__(rsrcmgr)
        self.chars: list[Char] = []
        # pdfplumber's coordinates: y flipped within the page box, shifted by the MediaBox origin
        self._height = float(page.height)
        self._dx, self._dy = float(page.mediabox[0]), float(page.mediabox[1])
        self._doctop = float(page.initial_doctop)
        self._norm = page.pdf.unicode_norm
        self._glyphs: dict[tuple[PDFFont, int], tuple[str, float]] = {}

    def render_string_horizontal(
        self,
        seq: PDFTextSeq,
        matrix: Matrix,
        pos: Point,
        font: PDFFont,
        fontsize: float,
        scaling: float,
        charspace: float,
        wordspace: float,
        rise: float,
        dxscale: float,
        ncs: PDFColorSpace,
        graphicstate: PDFGraphicState,
    ) -> Point:
        """pdfminer's loop, with LTChar's box inlined for unrotated, unskewed text."""
        a, b, c, d, e, f = matrix
        if b or c:  # rotated or skewed: the general path, through render_char
            return super().render_string_horizontal(
                seq, matrix, pos, font, fontsize, scaling, charspace, wordspace, rise,
                dxscale, ncs, graphicstate,
            )  # fmt: skip
        x, y = pos
        low = font.get_descent() * fontsize + rise
        fy = y * d + f  # translate_matrix's f, then apply_matrix_pt: same float operations
        y0, y1 = sorted((d * low + fy, d * (low + fontsize) + fy))
        top, bottom = self._height - y1 + self._dy, self._height - y0 + self._dy
        baseline = self._height - fy + self._dy  # the line's, whatever the rise
        upright = a * d * scaling > 0
        space = False
        for obj in seq:
            if isinstance(obj, (int, float)):
                x -= obj * dxscale
                space = True
                continue
            if not isinstance(obj, bytes):
                continue  # a malformed TJ operand: pdfminer skips it too
            for cid in font.decode(obj):
                if space:
                    x += charspace
                text, width = self._glyph(font, cid)
                adv = width * fontsize * scaling
                ex = x * a + e
                x0, x1 = sorted((ex, a * adv + ex))
                self._add(text, x0, x1, top, bottom, upright, baseline)
                x += adv
                if cid == 32 and wordspace:
                    x += wordspace
                space = True
        return (x, y)

    def render_char(
        self,
        matrix: Matrix,
        font: PDFFont,
        fontsize: float,
        scaling: float,
        rise: float,
        cid: int,
        ncs: PDFColorSpace,
        graphicstate: PDFGraphicState,
    ) -> float:
        """Rotated, skewed or vertical text: LTChar itself works out the box (rare, so slow)."""
        text, width = self._glyph(font, cid)
        char = LTChar(
            matrix, font, fontsize, scaling, rise, text, width, font.char_disp(cid), ncs,
            graphicstate,
        )  # fmt: skip
        top = self._height - char.y1 + self._dy
        bottom = self._height - char.y0 + self._dy
        baseline = self._height - matrix[5] + self._dy  # the glyph's origin, skewed or not
        self._add(text, char.x0, char.x1, top, bottom, char.upright, baseline)
        return char.adv

    def _glyph(self, font: PDFFont, cid: int) -> tuple[str, float]:
        """A glyph's text (LTChar's, "(cid:n)" when unmapped) and width, decoded once per font."""
        key = (font, cid)
        known = self._glyphs.get(key)
        if known is None:
            try:
                text = font.to_unichr(cid)
            except PDFUnicodeNotDefined:
                text = f"(cid:{cid})"
            if self._norm is not None:
                text = normalize(self._norm, text)
            known = self._glyphs[key] = (text, font.char_width(cid))
        return known

    def _add(
        self,
        text: str,
        x0: float,
        x1: float,
        top: float,
        bottom: float,
        upright: bool,
        baseline: float,
    ) -> None:
        self.chars.append(
            {
                "text": text,
                "x0": x0 + self._dx,
                "x1": x1 + self._dx,
                "top": top,
                "bottom": bottom,
                "doctop": top + self._doctop,
                "upright": upright,
                "baseline": baseline,
            }
        )
