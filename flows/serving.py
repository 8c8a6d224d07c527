"""``filings serve``: the ingest flow on a cron schedule, on one machine.

Prefect's runner (``flow.serve``) cannot schedule on the ephemeral API ("Cannot schedule flows
on an ephemeral server"), so without ``PREFECT_API_URL`` this starts a local Prefect server
(``prefect server start`` on loopback, state under ``PREFECT_HOME``, the UI at its port), points
the runner at it and stops it when serving ends. With ``PREFECT_API_URL`` set it uses that one.
The runner is a child process started with the served runs' settings in its environment:
nothing here writes this process's environment.
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from cronsim import CronSim, CronSimError

from domain.errors import PipelineError
from flows import api_keeper, startup
from tasks.config.settings import load_settings

DEPLOYMENT_NAME = "filings-ingest"


def check_schedule(cron: str, timezone: str) -> None:
    """A cron expression and a time zone Prefect will accept; else one line."""
    try:
        CronSim(cron, datetime.now(UTC))
    except (CronSimError, ValueError) as exc:
        raise PipelineError(f"--cron {cron!r} is not a cron expression: {exc}") from None
    try:
        ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError):
        raise PipelineError(f"--timezone {timezone!r} is not a time zone name") from None


def serve_ingest(
    cron: str,
    timezone: str,
    port: int,
    say: Callable[[str], None],
    env: Mapping[str, str] | None = None,
) -> int:
    """Serve the ingest flow on the schedule until interrupted (and the runs' Data Docs);
    return the runner's exit status.

    The runner is a child process (``python -m flows.serving``) whose environment, set when it
    starts, carries the served runs' settings: ``env`` (the replay source's), the Data Docs
    URL and the local server's API. This process never changes its own environment.
    """
    settings = load_settings()
    values = dict(env or {})
    with ExitStack() as held:
        if not settings.data_docs_url:
            settings.data_docs_path.mkdir(parents=True, exist_ok=True)
            url = held.enter_context(static_files(settings.data_docs_path))
            say(f"Data Docs served at {url}")
            values["FILINGS_DATA_DOCS_URL"] = url  # the served runs link their sites here
        if not os.environ.get("PREFECT_API_URL"):
            values["PREFECT_API_URL"] = held.enter_context(startup.local_server(port, say))
        return run_runner([cron, timezone], values)


def run_runner(args: list[str], values: Mapping[str, str]) -> int:
    """The runner process with ``values`` over this environment, until it ends; a SIGTERM
    to this process is passed on to it (a Ctrl-C reaches it with its process group)."""
    runner = subprocess.Popen(
        [sys.executable, "-m", "flows.serving", *args],
        env={**os.environ, **values},
        preexec_fn=api_keeper.die_with_parent,  # it dies with this process, even after kill -9
    )
    previous = signal.signal(signal.SIGTERM, lambda *_: runner.terminate())
    try:
        return runner.wait()
    except KeyboardInterrupt:  # the runner has it too: let it stop its runs
        _wait_or_kill(runner)
        raise
    finally:
        signal.signal(signal.SIGTERM, previous)
        if runner.poll() is None:
            runner.terminate()
            _wait_or_kill(runner)


def _wait_or_kill(process: subprocess.Popen[bytes], seconds: float = 30) -> None:
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextmanager
def static_files(folder: Path) -> Iterator[str]:
    """Serve ``folder`` over HTTP on a free loopback port for the block; yield its URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="data-docs", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base's name
        """Requests are not worth a line on the console."""


def _serve(cron: str, timezone: str, say: Callable[[str], None]) -> None:
    """The runner: the ingest flow served on the schedule, with this process's settings."""
    # deferred: Prefect, in the runner only (it reads PREFECT_API_URL when imported)
    from prefect.schedules import Cron

    from flows.ingest import ingest

    say(f"serving {DEPLOYMENT_NAME}: {cron} ({timezone}); Ctrl-C stops")
    # Prefect's own message suggests `prefect deployment run ...`, which fails from another
    # shell without PREFECT_API_URL: say it with the server it needs
    api = os.environ.get("PREFECT_API_URL", "")
    say("run it now from another shell:")
    say(f"  PREFECT_API_URL={api} {prefect_command()} deployment run 'ingest/{DEPLOYMENT_NAME}'")
    ingest.serve(
        name=DEPLOYMENT_NAME,
        schedules=[Cron(cron, timezone=timezone)],
        print_starting_message=False,
    )


def prefect_command() -> str:
    """``prefect`` as another shell finds it: the bare name when it is on PATH, else its path."""
    ours = Path(sys.executable).with_name("prefect")
    found = shutil.which("prefect")
    same = found is not None and Path(found).resolve() == ours.resolve()
    return "prefect" if same else shlex.quote(str(ours))


def main(argv: list[str]) -> int:
    """``python -m flows.serving CRON TIMEZONE``: the runner ``filings serve`` starts."""
    cron, timezone = argv

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    try:
        _serve(cron, timezone, say)
    except KeyboardInterrupt:  # Ctrl-C: the command says it
        return 128 + signal.SIGINT
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
