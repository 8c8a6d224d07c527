"""Cross-document checks do not depend on the order documents were validated in.

Issue 25's probe: of three concurrent runs, one stored a cross-period check as "not
evaluated" that a sequential run evaluated. A check comparing documents is stored with the
last published of them, and after each load the issuer's later documents are checked again
(tasks/settle.py). Here the replay archive is processed once in its order and once in the
reverse order (each issuer's documents newest first, as a backfill out of order would): the
two warehouses hold the same validation results, row for row, evidence included (SQLite and
PostgreSQL warehouses).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.warehouse_dump import differences, dump
from flows import ingest as ingest_flow
from storage import db
from tasks.sources.replay import ReplayServer, default_archive_root
from tests.conftest import _postgres_database, _sqlite_database


@pytest.fixture
def second_url(db_url: str, tmp_path: Path):
    """A second fresh warehouse of the same kind as ``db_url``."""
    if db_url.startswith("sqlite"):
        (tmp_path / "second").mkdir()
        yield from _sqlite_database(tmp_path / "second")
    else:
        yield from _postgres_database()


def _run(url: str, folder: Path, monkeypatch: pytest.MonkeyPatch, server: ReplayServer) -> dict:
    folder.mkdir()
    monkeypatch.setenv("FILINGS_DATABASE_URL", url)
    monkeypatch.setenv("FILINGS_DATA_DIR", str(folder))
    for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
        monkeypatch.setenv(name, server.url)
    monkeypatch.setenv("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
    summary = ingest_flow.ingest()
    assert summary.ok and summary.ingested == 9, summary.render()
    engine = db.make_engine(url)
    try:
        return dump(engine)
    finally:
        engine.dispose()


@pytest.mark.usefixtures("prefect_api", "no_retry_delays")
class TestReplayArchiveNewestFirst:
    def test_same_validation_results_as_in_order(self, db_url, second_url, tmp_path, monkeypatch):
        with ReplayServer(default_archive_root()) as server:
            in_order = _run(db_url, tmp_path / "in-order", monkeypatch, server)
            interleave = ingest_flow._interleaved
            monkeypatch.setattr(ingest_flow, "_interleaved", lambda todo: interleave(todo[::-1]))
            newest_first = _run(second_url, tmp_path / "newest-first", monkeypatch, server)
        assert in_order["validation_results"]  # something was checked
        assert differences(newest_first, in_order) == []
