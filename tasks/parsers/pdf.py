"""HKEx PDF announcement -> RawTables (via pdfplumber).

Only pages that hold a statement title are parsed. The title is first looked for in the raw
(decompressed) content stream, which costs no text interpretation; only when no page's stream
shows a literal string at all (fonts with encoded glyphs) are the pages' glyphs read instead.
Each page is released after use, so time and memory stay flat in the page count. A statement
page's words come from pdfwords (pdfminer's interpreter without pdfplumber's per-glyph objects;
the same words as ``page.extract_words()``, which stays the fallback) and are grouped into
lines and cells by position; grid.align finds the columns. The running text (narrative,
outlook, dividend form) is the content streams' literal strings in drawing order; only when a
PDF has none (encoded glyphs) is the page text used (pdfwords.page_text, equal to
``page.extract_text()``), page by page."""

from __future__ import annotations

import io
import re

import pdfplumber
from pdfminer.pdfparser import PDFSyntaxError
from pdfminer.pdftypes import resolve1
from pdfplumber.utils.exceptions import PdfminerException

from tasks.errors import ParseError
from tasks.parsers.grid import Placed, align, is_figure
from tasks.parsers.numbers import clean_cell
from tasks.parsers.pdfwords import page_chars, page_text, page_words
from tasks.parsers.tables import ParsedDocument, RawTable, make_rows

_MARKERS = ("condensedconsolidated", "inthousandsof", "ifrss", "reconciliationsofgaap")
_TITLE = re.compile(
    r"^(unaudited|condensed consolidated|\(amounts in|\(in thousands|otherwise noted|except for|"
    r"as (of|at) |(three|six|nine) months ended|year ended|appendix)",
    re.IGNORECASE,
)
_GLUED = re.compile(r"(?<=\d)(?=[A-Z][a-z])")  # "2023December" where header cells touch
_LITERAL = re.compile(r"\(((?:[^()\\]|\\.)*)\)\s*Tj")
_ESCAPE = re.compile(r"\\([0-7]{1,3}|.)")
_LINE_TOLERANCE = 2.0
_WORD_GAP = 4.0


def parse_pdf(name: str, content: bytes) -> ParsedDocument:
    """Parse the statement pages of a PDF into tables with their preambles."""
    tables: list[RawTable] = []
    texts: list[str] = []
    try:
        with pdfplumber.open(io.BytesIO(content)) as pdf:
            wanted, literals = _statement_pages(pdf)
            for number, page in enumerate(pdf.pages, start=1):
                if number in wanted:
                    tables.extend(_page_tables(number, page))
                if not literals:
                    # no readable content stream (encoded glyphs): the slow path, per page
                    texts.append(page_text(page))
                page.close()
    except (PdfminerException, PDFSyntaxError, ValueError, KeyError, TypeError) as exc:
        detail = " ".join(str(exc).split())  # one line, whatever pdfminer's message holds
        raise ParseError(f"{name}: unreadable PDF ({detail})") from exc
    rows = ["\t".join(r) for t in tables for r in (*((p,) for p in t.preamble), *t.rows)]
    # stream literals carry the running text in drawing order without text interpretation
    prose = "\n".join(literals) if literals else "\n".join(texts)
    return ParsedDocument(tuple(tables), "\n".join([prose, *rows]), prose)


def _statement_pages(pdf: pdfplumber.PDF) -> tuple[set[int], list[str]]:
    """Pages showing a statement title, and the literal strings of every page.

    Only the literals of each content stream are kept (not the stream), so memory follows the
    document's text, not its drawing operators.
    """
    pages = set()
    literals: list[str] = []
    for number, page in enumerate(pdf.pages, start=1):
        raw = _raw_stream(page)
        if _has_marker(raw):
            pages.add(number)
        literals += _literals(raw)
    if pages or literals:
        return pages, literals  # readable streams that show no statement title: none to parse
    for number, page in enumerate(pdf.pages, start=1):
        if _has_marker("".join(c["text"] for c in page_chars(page))):
            pages.add(number)
        page.close()
    return pages, []


