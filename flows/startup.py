"""Prefect start-up for the command line: its environment, and its API before the first flow.

Without ``PREFECT_API_URL`` Prefect starts a temporary ("ephemeral") API server in a subprocess
the first time a flow runs, and gives it 20 s: on a busy 2-core machine that is often too
short. The CLI starts that server itself, first telling the person why they wait, with a longer
limit (``PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS``, default here 90 s) and one retry.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from tasks.core.errors import PipelineError

STARTUP_TIMEOUT_SECONDS = 90
_TIMEOUT_SETTING = "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS"


def prefect_env(prefect_home: Path, verbose: bool) -> None:
    """Set Prefect's environment for a CLI run; explicit user settings win.

    Prefect keeps its state beside the warehouse and sends no telemetry. Flow and task logs
    still reach the Prefect API (the UI shows them) at INFO; the terminal shows them only with
    ``--verbose``, so a failure prints one line instead of Prefect's tracebacks.
    """
    os.environ.setdefault("PREFECT_HOME", str(prefect_home.resolve()))
    os.environ.setdefault("DO_NOT_TRACK", "1")
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("PREFECT_LOGGING_LEVEL", "INFO")
    os.environ.setdefault(
        "PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL", "INFO" if verbose else "CRITICAL"
    )
    os.environ.setdefault(_TIMEOUT_SETTING, str(STARTUP_TIMEOUT_SECONDS))
    # Prefect's ephemeral server cannot create its SQLite file in a missing folder.
    Path(os.environ["PREFECT_HOME"]).expanduser().mkdir(parents=True, exist_ok=True)


def startup_timeout() -> int:
    """Seconds to wait for the ephemeral API server, from the setting (default 90)."""
    raw = os.environ.get(_TIMEOUT_SETTING, "")
    try:
        return max(1, int(float(raw)))
    except ValueError:
        return STARTUP_TIMEOUT_SECONDS


def ensure_api(say: Callable[[str], None]) -> None:
    """Make sure a Prefect API answers before a flow runs (start the ephemeral one if needed)."""
    if os.environ.get("PREFECT_API_URL"):
        return  # a configured server: Prefect's client reports it if unreachable
    timeout = startup_timeout()
    say(f"starting Prefect's local API server (up to {timeout} s on a busy machine)...")
    # deferred: importing Prefect's server takes seconds; the line above comes first
    from prefect.server.api.server import SubprocessASGIServer

    for attempt in (1, 2):
        server = SubprocessASGIServer()
        try:
            server.start(timeout=timeout)
            return
        except RuntimeError as exc:
            server.stop()  # a timed-out start leaves its process running
            if attempt == 2:
                raise PipelineError(
                    f"Prefect's local API server did not start within {timeout} s, twice; "
                    f"set {_TIMEOUT_SETTING} higher or PREFECT_API_URL to a running server "
                    f"({str(exc).splitlines()[0][:120]})"
                ) from None
            say(f"Prefect's local API server did not answer within {timeout} s; trying again")


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _healthy(api_url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{api_url}/health", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


@contextmanager
def local_server(port: int, say: Callable[[str], None]) -> Iterator[str]:
    """Run ``prefect server start`` on loopback for the block; yield its API URL.

    ``filings serve`` needs it: Prefect's runner cannot schedule flows on the ephemeral API.
    The server keeps its database in ``PREFECT_HOME`` and serves the UI at the same port.
    """
    api = f"http://127.0.0.1:{port}/api"
    if _healthy(api):
        raise PipelineError(f"port {port} already runs a Prefect server: set PREFECT_API_URL={api}")
    env = {
        **os.environ,
        "PREFECT_SERVER_API_HOST": "127.0.0.1",
        "PREFECT_SERVER_API_PORT": str(port),
    }
    env.pop("PREFECT_API_URL", None)  # the server itself must not point at an API
    prefect = Path(sys.executable).with_name("prefect")
    command = [str(prefect), "server", "start", "--host", "127.0.0.1", "--port", str(port)]
    say(f"starting a local Prefect server for the schedule: UI at http://127.0.0.1:{port}")
    log = Path(os.environ.get("PREFECT_HOME", ".")).expanduser() / "server.log"
    with log.open("w", encoding="utf-8") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_healthy(api, process, log, startup_timeout() * 2)
        yield api
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_healthy(api: str, process: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not _healthy(api):
        if process.poll() is not None:
            tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()
            raise PipelineError(
                f"the local Prefect server exited ({log}): {tail[-1] if tail else '?'}"
            )
        if time.monotonic() > deadline:
            raise PipelineError(f"the local Prefect server did not answer within {timeout:.0f} s")
        time.sleep(0.25)
