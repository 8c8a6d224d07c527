"""filings: ingest SEC 6-K and HKEXnews disclosures into a SQL warehouse, validate, alert.

Try it with `filings run --source replay` (the bundled demo archive, kept apart from
live data in DATA_DIR/replay), then `filings status --replay`.

Every command prints a one-line reason and exits non-zero when something is wrong;
--verbose shows the details.
"""

from __future__ import annotations

import functools
import getpass
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, ParamSpec

import typer
from rich.console import Console

from flows import preflight, startup
from tasks.config.settings import Settings, load_settings, require_live_ready
from tasks.core.errors import PipelineError
from tasks.sources.replay import ReplayServer, default_archive_root

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help=__doc__,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
console = Console()
err = Console(stderr=True)
P = ParamSpec("P")


class SourceMode(StrEnum):
    """Where documents come from."""

    replay = "replay"
    live = "live"


def main() -> None:
    """The ``filings`` entry point: every failure is one line on stderr, unless --verbose."""
    verbose = any(a in ("--verbose", "-v") for a in sys.argv[1:])
    try:
        code = app(standalone_mode=False)
    except typer.TyperException as exc:  # a command-line mistake (click's usage errors)
        if type(exc).__name__ == "NoArgsIsHelpError":
            sys.exit(2)  # the help was printed
        sys.exit(_line(getattr(exc, "format_message", exc.__str__)(), "see --help", 2))
    except (KeyboardInterrupt, typer.Abort):
        sys.exit(_line("interrupted", "", 130))
    except PipelineError as exc:
        sys.exit(_line(str(exc), "", 1))
    except Exception as exc:
        if verbose:
            raise
        sys.exit(_line(f"{type(exc).__name__}: {exc}", "--verbose shows the details", 1))
    sys.exit(code if isinstance(code, int) else 0)


