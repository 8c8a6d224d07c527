"""EDGAR parsers on real recorded responses (tests/fixtures/reference/sec)."""

import json
from datetime import date, datetime
from pathlib import Path

import pytest

from domain.errors import ParseError
from domain.records import Issuer
from tasks.sources import edgar

REF = Path(__file__).resolve().parents[1] / "fixtures" / "reference" / "sec"
ARCHIVES = "https://www.sec.gov"


class TestAppleSubmissions:
    """The recorded Apple submissions body: column arrays and paging files."""

    @pytest.fixture(scope="class")
    def parsed(self) -> tuple[list[edgar.FilingRow], list[str]]:
        return edgar.parse_submissions(
            json.loads((REF / "sec_submissions_CIK0000320193.json").read_text())
        )

    def test_lists_the_paging_file(self, parsed):
        assert parsed[1] == ["CIK0000320193-submissions-001.json"]

    def test_every_recent_row_is_read(self, parsed):
        data = json.loads((REF / "sec_submissions_CIK0000320193.json").read_text())
        assert len(parsed[0]) == len(data["filings"]["recent"]["accessionNumber"])

    def test_acceptance_time_is_us_eastern_wall_clock(self, parsed):
        row = parsed[0][0]
        assert row.accepted_at.tzinfo is not None
        assert row.accepted_at.utcoffset().total_seconds() in (-4 * 3600, -5 * 3600)

    def test_only_8ks_reporting_results_are_listed(self, parsed):
        # a domestic registrant's results are 8-Ks with item 2.02; its other 8-Ks (5.02, 8.01
        # ...), 10-Qs and Forms 4 are not results documents
        listed = [r for r in parsed[0] if r.listed]
        eight_ks = [r for r in parsed[0] if r.form == "8-K"]
        assert {r.form for r in listed} == {"8-K"}
        assert all("2.02" in r.items.split(",") for r in listed)
        assert 0 < len(listed) < len(eight_ks)
        assert listed[0].accession == "0000320193-23-000075"  # Q3 FY2023, August 3, 2023

    def test_paging_file_has_columns_at_top_level(self):
        data = json.loads((REF / "sec_submissions_CIK0000320193-submissions-001.json").read_text())
        rows, pages = edgar.parse_submissions(data)
        assert rows and pages == []


def test_acceptance_datetime_z_is_not_utc():
    accepted = edgar.parse_accepted("2024-03-12T06:05:11.000Z")
    assert accepted.replace(tzinfo=None) == datetime(2024, 3, 12, 6, 5, 11)
    assert accepted.utcoffset().total_seconds() == -4 * 3600  # EDT on 12 March 2024


def test_submissions_without_columns_is_a_parse_error():
    with pytest.raises(ParseError, match="lacks columns"):
        edgar.parse_submissions({"filings": {"recent": {"form": []}}})


class TestJpmIndexPage:
    """The recorded JPM 8-K -index.htm: exhibits are found by the Type column."""

    @pytest.fixture(scope="class")
    def files(self):
        html = (REF / "sec_jpm_8k_0000019617-26-000241-index.html").read_text()
        return edgar.parse_filing_index(html, ARCHIVES)

    def test_primary_document_link_loses_the_ixbrl_viewer_prefix(self, files):
        assert (
            files[0].url
            == ARCHIVES + "/Archives/edgar/data/19617/000001961726000241/jpm-20260624.htm"
        )

    def test_exhibit_is_typed_ex_99_1(self, files):
        assert [f.doc_type for f in files if f.name == "jpmcpressrelease06252026.htm"] == [
            "EX-99.1"
        ]

    def test_wanted_files_drop_graphics(self):
        files = (
            edgar.SourceFile("a.htm", "u", "6-K"),
            edgar.SourceFile("b.htm", "u", "EX-99.1"),
            edgar.SourceFile("c.jpg", "u", "GRAPHIC"),
            edgar.SourceFile("ex99.htm", "u", "EX-10.1"),
        )
        assert [f.name for f in edgar.wanted_files(files)] == ["a.htm", "b.htm"]


