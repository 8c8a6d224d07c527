"""The ``filings`` command line: the edge where settings are read and runs are started.

Prefect and the flows are imported inside the commands, after the environment is set, so
``filings --help`` stays fast and Prefect's home defaults under the data directory.
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from tasks.config.settings import Settings, load_settings, require_live_ready
from tasks.core.errors import PipelineError
from tasks.sources.replay import ReplayServer, default_archive_root

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
    with ReplayServer(default_archive_root()) as server:
        for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
            os.environ[name] = server.url
        os.environ.setdefault("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
        yield


@contextmanager
def _progress(show: bool) -> Iterator[None]:
    # Bars go to stderr so the summary on stdout stays clean for scripts.
    if not show:
        yield
        return
    # deferred for start-up speed: the tables pull in the warehouse's SQL layer
    from flows.console import progress_bars

    with progress_bars(err):
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
    _run(source, issuer, since.date(), force=False, verbose=verbose, bars=True)


def _run(
    source: SourceMode,
    issuer: list[str] | None,
    since: date | None,
    force: bool,
    verbose: bool,
    bars: bool = False,
) -> None:
    try:
        settings = load_settings()
        _prefect_env(settings, verbose)
        with _source(source, settings), _progress(bars):
            # deferred: Prefect reads PREFECT_HOME at import, which _prefect_env sets first
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
        # deferred: Prefect reads PREFECT_HOME at import, which _prefect_env sets first
        from flows.ingest import ingest_local

        with _progress(len(paths) > 1):
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
    # deferred: Prefect reads PREFECT_HOME at import, which _prefect_env sets first
    from prefect.schedules import Cron

    # deferred: Prefect reads PREFECT_HOME at import, which _prefect_env sets first
    from flows.ingest import ingest

    with _source(source, settings):
        ingest.serve(name="filings-ingest", schedules=[Cron(cron, timezone=timezone)])


@app.command()
def status(
    last: Annotated[int, typer.Option(min=1, help="How many recent runs to show.")] = 10,
) -> None:
    """Last runs, documents by status and alerts not yet delivered."""
    # deferred for start-up speed: the tables pull in the warehouse's SQL layer
    from flows.console import status_tables

    # deferred: Prefect reads PREFECT_HOME at import, which _prefect_env sets first
    from tasks.runs.bookkeeping import warehouse_status

    try:
        engine = _warehouse()
        state = warehouse_status(engine, last=last)
    except PipelineError as exc:
        raise _fail(str(exc)) from None
    for table in status_tables(state):
        console.print(table)


@app.command()
def report(
    issuer: IssuerOpt = None,
    out: Annotated[
        Path | None, typer.Option(help="Folder for guidance.png/.html; default DATA_DIR/reports.")
    ] = None,
) -> None:
    """Guidance versus actual per issuer, and a chart of it (PNG and HTML)."""
    # deferred for start-up speed: the tables pull in the warehouse's SQL layer
    from flows.console import guidance_tables

    # deferred for start-up speed: SQLAlchemy and the chart's libraries
    from tasks.runs.guidance_report import read_guidance, write_report

    try:
        settings = load_settings()
        _check_issuers(settings, issuer or [])
        rows = read_guidance(_warehouse(settings), issuer or [])
        files = write_report(rows, out or settings.data_dir / "reports")
    except (PipelineError, OSError) as exc:
        raise _fail(str(exc).splitlines()[0]) from None
    for table in guidance_tables(rows):
        console.print(table)
    if not rows:
        console.print("no guidance in the warehouse yet")
    console.print(f"chart: {files.png}\nchart: {files.html}", highlight=False, soft_wrap=True)


def _warehouse(settings: Settings | None = None) -> Any:
    # deferred for start-up speed: SQLAlchemy, Alembic and the HTTP clients
    from tasks.config.wiring import warehouse

    return warehouse(settings or load_settings())


def _check_issuers(settings: Settings, tickers: list[str]) -> None:
    known = {i.ticker for i in settings.issuers()}
    unknown = sorted({t.upper() for t in tickers} - known)
    if unknown:
        raise PipelineError(f"unknown issuer(s) {unknown}: configured are {sorted(known)}")


@app.command()
def release(
    document_id: Annotated[str, typer.Argument(help="e.g. sec:0001104659-24-032436")],
    by: Annotated[str, typer.Option("--by", help="Who releases it (default: your login).")] = "",
    reason: Annotated[str, typer.Option(help="Why the figures may be published.")] = "",
    verbose: Verbose = False,
) -> None:
    """Let a quarantined document's facts into facts_latest (records who and when)."""
    try:
        settings = load_settings()
        _prefect_env(settings, verbose)
        # deferred: Prefect reads PREFECT_HOME at import, which _prefect_env sets first
        from flows.review import release as release_flow

        line = release_flow(document_id=document_id, released_by=by or getpass.getuser(),
                            reason=reason)  # fmt: skip
    except PipelineError as exc:
        raise _fail(str(exc)) from None
    console.print(line, highlight=False, soft_wrap=True)


@app.command()
def revalidate(
    document_ids: Annotated[
        list[str] | None, typer.Argument(help="Documents to check; default every loaded one.")
    ] = None,
    issuer: Annotated[str | None, typer.Option("--issuer", help="Only this ticker.")] = None,
    verbose: Verbose = False,
) -> None:
    """Run today's suites on stored facts again (no fetching); quarantine or un-quarantine."""
    try:
        settings = load_settings()
        _prefect_env(settings, verbose)
        if issuer:
            _check_issuers(settings, [issuer])
        # deferred: Prefect reads PREFECT_HOME at import, which _prefect_env sets first
        from flows.review import revalidate as revalidate_flow

        summary = revalidate_flow(document_ids=document_ids or [], issuer=issuer)
    except PipelineError as exc:
        raise _fail(str(exc)) from None
    console.print(summary.render(), highlight=False, soft_wrap=True)
