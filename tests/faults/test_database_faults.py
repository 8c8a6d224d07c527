"""Database faults through a real ``filings run``: a wrong PostgreSQL URL, an unwritable SQLite
path. Each run exits 1 with one line on stderr (no traceback, no SQL echo) and stores nothing.
"""

from __future__ import annotations

import socket

import pytest
from prefect.settings import PREFECT_API_URL

from benchmarks import fault_runs as fr

pytestmark = [pytest.mark.usefixtures("prefect_api"), pytest.mark.timeout(900)]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _one_line_failure(outcome: fr.Outcome) -> str:
    assert outcome.returncode == 1 and not outcome.unhandled, outcome.stderr
    errors = [line for line in outcome.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "[SQL:" not in errors[0] and "sqlalche.me" not in errors[0]
    return errors[0]


class TestWrongPostgresUrl:
    def test_one_line(self, replay, tmp_path):
        services = fr.Services(str(PREFECT_API_URL.value()), replay.url)
        url = f"postgresql+psycopg://postgres@127.0.0.1:{_closed_port()}/filings"
        warehouse = fr.Warehouse(url, tmp_path)
        line = _one_line_failure(fr.run(warehouse, services))
        assert "Connection refused" in line or "connection failed" in line, line
        assert not replay.requests(), "nothing is fetched without a warehouse"


class TestUnwritableSqlitePath:
    def test_one_line(self, replay, tmp_path):
        services = fr.Services(str(PREFECT_API_URL.value()), replay.url)
        blocker = tmp_path / "not-a-folder"
        blocker.write_text("a file where the warehouse's folder should be")
        warehouse = fr.Warehouse(f"sqlite:///{blocker / 'warehouse.sqlite'}", tmp_path)
        _one_line_failure(fr.run(warehouse, services))
        assert not replay.requests()
