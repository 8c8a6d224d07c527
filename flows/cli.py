"""The ``filings`` command line: the edge where settings are read and runs are started.

Prefect and the flows are imported inside the commands, after the environment is set, so
``filings --help`` stays fast and Prefect's home defaults under the data directory. The
commands reading the warehouse are in :mod:`flows.cli_warehouse`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from domain.errors import PipelineError
from flows import cli_alerts, cli_issuers, cli_warehouse, preflight
from flows.cli_common import (
    IssuerOpt,
    Since,
    SourceMode,
    SourceOpt,
    Verbose,
    app,
    begin_prefect,
    console,
    err,
    line,
    one_line_errors,
    settings_for,
    source_urls,
)
from flows.interrupts import INTERRUPTED_CODES, interruptible, owning_signals
from tasks.config.settings import Settings, require_live_ready

__all__ = ["app", "cli_alerts", "cli_issuers", "cli_warehouse", "main"]


def main() -> None:
    """The ``filings`` entry point: every failure is one line on stderr, unless --verbose."""
    verbose = any(a in ("--verbose", "-v") for a in sys.argv[1:])
    try:
        code = app(standalone_mode=False)
    except typer.TyperException as exc:  # a command-line mistake (click's usage errors)
        if type(exc).__name__ == "NoArgsIsHelpError":
            sys.exit(2)  # the help was printed
        sys.exit(line(getattr(exc, "format_message", exc.__str__)(), "see --help", 2))
    except (KeyboardInterrupt, typer.Abort):
        sys.exit(line("interrupted", "", 130))
    except PipelineError as exc:
        sys.exit(line(str(exc), "", 1))
    except Exception as exc:
        if verbose:
            raise
        sys.exit(line(_describe(exc), "--verbose shows the details", 1))
    if code in INTERRUPTED_CODES:
        # the run is recorded and its claims released: end now, without the interpreter's
        # slow tidy-up of a big heap on a busy machine (measured ~6 s at load 10)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(int(code))
    sys.exit(code if isinstance(code, int) else 0)


def _describe(exc: Exception) -> str:
    """One line for an unexpected error; a database's without SQLAlchemy's SQL echo."""
    if type(exc).__module__.startswith("sqlalchemy"):
        # deferred: the SQL layer, only when a database error reached the command line
        from storage.db import describe_error

        return describe_error(exc)
    return f"{type(exc).__name__}: {exc}"


@contextmanager
def _progress(bars: bool) -> Iterator[None]:
    # Progress goes to stderr so the summary on stdout stays clean for scripts.
    # deferred for start-up speed: the tables pull in the warehouse's SQL layer
    from flows.console import progress_bars, progress_lines

    with progress_bars(err) if bars else progress_lines(err):
        yield


def _finish(summary: Any) -> None:
    console.print(summary.render(), highlight=False, soft_wrap=True)
    if not summary.ok:
        raise typer.Exit(code=1)


@app.command()
@one_line_errors
def run(
    source: SourceOpt = SourceMode.live,
    issuer: IssuerOpt = None,
    since: Since = None,
    verbose: Verbose = False,
) -> None:
    """One pass over every configured issuer: fetch what is new, extract, validate, load, alert."""
    _run(source, issuer, since.date() if since else None, verbose=verbose)


@app.command()
@one_line_errors
def backfill(
    since: Annotated[datetime, typer.Option(formats=["%Y-%m-%d"], help="Fetch everything since.")],
    source: SourceOpt = SourceMode.live,
    issuer: IssuerOpt = None,
    verbose: Verbose = False,
) -> None:
    """Fetch and process everything published since DATE."""
    _run(source, issuer, since.date(), verbose=verbose, bars=True)


def _run(
    source: SourceMode, issuer: list[str] | None, since: date | None, verbose: bool,
    bars: bool = False,
) -> None:  # fmt: skip
    settings = settings_for(verbose=verbose)
    if source is SourceMode.replay:  # a replay run covers the archive's issuers
        preflight.check_replay_issuers(settings, issuer or [])
    else:
        preflight.check_issuers(settings, issuer or [])
    preflight.check_since(since)
    if source is SourceMode.live:
        require_live_ready(settings)
    preflight.check_settings(settings, replay=source is SourceMode.replay)
    with begin_prefect(), source_urls(source, settings), _progress(bars), interruptible():
        # deferred: Prefect reads PREFECT_HOME at import, which settings_for sets first
        from flows.ingest import ingest

        summary = owning_signals(ingest)(issuers=issuer, since=since, force=False)
    _finish(summary)


@app.command("ingest")
@one_line_errors
def ingest_files(
    paths: Annotated[list[Path], typer.Argument(help=".htm/.html, .pdf or .txt files")],
    issuer: Annotated[
        str | None,
        typer.Option(help="Ticker the files belong to; default: the issuer each file names."),
    ] = None,
    published: Annotated[
        datetime | None,
        typer.Option(formats=["%Y-%m-%d"], help="Publication date; default: the dateline."),
    ] = None,
    verbose: Verbose = False,
) -> None:
    """Extract, validate, load and alert on local files dropped in by hand."""
    settings = settings_for(verbose=verbose)
    preflight.check_files(paths)
    if issuer:
        preflight.check_issuers(settings, [issuer])
    day = published.date() if published else None
    preflight.check_since(day)
    preflight.check_settings(settings)
    held = _all_held(settings, _check_intake(settings, paths, issuer, day))
    if held is not None:  # nothing to do: said without starting Prefect or a flow
        _finish(held)
        return
    with begin_prefect(), _progress(len(paths) > 1), interruptible():
        # deferred: Prefect reads PREFECT_HOME at import, which settings_for sets first
        from flows.ingest import ingest_local

        local = owning_signals(ingest_local)
        summary = local(paths=[str(p) for p in paths], issuer=issuer, published=day)
    _finish(summary)


def _check_intake(
    settings: Settings, paths: list[Path], issuer: str | None, day: date | None
) -> list[Any]:
    # deferred: the parsers pull in pdfplumber and lxml
    from tasks.extract import inspect_local_file

    # a foreign or undated file stops the command before anything is stored
    return [inspect_local_file(path, settings.issuers(), issuer, day) for path in paths]


def _all_held(settings: Settings, intakes: list[Any]) -> Any:
    """The run's summary when the warehouse holds every file already (None otherwise)."""
    path = preflight.sqlite_file(settings.warehouse_url)
    if path is not None and not path.is_file():
        return None
    # deferred: the warehouse's SQL layer, only for files that were readable
    from tasks.intake import already_stored
    from tasks.runs.summary import RunSummary

    engine = preflight.existing_warehouse(settings)
    try:
        held = [already_stored(engine, intake) for intake in intakes]
    finally:
        engine.dispose()
    if not all(held):
        return None
    summary = RunSummary(found=len(intakes))
    summary.already_stored = [
        f"{i.path.name}: already in the warehouse as {d}"
        for i, d in zip(intakes, held, strict=True)
    ]
    return summary


