"""The outside probe's cases (issue 25), measured once each beside the fault benchmark.

One line per case: what was measured, and the figure it must reach. Secrets: every secret
setting broken every way, each a real ``filings run`` (refused naming the setting, no part of the
secret written). Delivery: real SMTP/HTTP receivers (never-sent sends released and delivered
next run; a send lost after it went out in doubt until resent). Injection: Slack text and CSV
cells of hostile document text. Relisted: a document first listed with a 404 link, then
corrected (two real runs). Limits: a dripped head against the deadline; ``Retry-After: 100000``
against the pause cap.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pandas as pd
from sqlalchemy import text

from benchmarks import fault_runs as fr
from benchmarks import receivers as rc
from storage import db

HALVES = ("SeCrEtAaAa", "BbBbSeCrEt")
SETTINGS = {
    "FILINGS_SMTP_URL": "smtp://alerts:{s}@127.0.0.1:{p}/",
    "FILINGS_WEBHOOK_URL": "http://127.0.0.1:{p}/hook?token={s}",
    "FILINGS_SLACK_WEBHOOK_URL": "http://127.0.0.1:{p}/services/{s}",
    "FILINGS_DATABASE_URL": "postgresql+psycopg://postgres:{s}@127.0.0.1:{p}/absent_db",
    "FILINGS_REPLAY_DATABASE_URL": "postgresql+psycopg://postgres:{s}@127.0.0.1:{p}/absent",
}
BREAKS = {
    "port": ("".join(HALVES), "99999", ""),
    "scheme": ("".join(HALVES), "25", "htps"),
    "hash": ("#".join(HALVES), "25", ""),
    "percent": ("%zz".join(HALVES), "25", ""),
}


def secrets(services: fr.Services, root: Path) -> str:
    """Each secret setting broken each way: refused by name, and leaks in what was written."""
    runs = refused = leaks = 0
    for setting, template in SETTINGS.items():
        for how, (secret, port, scheme) in BREAKS.items():
            url = template.format(s=secret, p=port)
            url = f"{scheme}:{url.partition(':')[2]}" if scheme else url
            with fr.sqlite_warehouse(root / f"{setting}-{how}") as warehouse:
                warehouse.env[setting] = url
                outcome = fr.run(warehouse, services)
                files = [p for p in warehouse.data_dir.rglob("*") if p.is_file()]
                written = [outcome.stdout.encode(), outcome.stderr.encode()]
                written += [p.read_bytes() for p in files]
            runs += 1
            refused += outcome.returncode == 1 and outcome.stderr.startswith(f"error: {setting}")
            leaks += sum(h.encode() in w for h in HALVES for w in written)
    return f"{runs} broken secret settings: {refused} refused naming the setting, {leaks} leaks"


class _DropAfterBody(BaseHTTPRequestHandler):
    """Takes the whole request, then closes the connection without an answer."""

    def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.close_connection = True
        self.connection.shutdown(socket.SHUT_RDWR)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return


def delivery(root: Path) -> str:
    """Sends that never reached the receiver, and one lost after it went out."""
    from domain.records import NewAlert
    from storage import alerts as stored
    from tasks.alert import deliver_pending, store_alerts
    from tasks.config.settings import Settings
    from tasks.delivery.channels import channels_from_settings

    def hook_at(url: str) -> list[Any]:
        return channels_from_settings(Settings(webhook_url=url))  # type: ignore[arg-type]

    engine = db.open_warehouse(f"sqlite:///{root / 'delivery.sqlite'}")
    new = [NewAlert("guidance_variance", "QFIN", f"s{i}", f"m{i}", f"bench:{i}") for i in range(4)]
    store_alerts(engine, new[:3])
    first = deliver_pending(engine, hook_at("http://127.0.0.1:9/hook"))  # nothing listens
    with rc.receivers() as (got, _, hook):
        second = deliver_pending(engine, hook_at(hook))
    store_alerts(engine, new[3:])
    dropping = ThreadingHTTPServer(("127.0.0.1", 0), _DropAfterBody)
    threading.Thread(target=dropping.serve_forever, daemon=True).start()
    lost = deliver_pending(engine, hook_at(f"http://127.0.0.1:{dropping.server_address[1]}/h"))
    dropping.shutdown()
    dropping.server_close()
    with rc.receivers() as (again, _, hook):
        later = deliver_pending(engine, hook_at(hook))
        with engine.begin() as conn:
            stored.release_for_resend(conn, [], in_doubt=True, channels=["webhook"])
        resent = deliver_pending(engine, hook_at(hook))
    engine.dispose()
    released = first.failed.get("webhook", (0, ""))[0]
    doubt = lost.in_doubt.get("webhook", (0, ""))[0]
    return (
        f"never sent: {released} of 3 released ({len(first.in_doubt)} in doubt), next run "
        f"delivered {second.delivered}, receiver got {len(got.posts)}; lost after sending: "
        f"{doubt} of 1 in doubt, a later run sent {later.delivered}, resend delivered "
        f"{resent.delivered}, receiver got {len(again.posts)}"
    )


def injection() -> str:
    """Control sequences reaching Slack, and formula cells reaching CSV."""
    from domain.enums import AlertKind
    from domain.records import PendingDelivery
    from filings.frames import csv_safe
    from tasks.delivery.channels import slack_body

    hostile = "<!channel> <https://evil.example/login|Verify> <@U024BE7LH> & <#C1>"
    alert = PendingDelivery(
        "a", "slack", AlertKind.DATA_QUALITY, "QFIN", hostile, hostile, datetime.now(UTC), 0, ""
    )
    sequences = sum(str(slack_body([alert, alert])["text"]).count(c) for c in ("<!", "<h", "<@"))
    cells = ['=HYPERLINK("x")', "@SUM(1)", "+1+1", "-1+2", "\t=1", "\r=1", "-123", "Revenue"]
    frame = pd.DataFrame({"t": pd.array(cells, dtype="string[pyarrow]")})
    out = csv_safe(frame)["t"].tolist()
    formulas = sum(str(c)[:1] in "=+@\t\r" or str(c).startswith("-1+") for c in out[:6])
    return (
        f"Slack control sequences {sequences} (of 6 sent); CSV formula cells {formulas} of 6, "
        f"numbers kept {out[6] == '-123'}"
    )


def relisted(services: fr.Services, root: Path) -> str:
    """An HKEx document listed with a 404 link, then corrected: loaded after the second run?"""
    from tasks.sources.replay import Answer, ReplayServer, default_archive_root

    archive = root / "archive"
    shutil.copytree(default_archive_root(), archive)
    rows_file = archive / "hkex" / "03660" / "titlesearch_rows.json"
    rows = json.loads(rows_file.read_text())
    bad_link = "/listedco/listconews/sehk/2025/0317/2025031799999.pdf"
    rows_file.write_text(
        json.dumps([dict(r, FILE_LINK=bad_link) if r["NEWS_ID"] == "11480512" else r for r in rows])
    )
    with ReplayServer(archive) as hkex, fr.sqlite_warehouse(root / "relisted") as warehouse:
        hkex.inject(bad_link, *[Answer(404, b"<html>404</html>")] * 20)
        warehouse.env["FILINGS_HKEX_URL"] = hkex.url
        fr.run(warehouse, services)
        rows_file.write_text(json.dumps(rows))
        again = [*fr.command(), "--since", "2025-01-01"]
        subprocess.run(again, env=warehouse.environment(services), capture_output=True, timeout=600)
        engine = db.make_engine(warehouse.url)
        with engine.connect() as conn:
            status = conn.execute(
                text("SELECT status FROM documents WHERE document_id = 'hkex:11480512'")
            ).scalar_one()
        engine.dispose()
    return f"document first listed with a 404 link, after the corrected listing: {status}"


def limits(root: Path) -> str:
    """A head dripped at 0.2 s a byte against a 2 s deadline; Retry-After 100000 and the cap."""
    from domain.errors import RateLimitedError, TransportError
    from storage import source_state
    from tasks import fetch
    from tasks.sources.http import HttpClient, RateLimiter
    from tasks.sources.protocol import Sources
    from tasks.sources.replay import Answer, ReplayServer, default_archive_root

    with ReplayServer(default_archive_root()) as server:
        client = HttpClient(
            user_agent="Bench b@example.test", limiter=RateLimiter(0), timeout=1.0, deadline=2.0
        )
        server.inject("titleSearch", Answer(200, b"d" * 200, fault="drip_head", delay=0.2))
        started = time.monotonic()
        with contextlib.suppress(TransportError):  # the deadline's error: its time is the figure
            client.get(f"{server.url}/search/titleSearchServlet.do")
        cut = time.monotonic() - started
        client.close()
    engine = db.open_warehouse(f"sqlite:///{root / 'limits.sqlite'}")
    now = datetime.now(UTC)
    asked = RateLimitedError("asks 100000 s", pause_seconds=100000, status=429)
    fetch._pause(engine, "hkex", asked, now, Sources({}, max_pause_minutes=60))  # noqa: SLF001
    with engine.connect() as conn:
        pause = source_state.active_pause(conn, "hkex", now)
    engine.dispose()
    until = pause.until if pause else now
    minutes = (until - now).total_seconds() / 60
    return (
        f"head dripped at 0.2 s/byte cut after {cut:.1f} s (deadline 2 s); "
        f"Retry-After 100000 s paused {minutes:.0f} min (cap 60)"
    )


def report(services: fr.Services) -> None:
    """Print one line per case."""
    with tempfile.TemporaryDirectory(prefix="fault-cases-") as folder:
        root = Path(folder)
        for name, measure in (
            ("injection", injection),
            ("limits", lambda: limits(root)),
            ("delivery", lambda: delivery(root)),
            ("secrets", lambda: secrets(services, root / "secrets")),
            ("relisted", lambda: relisted(services, root)),
        ):
            started = time.monotonic()
            line = measure()
            print(f"{name:<10} {line} ({time.monotonic() - started:.0f} s)", flush=True)
