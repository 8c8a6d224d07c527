"""The keeper of a user's shared Prefect API server: ``python -m flows.api_keeper HOME PORT``.

It runs Prefect's API (the same uvicorn command as Prefect's own temporary server) as its
child, which the kernel stops if the keeper dies (``PR_SET_PDEATHSIG``), and stops it as soon
as no CLI process holds the users lock (each holds it shared for its life; the kernel drops a
killed process's lock, so even ``kill -9`` of every CLI stops the server within a second).
Standard library only: a keeper costs a few MB, not Prefect's import.
"""

from __future__ import annotations

import ctypes
import fcntl
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

USERS = "filings-api.users"  # every CLI process using the server holds it shared
STATE = "filings-api.json"  # {"url", "keeper"}: where the running server answers
LOG = "filings-api.log"
POLL_SECONDS = 0.5
_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """In a child before exec: the kernel sends it SIGTERM when its parent dies."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def server_command(port: int) -> list[str]:
    """Prefect's API on loopback, as Prefect's own temporary server runs it (no UI)."""
    return [
        sys.executable, "-m", "uvicorn", "--factory", "prefect.server.api.server:create_app",
        "--host", "127.0.0.1", "--port", str(port), "--log-level", "error", "--lifespan", "on",
    ]  # fmt: skip


def server_env() -> dict[str, str]:
    """The keeper's environment for the server: never pointing at another API."""
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    env.update(PREFECT_UI_ENABLED="0", PREFECT__SERVER_EPHEMERAL="1", PREFECT__SERVER_FINAL="1")
    return env


def unused(home: Path) -> bool:
    """True when no CLI process holds the users lock (then this one holds it exclusively)."""
    fd = os.open(home / USERS, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return False
    return True  # the fd stays open, locked, until this process exits


def keep(home: Path, port: int) -> int:
    """Run the server while any CLI process uses it; return its exit status."""
    with (home / LOG).open("ab") as log:
        server = subprocess.Popen(
            server_command(port), env=server_env(), stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, preexec_fn=die_with_parent,
        )  # fmt: skip
    state = {"url": f"http://127.0.0.1:{port}/api", "keeper": os.getpid()}
    (home / STATE).write_text(json.dumps(state), encoding="utf-8")
    signal.signal(signal.SIGTERM, lambda *_: server.terminate())
    try:
        while server.poll() is None and not unused(home):
            time.sleep(POLL_SECONDS)
    finally:
        _forget(home)
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
    return 0


def _forget(home: Path) -> None:
    path = home / STATE
    try:
        if json.loads(path.read_text(encoding="utf-8")).get("keeper") == os.getpid():
            path.unlink()
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(keep(Path(sys.argv[1]), int(sys.argv[2])))
