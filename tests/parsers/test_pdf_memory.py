"""What keeps the PDF path's memory from following the page count: nothing held per page.

Each page's content streams are decoded into copies that go with the page (pdfminer's object
cache would keep every decoded stream until the PDF is closed), the document text is not a
second copy of the running text, and cleaning a long running text holds under two more copies
of it (one pass at a time over the whole text held three).
"""

from __future__ import annotations

import io
import sys
import tracemalloc

import pdfplumber
from pdfminer.pdftypes import PDFStream, resolve1

from tasks.parsers.documents import running_text
from tasks.parsers.documents.pdf import _read_page, parse_pdf
from tasks.parsers.documents.pdfium_text import PageTexts
from tests.parsers.conftest import Q4_2024_PDF


def test_pages_leave_no_decoded_stream_in_the_document() -> None:
    running: list[str] = []
    content = Q4_2024_PDF.read_bytes()
    with pdfplumber.open(io.BytesIO(content)) as pdf, PageTexts(content) as texts:
        pages = enumerate(pdf.pages, 1)
        tables = [t for n, page in pages for t in _read_page(n, page, running, texts)[0]]
        streams = [resolve1(s) for page in pdf.pages for s in page.page_obj.contents]
    assert tables and running  # statement pages were interpreted, running text was read
    assert streams and all(isinstance(s, PDFStream) for s in streams)
    assert all(s.data is None for s in streams)  # never decoded in the document's own objects


def test_document_text_is_built_not_held() -> None:
    doc = parse_pdf(Q4_2024_PDF.name, Q4_2024_PDF.read_bytes())
    assert doc.prose and doc.tables
    assert doc.text == f"{doc.prose}\n{doc.body}"
    assert doc.prose not in doc.body  # the running text is held once, in ``running_text``


def test_cleaning_a_long_text_holds_under_two_more_copies() -> None:
    line = "Net income was RMB1,234 million*1, compared to “RMB1,000 million” in 2023.  \n"
    text = line * 20_000  # every stretch holds non-Latin-1 quotes: two bytes a character
    size = sys.getsizeof(text)
    tracemalloc.start()
    try:
        cleaned = running_text.clean(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert cleaned.startswith("Net income was RMB1,234 million, compared to")
    assert peak < 2.5 * size  # one pass at a time over the whole text peaked at 3.5x
