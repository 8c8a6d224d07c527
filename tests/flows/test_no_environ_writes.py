"""No ``os.environ`` writes after start-up: a run takes its settings from a scope, and
``filings serve`` hands the served runs theirs in its runner process's environment."""

from __future__ import annotations

import os
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from environ_guard import environ_writes
from typer.testing import CliRunner

from flows import serving, startup
from flows.cli import app
from flows.ingest import ingest
from tasks.sources.replay import ReplayServer, default_archive_root


def test_a_run_writes_no_environment(monkeypatch, tmp_path, sqlite_warehouse):
    with ReplayServer(default_archive_root()) as replay:
        for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
            monkeypatch.setenv(name, replay.url)
        monkeypatch.setenv("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
        before = dict(os.environ)
        with environ_writes() as writes:
            summary = ingest(issuers=["QFIN"], sources=["hkex"])
    assert summary.ok and summary.new > 0, summary.render()
    assert writes == [] and dict(os.environ) == before


def test_serve_hands_the_runs_settings_to_its_runner_and_writes_none(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name in [n for n in os.environ if n.startswith(("FILINGS_", "PREFECT_API_URL"))]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("PREFECT_HOME", str(tmp_path / "prefect"))
    started: list[tuple[list[str], dict[str, str], dict[str, str]]] = []

    def runner(args: list[str], values: dict[str, str]) -> int:
        with urllib.request.urlopen(values["FILINGS_SEC_DATA_URL"] + "/files/company_tickers.json"):
            pass  # the replay source answers while the runner runs
        started.append((args, dict(values), dict(os.environ)))
        return 0

    @contextmanager
    def local_server(port: int, say):
        yield f"http://127.0.0.1:{port}/api"

    monkeypatch.setattr(serving, "run_runner", runner)
    monkeypatch.setattr(startup, "local_server", local_server)
    with environ_writes() as writes:
        result = CliRunner().invoke(
            app, ["serve", "--source", "replay", "--cron", "* * * * *", "--timezone", "UTC"]
        )
    assert result.exit_code == 0, result.output
    assert writes == []
    [(args, values, environ)] = started
    assert args == ["* * * * *", "UTC"]
    replay_db = f"sqlite:///{(tmp_path / 'replay' / 'warehouse.sqlite').resolve()}"
    assert values["FILINGS_DATABASE_URL"] == replay_db
    assert values["FILINGS_DATA_DOCS_URL"].startswith("http://127.0.0.1:")
    assert values["PREFECT_API_URL"] == "http://127.0.0.1:4200/api"
    assert values["FILINGS_SEC_DATA_URL"].startswith("http://127.0.0.1:")
    assert not {n for n in values if n in environ}  # in the runner's environment only
