"""Flow tests run real Prefect flows against a temporary API (prefect_test_harness)."""

import os

# Before Prefect is imported: no telemetry from the test server (there is no network).
os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

import pytest  # noqa: E402
from prefect.testing.utilities import prefect_test_harness  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def prefect_api():
    with prefect_test_harness(server_startup_timeout=90):
        yield


@pytest.fixture
def sqlite_warehouse(monkeypatch, tmp_path):
    """A SQLite warehouse and data dir under tmp_path, set in the environment the flows read."""
    from storage import db

    url = f"sqlite:///{tmp_path / 'warehouse.db'}"
    monkeypatch.setenv("FILINGS_DATABASE_URL", url)
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    engine = db.make_engine(url)
    yield engine
    engine.dispose()


@pytest.fixture(autouse=True)
def no_retry_delays(monkeypatch):
    """Keep the retry policy (counts, conditions) but not its waiting."""
    from tasks import fetch

    for name in ("discover_task", "fetch_task"):
        monkeypatch.setattr(fetch, name, getattr(fetch, name).with_options(retry_delay_seconds=0))


@pytest.fixture
def configured_warehouse(monkeypatch, tmp_path, db_url):
    """The flows' warehouse (SQLite or PostgreSQL), data folder and issuers file: call it with
    the issuers file's text; it returns an engine on the migrated warehouse."""
    from storage import db

    engines = []

    def configure(issuers_text: str):
        issuers = tmp_path / "issuers.toml"
        issuers.write_text(issuers_text, encoding="utf-8")
        monkeypatch.setenv("FILINGS_DATABASE_URL", db_url)
        monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
        monkeypatch.setenv("FILINGS_ISSUERS_FILE", str(issuers))
        engines.append(db.open_warehouse(db_url))
        return engines[-1]

    yield configure
    for engine in engines:
        engine.dispose()
