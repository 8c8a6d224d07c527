"""HKEx PDF announcement -> RawTables (via pdfplumber).

Pages are read one at a time and released after use, so time and memory stay flat in the page
count. A page whose content stream can be trusted (stream_text: standard fonts with standard
encodings, only ``(...) Tj``) gives its running text from the stream's literal strings, in
drawing order, without text interpretation; any other page (embedded subset or CID fonts, hex
strings, TJ arrays, /Differences...) gives PDFium's text (pdfium_text: the same characters as
``page.extract_text()`` in C, not pdfminer's interpreter). Only pages whose text shows a
statement title are parsed for tables.
A statement page's words come from pdfminer_words (pdfminer's interpreter without pdfplumber's
per-glyph objects; the same words as ``page.extract_words()``, which stays the fallback) and
are grouped into lines and cells by position, then into tables by the model laid-out text
shares (layout); grid.align finds the columns."""

from __future__ import annotations

import io
import re
import time

import pdfplumber
from pdfminer.pdfparser import PDFSyntaxError
from pdfminer.psexceptions import PSException
from pdfplumber.utils.exceptions import MalformedPDFException, PdfminerException

from domain.errors import ParseError
from tasks.parsers.documents.layout import Units, cells, page_tables
from tasks.parsers.documents.numbers import CellKind, parse_cell
from tasks.parsers.documents.pdfium_text import PageTexts, PdfiumError
from tasks.parsers.documents.pdfminer_words import baseline_words, decoded_contents, page_words
from tasks.parsers.documents.raw_tables import ParsedDocument, RawTable
from tasks.parsers.documents.stream_text import page_literals
from tasks.parsers.documents.value_columns import Placed
from tasks.parsers.documents.zh import has_han

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
    r"|[現现]金流量表|全面收[益入]表|人民[幣币](?:千|百萬|百万)元|(?:千|百萬|百万)港元"
    r"|港[幣币](?:千|百萬|百万)元"
)
_LINE_TOLERANCE = 2.0
# PDF positions are in points: a word gap of 4 pt joins words into a cell
POINTS = Units(word_gap=4.0, margin=5.0, indent=30.0, tolerance=1.0, indent_step=3.0)


# A PDF bomb's bounds: more pages than any filing has, or reading longer than a whole run of
# real documents takes. Checked between pages: one pathological page is not interrupted.
MAX_PAGES = 2000
MAX_SECONDS = 300.0


# a glyph the PDF maps to no character comes out as U+FFFD (or pdfminer's "(cid:N)")
_UNMAPPED_SHARE = 0.25
_UNMAPPED_GLYPH = re.compile(r"\ufffd|\(cid:\d+\)")


def parse_pdf(
    name: str, content: bytes, max_pages: int = MAX_PAGES, max_seconds: float = MAX_SECONDS
) -> ParsedDocument:
    """Parse the statement pages of a PDF into tables with their preambles; a PDF of more
    than ``max_pages`` pages, or still being read after ``max_seconds``, is refused."""
    tables: list[RawTable] = []
    running: list[str] = []
    starts: list[tuple[int, int]] = []  # (page, offset of its text in the joined prose)
    offset = 0
    deadline = time.monotonic() + max_seconds
    try:
        with pdfplumber.open(io.BytesIO(content)) as pdf, PageTexts(content) as texts:
            pages = len(pdf.pages)
            if pages > max_pages:
                raise ParseError(f"{name}: {pages} pages, more than {max_pages}; refused")
            follows = False  # the previous page held a statement: this one may continue it
            carried: tuple[str, ...] = ()  # a title the previous page ended with
            for number, page in enumerate(pdf.pages, start=1):
                if time.monotonic() > deadline:
                    raise ParseError(
                        f"{name}: still reading page {number} of {pages} after "
                        f"{max_seconds:g} s; refused"
                    )
                held = len(running)
                found, carried = _read_page(number, page, running, texts, follows, carried)
                if len(running) > held:  # the page had running text: it starts here
                    starts.append((number, offset))
                    offset += len(running[-1]) + 1
                tables.extend(found)
                follows = _ends_in_statement(found) or bool(carried)
                page.close()
    except (
        PdfminerException, PDFSyntaxError, PSException, MalformedPDFException, PdfiumError,
        ValueError, KeyError, TypeError, RecursionError,
    ) as exc:  # fmt: skip
        # one line, whatever pdfminer's message holds (an encrypted PDF's is empty)
        detail = " ".join(str(exc).split()) or _cause_name(exc)
        raise ParseError(f"{name}: unreadable PDF ({detail})") from exc
    _require_unicode(name, running)
    rows = ["\t".join(r) for t in tables for r in (*((p,) for p in t.preamble), *t.rows)]
    # the document text is the prose and then the table lines, built when asked for: holding
    # it next to the prose would keep a second copy of all the running text
    return ParsedDocument(
        tuple(tables), "\n".join(rows), "\n".join(running), prose_first=True, pages=tuple(starts)
    )