@app.command()
@one_line_errors
def serve(
    cron: Annotated[str, typer.Option(help="When to run (cron syntax).")] = "*/15 * * * *",
    timezone: Annotated[str, typer.Option(help="Time zone of the cron.")] = "America/New_York",
    source: SourceOpt = SourceMode.live,
    port: Annotated[int, typer.Option(help="Port of the local Prefect server and UI.")] = 4200,
) -> None:
    """Run the ingest flow on a schedule on this machine (starts a local Prefect server)."""
    # deferred: the cron check is cronsim's, the zone check the standard library's
    from flows.serving import check_schedule, serve_ingest

    check_schedule(cron, timezone)
    settings = settings_for(verbose=True)  # a long-running server: its logs are its output
    if source is SourceMode.live:
        require_live_ready(settings)
    preflight.check_settings(settings, replay=source is SourceMode.replay)
    with source_urls(source, settings) as runner_env:
        code = serve_ingest(
            cron, timezone, port, lambda line: err.print(line, highlight=False, soft_wrap=True),
            runner_env,
        )  # fmt: skip
    if code:  # the runner's status: killed by a signal is 128 + its number, as a shell says
        raise typer.Exit(128 - code if code < 0 else code)


@app.command("demo-server")
@one_line_errors
def demo_server(
    port: Annotated[
        int, typer.Option(min=1, max=65535, help="Port of the Prefect server and UI.")
    ] = 4200,
) -> None:
    """The production route offline: a Prefect server, a worker, the deployments (paused) and
    the replay source, on this machine, until Ctrl-C."""
    # deferred: the stack's modules pull in the replay server and the HTTP clients
    from flows.demo_stack import run_demo_stack

    settings = settings_for(verbose=True)  # a long-running server: its logs are its output
    run_demo_stack(settings, port, lambda line: err.print(line, highlight=False, soft_wrap=True))
