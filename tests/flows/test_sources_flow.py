"""Sources through the ingest flow: the SEC block across runs, the no-op run, linking, faults.

SQLite only: the warehouse side of these paths is covered on both databases by
tests/sources/test_fetch_stage.py and tests/sources/test_source_state.py.
"""

from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from flows.ingest import ingest
from storage import db
from storage.schema import document_files, documents
from tasks import fetch
from tasks.sources.replay import RATE_BLOCK, Answer, ReplayServer, default_archive_root


@pytest.fixture
def replay():
    with ReplayServer(default_archive_root()) as server:
        yield server


@pytest.fixture
def env(monkeypatch, tmp_path, replay):
    url = f"sqlite:///{tmp_path / 'warehouse.sqlite'}"
    monkeypatch.setenv("FILINGS_DATABASE_URL", url)
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
        monkeypatch.setenv(name, replay.url)
    monkeypatch.setenv("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
    monkeypatch.setenv("FILINGS_HTTP_TIMEOUT_SECONDS", "1")
    return url


@pytest.fixture
def clock(monkeypatch):
    now = [datetime.now(UTC)]
    monkeypatch.setattr(fetch, "utcnow", lambda: now[0])
    return now


def _rows(url, *columns):
    engine = db.make_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(select(*columns)).all()
    engine.dispose()
    return rows


def test_block_skips_sec_until_it_ends_then_a_noop_run_asks_two_questions(env, replay, clock):
    replay.inject("/submissions/", Answer(403, RATE_BLOCK))
    blocked = ingest()
    assert any("RateLimitedError" in f for f in blocked.source_failures)
    assert blocked.ingested == 5  # HKEx completed on its own
    assert [r.status for r in replay.requests("/submissions/")] == [403]  # never retried

    mark = len(replay.log)
    paused = ingest()
    assert any("sec paused until" in f for f in paused.source_failures)
    assert not [r for r in replay.log[mark:] if not r.path.startswith("/search/")]

    clock[0] += timedelta(minutes=10, seconds=1)
    resumed = ingest()
    assert resumed.ok, resumed.render()
    assert resumed.new == 4 and resumed.ingested == 4

    mark = len(replay.log)
    noop = ingest()
    asked = Counter(r.path.split("?")[0] for r in replay.log[mark:])
    assert (noop.new, noop.ingested) == (0, 0)
    assert asked == {"/submissions/CIK0001741530.json": 1, "/search/titleSearchServlet.do": 1}


def test_listing_metadata_and_disclosure_links(env, replay):
    ingest()
    d = documents.c
    rows = {
        r[0]: r[1:]
        for r in _rows(env, d.document_id, d.category, d.headline_revised, d.disclosure_id)
    }
    assert rows["hkex:11480512"][0] == "10000/13300"
    assert rows["hkex:11448390"][1] is True  # "(Headlines Revised)"
    assert rows["hkex:11480512"][2] == "QFIN:results:2024Q4"
    # The HKEx overseas regulatory announcement mirrors the 6-K filed the same day.
    assert rows["hkex:11255790"][2] == rows["sec:0001104659-24-095871"][2] is not None


def test_transient_faults_lose_and_duplicate_nothing(env, replay):
    replay.inject("tm2421456d1_ex99-1.htm", Answer(429, b""), Answer(503, b"busy"))
    replay.inject("tm2421456d1_ex99-2.htm", Answer(200, b"x" * 100, fault="truncate"))
    replay.inject("tm248123d1_ex99-1.htm", Answer(200, b"late", fault="stall", delay=1.5))
    replay.inject("0001104659-24-095871-index.htm", Answer(200, fault="drop"))
    summary = ingest(sources=["sec"])
    assert summary.ok, summary.render()
    assert summary.ingested == 4
    bodies = Counter(
        r.path
        for r in replay.log
        if r.path.startswith("/Archives/") and r.status == 200 and not r.fault
    )
    archived = [r for r in bodies if "-index" not in r]
    assert len(archived) == 9 and all(bodies[p] == 1 for p in archived)
    files = _rows(env, document_files.c.document_id, document_files.c.name)
    assert len(files) == len(set(files)) == 9


def test_prefect_global_limit_keeps_sec_under_ten_per_second():
    """The server-side limiter: a Prefect global concurrency limit with slot decay."""
    from time import monotonic

    from prefect.client.orchestration import get_client

    from tasks.sources.http import PrefectRateLimiter

    limiter = PrefectRateLimiter("test-sec-requests", 10, timeout=60)
    limiter.ensure()
    starts = []
    for _ in range(15):
        limiter.acquire()
        starts.append(monotonic())
    with get_client(sync_client=True) as client:
        limit = client.read_global_concurrency_limit_by_name("test-sec-requests")
    assert (limit.limit, limit.slot_decay_per_second) == (5, 5.0)
    assert max(sum(1 for t in starts if s <= t < s + 1.0) for s in starts) <= 10