def _literals(raw: str) -> list[str]:
    """The literal strings shown by Tj operators, one per drawn line (standard-font text)."""
    return [_unescape(m) for m in _LITERAL.findall(raw)]


def _unescape(literal: str) -> str:
    """PDF string escapes (``\\(``, ``\\223``) -> text; bytes are WinAnsi (cp1252)."""

    def one(match: re.Match[str]) -> str:
        code = match[1]
        return (
            chr(int(code, 8)) if code[0] in "01234567" else {"n": "\n", "t": "\t"}.get(code, code)
        )

    return _ESCAPE.sub(one, literal).encode("latin-1").decode("cp1252", errors="replace")


def _raw_stream(page: pdfplumber.page.Page) -> str:
    contents = resolve1(page.page_obj.attrs.get("Contents"))
    streams = contents if isinstance(contents, list) else [contents]
    data = b"".join(resolve1(s).get_data() for s in streams if s is not None)
    return data.decode("latin-1")


def _has_marker(text: str) -> bool:
    squeezed = "".join(text.lower().split())
    return any(m in squeezed for m in _MARKERS)


def _page_tables(number: int, page: pdfplumber.page.Page) -> list[RawTable]:
    # the same words as page.extract_words(), without building pdfplumber's per-glyph dicts
    lines = _lines(page_words(page) or page.extract_words())
    left = min((cell.start for line in lines for cell in line), default=0.0)
    out: list[RawTable] = []
    preamble: list[str] = []
    rows: list[list[Placed]] = []
    for line in lines:
        if _is_title(line, left):
            if rows:
                out.append(_table(number, len(out) + 1, preamble, rows))
                preamble, rows = [], []
            preamble.append(" ".join(c.text for c in line))
        else:
            rows.append(line)
    if rows:
        out.append(_table(number, len(out) + 1, preamble, rows))
    return out


def _is_title(line: list[Placed], left: float) -> bool:
    text = " ".join(c.text for c in line)
    at_margin = line[0].start <= left + 5
    return at_margin and not any(is_figure(c.text) for c in line) and bool(_TITLE.match(text))


def _table(page: int, index: int, preamble: list[str], rows: list[list[Placed]]) -> RawTable:
    grid = make_rows(align(rows, tolerance=1.0, regions=True))
    return RawTable(f"page {page}, table {index}", tuple(preamble), grid)


def _lines(words: list[dict]) -> list[list[Placed]]:
    lines: list[list[dict]] = []
    for word in sorted(words, key=lambda w: (round(w["top"]), w["x0"])):
        if lines and abs(lines[-1][0]["top"] - word["top"]) <= _LINE_TOLERANCE:
            lines[-1].append(word)
        else:
            lines.append([word])
    return [_cells(sorted(line, key=lambda w: w["x0"])) for line in lines]


def _cells(words: list[dict]) -> list[Placed]:
    cells: list[Placed] = []
    for word in words:
        text = clean_cell(word["text"])
        prev = cells[-1] if cells else None
        joinable = prev is not None and not is_figure(text) and not is_figure(prev.text)
        if prev is not None and joinable and word["x0"] - prev.end <= _WORD_GAP:
            cells[-1] = Placed(prev.start, word["x1"], f"{prev.text} {text}")
        else:
            cells.append(Placed(word["x0"], word["x1"], text))
    return [piece for cell in cells for piece in _unglue(cell)]


def _unglue(cell: Placed) -> list[Placed]:
    parts = _GLUED.split(cell.text)
    if len(parts) == 1:
        return [cell]
    per_char = (cell.end - cell.start) / max(len(cell.text), 1)
    out, x = [], cell.start
    for part in parts:
        out.append(Placed(x, x + per_char * len(part), part.strip()))
        x += per_char * len(part)
    return out
