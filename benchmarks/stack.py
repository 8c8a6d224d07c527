"""What the scale-out benchmarks run on: a Prefect server, a scratch warehouse, a replay
universe, and worker processes (loopback only; everything under one temporary folder)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import requests
from sqlalchemy import text

from storage import db

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
POSTGRES = os.environ.get(
    "FILINGS_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1/test"
)


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """A process in its own session (its children end with it), output to ``log``."""
    with log.open("ab") as out:
        return subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )


def stop(process: subprocess.Popen[bytes]) -> None:
    """End a process started by :func:`start` and its children."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


@contextmanager
def prefect_server(home: Path) -> Iterator[dict[str, str]]:
    """A real Prefect server on loopback; yields the environment its clients need."""
    port = free_port()
    env = {
        **os.environ,
        "PREFECT_HOME": str(home),
        "PREFECT_API_URL": f"http://127.0.0.1:{port}/api",
        "DO_NOT_TRACK": "1",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_SERVER_SERVICES_SCHEDULER_LOOP_SECONDS": "5",
        "PREFECT_WORKER_QUERY_SECONDS": "2",
        "PREFECT_LOGGING_LEVEL": "WARNING",
    }
    home.mkdir(parents=True, exist_ok=True)
    args = [str(BIN / "prefect"), "server", "start", "--host", "127.0.0.1", "--port", str(port)]
    server = start(args, env, home / "server.log")
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            try:
                if requests.get(f"http://127.0.0.1:{port}/api/health", timeout=5).ok:
                    break
            except requests.RequestException:
                pass
            time.sleep(1)
        else:
            raise RuntimeError(f"Prefect server did not start: see {home / 'server.log'}")
        yield env
    finally:
        stop(server)


@contextmanager
def scratch_warehouse(folder: Path) -> Iterator[str]:
    """A fresh migrated PostgreSQL database (SQLite under ``folder`` when none answers)."""
    admin = db.make_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    name = f"filings_bench_{uuid.uuid4().hex[:10]}"
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception:  # noqa: BLE001 - no PostgreSQL here: SQLite it is
        admin.dispose()
        url = f"sqlite:///{folder / 'warehouse.sqlite'}"
        db.migrate(db.make_engine(url))
        yield url
        return
    url = admin.url.set(database=name).render_as_string(hide_password=False)
    try:
        engine = db.make_engine(url)
        db.migrate(engine)
        engine.dispose()
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def pipeline_env(
    base: dict[str, str], replay_url: str, warehouse: str, data: Path, issuers: Path
) -> dict[str, str]:
    """The pipeline's settings for a worker against the replay server."""
    return {
        **base,
        "FILINGS_PROJECT_DIR": str(ROOT),
        "FILINGS_DATABASE_URL": warehouse,
        "FILINGS_DATA_DIR": str(data),
        "FILINGS_ARCHIVE_URL": str(data / "archive"),
        "FILINGS_ISSUERS_FILE": str(issuers),
        "FILINGS_SEC_DATA_URL": replay_url,
        "FILINGS_SEC_ARCHIVES_URL": replay_url,
        "FILINGS_HKEX_URL": replay_url,
        "FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS": "0",
        "FILINGS_SEC_LIMITER": "local",
    }


def peak_rss_mb(pid: int) -> float:
    """A live process's peak resident memory (VmHWM), in MiB; 0 once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def cpu_seconds(pid: int) -> float:
    """A live process's CPU time so far (user + system, its own threads), in seconds; 0 once
    it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def sliding_max(times: list[float], window: float = 1.0) -> int:
    """The most events in any ``window`` seconds."""
    times = sorted(times)
    best, first = 0, 0
    for last, t in enumerate(times):
        while t - times[first] >= window:
            first += 1
        best = max(best, last - first + 1)
    return best


class _Hook(BaseHTTPRequestHandler):
    received: list[tuple[float, dict[str, object]]]

    def do_POST(self) -> None:  # noqa: N802 - the http.server name
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.received.append((time.time(), json.loads(body or b"{}")))
        self.send_response(200)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - quiet
        return


@contextmanager
def loopback_webhook() -> Iterator[tuple[str, list[tuple[float, dict[str, object]]]]]:
    """A webhook on loopback; yields its URL and the (receipt time, JSON body) it got."""
    received: list[tuple[float, dict[str, object]]] = []
    handler = type("Hook", (_Hook,), {"received": received})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hook", received
    finally:
        server.shutdown()
        server.server_close()


def alert_ids(body: dict[str, object]) -> list[str]:
    """The alert ids of a webhook body: one alert row, or a digest of them."""
    rows = body.get("alerts", [body])
    rows = rows if isinstance(rows, list) else []
    return [str(r["alert_id"]) for r in rows if isinstance(r, dict) and "alert_id" in r]
