"""What the command line checks before a flow starts, so a typo is one line, never a failed run.

A mistake caught here starts no flow: no Prefect run, no ``pipeline_failure`` alert, no row.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any

from domain.errors import PipelineError
from domain.records import Issuer
from tasks.config import settings_checks
from tasks.config.issuers import read_issuers
from tasks.config.settings import Settings, sqlite_file
from tasks.sources.replay import default_archive_root

LOCAL_SUFFIXES = (".htm", ".html", ".pdf", ".txt")
# Where replay keeps its own warehouse, raw archive and Data Docs, under the data directory.
REPLAY_FOLDER = "replay"
# ``filings demo-server``'s own state, apart from the replay runs' (``make run``'s): its first
# run has the whole archive to ingest, whatever ran before.
DEMO_SERVER_FOLDER = "demo-server"


def check_settings(settings: Settings, replay: bool = False) -> None:
    """Every setting a run uses, the warehouse reachable included (within 3 s), before Prefect
    or any flow starts: a mistake is one line and nothing is started."""
    settings_checks.check_channels(settings)
    settings_checks.check_data_folder(settings)
    if not replay:
        settings_checks.check_archive(settings)
        settings_checks.check_database(settings.warehouse_url)
    elif settings.replay_database_url:
        settings_checks.check_database(settings.replay_database_url, "FILINGS_REPLAY_DATABASE_URL")
    else:
        settings_checks.check_database(replay_paths(settings)["FILINGS_DATABASE_URL"])


def check_issuers(settings: Settings, tickers: Sequence[str]) -> list[Issuer]:
    """The configured issuers named (all when none are); unknown tickers are one line."""
    issuers = settings.issuers()
    first = sorted({t.upper() for t in tickers} - {i.ticker for i in issuers})[:1]
    hint = f"(`filings issuers add {first[0]}` adds it to {settings.issuers_path})" if first else ""
    return _named(issuers, tickers, hint)


def check_replay_issuers(settings: Settings, tickers: Sequence[str]) -> list[Issuer]:
    """The issuers a replay run covers (the archive's, unless FILINGS_ISSUERS_FILE names a
    file) named: a ticker only DATA_DIR/issuers.toml knows is one line, before Prefect starts."""
    archive = replay_paths(settings).get("FILINGS_ISSUERS_FILE")
    if archive is None:  # FILINGS_ISSUERS_FILE names the file a replay run uses
        return check_issuers(settings, tickers)
    hint = (
        f"for --source replay, the bundled archive's; {settings.issuers_path} is read by live "
        "runs, FILINGS_ISSUERS_FILE by both"
    )
    return _named(read_issuers(Path(archive)), tickers, f"({hint})")


def _named(issuers: Sequence[Issuer], tickers: Sequence[str], hint: str) -> list[Issuer]:
    known = {i.ticker: i for i in issuers}
    wanted = {t.upper() for t in tickers}
    unknown = sorted(wanted - set(known))
    if unknown:
        raise PipelineError(
            f"unknown issuer {', '.join(unknown)}: configured are {', '.join(sorted(known))} "
            + hint
        )
    return [i for t, i in known.items() if not wanted or t in wanted]


def check_since(since: date | None) -> None:
    """A start date must not lie in the future."""
    if since is not None and since > date.today():
        raise PipelineError(f"--since {since.isoformat()} is in the future")


def check_files(paths: Sequence[Path]) -> None:
    """Every path is a readable file of a kind ``filings ingest`` reads."""
    if not paths:
        raise PipelineError("name at least one file to ingest")
    for path in paths:
        if not path.is_file():
            raise PipelineError(f"no such file: {path}")
        if path.suffix.lower() not in LOCAL_SUFFIXES:
            raise PipelineError(f"{path}: not a .htm/.html, .pdf or .txt file")
        if not os.access(path, os.R_OK):
            raise PipelineError(f"{path}: not readable")
        if path.suffix.lower() == ".pdf" and (why := pdf_damage(path)):
            raise PipelineError(f"{path}: the PDF is damaged: {why}; get a complete copy")


def pdf_damage(path: Path) -> str | None:
    """Why a PDF file is damaged (cut short, or not a PDF), or None: checked on its first and
    last bytes, before anything reads it, so a truncated copy is never taken for a foreign one."""
    size = path.stat().st_size
    with path.open("rb") as handle:
        head = handle.read(2048)
        handle.seek(max(0, size - 4096))
        tail = handle.read().rstrip(b"\x00\r\n \t")
    if not head.startswith(b"%PDF-"):
        return "it does not begin with %PDF- (not a PDF file)"
    declared = re.search(rb"/Linearized\s.*?/L\s+(\d+)", head, re.S)
    if declared and int(declared[1]) > size:  # a linearized file states its own length
        return f"it has {size} of the {int(declared[1])} bytes it declares (cut short)"
    if b"%%EOF" not in tail:
        return f"it ends after {size} bytes without the end-of-file marker %%EOF (cut short)"
    return None


def _check_exists(settings: Settings) -> None:
    path = sqlite_file(settings.warehouse_url)
    if path is not None and not path.is_file():
        demo = settings.data_dir / REPLAY_FOLDER / path.name
        hint = (
            "the demo's warehouse (`make run`) is read with --replay"
            if demo.is_file()
            else "run `filings run` first (the demo: `make run`, then add --replay), "
            "or set FILINGS_DATABASE_URL"
        )
        raise PipelineError(f"no warehouse at {path}: {hint}")


def existing_warehouse(settings: Settings) -> Any:
    """An engine on a warehouse that exists already, upgraded to this code's schema (for
    commands that write; reading commands never create one)."""
    _check_exists(settings)
    # deferred for start-up speed: SQLAlchemy, Alembic and the HTTP clients
    from tasks.config.wiring import warehouse

    return warehouse(settings)


def reading_warehouse(settings: Settings) -> Any:
    """An engine that only reads an existing warehouse at this code's schema: a read-only
    role or file is enough; a schema behind the code is one line naming `filings upgrade`."""
    _check_exists(settings)
    # deferred for start-up speed: SQLAlchemy and Alembic
    from storage.db import open_for_reading

    timeout_ms = int(settings.sqlite_busy_timeout_seconds * 1000)
    return open_for_reading(settings.warehouse_url, busy_timeout_ms=timeout_ms)


def check_quarantined(settings: Settings, document_id: str) -> None:
    """``release`` takes only a document that is in the warehouse and quarantined."""
    # deferred for start-up speed: the warehouse's SQL layer
    from domain.enums import Status
    from storage.documents import document_status

    engine = existing_warehouse(settings)
    with engine.connect() as conn:
        status = document_status(conn, document_id)
    engine.dispose()
    if status is None:
        raise PipelineError(
            f"unknown document {document_id}: `filings status` lists the quarantined ones"
        )
    if status is not Status.QUARANTINED:
        raise PipelineError(f"{document_id} is {status.value}, not quarantined: nothing to release")


def check_documents(settings: Settings, document_ids: Sequence[str]) -> None:
    """Every named document is in the warehouse."""
    if not document_ids:
        return
    # deferred for start-up speed: the warehouse's SQL layer
    from storage.documents import document_status

    engine = existing_warehouse(settings)
    with engine.connect() as conn:
        unknown = [d for d in document_ids if document_status(conn, d) is None]
    engine.dispose()
    if unknown:
        raise PipelineError(f"unknown document {', '.join(unknown)}: check the id")


def replay_paths(settings: Settings, folder: str = REPLAY_FOLDER) -> dict[str, str]:
    """The settings a replay run uses: its own warehouse, raw archive and Data Docs.

    A demo must never move a live run's cursors nor mix its documents with live ones, so
    replay keeps everything under ``DATA_DIR/replay`` (``folder``: ``demo-server``'s own;
    ``FILINGS_REPLAY_DATABASE_URL`` puts its warehouse elsewhere, e.g. a scratch PostgreSQL
    database). It covers the archive's issuers
    (``replay_archive/issuers.toml``) unless ``FILINGS_ISSUERS_FILE`` names a file.
    """
    root = (settings.data_dir / folder).resolve()
    url = settings.replay_database_url or f"sqlite:///{root / 'warehouse.sqlite'}"
    paths = {
        "FILINGS_DATABASE_URL": url,
        "FILINGS_ARCHIVE_URL": str(root / "archive"),
        "FILINGS_DATA_DOCS_DIR": str(root / "data_docs"),
    }
    if settings.issuers_file is None:  # the archive's issuers (QFIN and BKE), unless named
        paths["FILINGS_ISSUERS_FILE"] = str(default_archive_root() / "issuers.toml")
    return paths
