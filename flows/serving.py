"""``filings serve``: the ingest flow on a cron schedule, on one machine.

Prefect's runner (``flow.serve``) cannot schedule on the ephemeral API ("Cannot schedule flows
on an ephemeral server"), so without ``PREFECT_API_URL`` this starts a local Prefect server
(``prefect server start`` on loopback, state under ``PREFECT_HOME``, the UI at its port), points
the runner at it and stops it when serving ends. With ``PREFECT_API_URL`` set it uses that one.
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from cronsim import CronSim, CronSimError

from flows import startup
from tasks.config.settings import load_settings
from tasks.core.errors import PipelineError

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


def serve_ingest(cron: str, timezone: str, port: int, say: Callable[[str], None]) -> None:
    """Serve the ingest flow on the schedule until interrupted (and the runs' Data Docs)."""
    settings = load_settings()
    if settings.data_docs_url:
        _serve_flow(cron, timezone, port, say)
        return
    settings.data_docs_path.mkdir(parents=True, exist_ok=True)
    with static_files(settings.data_docs_path) as url:
        say(f"Data Docs served at {url}")
        os.environ["FILINGS_DATA_DOCS_URL"] = url  # the served runs link their sites here
        try:
            _serve_flow(cron, timezone, port, say)
        finally:
            os.environ.pop("FILINGS_DATA_DOCS_URL", None)


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


def _serve_flow(cron: str, timezone: str, port: int, say: Callable[[str], None]) -> None:
    if os.environ.get("PREFECT_API_URL"):
        _serve(cron, timezone, say)
        return
    with startup.local_server(port, say) as api:
        # set before Prefect is imported: its settings are read from the environment then,
        # and the runner's flow-run processes inherit it
        os.environ["PREFECT_API_URL"] = api
        try:
            _serve(cron, timezone, say)
        finally:
            os.environ.pop("PREFECT_API_URL", None)


def _serve(cron: str, timezone: str, say: Callable[[str], None]) -> None:
    # deferred: Prefect must read PREFECT_API_URL, set just above, when it is imported
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
