"""Pure source rules: the limiter, disclosure linking, EDGAR paging/amendments/feed, HKEx flags."""

import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from domain.records import Issuer, ListedDocument
from tasks.sources import disclosure, edgar, edgar_feed, hkex
from tasks.sources.http import PrefectRateLimiter
from tasks.sources.pacer import FilePacer

REF = Path(__file__).resolve().parents[1] / "fixtures" / "reference"
QFIN = Issuer("QFIN", "Qifu", "0001741530", "03660")


def _limited_starts(limiter_factory, calls):
    now = [0.0]
    starts = []

    def sleep(seconds):
        now[0] += seconds

    limiter = limiter_factory(lambda: now[0], sleep)
    for _ in range(calls):
        limiter.acquire()
        starts.append(now[0])
        limiter.done()  # answered at once
    return starts


def test_pacer_never_admits_eleven_in_a_second(tmp_path):
    pacer = lambda c, s: FilePacer(tmp_path / "p", 10, clock=c, sleep=s)  # noqa: E731
    starts = _limited_starts(pacer, 50)
    worst = max(sum(1 for t in starts if s <= t < s + 1.0) for s in starts)
    assert worst <= 10
    assert starts[-1] < 50 * 0.103  # and it is not needlessly slow: 10 per 1.02 s


def test_pacers_on_one_file_share_one_log(tmp_path):
    now = [0.0]

    def sleep(seconds):
        now[0] += seconds

    first, second = (
        FilePacer(tmp_path / "p", 10, clock=lambda: now[0], sleep=sleep) for _ in range(2)
    )
    for _ in range(6):
        first.acquire()
        first.done()
        second.acquire()
        second.done()
    log = json.loads((tmp_path / "p").read_text())
    assert log == sorted(log) and all(done is not None for _, done in log)
    assert now[0] >= 1.0  # the eleventh and twelfth waited for the window, whoever asked


def test_a_request_in_flight_holds_its_slot_until_its_answer(tmp_path):
    # The server sees a request between its start and its answer: ten unanswered requests
    # hold the next one back, however long ago they started.
    now = [0.0]

    def sleep(seconds):
        now[0] += seconds
        if now[0] >= 3.0 and not answered:
            answered.append(now[0])
            pacer.done()  # the tenth request (this thread's last) answered at 3 s

    answered: list[float] = []
    pacer = FilePacer(tmp_path / "p", 10, clock=lambda: now[0], sleep=sleep)
    for _ in range(10):
        pacer.acquire()
    pacer.acquire()
    assert now[0] == pytest.approx(answered[0] + 1.02, abs=0.011)


def test_prefect_limit_admits_at_most_the_rate_per_second():
    limiter = PrefectRateLimiter("sec-requests", 10)
    assert limiter.slots + limiter.decay <= 10  # a full bucket plus one second of decay


def test_quarter_before_publication():
    assert disclosure.quarter_before(date(2025, 3, 17)) == "2024Q4"
    assert disclosure.quarter_before(date(2024, 8, 13)) == "2024Q2"
    assert disclosure.quarter_before(date(2024, 11, 20)) == "2024Q3"


def _doc(doc_id, source, when, form="6-K", category="", kind="", amends=None):
    return ListedDocument(doc_id, source, form, category, kind, when, amends)


def test_results_on_both_sources_are_one_disclosure():
    hk = datetime(2025, 3, 17, 5, 58, tzinfo=hkex.HONG_KONG)
    docs = [
        _doc("sec:a", "sec", hk - timedelta(hours=12)),
        _doc("sec:b", "sec", hk + timedelta(hours=24), "6-K/A", amends="sec:a"),
        _doc("hkex:1", "hkex", hk, "13300", "10000/13300"),
        _doc("sec:old", "sec", hk - timedelta(days=30)),
    ]
    links = disclosure.links("QFIN", docs)
    assert links["sec:a"] == links["hkex:1"] == links["sec:b"] == "QFIN:results:2024Q4"
    assert "sec:old" not in links


def test_results_found_by_extraction_link_by_quarter():
    when = datetime(2024, 3, 12, 10, 5, tzinfo=UTC)
    links = disclosure.links("QFIN", [_doc("sec:a", "sec", when, kind="results_annual")])
    assert links == {"sec:a": "QFIN:results:2023Q4"}


def _columns(*rows):
    keys = ["accessionNumber", "filingDate", "acceptanceDateTime", "form", "primaryDocument"]
    cols = {k: [r[i] for r in rows] for i, k in enumerate(keys)}
    cols["reportDate"] = [r[5] for r in rows]
    return cols


class Edgar:
    def __init__(self, recent, files=(), page=None):
        self.body = {"filings": {"recent": recent, "files": list(files)}}
        self.page, self.pages = page, 0

    def submissions(self, cik):
        return self.body

    def submissions_page(self, name):
        self.pages += 1
        return self.page


