"""HKEXnews PDFs drawn with reportlab: standard Helvetica, ruled and borderless tables."""

from __future__ import annotations

import html
import io
import re
import unicodedata

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    Flowable,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
)
from reportlab.platypus import Table as RLTable
from reportlab.platypus import TableStyle as RLStyle

from fixturegen.edgar_html import SPAN_ALL, SPAN_MARK
from fixturegen.seedparse import NIL_MARKS, Block, Para, Table

BODY = ParagraphStyle(
    "body", fontName="Helvetica", fontSize=9, leading=11.5, alignment=TA_JUSTIFY, spaceAfter=5
)
BOLD = ParagraphStyle("bold", parent=BODY, fontName="Helvetica-Bold", alignment=0)
CENTER = ParagraphStyle("center", parent=BODY, alignment=TA_CENTER, spaceAfter=2)
TITLE = ParagraphStyle(
    "title", parent=CENTER, fontName="Helvetica-Bold", fontSize=11, leading=14, spaceAfter=8
)
CELL = ParagraphStyle("cell", fontName="Helvetica", fontSize=7, leading=8.5)
FORM_CELL = ParagraphStyle("formcell", fontName="Helvetica", fontSize=8.5, leading=10.5)
FORM_BOLD = ParagraphStyle("formbold", parent=FORM_CELL, fontName="Helvetica-Bold")
RULED = {"Balance Sheets", "Statements of Operations", "Reconciliations"}


def plain(text: str) -> str:
    """Text Helvetica can draw: superscripts folded, characters outside cp1252 dropped."""
    text = text.replace("\\$", "$")
    folded = "".join(unicodedata.normalize("NFKC", c) if c in "⁰¹²³⁴⁵⁶⁷⁸⁹" else c for c in text)
    return folded.encode("cp1252", "ignore").decode("cp1252")


def markup(text: str) -> str:
    """Seed markup to reportlab paragraph markup."""
    out = html.escape(plain(text), quote=False)
    out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out, flags=re.S)
    # superscript markers ("^{*1}") hide their asterisks from the italics rule
    out = re.sub(
        r"\^\{(.+?)\}", lambda m: "<super>" + m.group(1).replace("*", "\x01") + "</super>", out
    )
    out = re.sub(r"(?<![\w*])\*([^*\n][^*]*?)\*(?![\w*])", r"<i>\1</i>", out)
    out = out.replace("\x01", "*")
    out = re.sub(r"&lt;(https?://[^&\s]+)&gt;", r"\1", out)
    return out.replace("\n", "<br/>")


def render(flowables: list[Flowable], title: str) -> bytes:
    """PDF bytes; ``invariant`` fixes the timestamps and the document id."""
    buf = io.BytesIO()
    doc = SimpleDocTemplate(
        buf,
        pagesize=A4,
        invariant=1,
        title=title,
        author="Qifu Technology",
        creator="filings-pipeline fixtures",
        leftMargin=36,
        rightMargin=36,
        topMargin=36,
        bottomMargin=36,
    )
    doc.build(flowables)
    return buf.getvalue()


def _value(raw: str) -> str:
    return "\u2014" if raw in NIL_MARKS else raw


def statement_table(table: Table) -> RLTable:
    """A statement as a reportlab Table: period captions span their columns."""
    ncols = table.ncols
    data: list[list[object]] = []
    spans: list[tuple[int, int, int]] = []
    head_rows = 0
    for r, row in enumerate(table.rows):
        cells = (row.cells + [""] * ncols)[: ncols + 1]
        if row.kind == "head":
            head_rows = r + 1
            if cells[1].endswith(SPAN_ALL):  # one text run across the whole table
                cells = [cells[1].removesuffix(SPAN_ALL)] + [""] * ncols
                spans.append((r, 0, ncols))
            for c in range(1, ncols + 1):
                marked = SPAN_MARK.search(cells[c])
                if marked:  # "{n}": the caption spans n columns, drawn as one text run
                    cells[c] = SPAN_MARK.sub("", cells[c])
                    spans.append((r, c, c + int(marked.group(1)) - 1))
                elif "ended" in cells[c]:
                    end = c
                    while end + 1 <= ncols and not cells[end + 1]:
                        end += 1
                    spans.append((r, c, end))
            data.append(cells)
        else:
            data.append([Paragraph(markup(cells[0]), CELL)] + [_value(v) for v in cells[1:]])
    value_width = min(62.0, (523 - 190) / ncols)
    tbl = RLTable(
        data, colWidths=[523 - value_width * ncols] + [value_width] * ncols, repeatRows=head_rows
    )
    ruled = any(k in (table.title[0] if table.title else "") for k in RULED)
    tbl.setStyle(RLStyle(_style(spans, head_rows, ruled)))
    return tbl


def _style(spans: list[tuple[int, int, int]], head_rows: int, ruled: bool) -> list[tuple]:
    cmds: list[tuple] = [
        ("FONT", (0, 0), (-1, -1), "Helvetica", 7),
        ("FONT", (0, 0), (-1, head_rows - 1), "Helvetica-Bold", 7),
        ("ALIGN", (1, 0), (-1, head_rows - 1), "CENTER"),
        ("ALIGN", (1, head_rows), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ]
    cmds += [("SPAN", (c0, r), (c1, r)) for r, c0, c1 in spans]
    cmds += [("ALIGN", (0, r), (c1, r), "CENTER") for r, c0, c1 in spans if c0 == 0]
    if ruled:
        cmds.append(("GRID", (0, 0), (-1, -1), 0.5, colors.black))
    return cmds


def blocks_flowables(blocks: list[Block]) -> list[Flowable]:
    """Narrative as paragraphs; every statement starts a new page."""
    out: list[Flowable] = []
    for block in blocks:
        if isinstance(block, Table):
            if block.title:
                out.append(PageBreak())
                out += [
                    Paragraph(markup(t), BOLD if i == 0 else BODY)
                    for i, t in enumerate(block.title)
                ]
            out.append(statement_table(block))
            out.append(Spacer(1, 8))
        elif isinstance(block, Para):
            style = BOLD if block.kind == "heading" else BODY
            prefix = "- " if block.kind == "bullet" else ""  # "•" extracts as (cid:127)
            out.append(Paragraph(prefix + markup(block.text), style))
    return out


def simple_pdf(lines: list[str], title: str) -> bytes:
    """A short announcement: centred heading lines, then body paragraphs."""
    flow: list[Flowable] = []
    for line in lines:
        short = len(line) < 70
        flow.append(Paragraph(markup(line), TITLE if line.isupper() else CENTER if short else BODY))
    return render(flow, title)
