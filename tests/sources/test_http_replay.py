"""The production HTTP client against the loopback replay server, with injected faults."""

import json

import pytest

from domain.errors import NotFoundError, RateLimitedError, RetriableTransportError
from tasks.sources.archive import RawArchive
from tasks.sources.http import HttpClient, RateLimiter
from tasks.sources.replay import ACCESS_DENIED, RATE_BLOCK, Answer, ReplayServer

ACC = "0001104659-24-000001"


@pytest.fixture
def server(tmp_path):
    folder = tmp_path / "sec" / "0001741530" / ACC
    folder.mkdir(parents=True)
    (folder / "doc.htm").write_text("<html>hello</html>")
    subs = tmp_path / "sec" / "0001741530" / "submissions"
    subs.mkdir(parents=True)
    (subs / "CIK0001741530.json").write_text(json.dumps({"cik": "1741530"}))
    with ReplayServer(tmp_path) as running:
        yield running


@pytest.fixture
def client():
    http = HttpClient(user_agent="Test Co test@example.com", limiter=RateLimiter(0), timeout=5)
    yield http
    http.close()


def _doc_url(server):
    return f"{server.url}/Archives/edgar/data/1741530/{ACC.replace('-', '')}/doc.htm"


def test_archives_document_is_served(server, client):
    assert client.get(_doc_url(server)).content == b"<html>hello</html>"


def test_user_agent_is_declared(server, client):
    response = client.get(f"{server.url}/submissions/CIK0001741530.json")
    assert response.headers["Cache-Control"] == "no-cache, no-store"


def test_missing_archives_object_is_not_found(server, client):
    with pytest.raises(NotFoundError):
        client.get(_doc_url(server).replace("doc.htm", "nothing.htm"))


def test_unknown_cik_is_not_found(server, client):
    with pytest.raises(NotFoundError):
        client.get(f"{server.url}/submissions/CIK0000000001.json")


def test_503_is_retriable(server, client):
    server.inject("doc.htm", Answer(503, b"busy"))
    with pytest.raises(RetriableTransportError):
        client.get(_doc_url(server))
    assert client.get(_doc_url(server)).status == 200


def test_429_is_retriable(server, client):
    server.inject("doc.htm", Answer(429, b""))
    with pytest.raises(RetriableTransportError):
        client.get(_doc_url(server))


def test_rate_threshold_403_is_a_block_not_a_retry(server, client):
    server.inject("doc.htm", Answer(403, RATE_BLOCK))
    with pytest.raises(RateLimitedError):
        client.get(_doc_url(server))


def test_access_denied_403_is_not_found(server, client):
    server.inject("doc.htm", Answer(403, ACCESS_DENIED))
    with pytest.raises(NotFoundError):
        client.get(_doc_url(server))


def test_dropped_connection_is_retriable(server, client):
    server.inject("doc.htm", Answer(200, fault="drop"))
    with pytest.raises(RetriableTransportError):
        client.get(_doc_url(server))


def test_truncated_body_is_retriable(server, client):
    server.inject("doc.htm", Answer(200, b"0123456789" * 100, fault="truncate"))
    with pytest.raises(RetriableTransportError):
        client.get(_doc_url(server))


def test_if_modified_since_gets_304(server, client):
    first = client.get(_doc_url(server))
    again = client.get(
        _doc_url(server), headers={"If-Modified-Since": first.headers["Last-Modified"]}
    )
    assert again.status == 304 and again.content == b""


def test_server_logs_every_request(server, client):
    client.get(_doc_url(server))
    assert [r.path.rsplit("/", 1)[-1] for r in server.log] == ["doc.htm"]


def test_archive_stores_content_once(tmp_path):
    archive = RawArchive(str(tmp_path / "a"))
    first = archive.put(b"same", url="u1", headers={"ETag": "x"})
    second = archive.put(b"same", url="u2", headers={})
    assert first == second
    assert archive.meta(first)["url"] == "u1"
    assert len(list((tmp_path / "a" / "objects").rglob("*"))) == 2  # one folder, one object
