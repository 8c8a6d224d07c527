"""HKEx PDF announcement -> RawTables (via pdfplumber).

Pages are read one at a time and released after use, so time and memory stay flat in the page
count. A page whose content stream can be trusted (pdfliterals: standard fonts with standard
encodings, only ``(...) Tj``) gives its running text from the stream's literal strings, in
drawing order, without text interpretation; any other page (embedded subset or CID fonts, hex
strings, TJ arrays, /Differences...) gives PDFium's text (pdftext: the same characters as
``page.extract_text()`` in C, not pdfminer's interpreter). Only pages whose text shows a
statement title are parsed for tables.
A statement page's words come from pdfwords (pdfminer's interpreter without pdfplumber's
per-glyph objects; the same words as ``page.extract_words()``, which stays the fallback) and
are grouped into lines and cells by position; grid.align finds the columns."""

from __future__ import annotations

import io
import re
import time

import pdfplumber
from pdfminer.pdfparser import PDFSyntaxError
from pdfminer.psexceptions import PSException
from pdfplumber.utils.exceptions import MalformedPDFException, PdfminerException

from tasks.core.errors import ParseError
from tasks.parsers.grid import Placed, align, is_figure, symbols
from tasks.parsers.numbers import CellKind, clean_cell, parse_cell
from tasks.parsers.pdfliterals import page_literals
from tasks.parsers.pdftext import PageTexts, PdfiumError
from tasks.parsers.pdfwords import Char, decoded_contents, page_words
from tasks.parsers.tablemeta import statement_kind
from tasks.parsers.tables import ParsedDocument, RawTable, make_rows

_MARKERS = ("condensedconsolidated", "inthousandsof", "ifrss", "reconciliationsofgaap")
# any edition's statement titles and amount heads, squeezed ("statementoffinancialposition",
# "hk$'000"): a full annual report's statements sit on pages without "condensed"
_EN_MARKERS = re.compile(
    r"statements?of(?:profitorloss|financialposition|cashflows?|comprehensiveincome)"
    r"|consolidated(?:statements?of(?:operations|income|earnings)|balancesheets?|incomestatements?)"
    r"|(?:hk\$|rmb|us\$)['’]000"
)
# a Chinese edition's statement pages: their titles and scale lines
_ZH_MARKERS = re.compile(
    r"[財财][務务][狀状][況况]表|[資资][產产][負负][債债]表|[損损]益(?:及其他全面收益)?表|利[潤润]表"
    r"|[現现]金流量表|人民[幣币](?:千|百萬|百万)元|(?:千|百萬|百万)港元"
)
_TITLE = re.compile(
    r"^(unaudited|condensed consolidated|\(amounts in|\(in thousands|otherwise noted|except for|"
    r"as (of|at) |(three|six|nine) months ended|year ended|appendix"
    r"|(?:未經審核|未经审核)?(?:簡明|简明)?(?:綜合|综合)\S*表$|截至|[於于]\S*日$"
    r"|for the |at \d{1,2} \w+ \d{4}$|\(?continued\)?$)",
    re.IGNORECASE,
)
# a page number printed as page furniture: "– 2 –", "- 12 -"
# what a header line holds and a title's second line does not: a digit, a currency
_HEADER_MARK = re.compile(r"\d|RMB|\$|HK|US|港元|人民")
_DAY = re.compile(r"[0-3]?\d")
_MONTH = re.compile(
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?,?", re.IGNORECASE
)
_PAGE_NUMBER = re.compile(r"[-–—]\s*\d{1,3}\s*[-–—]")
_GLUED = re.compile(r"(?<=\d)(?=[A-Z][a-z])")  # "2023December" where header cells touch
_IN_LABEL = re.compile(r"\(\d{1,2}\)|[-–—]|\*+\d*")
_PROSE_SHARE = 0.8
_LINE_TOLERANCE = 2.0
_WORD_GAP = 4.0


# A PDF bomb's bounds: more pages than any filing has, or reading longer than a whole run of
# real documents takes. Checked between pages: one pathological page is not interrupted.
MAX_PAGES = 2000
MAX_SECONDS = 300.0


