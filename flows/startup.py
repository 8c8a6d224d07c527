"""Prefect start-up for the command line: its environment, and its API before the first flow.

With ``PREFECT_API_URL`` the CLI uses that server. Without it, Prefect would start a temporary
("ephemeral") API server per process and give it 20 s: three CLI runs side by side at load 13
all failed, each one's server not answering in time. Instead the CLI processes of one user
share one local API server per Prefect home: the first starts it (with a keeper process,
``flows.api_keeper``, that stops it when the last of them ends, even after ``kill -9``), the
others reuse it. Its start is given ``PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS``
(default here 90 s) and one retry.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from domain.errors import PipelineError
from flows import api_keeper
from tasks.runs.run_links import local_api

STARTUP_TIMEOUT_SECONDS = 90
_TIMEOUT_SETTING = "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS"
START_LOCK = "filings-api.lock"  # held while the shared server is looked up or started


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


def prefect_home() -> Path:
    """Prefect's home folder (its database and the local server's and worker's logs)."""
    return Path(os.environ.get("PREFECT_HOME", ".")).expanduser()


def startup_timeout() -> int:
    """Seconds to wait for the ephemeral API server, from the setting (default 90)."""
    raw = os.environ.get(_TIMEOUT_SETTING, "")
    try:
        return max(1, int(float(raw)))
    except ValueError:
        return STARTUP_TIMEOUT_SECONDS


@contextmanager
def prefect_api(say: Callable[[str], None]) -> Iterator[None]:
    """Prefect's API for the block: the configured server (``PREFECT_API_URL``), or this
    user's shared local one (started if none runs, stopped when its last user ends)."""
    if _configured_api():
        yield  # a configured server: Prefect's client reports it if unreachable
        return
    home = Path(os.environ.get("PREFECT_HOME", "~/.prefect")).expanduser()
    with shared_api(home, say) as url:
        # deferred: Prefect, once the person was told why they wait
        from prefect.settings import PREFECT_API_URL, temporary_settings

        # the shared server's URL in Prefect's settings context, not in the environment
        with temporary_settings(updates={PREFECT_API_URL: url}), local_api(url):
            try:
                yield
            finally:
                _send_logs()


def _send_logs() -> None:
    """Send the logs Prefect still holds (it batches them every 2 s) while the server they go
    to still runs: at exit, after this process let the server stop, they met a closed port
    and Prefect wrote "--- Error logging to API ---" on stderr now and then."""
    logging = sys.modules.get("prefect.logging.handlers")
    if logging is not None:  # never imported: no log to send
        logging.APILogWorker.drain_all(timeout=5)


def _configured_api() -> bool:
    """PREFECT_API_URL is set: in the environment, or in Prefect's settings context when
    Prefect is loaded already (a test harness). Importing Prefect just to ask would delay
    the first line a person sees by seconds."""
    if os.environ.get("PREFECT_API_URL"):
        return True
    settings = sys.modules.get("prefect.settings")
    return bool(settings is not None and settings.PREFECT_API_URL.value())


@contextmanager
def shared_api(home: Path, say: Callable[[str], None]) -> Iterator[str]:
    """The URL of the Prefect API server this user's CLI processes share under ``home``,
    for the block. Each holds the users lock shared while it runs; the server's keeper
    stops it once nobody holds it (``flows.api_keeper``)."""
    home.mkdir(parents=True, exist_ok=True)
    users = os.open(home / api_keeper.USERS, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(users, fcntl.LOCK_SH)  # waits only while a keeper is stopping
        with _exclusive(home / START_LOCK):  # one process starts it, the others reuse it
            url = _running(home) or _start(home, say)
        yield url
    finally:
        os.close(users)


@contextmanager
def _exclusive(path: Path) -> Iterator[None]:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _running(home: Path) -> str | None:
    """The shared server's URL if it answers."""
    try:
        state = json.loads((home / api_keeper.STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    url = str(state.get("url", ""))
    return url if url and _healthy(url) else None


def _start(home: Path, say: Callable[[str], None]) -> str:
    timeout = startup_timeout()
    say(f"starting Prefect's local API server (up to {timeout} s on a busy machine)...")
    for attempt in (1, 2):
        port = free_port()
        keeper = subprocess.Popen(
            [sys.executable, "-m", "flows.api_keeper", str(home), str(port)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,  # a Ctrl-C to the terminal's group is the CLI's to handle
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}/api"
        try:
            _wait_healthy(url, keeper, home / api_keeper.LOG, timeout)
            return url
        except PipelineError as exc:
            keeper.terminate()  # it stops its server
            if attempt == 2:
                raise PipelineError(
                    f"{exc}, twice; set {_TIMEOUT_SETTING} higher or PREFECT_API_URL to a "
                    "running server"
                ) from None
            say(f"Prefect's local API server did not answer within {timeout} s; trying again")
    raise AssertionError("unreachable")


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
    log = prefect_home() / "server.log"
    with log.open("w", encoding="utf-8") as out:
        # the server dies with this process, even if it is killed with -9
        process = subprocess.Popen(
            command, env=env, stdout=out, stderr=subprocess.STDOUT,
            preexec_fn=api_keeper.die_with_parent,
        )  # fmt: skip
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
            try:
                tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()
            except OSError:
                tail = []
            raise PipelineError(
                f"the local Prefect server exited ({log}): {tail[-1] if tail else '?'}"
            )
        if time.monotonic() > deadline:
            raise PipelineError(f"the local Prefect server did not answer within {timeout:.0f} s")
        time.sleep(0.25)
