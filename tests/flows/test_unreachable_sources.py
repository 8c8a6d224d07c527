"""A run that cannot reach its sources says so, exits non-zero, and never promises a retry."""

from __future__ import annotations

import socket

from flows.ingest import ingest


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # nothing listens once the socket closes


def test_unreachable_sources_are_reported_after_the_retries(sqlite_warehouse, monkeypatch):
    nowhere = f"http://127.0.0.1:{_closed_port()}"
    for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
        monkeypatch.setenv(name, nowhere)
    monkeypatch.setenv("FILINGS_SEC_USER_AGENT", "Test Co ops@example.test")
    monkeypatch.setenv("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")

    summary = ingest()

    text = summary.render()
    assert not summary.ok
    assert "nothing new to ingest" not in text
    failures = [line for line in text.splitlines() if line.startswith("source failed: QFIN")]
    # SEC's listing, HKEx's and SEC's XBRL company facts (another endpoint): one line each
    assert [line.split(":", 2)[1].strip() for line in failures] == [
        "QFIN sec",
        "QFIN hkex",
        "QFIN xbrl",
    ], text
    assert all("will retry" not in line and "next run tries again" in line for line in failures)
