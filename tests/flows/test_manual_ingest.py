"""``filings ingest`` of files a person drops in: never a duplicate, never a foreign document,
never dated today. On both databases, after a replay run loaded everything from the sources."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import text

from flows.ingest import ingest, ingest_local
from storage import db
from storage.db import table_counts
from tasks.sources.replay import ReplayServer, default_archive_root

ARCHIVE = default_archive_root()
Q4_2023_EX99 = ARCHIVE / "sec/0001741530/0001104659-24-032436/tm248123d1_ex99-1.htm"
REFERENCE = Path(__file__).resolve().parents[1] / "fixtures" / "reference"
FOREIGN_6K = REFERENCE / "sec" / "sec_6k_primary_philips_phg-20230130.htm"


@pytest.fixture
def loaded(monkeypatch, tmp_path, db_url):
    """A warehouse holding everything the replay archive lists."""
    monkeypatch.setenv("FILINGS_DATABASE_URL", db_url)
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    with ReplayServer(default_archive_root()) as server:
        for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
            monkeypatch.setenv(name, server.url)
        monkeypatch.setenv("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
        assert ingest().ingested == 9
    engine = db.make_engine(db_url)
    yield engine
    engine.dispose()


@pytest.fixture
def empty(monkeypatch, tmp_path, db_url):
    """A warehouse holding nothing yet (files dropped by hand need no source)."""
    monkeypatch.setenv("FILINGS_DATABASE_URL", db_url)
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    engine = db.make_engine(db_url)
    yield engine
    engine.dispose()


def _state(engine):
    with engine.connect() as conn:
        counts = table_counts(conn)
        latest = conn.execute(
            text(
                "select metric, period_start, period_end, value from facts_latest order by 1, 2, 3"
            )
        ).all()
    counts.pop("runs", None)
    return counts, [(m, str(s), str(e), str(v)) for m, s, e, v in latest]


def test_reingesting_a_loaded_release_changes_no_row_and_raises_no_alert(loaded, tmp_path):
    before = _state(loaded)
    renamed_copy = tmp_path / "downloaded" / Q4_2023_EX99.name
    renamed_copy.parent.mkdir()
    shutil.copy(Q4_2023_EX99, renamed_copy)
    edited = tmp_path / "tm248123d1_ex99-1.htm"  # the same exhibit, saved again by a browser
    edited.write_bytes(Q4_2023_EX99.read_bytes() + b"\n<!-- saved -->\n")

    summary = ingest_local(paths=[str(Q4_2023_EX99), str(renamed_copy), str(edited)])

    assert summary.ok, summary.render()
    assert summary.new == 0 and summary.ingested == 0 and summary.alerts_raised == 0
    assert len(summary.already_stored) == 3
    assert all("sec:0001104659-24-032436" in line for line in summary.already_stored)
    assert _state(loaded) == before


def test_an_old_release_under_another_name_is_the_one_held(loaded, tmp_path):
    before = _state(loaded)
    older = tmp_path / "qfin_q4_2023_release.htm"  # other bytes, another name
    older.write_bytes(Q4_2023_EX99.read_bytes() + b"\n<!-- another copy -->\n")

    summary = ingest_local(paths=[str(older)])

    assert summary.ok and summary.new == 0 and summary.ingested == 0, summary.render()
    assert summary.already_stored == [
        f"{older.name}: already in the warehouse as sec:0001104659-24-032436 "
        "(the same release: 288 of its 288 figures printed the same)"
    ]
    assert _state(loaded) == before  # facts_latest did not go back to older figures


def test_a_release_keeps_its_dateline(empty, tmp_path):
    older = tmp_path / "qfin_q4_2023_release.htm"
    older.write_bytes(Q4_2023_EX99.read_bytes() + b"\n<!-- another copy -->\n")

    summary = ingest_local(paths=[str(older)])

    assert summary.new == 1, summary.render()
    with empty.connect() as conn:
        published = conn.execute(
            text("select published_on from documents where source = 'local'")
        ).scalar_one()
    assert str(published) == "2024-03-12"  # its dateline, not today


def test_a_foreign_document_is_refused_and_nothing_is_stored(loaded):
    before = _state(loaded)
    summary = ingest_local(paths=[str(FOREIGN_6K)], issuer="QFIN")
    assert not summary.ok
    assert summary.failed == [
        f"{FOREIGN_6K.name} refused, nothing stored: it does not name QFIN "
        "(Qifu Technology, HKEx 3660)"
    ]
    assert _state(loaded) == before


def test_published_date_given_by_hand_wins(empty, tmp_path):
    copy = tmp_path / "undated.htm"
    copy.write_bytes(Q4_2023_EX99.read_bytes() + b"<!-- x -->")
    ingest_local(paths=[str(copy)], published=date(2024, 3, 13))
    with empty.connect() as conn:
        published = conn.execute(
            text("select published_on from documents where source = 'local'")
        ).scalar_one()
    assert str(published) == "2024-03-13"


def test_alerts_link_the_public_documents_and_the_run_in_plain_words(loaded):
    with loaded.connect() as conn:
        rows = conn.execute(text("select kind, subject, message from alert_events")).all()
    restated = [m for k, _, m in rows if k == "restatement"]
    # the audited 20-F contradicts one release figure: linked to the filing it comes from
    [audited] = [m for m in restated if "(xbrl:0001104659-24-051187)" in m]
    assert "release RMB4,285.3m, 20-F RMB4,275.1m, filed 2024-04-26" in audited
    assert "Prefect run: http://127.0.0.1:" in audited
    restated.remove(audited)
    # release to release: six operating figures, and Q4 and FY2023 other comprehensive income,
    # total comprehensive income and its owners' share (the Q4 2024 announcement's differ)
    assert len(restated) == 12
    for message in restated:
        assert (
            "Document: https://www.sec.gov/Archives/edgar/data/1741530/000110465924032436/"
            "0001104659-24-032436-index.htm (sec:0001104659-24-032436)" in message
        )
        assert "Document: https://www1.hkexnews.hk/listedco/listconews/sehk/2025/0317/" in message
        assert "Prefect run: http://127.0.0.1:" in message and "/runs/flow-run/" in message
    [quality] = [(s, m) for k, s, m in rows if k == "data_quality"]
    assert quality[0] == (
        "QFIN sec:0001104659-24-088431: expected no damaged text figures, 2 findings "
        "(document published, please review)"
    )
    assert "The figures were published" not in quality[1]
    assert "a figure marked 'not stored' above was left out" in quality[1]
    assert "must not exceed" not in quality[1] and "tolerance" not in quality[1]
    assert quality[1].count("RMB71.860 million") == 1
