"""Render a seed text (or a layout variant of it) in the three formats the extractor reads.

Text is the seed itself; HTML and PDF go through the fixture generator (scripts/fixturegen:
EDGAR-style markup, reportlab PDF), the same tooling that builds the replay archive.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fixturegen import edgar_html, hkex_pdf  # noqa: E402
from fixturegen.seedparse import Para, parse  # noqa: E402
from reportlab.platypus import PageBreak  # noqa: E402
from variants import PAGE_BREAK  # noqa: E402

PAGE_NUMBER = "12"
_NEW_PAGE = '</font></p><hr style="page-break-after:always"><p><font>'

FORMATS = ("text", "html", "pdf")


def render(text: str, fmt: str) -> tuple[str, bytes]:
    """(file name, bytes) of ``plain_text`` drawn as ``fmt``."""
    if fmt == "text":
        return "release.txt", text.replace(PAGE_BREAK, PAGE_NUMBER).encode("utf-8")
    if fmt == "html":
        body = edgar_html.render_blocks(parse(text), {}, edgar_html.TableStyle())
        body = body.replace(PAGE_BREAK, PAGE_NUMBER + _NEW_PAGE)
        return "release.htm", edgar_html.document("Exhibit 99.1", "Exhibit 99.1", body)
    if fmt == "pdf":
        flow = []
        for block in parse(text):
            if isinstance(block, Para) and block.text == PAGE_BREAK:
                flow.append(PageBreak())  # the page number is a footer: not in the text flow
            else:
                flow += hkex_pdf.blocks_flowables([block])
        return "release.pdf", hkex_pdf.render(flow, "Results")
    raise ValueError(f"unknown format {fmt!r}")