def _require_unicode(name: str, running: list[str]) -> None:
    """Refuse a PDF whose text is mostly glyphs mapped to no character (its fonts carry no
    ToUnicode map: a re-rendered or "printed to PDF" copy): read, it yields nothing true, and
    without this it would be refused later for a missing dateline or statement."""
    unmapped = total = 0
    for text in running:
        unmapped += len(_UNMAPPED_GLYPH.findall(text))
        total += sum(1 for ch in text if not ch.isspace())
    if total and unmapped > _UNMAPPED_SHARE * total:
        raise ParseError(
            f"{name}: its text cannot be read: {unmapped:,} of {total:,} characters map to no "
            "character (fonts without a Unicode map, as a re-rendered copy has); get the "
            "issuer's original file"
        )


def _unmapped(text: str) -> bool:
    """A word of glyphs mapped to no character: it says nothing, and kept it would make a line
    of its own (a logo drawn in such a font below the page number, which then no longer ends
    the page and becomes a column of the table above)."""
    return not _UNMAPPED_GLYPH.sub("", text).strip()


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
    carried: tuple[str, ...] = (),
) -> tuple[list[RawTable], tuple[str, ...]]:
    """Add the page's running text to ``running``; its tables if it shows a statement title
    (or ``follows`` a page that held one: a statement continued without its title), and the
    title lines it ends with (``carried`` are the previous page's)."""
    contents = decoded_contents(page.page_obj)  # decoded once for both readers, then released
    literals = page_literals(page.page_obj, contents)
    if literals is not None:  # standard fonts, plain Tj strings: no text interpretation
        if literals:  # one string per page, not per line: a str costs ~50 bytes on its own
            running.append("\n".join(literals))
        text = "".join(literals)
    else:
        text = texts.text(number - 1)  # encoded glyphs: PDFium's text, pdfminer for statements
        running.append(text)
    if not follows and not _has_marker(text):
        return [], ()
    # a Chinese edition's label and figures are drawn in two fonts whose boxes stand apart:
    # its lines are read by baseline (an English page's by box, as pdfplumber groups them)
    read = baseline_words if has_han(text) else page_words
    words = [w for w in read(page, contents) or page.extract_words() if not _unmapped(w["text"])]
    found, carried = page_tables(f"page {number}", _lines(words), POINTS, carried)
    # under no title, a figure or none is no statement's part ("(Expressed in Renminbi)" over
    # a note's number on the page after a statement): it would continue the statement above
    return [t for t in found if t.preamble or _figures(t) >= 2], carried


def _figures(table: RawTable) -> int:
    return sum(parse_cell(c).kind is CellKind.NUMBER for row in table.rows for c in row[1:])


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


def _lines(words: list[dict]) -> list[list[Placed]]:
    """Words on one baseline are a line (a label and its figures in two fonts whose boxes
    stand apart); pdfplumber's own words, which carry none, by their tops."""
    lines: list[list[dict]] = []
    level = "baseline" if all("baseline" in w for w in words) else "top"
    for word in sorted(words, key=lambda w: (round(w[level]), w["x0"])):
        if lines and abs(lines[-1][0][level] - word[level]) <= _LINE_TOLERANCE:
            lines[-1].append(word)
        else:
            lines.append([word])
    return [cells(sorted(line, key=lambda w: w["x0"]), POINTS) for line in lines]
