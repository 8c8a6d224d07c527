"""Configured secrets (the SMTP password, the webhook tokens) appear nowhere a run writes:
stdout, stderr, the warehouse, the raw archive, Data Docs, Prefect's logs and artifacts.

A real ``filings run`` process with every alert channel configured and failing (the SMTP server
refuses, the webhooks answer 500 with the request echoed back), so each secret passes through
the error paths; then every byte written is searched for each secret, plain and URL-quoted.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote

import pytest
from prefect.client.orchestration import get_client
from prefect.settings import PREFECT_API_URL

from benchmarks import fault_runs as fr

# Several whole runs in one test: more than the suite's default per-test limit on a busy machine.
pytestmark = [pytest.mark.usefixtures("prefect_api"), pytest.mark.timeout(1200)]

PASSWORD = "Sm7pPassw0rd-e5c1"
HOOK_TOKEN = "hook-T0ken-9f2a"
SLACK_TOKEN = "slackT0ken7b3d"


class _EchoError(BaseHTTPRequestHandler):
    """A webhook that fails, echoing what it was sent (a careless server does)."""

    def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
        length = int(self.headers.get("Content-Length", "0"))
        body = f"error for {self.path}: ".encode() + self.rfile.read(length)[:200]
        self.send_response(500)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return


@pytest.fixture
def failing_webhook() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EchoError)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _forms(secret: str) -> set[bytes]:
    return {secret.encode(), quote(secret, safe="").encode()}


def _prefect_text() -> bytes:
    """Every log line and artifact the Prefect API holds."""
    with get_client(sync_client=True) as client:
        logs = client.read_logs()
        artifacts = client.read_artifacts()
    parts = [log.message for log in logs] + [str(a.data) + str(a.description) for a in artifacts]
    return "\n".join(parts).encode()


class TestSecretsStaySecret:
    """Every channel configured with a secret, every channel failing."""

    def test_no_secret_in_anything_written(self, replay, failing_webhook, tmp_path):
        services = fr.Services(str(PREFECT_API_URL.value()), replay.url)
        with fr.sqlite_warehouse(tmp_path / "run") as warehouse:
            warehouse.env.update(
                FILINGS_SMTP_URL=f"smtp://alerts:{PASSWORD}@127.0.0.1:{_closed_port()}",
                FILINGS_ALERT_EMAIL_TO="ops@example.test",
                FILINGS_WEBHOOK_URL=f"{failing_webhook}/hook?token={HOOK_TOKEN}",
                FILINGS_SLACK_WEBHOOK_URL=f"{failing_webhook}/services/{SLACK_TOKEN}",
            )
            outcome = fr.run(warehouse, services)
            assert not outcome.unhandled, outcome.stderr
            written = {
                "stdout": outcome.stdout.encode(),
                "stderr": outcome.stderr.encode(),
                "prefect logs and artifacts": _prefect_text(),
            }
            files = [p for p in Path(warehouse.data_dir).rglob("*") if p.is_file()]
            written.update({str(p): p.read_bytes() for p in files})
        assert "alerts:" in outcome.stdout  # the run raised alerts and tried every channel
        # every channel down: not a success, and a line per channel saying so
        assert outcome.returncode == 1 and outcome.stdout.count("not delivered: ") == 3
        assert any(p.suffix == ".sqlite" for p in files) and len(files) > 20
        leaks = [
            f"{where} holds {secret}"
            for secret in (PASSWORD, HOOK_TOKEN, SLACK_TOKEN)
            for where, content in written.items()
            if any(form in content for form in _forms(secret))
        ]
        assert leaks == []
