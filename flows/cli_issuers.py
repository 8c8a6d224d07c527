"""``filings issuers``: the issuers a run covers are configuration (the issuers file), never code.

``add TICKER`` resolves the SEC CIK and registrant name from SEC's company tickers file and the
HKEx stock code from HKEx's active stock list (through the same clients and URLs as a run, so
``--source replay`` answers from the bundled archive), then writes the issuers file.
"""

from __future__ import annotations

from typing import Annotated

import typer

from flows.cli_common import (
    SourceMode,
    SourceOpt,
    Verbose,
    app,
    console,
    one_line_errors,
    settings_for,
    source_urls,
    unanswered,
)
from tasks.config.issuers import with_issuer, write_issuers
from tasks.config.settings import load_settings, require_live_ready

issuers_app = typer.Typer(
    help="The issuers this pipeline covers (the issuers file).", no_args_is_help=True
)
app.add_typer(issuers_app, name="issuers")


@issuers_app.command("add")
@one_line_errors
def add(
    ticker: Annotated[str, typer.Argument(help="The issuer's ticker, e.g. BKE.")],
    hkex: Annotated[
        str | None, typer.Option("--hkex", help="HKEx stock code, when its name differs.")
    ] = None,
    sec: Annotated[
        bool, typer.Option("--sec", help="With --hkex: also ask SEC (listed in both places).")
    ] = False,
    source: SourceOpt = SourceMode.live,
    verbose: Verbose = False,
) -> None:
    """Add an issuer (or refresh it): CIK and name from SEC, stock code from HKEx (with
    --hkex, HKEx only: SEC is not asked unless --sec)."""
    settings = settings_for(verbose=verbose)
    ask_sec = sec or not hkex
    if source is SourceMode.live and ask_sec:
        require_live_ready(settings)  # SEC's User-Agent; HKEx needs none
    # deferred: the sources' HTTP stack, only for this command
    from tasks.config.wiring import directory
    from tasks.sources.directory import resolve_issuer

    with source_urls(source, settings, live_ready=ask_sec), unanswered(settings.issuers_path):
        issuer = resolve_issuer(directory(load_settings()), ticker, hkex or "", ask_sec)
    path = settings.issuers_path
    write_issuers(path, with_issuer(settings.issuers(), issuer))
    ids = [f"SEC CIK {issuer.cik}" if issuer.cik else "not on SEC"]
    ids.append(f"HKEx {issuer.hkex_code}" if issuer.hkex_code else "no HKEx stock code found")
    said = f"{issuer.ticker}: {issuer.name}, {', '.join(ids)} -> {path}"
    console.print(said, highlight=False, soft_wrap=True)  # a path is never broken


@issuers_app.command("list")
@one_line_errors
def list_issuers() -> None:
    """The configured issuers and where they come from."""
    settings = settings_for()
    for i in settings.issuers():
        console.print(
            f"{i.ticker}  {i.name}  CIK {i.cik or '-'}  HKEx {i.hkex_code or '-'}", highlight=False
        )
