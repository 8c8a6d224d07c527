"""The HKEx results announcement and the cash dividend announcement form as PDFs."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib import colors
from reportlab.platypus import Flowable, PageBreak, Paragraph, Spacer
from reportlab.platypus import Table as RLTable
from reportlab.platypus import TableStyle as RLStyle

from fixturegen import hkex_pdf as hp
from fixturegen.seedparse import parse

SEEDS = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "seeds"
RESULTS = "hkex_03660_2025-03-17_q4-2024-results.txt"
DIVIDEND = "hkex_03660_2024-03-13_dividend-form-h2-2023.txt"
SECTIONS = ("Information relating", "Other information", "Directors of the issuer")


def _cover(text: str) -> list[Flowable]:
    """Page 1: HKEx disclaimer, issuer block, announcement title, body, signature."""
    flow: list[Flowable] = []
    for par in [p.strip() for p in text.split("\n\n") if p.strip()]:
        clean = hp.plain(par).strip()
        if not clean:
            continue  # the Chinese name: Helvetica cannot draw it
        if par.startswith("Hong Kong Exchanges"):
            flow.append(Paragraph(hp.markup(par), hp.BODY))
        elif par.startswith("**"):
            flow.append(Paragraph(hp.markup(par.replace("**", "")), hp.TITLE))
        elif len(par) < 90 or "\n" in par:
            flow.append(Paragraph(hp.markup(par), hp.CENTER))
        else:
            flow.append(Paragraph(hp.markup(par), hp.BODY))
    return flow


def results_pdf() -> bytes:
    """Q4/FY 2024 results: cover announcement, press release, one page per statement."""
    text = (SEEDS / RESULTS).read_text(encoding="utf-8")
    idx = text.index("Qifu Technology Announces Fourth Quarter")
    flow = _cover(text[:idx]) + [PageBreak()] + hp.blocks_flowables(parse(text[idx:]))
    return hp.render(flow, "Announcement of the Fourth Quarter and Full Year 2024 Results")


def _form_rows(text: str) -> tuple[list[list[object]], list[tuple]]:
    """Label/value rows of the form; section captions and free text span both columns."""
    rows: list[list[object]] = []
    cmds: list[tuple] = []
    for line in text.splitlines():
        if "\t" not in line:
            continue
        label, _, value = (c.strip() for c in line.partition("\t"))
        if not label and value and rows:
            rows[-1][1] = Paragraph(f"{rows[-1][1].text}<br/>{hp.markup(value)}", hp.FORM_CELL)
            continue
        if label in ("Disclaimer", "Cash Dividend Announcement for Equity Issuer") or (
            label.startswith("Hong Kong Exchanges")
        ):
            continue
        if value:
            rows.append(
                [
                    Paragraph(hp.markup(label), hp.FORM_CELL),
                    Paragraph(hp.markup(value), hp.FORM_CELL),
                ]
            )
            continue
        bold = label.startswith(SECTIONS)
        rows.append([Paragraph(hp.markup(label), hp.FORM_BOLD if bold else hp.FORM_CELL), ""])
        cmds.append(("SPAN", (0, len(rows) - 1), (1, len(rows) - 1)))
        if bold:
            cmds.append(("BACKGROUND", (0, len(rows) - 1), (1, len(rows) - 1), colors.lightgrey))
    return rows, cmds


def dividend_pdf() -> bytes:
    """EF001-style "Cash Dividend Announcement for Equity Issuer": a ruled two-column form."""
    text = (SEEDS / DIVIDEND).read_text(encoding="utf-8")
    disclaimer = next(ln for ln in text.splitlines() if ln.startswith("Hong Kong Exchanges"))
    rows, cmds = _form_rows(text)
    table = RLTable(rows, colWidths=[200, 323])
    table.setStyle(
        RLStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                *cmds,
            ]
        )
    )
    flow: list[Flowable] = [
        Paragraph("<b>Disclaimer</b>", hp.BOLD),
        Paragraph(hp.markup(disclaimer.strip()), hp.BODY),
        Spacer(1, 6),
        Paragraph("Cash Dividend Announcement for Equity Issuer", hp.TITLE),
        table,
    ]
    return hp.render(flow, "Cash Dividend Announcement for Equity Issuer")
