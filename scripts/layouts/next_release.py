"""QFIN's statements re-laid the way its next results release printed them (issue 36 item 2):
column heads that do not sit over their columns. Built from the real seeds' text; every label
and figure stays printed, only the layout changes.

- ``spaced_text``: the text as published. Columns are runs of spaces; each header line is a
  line of its own with a blank line between header lines ("Three months ended" / "December
  31," above "  2023  2024  2024"), set where the typesetter put them, not over the figures;
  rows print their figures one space apart in some rows, runs of spaces in others ("Credit
  driven services 2,630,621 3,016,282  417,750").
- ``one_cell``: the seed with each header line's heads in ONE cell spanning every value
  column (``across``: the label column's too), an empty header row between header lines;
  ``label_cell``: the heads in the label cell. Drawn by the fixture generator (render.py)
  as EDGAR-style HTML (one ``<td colspan>``) or as a PDF (one text run in a spanning cell).
- ``text_pdf``: the published text saved as a PDF, each line one text run.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fixturegen.hkex_pdf import plain  # noqa: E402

_ENDED = re.compile(r"^(.*?\bended)\s+(.+)$", re.I)
_DATE = re.compile(r"^([A-Z][a-z]+ \d{1,2},?)\s+((?:19|20)\d{2})$")
# the gaps between figures, cycled over the rows: one space, runs, and both in one row
_GAPS = ((" ",), ("  ", "   "), (" ", " ", "  "), ("    ",))


def _is_table_line(line: str) -> bool:
    return "\t" in line


def _header_lines(cells: list[str]) -> list[str]:
    """One header row's heads as the lines a typesetter prints them: a spanning group phrase
    ("Three months ended December 31,") as two lines, "ended" ending the first; full dates
    ("December 31, 2023") as a line of month and day over a line of years."""
    heads = [c.strip() for c in cells[1:] if c.strip()]
    if not heads:
        return []
    groups = [_ENDED.match(h) for h in heads]
    if all(groups):
        return ["  ".join(g[1] for g in groups if g), "  ".join(g[2] for g in groups if g)]
    dates = [_DATE.match(h) for h in heads]
    if all(dates):
        return ["  ".join(d[1] for d in dates if d), "  ".join(d[2] for d in dates if d)]
    return ["  ".join(heads)]


def _spaced_row(cells: list[str], index: int) -> str:
    label = cells[0].strip()
    figures = [c.strip() for c in cells[1:] if c.strip()]
    if not figures:
        return label
    gaps = _GAPS[index % len(_GAPS)]
    out = label + gaps[-1 if index % 2 else 0]
    for i, figure in enumerate(figures):
        out += (gaps[(i - 1) % len(gaps)] if i else "") + figure
    return out


def _is_head(cells: list[str]) -> bool:
    return not cells[0].strip() and not any(re.search(r"\d,\d|\d\.\d", c) for c in cells[1:])


def spaced_text(seed: str) -> str:
    """The seed with every tab-separated table printed as QFIN's next release printed its own."""
    out: list[str] = []
    for line in seed.split("\n"):
        if not _is_table_line(line):
            out.append(line)
            continue
        cells = line.split("\t")
        if not _is_head(cells):
            out.append(_spaced_row(cells, len(out)))
            continue
        heads = _header_lines(cells)
        for i, head in enumerate(heads):
            # a group's phrase set right by eye, its date under it; years and currencies
            # at the margin
            pad = (40, 42)[i] if len(heads) == 2 else 2
            out += ["", " " * pad + head.replace("  ", " " * 14 if len(heads) == 2 else "  ")]
    return "\n".join(out)


def one_cell(seed: str, across: bool = False) -> str:
    """The seed with each header line's heads in one cell spanning every value column
    (fixturegen's ``{n}`` span mark; ``across``: the label column's too, ``{all}``), an
    empty header row between header lines."""
    out: list[str] = []
    for line in seed.split("\n"):
        cells = line.split("\t")
        if not _is_table_line(line) or not _is_head(cells):
            out.append(line)
            continue
        mark = "{all}" if across else f"{{{len(cells) - 1}}}"
        for i, head in enumerate(_header_lines(cells)):
            if i:
                out.append(f"\t{mark}")
            out.append(f"\t{head}{mark}")
    return "\n".join(out)


def label_cell(seed: str) -> str:
    """The seed with each header line's heads in one cell at the row's start (the label
    column), the value cells of the row empty, an empty row between header lines."""
    out: list[str] = []
    for line in seed.split("\n"):
        cells = line.split("\t")
        if not _is_table_line(line) or not _is_head(cells):
            out.append(line)
            continue
        blank = "\t" * (len(cells) - 1)
        for i, head in enumerate(_header_lines(cells)):
            if i:
                out.append("\u00a0" + blank)
            out.append(head + blank)
    return "\n".join(out)


def text_pdf(text: str, size: float = 7.5) -> bytes:
    """``plain_text`` drawn line by line in Helvetica, each line one text run (as a word processor
    saves the published text as PDF): runs of spaces kept, nothing placed in columns;
    running text wrapped to the page's width."""
    buf = io.BytesIO()
    pdf = canvas.Canvas(buf, pagesize=A4, invariant=1)
    y = A4[1] - 40
    for line in (part for printed in text.split("\n") for part in _fitted(plain(printed), size)):
        if y < 40 or (line.startswith("Unaudited ") and y < A4[1] - 40):
            pdf.showPage()  # every statement on a new page, as the fixture generator's
            y = A4[1] - 40
        pdf.setFont("Helvetica", size)
        pdf.drawString(36, y, line)
        y -= size * 1.35
    pdf.save()
    return buf.getvalue()


def _fitted(line: str, size: float, width: float = A4[0] - 72) -> list[str]:
    """A line as the lines it wraps into at ``width`` points (a table row is never wrapped:
    the rows of the seed fit)."""
    if not line.strip() or re.search(r"[\d)%-]$", line):
        return [line]
    out, current = [], ""
    for word in line.split(" "):
        if current and stringWidth(f"{current} {word}", "Helvetica", size) > width:
            out.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    return [*out, current]
