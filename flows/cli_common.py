"""What the ``filings`` commands share: the Typer app, consoles, options, one-line errors."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, ParamSpec

import typer
from rich.console import Console

from domain.errors import PipelineError, TransportError
from flows import preflight, startup
from flows.interrupts import Interrupted
from tasks.config.settings import (
    Settings,
    load_settings,
    require_live_ready,
    settings_scope,
    unknown_variables,
)
from tasks.sources.replay import ReplayServer, default_archive_root

HELP = """filings: ingest SEC 6-K and HKEXnews disclosures into a SQL warehouse, validate, alert.

Try it with `filings run --source replay` (the bundled demo archive, kept apart from
live data in DATA_DIR/replay), then `filings status --replay`.

Every command prints a one-line reason and exits non-zero when something is wrong;
--verbose shows the details.
"""

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help=HELP,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
console = Console()
err = Console(stderr=True)
P = ParamSpec("P")


class ExportFormat(StrEnum):
    """File formats of ``filings export``."""

    csv = "csv"
    parquet = "parquet"


class SourceMode(StrEnum):
    """Where documents come from."""

    replay = "replay"
    live = "live"


def one_line_errors(command: Callable[P, None]) -> Callable[P, None]:
    """A command whose PipelineError prints as one line and exits 1, and whose run stopped by
    a signal says how far it got and exits 130/143 (also under CliRunner)."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            command(*args, **kwargs)
        except PipelineError as exc:
            raise typer.Exit(line(str(exc), "", 1)) from None
        except Interrupted as exc:  # before click turns it into an Abort and a blank line
            raise typer.Exit(line(str(exc), "", exc.code)) from None
        except KeyboardInterrupt:  # outside a run (Prefect's start-up): typer says nothing
            said = line("interrupted; rerun to finish", "", 130)
            raise typer.Exit(said) from None

    return wrapper


def line(message: str, hint: str, code: int) -> int:
    text = " ".join(message.split()) or "failed"
    err.print(f"error: {text}" + (f" ({hint})" if hint else ""), markup=False, highlight=False,
              soft_wrap=True)  # fmt: skip
    return code


def settings_for(replay: bool = False, verbose: bool = False) -> Settings:
    """The settings of a command (the replay warehouse's with ``replay``), and Prefect's
    environment set before anything imports Prefect (which reads it once, at import)."""
    settings = load_settings()
    for problem in unknown_variables(os.environ):  # a misspelt setting is said, not ignored
        err.print(f"warning: {problem}", markup=False, highlight=False, soft_wrap=True)
    startup.prefect_env(settings.data_dir / "prefect", verbose)
    if not replay:
        return settings
    paths = preflight.replay_paths(settings)
    values = {k.removeprefix("FILINGS_").lower(): v for k, v in paths.items()}
    return load_settings(**values, data_dir=settings.data_dir / preflight.REPLAY_FOLDER)


@contextmanager
def source_urls(
    mode: SourceMode, settings: Settings, live_ready: bool = True
) -> Iterator[dict[str, str]]:
    """The sources' URLs for the block: the configured ones (live; SEC's User-Agent required
    unless not ``live_ready``: nothing asks SEC), or the bundled replay archive served on
    loopback with replay's own warehouse and folders, for the flows this process runs (a
    settings scope); yields them as ``FILINGS_*`` variables (none for live), the environment
    of a process the command starts (``filings serve``'s runner)."""
    if mode is SourceMode.live:
        if live_ready:
            require_live_ready(settings)
        yield {}
        return
    with ReplayServer(default_archive_root()) as server:
        urls = ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL")
        values = {name: server.url for name in urls}
        values["FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS"] = "0"  # loopback: no pace needed
        values.update(preflight.replay_paths(settings))
        fields = {name.removeprefix("FILINGS_").lower(): v for name, v in values.items()}
        with settings_scope(**fields):
            yield values


@contextmanager
def unanswered(issuers_file: Path) -> Iterator[None]:
    """A source that did not answer a one-off command (``issuers add``) is one line saying what
    to do: nothing retries it, and nothing was written."""
    try:
        yield
    except TransportError as exc:
        reason = str(exc)
        if reason.endswith(("ConnectionError", "Timeout")):
            reason += " (no answer: offline, or the address is wrong?)"
        raise PipelineError(
            f"{reason}: nothing written to {issuers_file}; try again when the source answers, "
            "or write the issuer's [[issuer]] entry by hand (docs/operator.md, Adding an issuer)"
        ) from None


@contextmanager
def begin_prefect() -> Iterator[None]:
    """Prefect's API for the flows of the block (the user's shared local server, started
    with a line on stderr, unless PREFECT_API_URL names one)."""
    with startup.prefect_api(lambda line: err.print(line, style="dim", highlight=False)):
        yield


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
