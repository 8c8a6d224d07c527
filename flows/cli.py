"""The ``filings`` command line: the edge where settings are read and runs are started.

Prefect and the flows are imported inside the commands, after the environment is set, so
``filings --help`` stays fast and Prefect's home defaults under the data directory.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from tasks.config import Settings, load_settings, require_live_ready
from tasks.errors import PipelineError

app = typer.Typer(add_completion=False, no_args_is_help=True, help=__doc__)
console = Console()
err = Console(stderr=True)


class SourceMode(StrEnum):
    """Where documents come from."""

    replay = "replay"
    live = "live"


def _prefect_env(settings: Settings, verbose: bool) -> None:
    # Edge configuration: the embedded default keeps Prefect's state beside the warehouse
    # and sends no telemetry. Explicit user settings win.
    os.environ.setdefault("PREFECT_HOME", str((settings.data_dir / "prefect").resolve()))
    os.environ.setdefault("DO_NOT_TRACK", "1")
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    os.environ.setdefault("PREFECT_LOGGING_LEVEL", "INFO" if verbose else "WARNING")
    # Prefect's ephemeral server cannot create its SQLite file in a missing folder.
    Path(os.environ["PREFECT_HOME"]).expanduser().mkdir(parents=True, exist_ok=True)


@contextmanager
def _source(mode: SourceMode, settings: Settings) -> Iterator[None]:
    if mode is SourceMode.live:
        require_live_ready(settings)
        yield
        return
    from tasks.sources.replay import ReplayServer, default_archive_root

    with ReplayServer(default_archive_root()) as server:
        for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
            os.environ[name] = server.url
        os.environ.setdefault("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
        yield


def _fail(message: str) -> typer.Exit:
    err.print(f"[red]error:[/red] {message}", highlight=False, soft_wrap=True)
    return typer.Exit(code=1)


def _finish(summary: Any) -> None:
    console.print(summary.render(), highlight=False)
    if not summary.ok:
        raise typer.Exit(code=1)


Verbose = Annotated[bool, typer.Option("--verbose", "-v", help="Show Prefect's INFO logs.")]
IssuerOpt = Annotated[list[str] | None, typer.Option("--issuer", help="Ticker; repeatable.")]


@app.command()
def run(
    source: Annotated[
        SourceMode,
        typer.Option(
            help="replay: the bundled archive on loopback; live: the configured SEC/HKEx URLs."
        ),
    ] = SourceMode.live,
    issuer: IssuerOpt = None,
    since: Annotated[datetime | None, typer.Option(formats=["%Y-%m-%d"])] = None,
    verbose: Verbose = False,
) -> None:
    """One pass over every configured issuer: fetch what is new, extract, validate, load, alert."""
    _run(source, issuer, since.date() if since else None, force=False, verbose=verbose)


@app.command()
def backfill(
    since: Annotated[datetime, typer.Option(formats=["%Y-%m-%d"], help="Fetch everything since.")],
    source: Annotated[SourceMode, typer.Option()] = SourceMode.live,
    issuer: IssuerOpt = None,
    verbose: Verbose = False,
) -> None:
    """Fetch and process everything published since DATE."""
    _run(source, issuer, since.date(), force=False, verbose=verbose)


def _run(
    source: SourceMode, issuer: list[str] | None, since: date | None, force: bool, verbose: bool
) -> None:
    try:
        settings = load_settings()
        _prefect_env(settings, verbose)
        with _source(source, settings):
            from flows.ingest import ingest

            summary = ingest(issuers=issuer, since=since, force=force)
    except PipelineError as exc:
        raise _fail(str(exc)) from None
    _finish(summary)


@app.command("ingest")
def ingest_files(
    paths: Annotated[list[Path], typer.Argument(help=".htm/.html, .pdf or .txt files")],
    issuer: Annotated[str, typer.Option(help="Ticker the files belong to.")] = "QFIN",
    verbose: Verbose = False,
) -> None:
    """Extract, validate, load and alert on local files dropped in by hand."""
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise _fail(f"no such file: {', '.join(missing)}")
    try:
        settings = load_settings()
        _prefect_env(settings, verbose)
        from flows.ingest import ingest_local

        summary = ingest_local(paths=[str(p) for p in paths], issuer=issuer)
    except PipelineError as exc:
        raise _fail(str(exc)) from None
    _finish(summary)


@app.command()
def serve(
    cron: Annotated[str, typer.Option(help="When to run.")] = "*/15 * * * *",
    timezone: Annotated[str, typer.Option(help="Time zone of the cron.")] = "America/New_York",
    source: Annotated[SourceMode, typer.Option()] = SourceMode.live,
) -> None:
    """Run the ingest flow on a schedule on this machine (no work pool needed)."""
    settings = load_settings()
    _prefect_env(settings, verbose=True)
    from prefect.schedules import Cron

    from flows.ingest import ingest

    with _source(source, settings):
        ingest.serve(name="filings-ingest", schedules=[Cron(cron, timezone=timezone)])
