"""The ingest flow end to end: replay server -> Prefect flow -> warehouse, on both databases."""

from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import text

from flows.ingest import ingest
from storage import db
from storage.db import table_counts
from tasks.sources.replay import Answer, ReplayServer, default_archive_root

Q2_2024 = (date(2024, 4, 1), date(2024, 6, 30))


@pytest.fixture
def replay():
    with ReplayServer(default_archive_root()) as server:
        yield server


@pytest.fixture
def env(monkeypatch, tmp_path, db_url, replay):
    monkeypatch.setenv("FILINGS_DATABASE_URL", db_url)
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
        monkeypatch.setenv(name, replay.url)
    monkeypatch.setenv("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
    return db_url


def _latest(url, metric, start, end):
    engine = db.make_engine(url)
    query = text(
        "select value from facts_latest where issuer='QFIN' and metric=:m and period_end=:e "
        "and (period_start = :s or (period_start is null and :s is null))"
    )
    with engine.connect() as conn:
        rows = conn.execute(query, {"m": metric, "s": start, "e": end}).scalars().all()
    engine.dispose()
    return [Decimal(str(v)) for v in rows]


def _counts(url):
    engine = db.make_engine(url)
    with engine.connect() as conn:
        counts = table_counts(conn)
    engine.dispose()
    return counts


class TestReplayRun:
    """A first run over the bundled replay archive, then a rerun."""

    def test_q2_2024_total_net_revenue(self, env):
        ingest()
        assert _latest(env, "total_net_revenue", *Q2_2024) == [Decimal("4160063000")]

    def test_total_assets_at_2024_12_31(self, env):
        ingest()
        assert _latest(env, "total_assets", None, date(2024, 12, 31)) == [Decimal("48132618000")]

    def test_every_results_document_is_ingested(self, env):
        summary = ingest()
        assert summary.ok, summary.render()
        assert summary.ingested == summary.new >= 4
        assert summary.facts_loaded > 100

    def test_second_run_ingests_nothing_and_changes_no_row(self, env):
        ingest()
        before = _counts(env)
        summary = ingest()
        assert (summary.new, summary.ingested) == (0, 0)
        assert "nothing new" in summary.render()
        after = _counts(env)
        # Every run is logged in `runs` (filings status); no data row changes.
        assert after.pop("runs") == before.pop("runs") + 1
        assert after == before


class TestFailures:
    """A broken source or document fails alone; nothing stored is lost; a rerun recovers."""

    def test_sec_down_leaves_hkex_complete(self, env, replay):
        replay.inject("/submissions/", *[Answer(503, b"down")] * 4)
        summary = ingest(sources=["sec", "hkex"])
        assert any("sec" in failure for failure in summary.source_failures)
        assert _latest(env, "total_assets", None, date(2024, 12, 31)) == [Decimal("48132618000")]

    def test_rerun_after_sec_outage_picks_up_the_missed_filings(self, env, replay):
        replay.inject("/submissions/", *[Answer(503, b"down")] * 4)
        ingest()
        summary = ingest()
        assert summary.ok
        assert _latest(env, "total_net_revenue", *Q2_2024) == [Decimal("4160063000")]

    def test_missing_document_fails_alone(self, env, replay):
        replay.inject("tm2421456d1_ex99-1.htm", Answer(404, b"gone"))
        summary = ingest()
        assert [f for f in summary.failed if "0001104659-24-088431" in f]
        assert _latest(env, "total_assets", None, date(2024, 12, 31)) == [Decimal("48132618000")]
