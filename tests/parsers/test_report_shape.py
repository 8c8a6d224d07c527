"""A full interim report's shape around real statements: a cover, a list of contents naming
every statement with its page number, pages of management discussion, an "other
information" page of share tables, the statements, their notes, and further notes tables;
with or without a running foot on every page ("Interim Report 2014" and the page number).

The pages are Ernest Borel's own (tests/fixtures/real/: its 2014 interim results, and the
discussion and notes pages of its 2014 annual results), put together with pypdfium2 in a
report's order; the cover, contents and other-information pages are typed here (reportlab),
as such reports print them, and the running feet are stamped on each page. Whatever the
shape, the statement rows read are the interim results' own, nothing more, and none is
refused: a contents line is no statement, a running foot no row.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import ClassVar

import pypdfium2 as pdfium
import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from domain.enums import DocKind
from tasks.extract import Extraction, extract_file

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"
INTERIM = "HK01856_2014H1_interim-results_en.pdf"
ANNUAL = "HK01856_2014FY_annual-results_en.pdf"
Line = tuple[tuple[str, int], ...]  # (text, x): x < 0 right-aligns the text at -x

_CONTENTS_HEAD: tuple[Line, ...] = (
    (("CONTENTS", 60),),
    (("Corporate Information", 60), ("2", -520)),
    (("Management Discussion and Analysis", 60), ("3", -520)),
    (("Other Information", 60), ("30", -520)),
)
_CONTENTS_TAIL: tuple[Line, ...] = (
    (("Condensed Consolidated Statement of Financial Position", 60), ("35", -520)),
    (("Condensed Consolidated Statement of Changes in Equity", 60), ("36", -520)),
    (("Condensed Consolidated Statement of Cash Flows", 60), ("37", -520)),
    (("Notes to the Condensed Consolidated Financial Statements", 60), ("38", -520)),
)
_INCOME_TITLE = "Condensed Consolidated Statement of Profit or Loss and Other Comprehensive Income"
_OTHER_INFORMATION: tuple[Line, ...] = (
    (("OTHER INFORMATION", 60),),
    (("DIRECTORS' INTERESTS IN SHARES", 60),),
    (("As at 30 June 2014, the interests of the Directors in the Shares were as follows:", 60),),
    (("Name of Director", 60), ("Capacity", 200), ("Number of Shares", -440), ("Percentage", -520)),
    (("Mr. Su Da", 60), ("Beneficial owner", 200), ("3,000,000", -440), ("0.87%", -520)),
    (("Mr. Wong Pong Chun James", 60), ("Beneficial owner", 200), ("1,500,000", -440),
     ("0.43%", -520)),
)  # fmt: skip


def _typed(pages: list[tuple[Line, ...]], top: int = 780) -> pdfium.PdfDocument:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4)
    for lines in pages:
        pdf.setFont("Helvetica", 9)
        for number, line in enumerate(lines):
            for text, x in line:
                y = top - 16 * number
                pdf.drawRightString(-x, y, text) if x < 0 else pdf.drawString(x, y, text)
        pdf.showPage()
    pdf.save()
    return pdfium.PdfDocument(buffer.getvalue())


def report(income_entry: tuple[Line, ...], foot: tuple[Line, ...] = ()) -> bytes:
    """The interim results as a report: its contents list names the income statement with
    ``income_entry`` (one line, or the title wrapped over two); ``foot`` is stamped at the
    foot of every page, "{page}" in it replaced by the page's number."""
    interim = pdfium.PdfDocument(REAL / INTERIM)
    annual = pdfium.PdfDocument(REAL / ANNUAL)
    out = pdfium.PdfDocument.new()
    out.import_pages(interim, [0])  # the issuer's first page: its name and stock code
    out.import_pages(_typed([(*_CONTENTS_HEAD, *income_entry, *_CONTENTS_TAIL)]))
    out.import_pages(interim, list(range(8, 17)))  # management discussion and analysis
    out.import_pages(annual, list(range(11, 18)))  # more of it, with figures in the text
    out.import_pages(_typed([_OTHER_INFORMATION]))
    out.import_pages(interim, [1, 2])  # the statements
    out.import_pages(interim, list(range(3, 8)))  # their notes
    out.import_pages(annual, list(range(3, 11)))  # notes tables of another period
    if foot:
        _stamp(out, foot)
    buffer = io.BytesIO()
    out.save(buffer)
    return buffer.getvalue()


def _stamp(pdf: pdfium.PdfDocument, foot: tuple[Line, ...]) -> None:
    """Draw ``foot`` at the bottom of every page of ``pdf``, over what it prints."""
    feet = [
        tuple(tuple((text.format(page=n + 1), x) for text, x in line) for line in foot)
        for n in range(len(pdf))
    ]
    stamps = _typed(feet, top=40)
    for n in range(len(pdf)):
        page = pdf[n]
        page.insert_obj(stamps.page_as_xobject(n, pdf).as_pageobject())
        page.gen_content()


