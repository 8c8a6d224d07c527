"""The fetch stage against the replay server: incremental listing, the archive, the SEC block."""

from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime, timedelta

import pytest

from domain.enums import SourceName
from domain.errors import ConfigError, RateLimitedError
from domain.records import Issuer
from storage import db
from storage.documents import (
    document_files,
    documents_to_process,
    get_document,
    record_documents,
    record_files,
    set_status,
    upsert_issuers,
)
from tasks import fetch
from tasks.config import wiring
from tasks.config.settings import load_settings
from tasks.sources.archive import RawArchive
from tasks.sources.replay import RATE_BLOCK, Answer, ReplayServer
from tests.sources import builders

QFIN = Issuer("QFIN", "Qifu", builders.CIK, "03660")
NOW = datetime(2025, 3, 20, 12, 0, tzinfo=UTC)


@pytest.fixture
def sqlite_engine(tmp_path):
    engine = db.make_engine(f"sqlite:///{tmp_path / 'w.db'}")
    db.migrate(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def clock(monkeypatch):
    now = [NOW]
    monkeypatch.setattr(fetch, "utcnow", lambda: now[0])
    return now


def _sources(server, **extra):
    urls = {k: server.url for k in ("sec_data_url", "sec_archives_url", "hkex_url")}
    settings = load_settings(
        **urls,
        hkex_seconds_between_requests=0,
        sec_limiter="local",
        http_timeout_seconds=2,
        **extra,
    )
    return wiring.build_sources(settings)


def _archives_200(server):
    """How often each Archives document (not an index page) was answered with a body."""
    return Counter(
        r.path
        for r in server.log
        if "/Archives/" in r.path and "-index" not in r.path and r.status == 200
    )


def _run(engine, sources, archive, source="sec", since=date(2024, 1, 1), explicit=False):
    """Discover, register and fetch every pending document, like the flow does."""
    listing = fetch.discover(engine, sources, source, QFIN, since, explicit)
    with engine.begin() as conn:
        upsert_issuers(conn, [QFIN])
        record_documents(conn, listing.refs)
    fetch.record_listing(engine, source, QFIN, listing)
    with engine.begin() as conn:
        pending = documents_to_process(conn, QFIN.ticker)
    for document_id in pending:
        with engine.begin() as conn:
            ref = get_document(conn, document_id)
            already = {f.name: f for f in document_files(conn, document_id)}
        files = fetch.fetch_files(engine, sources, archive, ref, QFIN.cik, already)
        with engine.begin() as conn:
            record_files(conn, document_id, files)
            set_status(conn, document_id, "loaded")
    return listing


class TestIncremental:
    def test_second_pass_asks_one_submissions_question(self, engine, tmp_path, clock):
        builders.write_sec(tmp_path, builders.sec_filings(3), exhibits=1)
        with ReplayServer(tmp_path) as server:
            sources, archive = _sources(server), RawArchive(str(tmp_path / "archive"))
            _run(engine, sources, archive)
            first = len(server.log)
            _run(engine, sources, archive)
            again = [r.path for r in server.log[first:]]
        assert first == 1 + 3 * 3  # submissions + (index, primary, EX-99.1) per filing
        assert again == [f"/submissions/CIK{builders.CIK}.json"]

    def test_files_paging_walked_once_then_covered(self, engine, tmp_path, clock):
        builders.write_sec(tmp_path, builders.sec_filings(6), recent=2)
        with ReplayServer(tmp_path) as server:
            sources, archive = _sources(server), RawArchive(str(tmp_path / "archive"))
            listing = _run(engine, sources, archive)
            pages = [r for r in server.log if "submissions-001" in r.path]
            _run(engine, sources, archive)
            pages_again = [r for r in server.log if "submissions-001" in r.path]
        assert len(listing.items) == 6
        assert len(pages) == len(pages_again) == 1

    def test_hkex_title_search_pages_past_100_rows(self, engine, tmp_path, clock):
        start = datetime(2025, 1, 1, 9, 0)
        rows = [builders.hkex_row(20000000 + n, start + timedelta(hours=n)) for n in range(230)]
        builders.write_hkex(tmp_path, rows)
        with ReplayServer(tmp_path) as server:
            sources = _sources(server)
            listing = fetch.discover(engine, sources, "hkex", QFIN, date(2025, 1, 1), False)
            ranges = [r.path.split("rowRange=")[1].split("&")[0] for r in server.requests("title")]
        assert len({i.ref.source_id for i in listing.items}) == 230
        assert ranges == ["100", "200", "300"]

    def test_hkex_cursor_searches_one_window_with_overlap(self, engine, tmp_path, clock):
        builders.write_hkex(tmp_path, [builders.hkex_row(1, datetime(2025, 3, 1, 9, 0))])
        with ReplayServer(tmp_path) as server:
            sources = _sources(server)
            archive = RawArchive(str(tmp_path / "archive"))
            _run(engine, sources, archive, "hkex", date(2023, 1, 1))
            first = len(server.log)
            clock[0] = NOW + timedelta(days=1)
            _run(engine, sources, archive, "hkex", date(2023, 1, 1))
            again = server.log[first:]
        assert len(again) == 1 and "titleSearch" in again[0].path
        assert "fromDate=20250313" in again[0].path and "toDate=20250321" in again[0].path


class TestArchive:
    def test_killed_run_rerun_fetches_nothing_twice(self, engine, tmp_path, clock):
        builders.write_sec(tmp_path, builders.sec_filings(4), exhibits=2)
        with ReplayServer(tmp_path) as server:
            sources, archive = _sources(server), RawArchive(str(tmp_path / "archive"))
            http = sources[SourceName.SEC].client._http
            real_get = http.get
            calls = [0]

            def dying_get(url, headers=None):
                calls[0] += 1
                if (
                    calls[0] == 8
                ):  # after the second filing's primary document, before it is recorded
                    raise KeyboardInterrupt
                return real_get(url, headers)

            http.get = dying_get
            with pytest.raises(KeyboardInterrupt):
                _run(engine, sources, archive)
            http.get = real_get
            _run(engine, sources, archive)
            counts = _archives_200(server)
        assert len(counts) == 4 * 3  # primary + 2 exhibits each: nothing missed
        assert set(counts.values()) == {1}  # nothing fetched twice
        with engine.begin() as conn:
            assert sum(len(document_files(conn, d)) for d in _ids(conn)) == 12

    def test_the_same_bytes_stored_at_once_from_many_downloads(self, tmp_path):
        # one results PDF listed under two issuers: both downloads archive the same object at
        # once (CI saw FileNotFoundError on the shared temporary file before)
        archive = RawArchive(str(tmp_path / "archive"))
        content = b"%PDF-1.7 " + bytes(range(256)) * 4096
        for attempt in range(5):
            body = content + str(attempt).encode()
            with ThreadPoolExecutor(8) as pool:
                shas = list(
                    pool.map(
                        lambda n, b=body: archive.put(b, url=f"https://x/{n}", headers={}),
                        range(16),
                    )
                )
            assert len(set(shas)) == 1 and archive.get(shas[0]) == body
        leftovers = [p.name for p in (tmp_path / "archive").rglob("*.tmp")]
        assert leftovers == []

    def test_index_page_is_revalidated_with_if_modified_since(self, engine, tmp_path, clock):
        builders.write_sec(tmp_path, builders.sec_filings(1))
        with ReplayServer(tmp_path) as server:
            sources, archive = _sources(server), RawArchive(str(tmp_path / "archive"))
            (ref,) = fetch.discover(engine, sources, "sec", QFIN, date(2024, 1, 1), True).refs
            first = fetch.source_files(engine, sources, archive, ref, QFIN.cik)
            again = fetch.source_files(engine, sources, archive, ref, QFIN.cik)
            statuses = [r.status for r in server.requests("-index.htm")]
        assert first == again and [f.doc_type for f in first] == ["6-K"]
        assert statuses == [200, 304]


def _ids(conn):
    return documents_to_process(conn, "QFIN", force=True)


class TestRateBlock:
    def test_block_pauses_the_source_across_runs_without_retrying(self, engine, tmp_path, clock):
        builders.write_sec(tmp_path, builders.sec_filings(2))
        with ReplayServer(tmp_path) as server:
            sources = _sources(server)
            server.inject("/submissions/", Answer(403, RATE_BLOCK))
            with pytest.raises(RateLimitedError):
                fetch.discover(engine, sources, "sec", QFIN, date(2024, 1, 1), False)
            clock[0] = NOW + timedelta(minutes=9, seconds=59)
            with pytest.raises(RateLimitedError, match="paused until 2025-03-20 12:10:00 UTC"):
                fetch.discover(engine, sources, "sec", QFIN, date(2024, 1, 1), False)
            assert len(server.log) == 1  # nothing asked inside the block
            clock[0] = NOW + timedelta(minutes=10)
            listing = fetch.discover(engine, sources, "sec", QFIN, date(2024, 1, 1), False)
        assert len(listing.items) == 2 and len(server.log) == 2

    def test_block_during_a_download_pauses_too(self, engine, tmp_path, clock):
        builders.write_sec(tmp_path, builders.sec_filings(1))
        with ReplayServer(tmp_path) as server:
            sources, archive = _sources(server), RawArchive(str(tmp_path / "archive"))
            (ref,) = fetch.discover(engine, sources, "sec", QFIN, date(2024, 1, 1), True).refs
            server.inject("doc", Answer(403, RATE_BLOCK))
            with pytest.raises(RateLimitedError):
                fetch.fetch_files(engine, sources, archive, ref, QFIN.cik, {})
        assert "paused until" in fetch.pause_reason(engine, "sec", NOW)
        assert fetch.pause_reason(engine, "hkex", NOW) == ""


def test_hundred_document_backfill_stays_under_ten_per_second(sqlite_engine, tmp_path, clock):
    builders.write_sec(tmp_path, builders.sec_filings(100), recent=40)
    with ReplayServer(tmp_path, sec_rate_limit=10) as server:
        sources, archive = _sources(server), RawArchive(str(tmp_path / "archive"))
        listing = fetch.discover(sqlite_engine, sources, "sec", QFIN, date(2024, 1, 1), True)
        with ThreadPoolExecutor(max_workers=8) as pool:  # concurrent tasks share one limiter
            list(
                pool.map(
                    lambda r: fetch.fetch_files(sqlite_engine, sources, archive, r, QFIN.cik, {}),
                    listing.refs,
                )
            )
        stamps = sorted(r.at for r in server.log)
        counts = _archives_200(server)
    assert len(listing.items) == 100 and server.throttle.blocks == 0
    assert max(sum(1 for t in stamps[i:] if t < s + 1.0) for i, s in enumerate(stamps)) <= 10
    assert len(counts) == 100 and set(counts.values()) == {1}


def test_live_sec_without_user_agent_refuses_to_ask(engine, clock):
    sources = wiring.build_sources(load_settings(sec_user_agent=""))
    with pytest.raises(ConfigError, match="FILINGS_SEC_USER_AGENT"):
        fetch.discover(engine, sources, "sec", QFIN, date(2024, 1, 1), False)
    assert sources[SourceName.SEC].client._http.requests_made == 0