def one_line_errors(command: Callable[P, None]) -> Callable[P, None]:
    """A command whose PipelineError prints as one line and exits 1 (also under CliRunner)."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            command(*args, **kwargs)
        except PipelineError as exc:
            raise typer.Exit(_line(str(exc), "", 1)) from None

    return wrapper


def _line(message: str, hint: str, code: int) -> int:
    text = " ".join(message.split()) or "failed"
    err.print(f"error: {text}" + (f" ({hint})" if hint else ""), markup=False, highlight=False,
              soft_wrap=True)  # fmt: skip
    return code


def _settings(replay: bool = False) -> Settings:
    settings = load_settings()
    if not replay:
        return settings
    paths = preflight.replay_paths(settings)
    return load_settings(**{k.removeprefix("FILINGS_").lower(): v for k, v in paths.items()})


def _begin_prefect(settings: Settings, verbose: bool) -> None:
    startup.prefect_env(settings.data_dir / "prefect", verbose)
    startup.ensure_api(lambda line: err.print(line, style="dim", highlight=False))


@contextmanager
def _source(mode: SourceMode, settings: Settings) -> Iterator[None]:
    if mode is SourceMode.live:
        require_live_ready(settings)
        yield
        return
    with ReplayServer(default_archive_root()) as server:
        urls = ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL")
        values = {name: server.url for name in urls}
        values["FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS"] = "0"  # loopback: no pace needed
        with preflight.environment({**preflight.replay_paths(settings), **values}):
            yield


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


Verbose = Annotated[
    bool, typer.Option("--verbose", "-v", help="Show Prefect's logs and full tracebacks.")
]
IssuerOpt = Annotated[
    list[str] | None, typer.Option("--issuer", help="Ticker; repeatable; default every issuer.")
]
SourceOpt = Annotated[
    SourceMode,
    typer.Option(help="live: the configured SEC/HKEx URLs; replay: the bundled demo archive."),
]
Since = Annotated[
    datetime | None,
    typer.Option(
        formats=["%Y-%m-%d"], help="List everything published since this date (a backfill)."
    ),
]
ReplayOpt = Annotated[
    bool, typer.Option("--replay", help="Read the replay (demo) warehouse instead.")
]


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
    settings = load_settings()
    preflight.check_issuers(settings, issuer or [])
    preflight.check_since(since)
    if source is SourceMode.live:
        require_live_ready(settings)
    _begin_prefect(settings, verbose)
    with _source(source, settings), _progress(bars):
        # deferred: Prefect reads PREFECT_HOME at import, which _begin_prefect sets first
        from flows.ingest import ingest

        summary = ingest(issuers=issuer, since=since, force=False)
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
    settings = load_settings()
    preflight.check_files(paths)
    if issuer:
        preflight.check_issuers(settings, [issuer])
    day = published.date() if published else None
    preflight.check_since(day)
    _check_intake(settings, paths, issuer, day)
    _begin_prefect(settings, verbose)
    # deferred: Prefect reads PREFECT_HOME at import, which _begin_prefect sets first
    from flows.ingest import ingest_local

    with _progress(len(paths) > 1):
        summary = ingest_local(paths=[str(p) for p in paths], issuer=issuer, published=day)
    _finish(summary)


def _check_intake(
    settings: Settings, paths: list[Path], issuer: str | None, day: date | None
) -> None:
    # deferred: the parsers pull in pdfplumber and lxml
    from tasks.intake import inspect_local_file

    for path in paths:  # a foreign or undated file stops the command before anything is stored
        inspect_local_file(path, settings.issuers(), issuer, day)


@app.command()
@one_line_errors
def serve(
    cron: Annotated[str, typer.Option(help="When to run (cron syntax).")] = "*/15 * * * *",
    timezone: Annotated[str, typer.Option(help="Time zone of the cron.")] = "America/New_York",
    source: SourceOpt = SourceMode.live,
    port: Annotated[int, typer.Option(help="Port of the local Prefect server and UI.")] = 4200,
) -> None:
    """Run the ingest flow on a schedule on this machine (starts a local Prefect server)."""
    # deferred: the cron check is croniter's, the zone check the standard library's
    from flows.serving import check_schedule, serve_ingest

    check_schedule(cron, timezone)
    settings = load_settings()
    if source is SourceMode.live:
        require_live_ready(settings)
    startup.prefect_env(settings.data_dir / "prefect", verbose=True)
    with _source(source, settings):
        serve_ingest(cron, timezone, port, lambda line: err.print(line, highlight=False))


@app.command()
@one_line_errors
def status(
    last: Annotated[int, typer.Option(min=1, help="How many recent runs to show.")] = 10,
    replay: ReplayOpt = False,
) -> None:
    """Last runs, documents by status and alerts not yet delivered."""
    # deferred for start-up speed: the tables pull in the warehouse's SQL layer
    from flows.console import status_tables
    from tasks.runs.bookkeeping import warehouse_status

    state = warehouse_status(preflight.existing_warehouse(_settings(replay)), last=last)
    for table in status_tables(state):
        console.print(table)


@app.command()
@one_line_errors
def report(
    issuer: IssuerOpt = None,
    out: Annotated[
        Path | None, typer.Option(help="Folder for guidance.png/.html; default DATA_DIR/reports.")
    ] = None,
    replay: ReplayOpt = False,
) -> None:
    """Guidance versus actual per issuer, and a chart of it (PNG and HTML)."""
    # deferred for start-up speed: SQLAlchemy and the chart's libraries
    from flows.console import guidance_tables
    from tasks.runs.guidance_report import read_guidance, write_report

    settings = _settings(replay)
    preflight.check_issuers(settings, issuer or [])
    rows = read_guidance(preflight.existing_warehouse(settings), issuer or [])
    try:
        files = write_report(rows, out or settings.data_dir / "reports")
    except OSError as exc:
        raise PipelineError(f"cannot write the report: {exc}") from None
    for table in guidance_tables(rows):
        console.print(table)
    if not rows:
        console.print("no guidance in the warehouse yet")
    console.print(f"chart: {files.png}\nchart: {files.html}", highlight=False, soft_wrap=True)


@app.command()
@one_line_errors
def release(
    document_id: Annotated[str, typer.Argument(help="e.g. sec:0001104659-24-032436")],
    by: Annotated[str, typer.Option("--by", help="Who releases it (default: your login).")] = "",
    reason: Annotated[str, typer.Option(help="Why the figures may be published.")] = "",
    verbose: Verbose = False,
) -> None:
    """Let a quarantined document's facts into facts_latest (records who and when)."""
    settings = load_settings()
    preflight.check_quarantined(settings, document_id)
    _begin_prefect(settings, verbose)
    # deferred: Prefect reads PREFECT_HOME at import, which _begin_prefect sets first
    from flows.review import release as release_flow

    line = release_flow(document_id=document_id, released_by=by or getpass.getuser(),
                        reason=reason)  # fmt: skip
    console.print(line, highlight=False, soft_wrap=True)


@app.command()
@one_line_errors
def revalidate(
    document_ids: Annotated[
        list[str] | None, typer.Argument(help="Documents to check; default every loaded one.")
    ] = None,
    issuer: Annotated[str | None, typer.Option("--issuer", help="Only this ticker.")] = None,
    verbose: Verbose = False,
) -> None:
    """Run today's suites on stored facts again (no fetching); quarantine or un-quarantine."""
    settings = load_settings()
    if issuer:
        preflight.check_issuers(settings, [issuer])
    preflight.check_documents(settings, document_ids or [])
    preflight.existing_warehouse(settings).dispose()
    _begin_prefect(settings, verbose)
    # deferred: Prefect reads PREFECT_HOME at import, which _begin_prefect sets first
    from flows.review import revalidate as revalidate_flow

    summary = revalidate_flow(document_ids=document_ids or [], issuer=issuer)
    console.print(summary.render(), highlight=False, soft_wrap=True)
