"""A PDF page's running text from PDFium (pypdfium2), for pages drawn with encoded fonts.

pdfminer interprets a page's content stream in Python and pdfplumber then lays every glyph out
into a text map: on a page drawn with embedded subset or CID fonts that is most of the parse
time. PDFium reads the same characters in C. Its text keeps the page's reading order and
characters; whitespace (line breaks, spaces in justified lines) may differ from pdfplumber's,
and text drawn outside the page's box (printers' slug labels) is left out.
"""

from __future__ import annotations

import threading
from types import TracebackType

import pypdfium2 as pdfium

# PDFium is not thread-safe, not even across documents: one call at a time in the process
_LOCK = threading.Lock()

PdfiumError = pdfium.PdfiumError


class PageTexts:
    """The pages' text of one PDF; the document is opened on first use, closed by ``close``."""

    def __init__(self, content: bytes) -> None:
        self._content = content
        self._doc: pdfium.PdfDocument | None = None

    def text(self, index: int) -> str:
        """The text of page ``index`` (from 0), lines ending in ``\\n``."""
        with _LOCK:
            if self._doc is None:
                self._doc = pdfium.PdfDocument(self._content)
            page = self._doc[index]
            try:
                textpage = page.get_textpage()
                try:
                    text: str = textpage.get_text_bounded()
                finally:
                    textpage.close()  # released now, not when the collector gets to it
            finally:
                page.close()
        return text.replace("\r\n", "\n").replace("\r", "\n")

    def close(self) -> None:
        """Release the PDFium document, if it was opened."""
        with _LOCK:
            if self._doc is not None:
                self._doc.close()
                self._doc = None

    def __enter__(self) -> PageTexts:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
