"""The `filings` command line: one-line errors, non-zero exits, and local ingest."""

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from flows.cli import app
from storage import db
from storage.schema import alert_events, documents
from tasks.sources.replay import default_archive_root

ARCHIVE = default_archive_root()
Q4_2023_EX99 = ARCHIVE / "sec/0001741530/0001104659-24-032436/tm248123d1_ex99-1.htm"
runner = CliRunner()


@pytest.fixture
def env(monkeypatch, tmp_path, db_url):
    monkeypatch.setenv("FILINGS_DATABASE_URL", db_url)
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    # The CLI sets these with setdefault; pin them so the test leaves the environment as it was.
    for name in (
        "PREFECT_HOME",
        "DO_NOT_TRACK",
        "PREFECT_SERVER_ANALYTICS_ENABLED",
        "PREFECT_LOGGING_LEVEL",
        "PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL",
        "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS",
    ):
        monkeypatch.setenv(
            name,
            "1"
            if name == "DO_NOT_TRACK"
            else {
                "PREFECT_HOME": str(tmp_path / "prefect"),
                "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
                "PREFECT_LOGGING_LEVEL": "WARNING",
                "PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL": "WARNING",
                "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "90",
            }[name],
        )
    return db_url


def _one_line_error(result) -> str:
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


def test_live_run_without_user_agent_exits_non_zero(env, monkeypatch):
    monkeypatch.delenv("FILINGS_SEC_USER_AGENT", raising=False)
    result = runner.invoke(app, ["run", "--source", "live"])
    assert result.exit_code == 1
    assert "FILINGS_SEC_USER_AGENT" in _one_line_error(result)


def test_bad_url_setting_exits_non_zero(env, monkeypatch):
    monkeypatch.setenv("FILINGS_HKEX_URL", "www1.hkexnews.hk")
    result = runner.invoke(app, ["run", "--source", "live"])
    assert result.exit_code == 1
    assert "FILINGS_HKEX_URL" in _one_line_error(result)


def test_ingest_of_missing_file_exits_non_zero(env, tmp_path):
    result = runner.invoke(app, ["ingest", str(tmp_path / "nope.pdf")])
    assert result.exit_code == 1
    assert "no such file" in _one_line_error(result)


def test_corrupt_pdf_is_refused_before_anything_is_stored(env, tmp_path):
    bad = tmp_path / "corrupt.pdf"
    bad.write_bytes(b"%PDF-1.7\n" + b"\x00garbage" * 50)
    result = runner.invoke(app, ["ingest", str(bad), str(Q4_2023_EX99)])
    assert result.exit_code == 1
    assert "corrupt.pdf: the PDF is damaged" in _one_line_error(result)
    engine = db.make_engine(env)
    with engine.connect() as conn:
        assert conn.execute(select(documents.c.document_id)).all() == []
    engine.dispose()


class TestAlteredQ4_2023Exhibit:
    """The Q4 2023 EX-99.1 with TOTAL ASSETS at 2023-12-31 altered by 100 thousand."""

    @pytest.fixture
    def ingested(self, env, tmp_path):
        html = Q4_2023_EX99.read_text(encoding="utf-8")
        at = html.index(">TOTAL ASSETS<")
        altered = html[:at] + html[at:].replace("45,818,572", "45,818,672", 1)
        path = tmp_path / "altered_ex99-1.htm"
        path.write_text(altered, encoding="utf-8")
        result = runner.invoke(app, ["ingest", str(path), "--issuer", "QFIN"])
        engine = db.make_engine(env)
        with engine.connect() as conn:
            status = conn.execute(select(documents.c.status)).scalar_one()
            alerts = conn.execute(select(alert_events.c.kind, alert_events.c.message)).all()
        engine.dispose()
        return result, status, alerts

    def test_document_is_quarantined(self, ingested):
        assert ingested[1] == "quarantined"

    def test_data_quality_alert_names_the_identity_and_both_sides(self, ingested):
        messages = [m for kind, m in ingested[2] if kind == "data_quality"]
        # the altered total is contradicted by its rows, so never published: the alert names
        # the statement check that holds it
        assert any(
            "statements add up" in m
            and "balance sheet 2023-" in m
            and "quarantined" in m
            and "Published" not in m
            for m in messages
        ), messages

    def test_summary_reports_the_quarantine(self, ingested):
        assert "quarantined: local:" in ingested[0].output