def test_amendment_links_to_the_6k_of_the_same_report_date():
    recent = _columns(
        ("a3", "2024-09-01", "2024-09-01T06:00:00.000Z", "6-K/A", "x", "2024-06-30"),
        ("a2", "2024-08-20", "2024-08-20T06:00:00.000Z", "6-K", "x", "2024-08-31"),
        ("a1", "2024-08-13", "2024-08-13T06:00:00.000Z", "6-K", "x", "2024-06-30"),
    )
    listing = edgar.list_edgar(Edgar(recent), QFIN, date(2024, 1, 1), "https://s", {})
    amends = {i.ref.source_id: i.amends for i in listing.items}
    assert amends == {"a1": "", "a2": "", "a3": "sec:a1"}


def test_dated_pages_are_skipped_when_they_hold_nothing_wanted():
    recent = _columns(("a1", "2024-08-13", "2024-08-13T06:00:00.000Z", "6-K", "x", ""))
    files = [{"name": "p1.json", "filingFrom": "2019-01-01", "filingTo": "2023-12-31"}]
    client = Edgar(recent, files)
    edgar.list_edgar(client, QFIN, date(2024, 1, 1), "https://s", {})
    assert client.pages == 0


def test_covered_cursor_never_pages():
    recent = _columns(("a1", "2024-08-13", "2024-08-13T06:00:00.000Z", "6-K", "x", ""))
    files = [{"name": "p1.json", "filingFrom": "2019-01-01", "filingTo": "2024-06-30"}]
    client = Edgar(recent, files, _columns())
    cursor = {"covered_from": "2024-01-01"}
    listing = edgar.list_edgar(client, QFIN, date(2024, 1, 1), "https://s", cursor)
    assert client.pages == 0 and listing.cursor["covered_from"] == "2024-01-01"


def _feed_with_qfin() -> bytes:
    xml = (REF / "sec" / "sec_getcurrent_atom_page0.xml").read_bytes()
    entry = (
        b"<entry><title>6-K - QIFU TECHNOLOGY, INC. (0001741530) (Filer)</title>"
        b"<summary type='html'> &lt;b&gt;Filed:&lt;/b&gt; 2025-03-17 </summary>"
        b"<updated>2025-03-16T18:02:43-04:00</updated>"
        b'<category scheme="https://www.sec.gov/" label="form type" term="6-K"/>'
        b"<id>urn:tag:sec.gov,2008:accession-number=0001104659-25-000001</id></entry>"
    )
    return xml.replace(b"<entry>", entry + b"<entry>", 1)


def test_feed_rows_fill_what_the_json_lags_on():
    rows = edgar_feed.parse_feed(_feed_with_qfin(), QFIN.cik)
    assert [(r.accession, r.form, r.filing_date) for r in rows] == [
        ("0001104659-25-000001", "6-K", date(2025, 3, 17))
    ]
    assert rows[0].accepted_at.utcoffset() == timedelta(hours=-4)
    recent = _columns(("a1", "2024-08-13", "2024-08-13T06:00:00.000Z", "6-K", "x", ""))
    listing = edgar.list_edgar(Edgar(recent), QFIN, date(2024, 1, 1), "https://s", {}, rows)
    assert [i.ref.source_id for i in listing.items] == ["a1", "0001104659-25-000001"]


def test_hkex_flags_and_categories():
    rows = json.loads(
        (REF / "hkex" / "hkex_titlesearch_rows_tencent_00700_2024-01.json").read_text()
    )
    revised = {**rows[0], "LONG_TEXT": "(Headlines Revised) Announcements - [Final Results]"}
    cancelled = {**rows[0], "TITLE": "(Cancelled) DATE OF BOARD MEETING"}
    assert hkex.is_revised(revised) and not hkex.is_revised(rows[0])
    assert hkex.is_cancelled(cancelled) and hkex.row_title(cancelled) == "DATE OF BOARD MEETING"
    coded = {"T1_CODE": "10000", "T2_CODE": "13300"}
    assert hkex.category_codes(coded) == "10000/13300"


class Prefix:
    def active_stocks(self):
        return [{"i": 1, "c": "00700", "n": "TENCENT"}]

    def prefix_search(self, code):
        body = 'callback({"more":"1","stockInfo":[{"stockId":9,"code":"36600","name":"X"},'
        body += '{"stockId":77,"code":"03660","name":"QIFU"}]});'
        return hkex.parse_prefix(body)


def test_stock_id_falls_back_to_prefix_search_with_an_exact_match():
    assert hkex.resolve_stock_id(Prefix(), "03660") == 77


def test_hkex_cursor_window_starts_at_cursor_minus_overlap():
    class Search(Prefix):
        windows = []

        def title_search(self, stock_id, start, end, row_range):
            self.windows.append((start, end))
            return {"result": "null", "hasNextRow": False}

    client = Search()
    cursor = {"stock_id": "77", "covered_from": "2024-01-01", "searched_to": "2025-03-10"}
    today = datetime(2025, 3, 20, tzinfo=UTC).date()
    hkex.list_hkex(client, QFIN, date(2024, 1, 1), today, "https://h", "en", cursor, 7)
    assert client.windows == [(date(2025, 3, 3), today)]
