"""One test class per way a source misbehaves, through the real client on the wire.

Each fault must end as one line of the right class (domain.errors): retriable when a later
try can succeed (the Prefect task retries it), fatal or not-found when it cannot; nothing is
returned half-way, so nothing half-way can be stored.
"""

from __future__ import annotations

import time
from email.utils import formatdate

import pytest

from domain.errors import (
    FatalTransportError,
    NotFoundError,
    ParseError,
    RateLimitedError,
    RetriableTransportError,
    is_retriable,
)
from tasks.sources.edgar_source import HttpEdgarClient
from tasks.sources.hkex_source import HttpHkexClient
from tasks.sources.replay import Answer

from .conftest import doc_url, one_line, pdf_url, real_pdf, submissions_url


class TestRetryAfter:
    """429 with Retry-After: the next request waits as asked, up to a cap; past the cap the
    source is paused rather than hammered."""

    def test_seconds_are_honoured_before_the_next_request(self, server, client):
        server.inject("doc.htm", Answer(429, b"slow down", {"Retry-After": "1"}))
        with pytest.raises(RetriableTransportError) as caught:
            client.get(doc_url(server))
        assert caught.value.retry_after == 1 and "Retry-After" in one_line(caught.value)
        client.get(doc_url(server))
        first, second = server.requests("doc.htm")
        assert second.at - first.at >= 0.95

    def test_http_date_is_honoured_up_to_the_cap(self, server, make_client):
        waits: list[float] = []
        client = make_client(sleep=waits.append, max_retry_after=120)
        later = formatdate(time.time() + 90, usegmt=True)
        server.inject("doc.htm", Answer(429, b"", {"Retry-After": later}))
        with pytest.raises(RetriableTransportError):
            client.get(doc_url(server))
        assert client.get(doc_url(server)).status == 200
        assert len(waits) == 1 and 80 < waits[0] <= 90

    def test_longer_than_the_cap_pauses_the_source(self, server, make_client):
        client = make_client(max_retry_after=60)
        server.inject("doc.htm", Answer(429, b"", {"Retry-After": "3600"}))
        with pytest.raises(RateLimitedError) as caught:
            client.get(doc_url(server))
        assert caught.value.pause_seconds == 3600 and not is_retriable(caught.value)
        assert "pausing source" in one_line(caught.value)

    def test_without_retry_after_the_task_backoff_applies(self, server, make_client):
        waits: list[float] = []
        client = make_client(sleep=waits.append)
        server.inject("doc.htm", Answer(429, b""))
        with pytest.raises(RetriableTransportError) as caught:
            client.get(doc_url(server))
        assert caught.value.retry_after is None
        assert client.get(doc_url(server)).status == 200 and waits == []


class TestServerErrors:
    """500/502/503 are retriable; the try after them gets the whole document."""

    def test_each_5xx_then_success(self, server, client):
        server.inject("doc.htm", Answer(500, b"oops"), Answer(502, b""), Answer(503, b"busy"))
        for status in (500, 502, 503):
            with pytest.raises(RetriableTransportError) as caught:
                client.get(doc_url(server))
            assert caught.value.status == status and f"HTTP {status}" in one_line(caught.value)
        assert b"exhibit 99.1" in client.get(doc_url(server)).content

    def test_a_large_error_page_is_still_its_status(self, server, client):
        server.inject("doc.htm", Answer(503, b"<html>" + b"x" * 500_000))
        with pytest.raises(RetriableTransportError):
            client.get(doc_url(server))

    def test_disappeared_document_is_not_found(self, server, client):
        server.inject("doc.htm", Answer(404, b"gone"))
        with pytest.raises(NotFoundError) as caught:
            client.get(doc_url(server))
        assert not is_retriable(caught.value) and "not found" in one_line(caught.value)


class TestDroppedConnection:
    """A connection closed before or during the body is retriable, never a short document."""

    @pytest.mark.parametrize("fault", ["drop", "truncate", "drop_mid_body"])
    def test_dropped(self, server, client, fault):
        server.inject("doc.htm", Answer(200, b"<html>" + b"y" * 100_000, fault=fault))
        with pytest.raises(RetriableTransportError) as caught:
            client.get(doc_url(server))
        one_line(caught.value)
        assert b"exhibit 99.1" in client.get(doc_url(server)).content


