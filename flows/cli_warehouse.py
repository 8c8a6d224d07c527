"""The ``filings`` commands that read or review the warehouse: status, report, release,
revalidate, export, upgrade. They never start a fetch; reading ones (status, report, export)
never write: a read-only database role or file is enough, and a schema behind the code is one
line naming ``filings upgrade``."""

from __future__ import annotations

import getpass
from pathlib import Path
from typing import Annotated

import typer

from domain.errors import PipelineError
from flows import preflight
from flows.cli_common import (
    ExportFormat,
    IssuerOpt,
    ReplayOpt,
    Verbose,
    app,
    begin_prefect,
    console,
    one_line_errors,
    settings_for,
)


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

    state = warehouse_status(preflight.reading_warehouse(settings_for(replay)), last=last)
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

    settings = settings_for(replay)
    preflight.check_issuers(settings, issuer or [])
    rows = read_guidance(preflight.reading_warehouse(settings), issuer or [])
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
    settings = settings_for(verbose=verbose)
    preflight.check_settings(settings)
    preflight.check_quarantined(settings, document_id)
    with begin_prefect():
        # deferred: Prefect reads PREFECT_HOME at import, which settings_for sets first
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
    settings = settings_for(verbose=verbose)
    preflight.check_settings(settings)
    if issuer:
        preflight.check_issuers(settings, [issuer])
    preflight.check_documents(settings, document_ids or [])
    preflight.existing_warehouse(settings).dispose()
    with begin_prefect():
        # deferred: Prefect reads PREFECT_HOME at import, which settings_for sets first
        from flows.review import revalidate as revalidate_flow

        summary = revalidate_flow(document_ids=document_ids or [], issuer=issuer)
    console.print(summary.render(), highlight=False, soft_wrap=True)


@app.command()
@one_line_errors
def export(
    fmt: Annotated[ExportFormat, typer.Option("--format", help="csv or parquet.")] = (
        ExportFormat.csv
    ),
    out: Annotated[
        Path | None, typer.Option(help="Folder for the files; default DATA_DIR/export.")
    ] = None,
    replay: ReplayOpt = False,
) -> None:
    """Write the warehouse's views to files, one per view (exact decimals in both formats)."""
    settings = settings_for(replay)
    preflight.reading_warehouse(settings).dispose()
    # deferred for start-up speed: pandas and pyarrow
    from filings import export as export_views

    target = out or settings.data_dir / "export"
    for path in export_views(target, fmt.value, url=settings.warehouse_url):
        console.print(f"wrote {path}", highlight=False, soft_wrap=True)


@app.command()
@one_line_errors
def upgrade(replay: ReplayOpt = False) -> None:
    """Upgrade the warehouse's schema to this code's (creating it if there is none)."""
    settings = settings_for(replay)
    # deferred for start-up speed: SQLAlchemy and Alembic
    from storage.db import code_revision
    from tasks.config.wiring import warehouse

    warehouse(settings).dispose()
    console.print(f"warehouse schema at revision {code_revision()} (this code's)", highlight=False)
