"""A send that never reached the receiver is sent again; one that may have is in doubt, with
its true reason, until an operator resends it (``filings alerts resend``).

Issue 25's probe: a bad SMTP port raised after the send was claimed left the claim; once the
URL was fixed the next run said "10 alert(s) in doubt (a run was killed while sending them)",
exited 0, and the receiver got nothing, with no command to resend. Real receivers here (an
aiosmtpd server and an HTTP endpoint, :mod:`benchmarks.receivers`), on SQLite and PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import Engine, select

from benchmarks import receivers as rc
from domain.errors import ConfigError
from domain.records import NewAlert
from storage.schema import alert_deliveries
from tasks.alert import deliver_pending, store_alerts
from tasks.config.settings import Settings, load_settings
from tasks.delivery import channels as channels_module
from tasks.delivery.channels import Channel, channels_from_settings


def _alerts(engine: Engine, n: int) -> list[str]:
    found = [
        NewAlert(
            kind="guidance_variance",
            issuer="QFIN",
            subject=f"QFIN Q3 2024 net income above guidance #{i}",
            message=f"QFIN Q3 2024 net income is 12.4% above the top #{i}",
            dedup_key=f"delivery-fault:{i}",
        )
        for i in range(n)
    ]
    return store_alerts(engine, found)


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rows(engine: Engine) -> list[Any]:
    with engine.connect() as conn:
        return list(conn.execute(select(alert_deliveries)))


def _channels(channel: str, url: str) -> list[Channel]:
    if channel == "email":
        settings = Settings(smtp_url=url, alert_email_to="ops@example.test")  # type: ignore[arg-type]
    else:
        settings = Settings(webhook_url=url)  # type: ignore[arg-type]
    return channels_from_settings(settings)


def _good(channel: str, smtp: str, hook: str) -> list[Channel]:
    return _channels(channel, smtp if channel == "email" else hook)


UNREACHABLE = {
    "refused": ("smtp://127.0.0.1:{port}", "http://127.0.0.1:{port}/hook"),
    "no-such-host": ("smtp://alerts.invalid:25", "http://alerts.invalid/hook"),
}


class _DropAfterBody(BaseHTTPRequestHandler):
    """Takes the whole request, then closes the connection without an answer."""

    def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.server.got += 1  # type: ignore[attr-defined]
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return


class _DropAfterData:
    """Takes the whole message, then drops the connection before its 250."""

    def __init__(self) -> None:
        self.got = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        self.got += 1
        server.transport.close()
        await asyncio.sleep(0.5)
        return "250 too late"


@pytest.fixture
def dropping() -> Iterator[dict[str, tuple[str, Any]]]:
    """An SMTP server and an HTTP endpoint that lose the connection after the message."""
    port = _closed_port()
    smtp_handler = _DropAfterData()
    smtp = Controller(smtp_handler, hostname="127.0.0.1", port=port)
    smtp.start()
    hook = ThreadingHTTPServer(("127.0.0.1", 0), _DropAfterBody)
    hook.got = 0  # type: ignore[attr-defined]
    thread = threading.Thread(target=hook.serve_forever, daemon=True)
    thread.start()
    try:
        yield {
            "email": (f"smtp://127.0.0.1:{port}", smtp_handler),
            "webhook": (f"http://127.0.0.1:{hook.server_address[1]}/hook", hook),
        }
    finally:
        hook.shutdown()
        hook.server_close()
        smtp.stop()


def _received(got: rc.Receivers, channel: str) -> list[str]:
    return got.mail if channel == "email" else got.posts


@pytest.mark.parametrize("channel", ["email", "webhook"])
class TestNeverSentIsSentAgain:
    """No connection: the claim is released and the next run delivers, once."""

    @pytest.mark.parametrize("why", list(UNREACHABLE))
    def test_unreachable_receiver(self, engine: Engine, channel: str, why: str) -> None:
        ids = _alerts(engine, 3)
        smtp, hook = UNREACHABLE[why]
        url = (smtp if channel == "email" else hook).format(port=_closed_port())
        report = deliver_pending(engine, _channels(channel, url))
        assert report.in_doubt == {} and report.failed[channel][0] == 3
        assert all(not r.in_doubt and r.claimed_by is None for r in _rows(engine))
        with rc.receivers() as (got, smtp_url, hook_url):
            report = deliver_pending(engine, _good(channel, smtp_url, f"{hook_url}"))
            again = deliver_pending(engine, _good(channel, smtp_url, f"{hook_url}"))
        assert (report.delivered, report.in_doubt, again.delivered) == (3, {}, 0)
        keys = [k.strip("<>").removesuffix("@filings-pipeline") for k in _received(got, channel)]
        assert sorted(keys) == sorted(ids)

    def test_an_error_before_the_send_releases_the_claim(self, engine: Engine, channel: str):
        """Any failure raised before the message goes out (here a bug) leaves nothing in
        doubt: it propagates, and the next run sends."""
        _alerts(engine, 2)

        def broken(_: object) -> None:
            raise ValueError("Port could not be cast to integer value")

        with pytest.raises(ValueError):
            deliver_pending(engine, [Channel(channel, broken)])  # type: ignore[arg-type]
        assert all(not r.in_doubt and r.claimed_by is None for r in _rows(engine))
        with rc.receivers() as (got, smtp_url, hook_url):
            report = deliver_pending(engine, _good(channel, smtp_url, hook_url))
        assert (report.delivered, report.in_doubt) == (2, {})
        assert len(_received(got, channel)) == 2


def test_a_mistyped_smtp_url_is_refused_before_any_claim() -> None:
    """The probe's URL: a '#' in the password cut the URL before its port."""
    for url in ("smtp://user:S3cr3tPw#x@127.0.0.1:1/", "smtp://user:pw@127.0.0.1:99999/"):
        with pytest.raises(ConfigError, match="^FILINGS_SMTP_URL: ") as caught:
            load_settings(smtp_url=url)
        assert "S3cr3tPw" not in str(caught.value) and "pw@" not in str(caught.value)


