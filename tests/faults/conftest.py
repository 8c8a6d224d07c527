"""Misbehaving sources: the production HTTP client against the loopback replay server.

``server`` serves a small archive in the real wire format (an EDGAR submissions JSON, an
Archives exhibit, an HKEx PDF from the bundled replay archive); tests queue faults on it with
``server.inject``. ``client`` builds the real :class:`HttpClient` with small bounds so a
fault shows in well under a second.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from service_checks import unavailable

from tasks.sources.http import HttpClient, RateLimiter
from tasks.sources.replay import ReplayServer, default_archive_root

CIK = "0001741530"
ACC = "0001104659-24-000001"
PDF_ROW = {
    "NEWS_ID": "11480512",
    "FILE_LINK": "/listedco/listconews/sehk/2025/0317/2025031700001.pdf",
    "DATE_TIME": "17/03/2025 08:00",
    "TITLE": "Results",
}


def real_pdf() -> bytes:
    """An HKEx announcement PDF of the bundled replay archive."""
    return (default_archive_root() / "hkex" / "03660" / "11480512.pdf").read_bytes()


def _archive(root: Path) -> None:
    folder = root / "sec" / CIK / ACC
    folder.mkdir(parents=True)
    (folder / "doc.htm").write_text("<html><body>exhibit 99.1</body></html>")
    subs = root / "sec" / CIK / "submissions"
    subs.mkdir(parents=True)
    (subs / f"CIK{CIK}.json").write_text(json.dumps({"cik": "1741530", "filings": {}}))
    hkex = root / "hkex" / "03660"
    hkex.mkdir(parents=True)
    shutil.copy(default_archive_root() / "hkex" / "03660" / "11480512.pdf", hkex)
    (hkex / "titlesearch_rows.json").write_text(json.dumps([PDF_ROW]))


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ReplayServer]:
    """The replay server on a small archive."""
    _archive(tmp_path / "replay")
    with ReplayServer(tmp_path / "replay") as running:
        yield running


@pytest.fixture
def make_client(server: ReplayServer) -> Iterator[Callable[..., HttpClient]]:
    """Builds the production client for the server (keyword arguments override bounds)."""
    made: list[HttpClient] = []

    def build(**options: object) -> HttpClient:
        settings: dict[str, object] = {"timeout": 2.0, "bases": (server.url,)}
        settings.update(options)
        http = HttpClient(
            user_agent="Test Co test@example.com",
            limiter=RateLimiter(0),
            **settings,  # type: ignore[arg-type]
        )
        made.append(http)
        return http

    yield build
    for http in made:
        http.close()


@pytest.fixture
def client(make_client: Callable[..., HttpClient]) -> HttpClient:
    """The production client with the test bounds."""
    return make_client()


def doc_url(server: ReplayServer) -> str:
    """The Archives exhibit of the small archive."""
    return f"{server.url}/Archives/edgar/data/1741530/{ACC.replace('-', '')}/doc.htm"


def pdf_url(server: ReplayServer) -> str:
    """The HKEx PDF of the small archive."""
    return server.url + PDF_ROW["FILE_LINK"]


def submissions_url(server: ReplayServer) -> str:
    """The EDGAR submissions JSON of the small archive."""
    return f"{server.url}/submissions/CIK{CIK}.json"


def one_line(exc: BaseException) -> str:
    """The error's message, checked to be one line a person can read."""
    text = str(exc)
    assert text and "\n" not in text and "Traceback" not in text, text
    assert len(text) < 400, text
    return text


@pytest.fixture(scope="session")
def prefect_api() -> Iterator[None]:
    """A temporary Prefect API for the tests that run the ingest flow."""
    os.environ.setdefault("DO_NOT_TRACK", "1")
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=90):
        yield


@pytest.fixture
def no_retry_delays(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the retry policy (counts, conditions) but not its waiting."""
    from tasks import fetch

    for name in ("discover_task", "fetch_task"):
        monkeypatch.setattr(fetch, name, getattr(fetch, name).with_options(retry_delay_seconds=0))


@pytest.fixture
def replay() -> Iterator[ReplayServer]:
    """The replay server on the bundled archive (every document of the embedded default)."""
    with ReplayServer(default_archive_root()) as running:
        yield running


@pytest.fixture
def run_env(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, replay: ReplayServer
) -> Callable[[str], str]:
    """Points the flow's settings at ``replay`` and a fresh SQLite warehouse named ``name``."""

    def point(name: str) -> str:
        folder = tmp_path / name
        folder.mkdir()
        url = f"sqlite:///{folder / 'warehouse.sqlite'}"
        monkeypatch.setenv("FILINGS_DATABASE_URL", url)
        monkeypatch.setenv("FILINGS_DATA_DIR", str(folder))
        for key in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
            monkeypatch.setenv(key, replay.url)
        monkeypatch.setenv("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
        monkeypatch.setenv("FILINGS_HTTP_TIMEOUT_SECONDS", "1")
        monkeypatch.setenv("FILINGS_HTTP_MAX_MEGABYTES", "1")
        return url

    return point


class Warehouses:
    """Fresh warehouses of one kind for run processes, and the reference: what one
    uninterrupted run stores (computed once per kind and session, then reused)."""

    _references: dict[str, tuple[Any, Any, float]] = {}

    def __init__(self, kind: str, make: Callable[[Path], Any]) -> None:
        self.kind = kind
        self.make = make

    def __call__(self, folder: Path) -> Any:
        return self.make(folder)

    def reference(self, folder: Path, services: Any) -> tuple[Any, Any, float]:
        """(dump, per-document counts, seconds taken) of an uninterrupted run."""
        from benchmarks import fault_runs

        if self.kind not in self._references:
            with self.make(folder) as warehouse:
                started = time.monotonic()
                clean = fault_runs.run(warehouse, services)
                took = time.monotonic() - started
                assert clean.returncode == 0 and not clean.unhandled, clean.stderr
                self._references[self.kind] = (
                    fault_runs.warehouse_dump(warehouse),
                    fault_runs.per_document(warehouse),
                    took,
                )
        return self._references[self.kind]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def warehouse_at(request: pytest.FixtureRequest) -> Warehouses:
    """Makes fresh warehouses for run processes: SQLite files, or PostgreSQL databases
    (skipped without a server, a failure in CI)."""
    from benchmarks import fault_runs

    if request.param == "sqlite":
        return Warehouses("sqlite", fault_runs.sqlite_warehouse)
    return _postgres_warehouses()


@pytest.fixture
def postgres_at() -> Warehouses:
    """Fresh PostgreSQL databases for run processes (see ``warehouse_at``)."""
    return _postgres_warehouses()


def _postgres_warehouses() -> Warehouses:
    from sqlalchemy.exc import OperationalError

    from benchmarks import fault_runs
    from storage import db

    admin_url = os.environ.get("FILINGS_TEST_POSTGRES_URL", fault_runs.DEFAULT_POSTGRES_URL)
    engine = db.make_engine(admin_url, connect_args={"connect_timeout": 5})
    try:
        with engine.connect():
            pass
    except OperationalError as exc:
        unavailable(f"PostgreSQL not reachable: {str(exc).splitlines()[0]}")
    finally:
        engine.dispose()
    return Warehouses("postgresql", fault_runs.postgres_warehouse)
