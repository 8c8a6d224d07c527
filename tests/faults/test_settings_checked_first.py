"""Every setting, the warehouse included, checked before anything starts (issue 25 defect 8,
issue 26 point 5): a mistake is one ``error:`` line naming the setting, a non-zero exit, and
nothing started — no Prefect server, no request to the sources, no warehouse file.

Found by an outside probe: ``FILINGS_SMTP_URL=mailhost:25`` ran 41 s, then failed at delivery;
a webhook URL without a scheme likewise; SMTP without ``FILINGS_ALERT_EMAIL_TO`` sent nothing
and exited 0; an unreachable PostgreSQL or a missing database was reported after 116-161 s,
once Prefect's server had started.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
import uuid

import pytest

from benchmarks import fault_runs as fr

SECRET = "S3cr3tPw"


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _refused(replay, tmp_path, **env: str) -> tuple[str, float]:
    """``filings run`` with the settings ``env``: its one error line and its wall seconds."""
    warehouse = fr.Warehouse(f"sqlite:///{tmp_path / 'wh' / 'warehouse.sqlite'}", tmp_path)
    environment = warehouse.environment(fr.Services("", replay.url))
    environment.pop("PREFECT_API_URL")  # today's CLI would start its own Prefect server
    environment.update(env)
    started = time.monotonic()
    done = subprocess.run(
        fr.command(), env=environment, capture_output=True, text=True, timeout=300
    )
    took = time.monotonic() - started
    assert done.returncode not in (0, None), (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert "Prefect" not in done.stderr and not (tmp_path / "prefect" / "prefect.db").exists()
    assert not replay.requests(), "nothing is fetched"
    assert not (tmp_path / "wh" / "warehouse.sqlite").exists(), "no warehouse is created"
    assert SECRET not in done.stderr + done.stdout
    return lines[0], took


class TestAlertChannelSettings:
    @pytest.mark.parametrize(
        ("setting", "value"),
        [
            ("FILINGS_SMTP_URL", "mailhost:25"),
            ("FILINGS_SMTP_URL", f"smtp://user:{SECRET}#x@127.0.0.1:1/"),  # '#' ends the netloc
            ("FILINGS_SMTP_URL", f"http://user:{SECRET}@127.0.0.1/"),
            ("FILINGS_WEBHOOK_URL", f"hooks.example.com/{SECRET}"),
            ("FILINGS_SLACK_WEBHOOK_URL", f"https://hooks.example.com:{SECRET}/x"),
        ],
    )
    def test_a_malformed_url_is_one_line_naming_the_setting(self, replay, tmp_path, setting, value):
        env = {setting: value}
        if setting == "FILINGS_SMTP_URL":
            env["FILINGS_ALERT_EMAIL_TO"] = "ops@example.com"
        line, took = _refused(replay, tmp_path, **env)
        assert setting in line, line
        assert took < 30, f"{took:.1f} s"  # today 41 s and more; the figure: benchmarks

    def test_smtp_without_recipients_is_refused(self, replay, tmp_path):
        line, _ = _refused(replay, tmp_path, FILINGS_SMTP_URL="smtp://127.0.0.1:25")
        assert "FILINGS_ALERT_EMAIL_TO" in line, line

    def test_a_malformed_recipient_is_refused(self, replay, tmp_path):
        env = {"FILINGS_SMTP_URL": "smtp://127.0.0.1:25", "FILINGS_ALERT_EMAIL_TO": "ops"}
        line, _ = _refused(replay, tmp_path, **env)
        assert "FILINGS_ALERT_EMAIL_TO" in line, line


class TestWarehouseReachable:
    def test_an_unreachable_postgresql_is_one_line_before_prefect(self, replay, tmp_path):
        url = f"postgresql+psycopg://postgres:{SECRET}@127.0.0.1:{_closed_port()}/filings"
        line, took = _refused(replay, tmp_path, FILINGS_DATABASE_URL=url)
        assert "FILINGS_DATABASE_URL" in line and "cannot connect" in line, line
        assert took < 30, f"{took:.1f} s"  # today 116-161 s

    @pytest.mark.postgres
    def test_a_missing_database_is_one_line_saying_so(self, postgres_at, replay, tmp_path):
        admin = os.environ.get("FILINGS_TEST_POSTGRES_URL", fr.DEFAULT_POSTGRES_URL)
        name = f"filings_missing_{uuid.uuid4().hex[:8]}"
        url = admin.rsplit("/", 1)[0] + "/" + name
        line, _ = _refused(replay, tmp_path, FILINGS_DATABASE_URL=url)
        assert f"database '{name}' does not exist" in line, line