def parse_pdf(
    name: str, content: bytes, max_pages: int = MAX_PAGES, max_seconds: float = MAX_SECONDS
) -> ParsedDocument:
    """Parse the statement pages of a PDF into tables with their preambles; a PDF of more
    than ``max_pages`` pages, or still being read after ``max_seconds``, is refused."""
    tables: list[RawTable] = []
    running: list[str] = []
    deadline = time.monotonic() + max_seconds
    try:
        with pdfplumber.open(io.BytesIO(content)) as pdf, PageTexts(content) as texts:
            pages = len(pdf.pages)
            if pages > max_pages:
                raise ParseError(f"{name}: {pages} pages, more than {max_pages}; refused")
            follows = False  # the previous page held a statement: this one may continue it
            for number, page in enumerate(pdf.pages, start=1):
                if time.monotonic() > deadline:
                    raise ParseError(
                        f"{name}: still reading page {number} of {pages} after "
                        f"{max_seconds:g} s; refused"
                    )
                found = _read_page(number, page, running, texts, follows)
                tables.extend(found)
                follows = _ends_in_statement(found)
                page.close()
    except (
        PdfminerException, PDFSyntaxError, PSException, MalformedPDFException, PdfiumError,
        ValueError, KeyError, TypeError, RecursionError,
    ) as exc:  # fmt: skip
        # one line, whatever pdfminer's message holds (an encrypted PDF's is empty)
        detail = " ".join(str(exc).split()) or _cause_name(exc)
        raise ParseError(f"{name}: unreadable PDF ({detail})") from exc
    rows = ["\t".join(r) for t in tables for r in (*((p,) for p in t.preamble), *t.rows)]
    # the document text is the prose and then the table lines, built when asked for: holding
    # it next to the prose would keep a second copy of all the running text
    return ParsedDocument(tuple(tables), "\n".join(rows), "\n".join(running), prose_first=True)


def _cause_name(exc: BaseException) -> str:
    cause = exc.__cause__ or exc.__context__ or exc
    name = type(cause).__name__
    return "encrypted or password-protected" if "Password" in name or "Encrypt" in name else name


def _read_page(
    number: int,
    page: pdfplumber.page.Page,
    running: list[str],
    texts: PageTexts,
    follows: bool = False,
) -> list[RawTable]:
    """Add the page's running text to ``running``; its tables if it shows a statement title
    (or ``follows`` a page that held one: a statement continued without its title)."""
    contents = decoded_contents(page.page_obj)  # decoded once for both readers, then released
    literals = page_literals(page.page_obj, contents)
    if literals is not None:  # standard fonts, plain Tj strings: no text interpretation
        if literals:  # one string per page, not per line: a str costs ~50 bytes on its own
            running.append("\n".join(literals))
        if not follows and not _has_marker("".join(literals)):
            return []
        return _page_tables(number, page_words(page, contents) or page.extract_words())
    text = texts.text(number - 1)  # encoded glyphs: PDFium's text, pdfminer for statements only
    running.append(text)
    if not follows and not _has_marker(text):
        return []
    return _page_tables(number, page_words(page, contents) or page.extract_words())


def _ends_in_statement(tables: list[RawTable]) -> bool:
    """Whether a page's last table is a statement (rows of figures), which the next page may
    continue; a page of running text that mentions a statement is not."""
    rows = tables[-1].rows if tables else ()
    figures = (sum(parse_cell(c).kind is CellKind.NUMBER for c in row[1:]) for row in rows)
    return sum(n >= 2 for n in figures) >= 3


def _has_marker(text: str) -> bool:
    squeezed = "".join(text.lower().split())
    if any(m in squeezed for m in _MARKERS) or _EN_MARKERS.search(squeezed) is not None:
        return True
    return _ZH_MARKERS.search(squeezed) is not None


