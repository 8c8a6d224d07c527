"""Real alert receivers for the fault suite: an SMTP server (aiosmtpd) and an HTTP endpoint
on loopback that record every message (its Message-ID / Idempotency-Key) and can hold the n-th
one unanswered, so a run can be killed at the worst moment: sent, not yet recorded.

Used by ``tests/faults/test_kill_during_delivery.py`` and ``python -m benchmarks.faults``.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email import message_from_bytes
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from aiosmtpd.controller import Controller
from sqlalchemy import text

from benchmarks.fault_runs import Warehouse
from storage import db

HOLD_SECONDS = 60.0  # longer than a kill takes to land


class Receivers:
    """What the SMTP server and the webhook received, and which message they hold."""

    def __init__(self) -> None:
        self.mail: list[str] = []  # Message-IDs
        self.posts: list[str] = []  # Idempotency-Keys
        self.raw: list[bytes] = []  # every byte of every message received (mail and posts)
        self.hold_mail = self.hold_post = 0  # hold the n-th message (0: none)
        self.reached = threading.Event()  # a held message arrived
        self.release = threading.Event()

    def arrived(self, received: list[str], hold: int) -> bool:
        """After a message was recorded: True when it is the one to hold (and say so)."""
        if len(received) == hold:
            self.reached.set()
            return True
        return False


class _Smtp:
    def __init__(self, receivers: Receivers) -> None:
        self.receivers = receivers

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        r = self.receivers
        r.raw.append(bytes(envelope.original_content))
        r.mail.append(str(message_from_bytes(envelope.original_content)["Message-ID"]))
        if r.arrived(r.mail, r.hold_mail):
            await asyncio.sleep(HOLD_SECONDS)  # taken, never acknowledged: the run dies first
        return "250 Message accepted for delivery"


class _Hook(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
        r: Receivers = self.server.receivers  # type: ignore[attr-defined]
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        r.raw.append(str(self.headers).encode() + body)
        r.posts.append(self.headers.get("Idempotency-Key", ""))
        if r.arrived(r.posts, r.hold_post):
            r.release.wait(HOLD_SECONDS)
        try:
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")
        except (BrokenPipeError, ConnectionResetError):  # the held sender was killed
            self.close_connection = True

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
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


def deliveries(warehouse: Warehouse) -> list[tuple[str, str, str, bool]]:
    """(alert, channel, status, in doubt) of every delivery the warehouse records."""
    engine = db.make_engine(warehouse.url)
    try:
        with engine.connect() as conn:
            query = text("SELECT alert_id, channel, status, in_doubt FROM alert_deliveries")
            return [(a, c, s, bool(d)) for a, c, s, d in conn.execute(query).tuples()]
    finally:
        engine.dispose()


def alert_ids(warehouse: Warehouse) -> set[str]:
    """Every alert the warehouse raised."""
    engine = db.make_engine(warehouse.url)
    try:
        with engine.connect() as conn:
            return set(conn.execute(text("SELECT alert_id FROM alert_events")).scalars())
    finally:
        engine.dispose()


@dataclass(frozen=True)
class Received:
    """Alerts delivered twice, and alerts neither received nor recorded in doubt."""

    twice: int
    missing: int
    in_doubt: int


def tally(got: Receivers, warehouse: Warehouse) -> Received:
    """What the receivers got against what the warehouse says, e-mail and webhook."""
    ids = alert_ids(warehouse)
    rows = deliveries(warehouse)
    doubt = {(a, c) for a, c, _, d in rows if d}
    mail = Counter(got.mail)
    posts = Counter(got.posts)
    twice = sum(n - 1 for n in (*mail.values(), *posts.values()) if n > 1)
    missing = sum(
        1
        for a in ids
        for channel, count in (("email", mail[f"<{a}@filings-pipeline>"]), ("webhook", posts[a]))
        if count == 0 and (a, channel) not in doubt
    )
    return Received(twice, missing, len(doubt))
