"""kill -9 during alert delivery, against a real SMTP server and a real HTTP endpoint.

Each receiver takes the run's message, then holds its answer while the test kills the run:
the worst moment (sent, not yet recorded). The rerun must not send it again (at most once per
channel: the send is recorded in doubt), must send what was not sent yet, and the warehouse
must say, for every alert and channel, delivered or in doubt: no receiver gets an alert twice,
no alert is silently left behind.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections import Counter
from collections.abc import Iterator
from email import message_from_bytes
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from prefect.settings import PREFECT_API_URL
from sqlalchemy import text

from benchmarks import fault_runs as fr
from benchmarks.warehouse_dump import differences
from storage import db

pytestmark = [pytest.mark.usefixtures("prefect_api"), pytest.mark.timeout(1200)]
HOLD_SECONDS = 60.0  # longer than the test needs to kill the run


class Receivers:
    """What the SMTP server and the webhook received, and which message they hold."""

    def __init__(self) -> None:
        self.mail: list[str] = []  # Message-IDs
        self.posts: list[str] = []  # Idempotency-Keys
        self.hold_mail = self.hold_post = 0  # hold the n-th message (0: none)
        self.reached = threading.Event()  # a held message arrived
        self.release = threading.Event()

    def arrived(self, received: list[str], hold: int) -> bool:
        if len(received) == hold:
            self.reached.set()
            return True
        return False


class _Smtp:
    def __init__(self, receivers: Receivers) -> None:
        self.receivers = receivers

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        r = self.receivers
        r.mail.append(str(message_from_bytes(envelope.original_content)["Message-ID"]))
        if r.arrived(r.mail, r.hold_mail):
            await asyncio.sleep(HOLD_SECONDS)  # taken, never acknowledged: the run dies first
        return "250 Message accepted for delivery"


class _Hook(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
        r: Receivers = self.server.receivers  # type: ignore[attr-defined]
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        r.posts.append(self.headers.get("Idempotency-Key", ""))
        if r.arrived(r.posts, r.hold_post):
            r.release.wait(HOLD_SECONDS)
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def receivers() -> Iterator[tuple[Receivers, str, str]]:
    """The receivers, the SMTP URL and the webhook URL."""
    got = Receivers()
    port = _free_port()
    smtp = Controller(_Smtp(got), hostname="127.0.0.1", port=port)
    smtp.start()
    hook = ThreadingHTTPServer(("127.0.0.1", 0), _Hook)
    hook.daemon_threads = True
    hook.receivers = got  # type: ignore[attr-defined]
    thread = threading.Thread(target=hook.serve_forever, daemon=True)
    thread.start()
    try:
        yield got, f"smtp://127.0.0.1:{port}", f"http://127.0.0.1:{hook.server_address[1]}/hook"
    finally:
        got.release.set()
        hook.shutdown()
        hook.server_close()
        smtp.stop()


def _deliveries(warehouse: fr.Warehouse) -> list[tuple[str, str, str, bool]]:
    engine = db.make_engine(warehouse.url)
    try:
        with engine.connect() as conn:
            query = text("SELECT alert_id, channel, status, in_doubt FROM alert_deliveries")
            return [(a, c, s, bool(d)) for a, c, s, d in conn.execute(query).tuples()]
    finally:
        engine.dispose()


def _alert_ids(warehouse: fr.Warehouse) -> set[str]:
    engine = db.make_engine(warehouse.url)
    try:
        with engine.connect() as conn:
            return set(conn.execute(text("SELECT alert_id FROM alert_events")).scalars())
    finally:
        engine.dispose()


class TestKillDuringAlertDelivery:
    """Killed while the SMTP server holds the e-mail, then while the webhook holds its POST."""

    def test_no_receiver_gets_an_alert_twice_and_none_is_left_silently(
        self, warehouse_at, replay, receivers, tmp_path
    ):
        got, smtp_url, hook_url = receivers
        services = fr.Services(str(PREFECT_API_URL.value()), replay.url)
        want, _, _ = warehouse_at.reference(tmp_path / "reference", services)
        with warehouse_at(tmp_path / "delivery") as warehouse:
            warehouse.env.update(
                FILINGS_SMTP_URL=smtp_url,
                FILINGS_ALERT_EMAIL_TO="ops@example.test",
                FILINGS_WEBHOOK_URL=hook_url,
                FILINGS_ALERT_DIGEST="false",  # a message per alert: kills between them
            )
            got.hold_mail = 2
            first = fr.run_killed_when(warehouse, services, got.reached)
            assert first.killed and len(got.mail) == 2 and got.posts == [], first.stderr
            got.hold_mail, got.hold_post = 0, 2
            got.reached.clear()
            second = fr.run_killed_when(warehouse, services, got.reached)
            assert second.killed and len(got.posts) == 2, second.stderr
            got.hold_post = 0
            got.release.set()
            last = fr.run(warehouse, services)
            assert last.returncode == 0 and not last.unhandled, last.stdout + last.stderr
            deliveries = _deliveries(warehouse)
            alert_ids = _alert_ids(warehouse)
            got_dump = fr.warehouse_dump(warehouse)
            statuses = fr.run_statuses(warehouse)
        assert statuses == ["crashed", "crashed", "completed"]
        # Every alert reached each receiver exactly once: never twice, none left out.
        mail_ids = {f"<{a}@filings-pipeline>" for a in alert_ids}
        assert len(alert_ids) > 2 and Counter(got.mail) == Counter(mail_ids)
        assert Counter(got.posts) == Counter(alert_ids)
        # The warehouse says so: delivered, or in doubt for the one held when each run died.
        assert sorted((c, s, doubt) for _, c, s, doubt in deliveries) == sorted(
            [("email", "delivered", False)] * (len(alert_ids) - 1)
            + [("webhook", "delivered", False)] * (len(alert_ids) - 1)
            + [("email", "pending", True), ("webhook", "pending", True)]
        )
        assert "in doubt: webhook: 1 alert(s)" in last.stdout
        # Apart from deliveries, the same rows as an uninterrupted run.
        got_dump.pop("alert_deliveries", None)
        assert (
            differences(got_dump, {k: v for k, v in want.items() if k != "alert_deliveries"}) == []
        )