def _page_tables(number: int, words: list[Char]) -> list[RawTable]:
    """A page's lines -> tables: a title block (the statement's title, period, scale lines)
    opens a table, running text closes it; every other line is a row of the grid."""
    lines = [ln for ln in _lines(words) if not _PAGE_NUMBER.fullmatch(_text(ln))]
    left = min((cell.start for line in lines for cell in line), default=0.0)
    prose = _prose_lines(lines, left)
    out: list[RawTable] = []
    preamble: list[str] = []
    rows: list[list[Placed]] = []
    for i, line in enumerate(lines):
        # a statement's title wraps: "... PROFIT OR LOSS AND OTHER" / "COMPREHENSIVE INCOME"
        wraps = bool(preamble) and not rows and statement_kind(preamble[-1]) is not None
        wraps = wraps and line[0].start <= left + 5 and not _HEADER_MARK.search(_text(line))
        if i in prose or wraps or _is_title(line, left, rows):
            if rows:
                out.append(_table(number, len(out) + 1, preamble, rows))
                preamble, rows = [], []
            preamble.append(_text(line))
        else:
            rows.append(line)
    if rows:
        out.append(_table(number, len(out) + 1, preamble, rows))
    return out


def _text(line: list[Placed]) -> str:
    return " ".join(c.text for c in line)


def _is_title(line: list[Placed], left: float, rows: list[list[Placed]]) -> bool:
    """A title line at the margin without amounts; a line naming a statement only where no
    table is open (inside one, "Reconciliation of Non-GAAP Net Income" is a heading)."""
    text = _text(line)
    if line[0].start > left + 5 or _has_amount(line):
        return False
    if _TITLE.match(text):
        return True
    return not rows and len(text) <= 150 and statement_kind(text) is not None


def _prose_lines(lines: list[list[Placed]], left: float) -> set[int]:
    """The lines of running text: from the margin across the text width, ending in words,
    in a paragraph (next to another such line) or ending a sentence. A paragraph of the
    notes ends the table above it and is no row of the next."""
    right = max((line[-1].end for line in lines), default=0.0)
    wide = [
        ln[-1].end - ln[0].start >= _PROSE_SHARE * (right - left)
        and ln[0].start <= left + 30
        and not is_figure(ln[-1].text)  # a row ends in its figures, a sentence in words
        for ln in lines
    ]
    out = set()
    for i, line in enumerate(lines):
        paragraph = (i > 0 and wide[i - 1]) or (i + 1 < len(lines) and wide[i + 1])
        if wide[i] and (paragraph or _text(line).rstrip().endswith((".", "。"))):
            out.add(i)
    return out


def _has_amount(line: list[Placed]) -> bool:
    """Whether a line prints an amount: a figure that is not a day of a date ("FOR THE YEAR
    ENDED 31 DECEMBER 2014" is a title, not a row)."""
    months = any(_MONTH.match(w) for c in line for w in c.text.split())
    return any(is_figure(c.text) and not (months and _DAY.fullmatch(c.text)) for c in line)


def _table(page: int, index: int, preamble: list[str], rows: list[list[Placed]]) -> RawTable:
    grid = make_rows(align(rows, tolerance=1.0, regions=True))
    return RawTable(f"page {page}, table {index}", tuple(preamble), grid, symbols(rows))


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
    for word in _dates(words):
        text = clean_cell(word["text"])
        prev = cells[-1] if cells else None
        near = prev is not None and word["x0"] - prev.end <= _WORD_GAP
        # a dash or a footnote mark right after a word belongs to the label ("EPS - diluted",
        # "Total net revenue (1)"), not to a value column
        joinable = not is_figure(text) or (near and _IN_LABEL.fullmatch(text) is not None)
        if prev is not None and near and joinable and not is_figure(prev.text):
            cells[-1] = Placed(prev.start, word["x1"], f"{prev.text} {text}")
        else:
            cells.append(Placed(word["x0"], word["x1"], text))
    return [piece for cell in cells for piece in _unglue(cell)]


def _dates(words: list[dict]) -> list[dict]:
    """A day and the month after it as one word ("30 June"): a date, not a figure."""
    out: list[dict] = []
    for word in words:
        prev = out[-1] if out else None
        if (
            prev is not None
            and _DAY.fullmatch(prev["text"])
            and _MONTH.fullmatch(word["text"])
            and word["x0"] - prev["x1"] <= _WORD_GAP
        ):
            out[-1] = {**prev, "text": f"{prev['text']} {word['text']}", "x1": word["x1"]}
        else:
            out.append(word)
    return out


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