@pytest.mark.parametrize("channel", ["email", "webhook"])
def test_lost_after_it_went_out_is_in_doubt_until_resent(
    engine: Engine, db_url: str, channel: str, dropping: dict[str, tuple[str, Any]], tmp_path
) -> None:
    [alert_id] = _alerts(engine, 1)
    url, receiver = dropping[channel]
    report = deliver_pending(engine, _channels(channel, url))
    assert receiver.got == 1 and report.failed == {}
    count, why = report.in_doubt[channel]
    assert count == 1 and "may have arrived" in why and "stopped" not in why, why
    [row] = _rows(engine)
    assert row.in_doubt and row.last_error.startswith("in doubt: ") and row.claimed_by is None
    assert deliver_pending(engine, _channels(channel, url)).in_doubt == {}  # never on its own
    assert receiver.got == 1
    with rc.receivers() as (got, smtp_url, hook_url):
        env = {k: v for k, v in os.environ.items() if not k.startswith("FILINGS_")}
        env.update(FILINGS_DATABASE_URL=db_url, FILINGS_DATA_DIR=str(tmp_path))
        if channel == "email":
            env.update(FILINGS_SMTP_URL=smtp_url, FILINGS_ALERT_EMAIL_TO="ops@example.test")
        else:
            env.update(FILINGS_WEBHOOK_URL=hook_url)
        cli = [sys.executable, "-c", "from flows.cli import main; main()", "alerts", "resend"]
        done = subprocess.run([*cli, "--in-doubt"], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert "resent: 1 of 1" in done.stdout
        again = subprocess.run([*cli, "--in-doubt"], env=env, capture_output=True, text=True)
        assert again.returncode == 1 and "nothing to resend" in again.stderr
    assert len(_received(got, channel)) == 1
    [row] = _rows(engine)
    assert row.status == "delivered" and not row.in_doubt


def test_resend_counts_sends_not_alerts(
    engine: Engine, db_url: str, dropping: dict[str, tuple[str, Any]], tmp_path
) -> None:
    # Found by an outside probe: one alert in doubt on two channels, both delivered by
    # `alerts resend --in-doubt`, printed "resent: 1 of 2".
    _alerts(engine, 1)
    both = [
        *_channels("email", dropping["email"][0]),
        *_channels("webhook", dropping["webhook"][0]),
    ]
    report = deliver_pending(engine, both)
    assert sorted(report.in_doubt) == ["email", "webhook"]
    with rc.receivers() as (got, smtp_url, hook_url):
        env = {k: v for k, v in os.environ.items() if not k.startswith("FILINGS_")}
        env.update(FILINGS_DATABASE_URL=db_url, FILINGS_DATA_DIR=str(tmp_path))
        env.update(FILINGS_SMTP_URL=smtp_url, FILINGS_ALERT_EMAIL_TO="ops@example.test")
        env.update(FILINGS_WEBHOOK_URL=hook_url)
        cli = [sys.executable, "-c", "from flows.cli import main; main()", "alerts", "resend"]
        done = subprocess.run([*cli, "--in-doubt"], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "resent: 2 of 2 send(s)" in done.stdout
    assert (len(got.mail), len(got.posts)) == (1, 1)


def test_resend_by_id_sends_an_alert_no_channel_had_yet(
    engine: Engine, db_url: str, tmp_path
) -> None:
    # The walk of issue 35: after `make run` (no channel configured) an operator who set
    # FILINGS_WEBHOOK_URL and resent an id `filings status` lists was told "nothing to resend:
    # those sends were delivered, or none is in doubt", and an unknown id the same.
    [alert_id] = _alerts(engine, 1)
    with rc.receivers() as (got, _, hook_url):
        env = {k: v for k, v in os.environ.items() if not k.startswith("FILINGS_")}
        env.update(FILINGS_DATABASE_URL=db_url, FILINGS_DATA_DIR=str(tmp_path))
        env.update(FILINGS_WEBHOOK_URL=hook_url)
        cli = [sys.executable, "-c", "from flows.cli import main; main()", "alerts", "resend"]
        bare = {k: v for k, v in env.items() if k != "FILINGS_WEBHOOK_URL"}
        channel_less = subprocess.run([*cli, alert_id], env=bare, capture_output=True, text=True)
        unknown = subprocess.run(
            [*cli, "alert-0123456789abcdef0123"], env=env, capture_output=True, text=True
        )
        done = subprocess.run([*cli, alert_id], env=env, capture_output=True, text=True)
        again = subprocess.run([*cli, alert_id], env=env, capture_output=True, text=True)
    assert channel_less.returncode == 1 and channel_less.stderr == (
        "error: no alert channel is configured: set FILINGS_SMTP_URL and FILINGS_ALERT_EMAIL_TO,"
        " FILINGS_WEBHOOK_URL or FILINGS_SLACK_WEBHOOK_URL (docs/operator.md, Alerts)\n"
    )
    assert unknown.returncode == 1 and unknown.stderr.startswith(
        "error: unknown alert alert-0123456789abcdef0123: `filings status` lists alert ids"
    ), unknown.stderr
    assert done.returncode == 0 and "resent: 1 of 1 send(s)" in done.stdout, done.stderr
    assert len(got.posts) == 1
    assert again.returncode == 1 and "nothing to resend" in again.stderr
    [row] = _rows(engine)
    assert (row.alert_id, row.channel, row.status) == (alert_id, "webhook", "delivered")


@pytest.fixture
def silent_endpoint() -> Iterator[str]:
    """An HTTP endpoint that accepts connections and never answers (a hung webhook)."""
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            with contextlib.suppress(OSError):
                held.append(listener.accept()[0])

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/hook"
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    listener.close()


def test_a_hung_endpoint_costs_one_timeout_per_run(
    engine: Engine, silent_endpoint: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Found by an outside probe: a run against hung webhook and Slack endpoints took 133 s,
    # one send timeout per message.
    monkeypatch.setattr(channels_module, "SEND_TIMEOUT_SECONDS", 6)
    ids = _alerts(engine, 4)
    started = time.monotonic()
    report = deliver_pending(engine, _channels("webhook", silent_endpoint))  # one per alert
    took = time.monotonic() - started
    assert took < 10, f"{took:.1f} s"  # one timeout (6 s), not four (24 s)
    assert report.in_doubt["webhook"][0] == 1 and report.failed["webhook"][0] == 3
    assert "did not answer" in report.failed["webhook"][1]
    with rc.receivers() as (got, _, hook_url):
        later = deliver_pending(engine, _channels("webhook", hook_url))
    assert later.delivered == 3 and len(got.posts) == 3  # the next run sends the others
    assert len({*later.delivered_ids, *ids}) == 4