def _read(content: bytes, name: str) -> Extraction:
    return extract_file(name, content, "EBORL")


@pytest.fixture(scope="module")
def interim_results() -> Extraction:
    return _read((REAL / INTERIM).read_bytes(), INTERIM)


class ReportShape:
    """The checks every report shape passes; subclasses give the contents' income entry and
    the running foot."""

    income_entry: ClassVar[tuple[Line, ...]] = (((_INCOME_TITLE, 60), ("34", -520)),)
    foot: ClassVar[tuple[Line, ...]] = ()

    @pytest.fixture(scope="class")
    def read(self) -> Extraction:
        content = report(self.income_entry, self.foot)
        return _read(content, "HK01856_2014H1_interim-report_en.pdf")

    def test_the_statement_rows_are_the_interim_results_own(
        self, read: Extraction, interim_results: Extraction
    ) -> None:
        def cells(x: Extraction) -> list[tuple[object, ...]]:
            return [(r.statement, r.row_label, r.period_end, r.currency, r.value) for r in x.rows]

        assert len(interim_results.rows) == 86
        assert cells(read) == cells(interim_results)

    def test_no_row_is_refused(self, read: Extraction) -> None:
        assert [(r.statement, r.row_label, r.reason) for r in read.refused] == []

    def test_it_is_an_interim_results_document(self, read: Extraction) -> None:
        assert read.kind is DocKind.RESULTS_INTERIM


class TestContentsOnOneLinePerEntry(ReportShape):
    pass


class TestContentsWithTheIncomeTitleWrapped(ReportShape):
    # the title's first line, alone at the margin, reads as a statement's title; the lines
    # below it (titles and page numbers) would be its rows, refused for want of a period
    income_entry = (
        (("Condensed Consolidated Statement of Profit or Loss and", 60),),
        (("Other Comprehensive Income", 60), ("34", -520)),
    )


class TestRunningFootWithThePageNumberRight(ReportShape):
    # the page number under the last value column: read as last year's figure of a row
    # "Interim Report 2014" on both statement pages before (2,000 and 3,000 published)
    foot = ((("Interim Report 2014", 60), ("{page}", -540)),)


class TestRunningFootWithThePageNumberLeft(ReportShape):
    foot = ((("{page}", 60), ("Ernest Borel Holdings Limited", 80), ("Interim Report 2014", -540)),)


_COMPANY_LEVEL: tuple[Line, ...] = (
    (("STATEMENT OF FINANCIAL POSITION OF THE COMPANY", 60),),
    (("Information about the statement of financial position of the Company at the end of "
      "the reporting period:", 60),),
    (("2014", -440), ("2013", -520)),
    (("HK$'000", -440), ("HK$'000", -520)),
    (("Investments in subsidiaries", 70), ("120,000", -440), ("120,000", -520)),
    (("Amounts due from subsidiaries", 70), ("250,000", -440), ("100,000", -520)),
    (("Other payables", 70), ("(2,000)", -440), ("(3,000)", -520)),
    (("Net assets", 70), ("368,000", -440), ("217,000", -520)),
    (("Share capital", 70), ("3,474", -440), ("2,600", -520)),
    (("Reserves", 70), ("364,526", -440), ("214,400", -520)),
    (("Total equity", 70), ("368,000", -440), ("217,000", -520)),
)  # fmt: skip


class TestAnnualWithTheCompanysOwnStatementInANote:
    """An annual report prints the holding company's own statement of financial position in
    a note (typed here in the group statement's layout, after the real annual results'
    notes): another entity's, not the group's balance sheet. Before, its year-only columns
    were refused ("period not readable from the header") and the document quarantined."""

    @pytest.fixture(scope="class")
    def read(self) -> tuple[Extraction, Extraction]:
        annual = pdfium.PdfDocument(REAL / ANNUAL)
        out = pdfium.PdfDocument.new()
        out.import_pages(annual, list(range(11)))  # highlights, statements, notes
        out.import_pages(_typed([_COMPANY_LEVEL]))
        out.import_pages(annual, list(range(11, len(annual))))
        buffer = io.BytesIO()
        out.save(buffer)
        report = _read(buffer.getvalue(), "HK01856_2014FY_annual-report_en.pdf")
        return report, _read((REAL / ANNUAL).read_bytes(), ANNUAL)

    def test_the_statement_rows_are_the_groups_only(self, read) -> None:
        report, results = read
        assert len(results.rows) == 90
        assert [(r.statement, r.row_label, r.period_end, r.value) for r in report.rows] == [
            (r.statement, r.row_label, r.period_end, r.value) for r in results.rows
        ]
        assert report.refused == ()