def test_index_page_without_file_table_is_a_parse_error():
    with pytest.raises(ParseError, match="Document Format Files"):
        edgar.parse_filing_index("<html><body>maintenance</body></html>", ARCHIVES)


class FakeEdgar:
    """Submissions split over a recent block and one older page."""

    def __init__(self, recent: dict, page: dict) -> None:
        self.recent, self.page, self.pages_fetched = recent, page, 0

    def submissions(self, cik):
        return {"filings": {"recent": self.recent, "files": [{"name": "p1.json"}]}}

    def submissions_page(self, name):
        self.pages_fetched += 1
        return self.page

    def filing_index(self, cik, accession):
        raise AssertionError("not used")

    def fetch(self, url):
        raise AssertionError("not used")


def _columns(*rows):
    keys = [
        "accessionNumber",
        "filingDate",
        "acceptanceDateTime",
        "form",
        "primaryDocument",
        "primaryDocDescription",
    ]
    return {k: [r[i] for r in rows] for i, k in enumerate(keys)}


QFIN = Issuer("QFIN", "Qifu", "0001741530", "03660")


def test_list_filings_walks_older_pages_when_since_reaches_back():
    recent = _columns(
        ("0001-24-000002", "2024-08-13", "2024-08-13T06:00:00.000Z", "6-K", "a.htm", "6-K")
    )
    page = _columns(
        ("0001-24-000001", "2024-03-12", "2024-03-12T06:00:00.000Z", "6-K/A", "b.htm", "6-K/A"),
        ("0001-23-000009", "2023-03-12", "2023-03-12T06:00:00.000Z", "20-F", "c.htm", ""),
    )
    client = FakeEdgar(recent, page)
    refs = edgar.list_filings(client, QFIN, date(2024, 1, 1), ARCHIVES)
    assert [r.source_id for r in refs] == ["0001-24-000001", "0001-24-000002"]  # oldest first


def test_list_filings_does_not_page_when_recent_covers_since():
    recent = _columns(
        ("0001-24-000002", "2024-08-13", "2024-08-13T06:00:00.000Z", "6-K", "a.htm", ""),
        ("0001-23-000001", "2023-06-01", "2023-06-01T06:00:00.000Z", "6-K", "b.htm", ""),
    )
    client = FakeEdgar(recent, {})
    edgar.list_filings(client, QFIN, date(2024, 1, 1), ARCHIVES)
    assert client.pages_fetched == 0


def _index_page(href: str) -> str:
    return (
        '<table summary="Document Format Files"><tr><th>Seq</th></tr>'
        f'<tr><td>1</td><td>Press release</td><td><a href="{href}">x</a></td><td>EX-99.1</td>'
        "</tr></table>"
    )


@pytest.mark.parametrize(
    ("href", "url"),
    [
        # Found by an outside probe: a relative link was glued to the host
        # ('http://127.0.0.1:18195tm…htm') and refused as outside the source.
        (
            "tm2421456d1_ex99-1.htm",
            "/Archives/edgar/data/1/000000000124000001/tm2421456d1_ex99-1.htm",
        ),
        ("./sub/ex.htm", "/Archives/edgar/data/1/000000000124000001/sub/ex.htm"),
        ("../000000000124000002/ex.htm", "/Archives/edgar/data/1/000000000124000002/ex.htm"),
        ("/Archives/edgar/data/1/x.htm", "/Archives/edgar/data/1/x.htm"),
    ],
)
def test_an_index_pages_links_resolve_against_the_page(href, url):
    for base in (ARCHIVES, "http://mirror.example/sec"):  # a mirror's base with a path
        index = f"{base}/Archives/edgar/data/1/000000000124000001/0000000001-24-000001-index.htm"
        files = edgar.parse_filing_index(_index_page(href), base, index)
        assert files[0].url == base + url
