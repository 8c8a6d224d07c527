"""The same release dropped by hand in another format, after its source copy was loaded, is
recognised and not loaded twice.

Issue 25's probe: the pdftotext-style text of a release whose SEC exhibit the warehouse held
was loaded as a document of its own and added 260 duplicate ``facts_history`` reports. The
laid-out text (tests/fixtures/laid_out) is QFIN's Q4 2023 release as printed; the replay
archive serves the same release as its EDGAR exhibit (SQLite and PostgreSQL warehouses).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text

from flows.ingest import ingest, ingest_local
from storage import db
from tasks.sources.replay import ReplayServer, default_archive_root

LAID_OUT = (
    Path(__file__).resolve().parents[1]
    / "fixtures"
    / "laid_out"
    / "sec_0001741530_2024-03-12_6k_q4-2023.layout.txt"
)
SOURCE_COPY = "sec:0001104659-24-032436"  # the 6-K whose EX-99.1 is this release


def _counts(engine) -> tuple[int, int, int]:
    with engine.connect() as conn:
        return (
            conn.execute(text("select count(*) from facts_history")).scalar_one(),
            conn.execute(text("select count(*) from documents")).scalar_one(),
            conn.execute(text("select count(*) from alert_events")).scalar_one(),
        )


@pytest.mark.usefixtures("prefect_api", "no_retry_delays")
class TestLaidOutTextOfALoadedRelease:
    def test_is_not_loaded_twice(self, db_url, monkeypatch, tmp_path):
        monkeypatch.setenv("FILINGS_DATABASE_URL", db_url)
        monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
        with ReplayServer(default_archive_root()) as server:
            for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
                monkeypatch.setenv(name, server.url)
            monkeypatch.setenv("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
            assert ingest().ok
            engine = db.make_engine(db_url)
            try:
                before = _counts(engine)
                summary = ingest_local(paths=[str(LAID_OUT)], issuer="QFIN")
                after = _counts(engine)
            finally:
                engine.dispose()
        assert summary.ok and summary.failed == []
        assert (summary.found, summary.new, summary.ingested, summary.unchanged) == (1, 0, 0, 1)
        assert summary.already_stored == [
            f"{LAID_OUT.name}: already in the warehouse as {SOURCE_COPY} "
            "(the same release: 288 of its 288 figures printed the same)"
        ]
        assert after == before  # no document, report or alert added
        assert f"not loaded again: {LAID_OUT.name}" in summary.render()


Q2_2024 = "sec_0001741530_2024-08-13_6k_q2-2024"
Q2_2024_COPIES = (  # the exhibits' text (../shared/seeds/003_*.txt) and the first's laid out
    Path(__file__).resolve().parents[1] / "fixtures" / "seeds" / f"{Q2_2024}.txt",
    Path(__file__).resolve().parents[1] / "fixtures" / "laid_out" / f"{Q2_2024}.layout.txt",
)


@pytest.mark.usefixtures("prefect_api", "no_retry_delays")
class TestTextOfA6KWithAnIfrsReconciliation:
    # Found by an outside probe: after the replay run, the Q2 2024 6-K's text was stored as a
    # new document (255 facts_history rows, 3 alerts, one repeating a finding): its figures
    # were compared without their basis, and its IFRS reconciliation read as contradictions.
    def test_neither_copy_is_loaded_again(self, db_url, monkeypatch, tmp_path):
        monkeypatch.setenv("FILINGS_DATABASE_URL", db_url)
        monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
        with ReplayServer(default_archive_root()) as server:
            for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
                monkeypatch.setenv(name, server.url)
            monkeypatch.setenv("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
            assert ingest().ok
            engine = db.make_engine(db_url)
            try:
                before = _counts(engine)
                summary = ingest_local(paths=[str(p) for p in Q2_2024_COPIES], issuer="QFIN")
                after = _counts(engine)
            finally:
                engine.dispose()
        assert summary.ok and summary.failed == [] and summary.ingested == 0
        assert summary.already_stored == [
            f"{Q2_2024_COPIES[0].name}: already in the warehouse as sec:0001104659-24-088431 "
            "(the same release: 274 of its 274 figures printed the same)",
            f"{Q2_2024_COPIES[1].name}: already in the warehouse as sec:0001104659-24-088431 "
            "(the same release: 239 of its 239 figures printed the same)",
        ]
        assert after == before  # no document, facts_history row or alert added
