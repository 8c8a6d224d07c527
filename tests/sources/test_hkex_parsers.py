"""HKEXnews parsers on the recorded title-search rows (tests/fixtures/reference/hkex)."""

import json
from datetime import date
from pathlib import Path

import pytest

from domain.errors import NotFoundError, ParseError
from domain.records import Issuer
from tasks.sources import hkex

REF = Path(__file__).resolve().parents[1] / "fixtures" / "reference" / "hkex"
TENCENT = Issuer("TCEHY", "Tencent", "0001293451", "00700")


@pytest.fixture(scope="module")
def rows():
    return json.loads((REF / "hkex_titlesearch_rows_tencent_00700_2024-01.json").read_text())


class TestTencentRows:
    def test_date_time_is_hong_kong_time(self, rows):
        ref = hkex.row_ref(TENCENT, rows[0], "https://www1.hkexnews.hk")
        assert ref.published_at.isoformat() == "2024-01-18T17:41:00+08:00"

    def test_document_url_joins_file_link(self, rows):
        ref = hkex.row_ref(TENCENT, rows[0], "https://www1.hkexnews.hk")
        assert (
            ref.url
            == "https://www1.hkexnews.hk/listedco/listconews/sehk/2024/0118/2024011800507.pdf"
        )

    def test_news_id_is_the_source_id(self, rows):
        assert hkex.row_ref(TENCENT, rows[0], "x").document_id == "hkex:11042134"

    def test_monthly_return_has_no_results_category(self, rows):
        monthly = [r for r in rows if r["LONG_TEXT"].startswith("Monthly")][0]
        assert hkex.category(monthly) == "other"


def test_clean_decodes_entities_and_br():
    assert hkex.clean("A &amp; B<br/>C&#39;s") == "A & B C's"


def test_category_from_long_text_bracket():
    assert hkex.category({"LONG_TEXT": "Announcements and Notices - [Final Results]"}) == "13300"


def test_category_prefers_code_field():
    assert hkex.category({"T2_CODE": "13251", "LONG_TEXT": "[Final Results]"}) == "13251"


def test_windows_never_exceed_twelve_months():
    spans = list(hkex.windows(date(2024, 1, 1), date(2026, 11, 21)))
    assert spans[0] == (date(2024, 1, 1), date(2024, 12, 31))
    assert spans[-1][1] == date(2026, 11, 21)
    assert all((end - start).days < 366 for start, end in spans)
    gaps = [b[0].toordinal() - a[1].toordinal() for a, b in zip(spans, spans[1:], strict=False)]
    assert set(gaps) == {1}


def test_envelope_null_result_is_empty():
    assert hkex.parse_envelope({"result": "null", "hasNextRow": False}) == ([], False)


def test_envelope_bad_result_is_parse_error():
    with pytest.raises(ParseError):
        hkex.parse_envelope({"result": "[{", "hasNextRow": False})


def test_stock_id_needs_exact_code():
    stocks = [{"i": 1, "c": "36600", "n": "X"}, {"i": 7, "c": "03660", "n": "QIFU"}]
    assert hkex.find_stock_id(stocks, "3660") == 7


def test_unknown_stock_code_is_not_found():
    with pytest.raises(NotFoundError, match="03661"):
        hkex.find_stock_id([{"i": 7, "c": "03660", "n": "QIFU"}], "03661")


def test_english_edition_by_default():
    assert hkex.wanted({"FILE_LINK": "/a/1.pdf"}, "en")
    assert not hkex.wanted({"FILE_LINK": "/a/1_c.pdf"}, "en")
    assert hkex.wanted({"FILE_LINK": "/a/1_c.pdf"}, "zh")


class PagedSearch:
    """Answers with cumulative rowRange like HKEXnews: 250 rows in total."""

    def __init__(self):
        self.row_ranges = []

    def title_search(self, stock_id, start, end, row_range):
        self.row_ranges.append(row_range)
        rows = [{"NEWS_ID": str(i)} for i in range(min(row_range, 250))]
        return {"result": json.dumps(rows), "hasNextRow": row_range < 250}


def test_search_window_grows_row_range_until_no_next_row():
    client = PagedSearch()
    rows = hkex.search_window(client, 1, date(2024, 1, 1), date(2024, 12, 31))
    assert client.row_ranges == [100, 200, 300]
    assert len(rows) == 250


def test_a_documents_form_names_its_hkex_category_never_a_bare_code() -> None:
    from domain.records import Issuer

    issuer = Issuer("QFIN", "Qifu Technology, Inc.", "", "03660")
    row = {"NEWS_ID": "1", "FILE_LINK": "/a/b.pdf", "DATE_TIME": "17/03/2025 17:00",
           "TITLE": "ANNOUNCEMENT", "T2_CODE": "13300"}  # fmt: skip
    assert hkex.row_ref(issuer, row, "https://www1.hkexnews.hk").form == "HKEx Final Results"
    other = hkex.row_ref(issuer, {**row, "T2_CODE": "51510"}, "https://www1.hkexnews.hk")
    assert other.form == "HKEx announcement"