class TestStalledBody:
    """A server that stops, or drips, is cut off by the read timeout or the request deadline."""

    def test_stall_before_answering(self, server, make_client):
        client = make_client(timeout=0.3)
        server.inject("doc.htm", Answer(200, b"late", fault="stall", delay=1.0))
        with pytest.raises(RetriableTransportError) as caught:
            client.get(doc_url(server))
        assert "Timeout" in one_line(caught.value)

    def test_stall_mid_body(self, server, make_client):
        client = make_client(timeout=0.3)
        server.inject("doc.htm", Answer(200, b"z" * 10_000, fault="stall_body", delay=1.0))
        with pytest.raises(RetriableTransportError) as caught:
            client.get(doc_url(server))
        assert "stalled mid-body" in one_line(caught.value)

    def test_drip_past_the_deadline(self, server, make_client):
        client = make_client(timeout=0.5, deadline=0.5)
        server.inject("doc.htm", Answer(200, b"d" * 200, fault="drip", delay=0.02))
        with pytest.raises(RetriableTransportError) as caught:
            client.get(doc_url(server))
        assert "at the deadline" in one_line(caught.value)
        assert "(200 bytes read)" not in str(caught.value)  # cut off, not waited out


class TestOversizedBody:
    """A body over the cap is refused (fatal: the same answer would come again), unread."""

    def test_declared_length_over_the_cap(self, server, make_client):
        client = make_client(max_bytes=1024 * 1024)
        server.inject("doc.htm", Answer(200, b"o" * (2 * 1024 * 1024)))
        with pytest.raises(FatalTransportError) as caught:
            client.get(doc_url(server))
        assert "1 MiB cap" in one_line(caught.value)

    def test_undeclared_length_over_the_cap(self, server, make_client):
        client = make_client(max_bytes=1024 * 1024)
        server.inject("doc.htm", Answer(200, b"o" * (3 * 1024 * 1024), fault="chunked"))
        with pytest.raises(FatalTransportError) as caught:
            client.get(doc_url(server))
        assert "sent more" in one_line(caught.value)

    def test_under_the_cap_is_read_whole(self, server, make_client):
        client = make_client(max_bytes=1024 * 1024)
        body = b"<html>" + b"k" * 900_000
        server.inject("doc.htm", Answer(200, body, fault="chunked"))
        assert client.get(doc_url(server)).content == body


class TestRedirects:
    """Redirects are followed by the client, one limiter slot per hop, only within the
    source's base URL."""

    def test_within_the_base_is_followed_and_paced(self, server, client):
        target = doc_url(server)
        server.inject("moved.htm", Answer(301, b"", {"Location": target}))
        response = client.get(target.replace("doc.htm", "moved.htm"))
        assert response.url == target and b"exhibit" in response.content
        assert client.requests_made == 2  # each hop took a slot

    def test_to_another_host_is_refused(self, server, client):
        elsewhere = server.url.replace("127.0.0.1", "localhost") + "/steal"
        server.inject("doc.htm", Answer(302, b"", {"Location": elsewhere}))
        with pytest.raises(FatalTransportError) as caught:
            client.get(doc_url(server))
        assert "outside the source's base URL" in one_line(caught.value)
        assert not server.requests("/steal")

    def test_out_of_the_base_path_is_refused(self, server, make_client):
        client = make_client(bases=(server.url + "/Archives",))
        server.inject("doc.htm", Answer(307, b"", {"Location": "/submissions/x.json"}))
        with pytest.raises(FatalTransportError):
            client.get(doc_url(server))
        assert not server.requests("/submissions/")

    def test_a_loop_ends(self, server, client):
        server.inject("doc.htm", *[Answer(302, b"", {"Location": doc_url(server)})] * 10)
        with pytest.raises(FatalTransportError) as caught:
            client.get(doc_url(server))
        assert "more than 5 redirects" in one_line(caught.value)
        assert client.requests_made == 6

    def test_a_link_to_another_host_is_never_requested(self, server, client):
        with pytest.raises(FatalTransportError) as caught:
            client.get("http://example.invalid/Archives/x.htm")
        assert "outside" in one_line(caught.value) and client.requests_made == 0


class TestWrongContentType:
    """What comes back where a PDF was asked for must be a PDF."""

    def test_html_page_instead_of_a_pdf(self, server, client):
        page = b"<!DOCTYPE html><html><body>Service unavailable</body></html>"
        server.inject(".pdf", Answer(200, page, {"Content-Type": "text/html"}))
        with pytest.raises(FatalTransportError) as caught:
            client.get(pdf_url(server))
        assert "expected a PDF, got an HTML page" in one_line(caught.value)

    def test_empty_body_instead_of_a_pdf(self, server, client):
        server.inject(".pdf", Answer(200, b"", {"Content-Type": "application/pdf"}))
        with pytest.raises(FatalTransportError) as caught:
            client.get(pdf_url(server))
        assert "empty body" in one_line(caught.value)

    def test_the_real_pdf_passes(self, server, client):
        assert client.get(pdf_url(server)).content == real_pdf()


class TestEmptyBody:
    """A 200 answer with nothing in it is retried, never archived; an empty file that reaches
    extraction (hand-dropped, or archived before) is refused: never `loaded` with 0 facts."""

    @pytest.mark.parametrize("body", [b"", b" \r\n\t\n"])
    def test_empty_exhibit_is_retriable(self, server, client, body):
        server.inject("doc.htm", Answer(200, body, {"Content-Type": "text/html"}))
        with pytest.raises(RetriableTransportError) as caught:
            client.get(doc_url(server))
        assert f"empty body ({len(body)} bytes)" in one_line(caught.value)
        assert client.get(doc_url(server)).content.startswith(b"<html>")  # the retry reads it

    @pytest.mark.parametrize("content", [b"", b"\n \n", b"\t"])
    def test_empty_file_is_refused_by_extraction(self, content):
        from domain.records import StoredFile
        from tasks.extract import extract_document

        stored = StoredFile("ex99.htm", "", "0" * 64, len(content), "EX-99.1")
        with pytest.raises(ParseError) as caught:
            extract_document("sec:empty", [(stored, content)], "QFIN")
        assert "empty file" in one_line(caught.value)

    def test_empty_hand_dropped_file_is_refused(self, tmp_path):
        from domain.errors import RefusedFileError
        from domain.records import Issuer
        from tasks.extract import inspect_local_file

        path = tmp_path / "results.htm"
        path.write_bytes(b"")
        qfin = Issuer("QFIN", "Qifu Technology, Inc.", "0001741530", "03660")
        with pytest.raises(RefusedFileError) as caught:
            inspect_local_file(path, [qfin], "QFIN", None)
        assert "empty file" in one_line(caught.value)


class TestTruncatedPdf:
    """A PDF without its trailer was cut short: retriable, never handed on to be archived."""

    def test_no_trailer(self, server, client):
        cut = real_pdf()[: len(real_pdf()) // 2]
        server.inject(".pdf", Answer(200, cut, {"Content-Type": "application/pdf"}))
        with pytest.raises(RetriableTransportError) as caught:
            client.get(pdf_url(server))
        assert "truncated PDF" in one_line(caught.value)

    def test_corrupt_inside_fails_extraction_with_one_line(self):
        from tasks.extract import parse_document

        corrupt = b"%PDF-1.7\n" + bytes(range(256)) * 40 + b"\n%%EOF\n"
        with pytest.raises(ParseError) as caught:
            parse_document("corrupt.pdf", corrupt)
        one_line(caught.value)


class TestHtmlInsteadOfJson:
    """JSON endpoints answering an HTML page (a login or error page) or broken JSON."""

    def test_html_page_is_fatal(self, server, client):
        page = b"<html><head><title>Maintenance</title></head></html>"
        server.inject("/submissions/", Answer(200, page, {"Content-Type": "text/html"}))
        edgar = HttpEdgarClient(client, server.url, server.url)
        with pytest.raises(FatalTransportError) as caught:
            edgar.submissions("0001741530")
        assert "expected JSON" in one_line(caught.value)

    def test_malformed_json_is_a_parse_error(self, server, client):
        server.inject(
            "/submissions/", Answer(200, b'{"cik": "17', {"Content-Type": "application/json"})
        )
        edgar = HttpEdgarClient(client, server.url, server.url)
        with pytest.raises(ParseError) as caught:
            edgar.submissions("0001741530")
        assert "not valid JSON" in one_line(caught.value)

    def test_hkex_title_search_answering_html(self, server, client):
        server.inject("titleSearch", Answer(200, b"<!doctype html><p>blocked</p>"))
        hkex = HttpHkexClient(client, server.url)
        from datetime import date

        with pytest.raises(FatalTransportError):
            hkex.title_search(1, date(2025, 1, 1), date(2025, 3, 31), 100)

    def test_the_real_answer_passes(self, server, client):
        edgar = HttpEdgarClient(client, server.url, server.url)
        assert edgar.submissions("0001741530")["cik"] == "1741530"
        assert submissions_url(server).endswith("CIK0001741530.json")
