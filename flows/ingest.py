"""The ``ingest`` flow: for each issuer, fetch -> extract -> validate -> load -> alert.

Only composition lives here; every step is a task from ``tasks/``. A failure in one document
or one source is recorded with a one-line reason and the rest of the run goes on.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any, Literal

from prefect import flow, get_run_logger
from prefect.states import State
from sqlalchemy.engine import Engine

from flows import progress, reporting
from flows.failures import on_run_failed
from tasks import alert, docs_sites, extract, fetch, load, validate
from tasks.archive import RawArchive
from tasks.config import Settings, load_settings
from tasks.core.enums import Status
from tasks.core.errors import PipelineError
from tasks.core.records import Issuer
from tasks.summary import RunSummary

SourceName = Literal["sec", "hkex"]


@flow(name="ingest", log_prints=True, on_failure=[on_run_failed], on_crashed=[on_run_failed])
def ingest(
    issuers: list[str] | None = None,
    sources: list[SourceName] | None = None,
    since: date | None = None,
    force: bool = False,
) -> RunSummary:
    """One pass over the configured issuers: process every document not yet ingested.

    Args:
        issuers: Tickers to process, e.g. ["QFIN"]; empty means every configured issuer.
        sources: Where to look: "sec" (EDGAR 6-K) and/or "hkex" (HKEXnews); empty means both.
        since: List everything published since this date (a backfill); empty means only
            what is new since the last run.
        force: Process again documents already loaded (after a parser fix).
    """
    settings = load_settings()
    engine = load.open_warehouse(settings.warehouse_url)
    clients = fetch.build_sources(settings)
    archive = RawArchive(settings.archive_root)
    summary = RunSummary(data_docs_dir=str(docs_sites.new_docs_site(settings.data_docs_path)))
    chosen = _select(settings, issuers)
    run = reporting.begin(engine)
    for issuer in chosen:
        for source in sources or ["sec", "hkex"]:
            _discover(engine, clients, summary, source, issuer, since or settings.since, since)
        pending = load.pending(engine, issuer.ticker, force=force)
        todo = fetch.processable(engine, pending)
        progress.start(len(todo), issuer.ticker)
        for document_id in todo:
            _process(engine, clients, archive, summary, issuer, document_id)
            progress.advance(document_id)
    summary.data_docs = build_run_docs(Path(summary.data_docs_dir), settings.data_docs_keep_days)
    summary.alerts_delivered = alert.deliver_task(engine, alert.channels_from_settings(settings))
    reporting.finish(engine, run, summary, [i.ticker for i in chosen])
    get_run_logger().info(summary.render())
    return summary


def _select(settings: Settings, tickers: list[str] | None) -> list[Issuer]:
    configured = settings.issuers()
    if not tickers:
        return list(configured)
    wanted = {t.upper() for t in tickers}
    unknown = wanted - {i.ticker for i in configured}
    if unknown:
        raise PipelineError(f"unknown issuer(s) {sorted(unknown)}: add them to the issuers file")
    return [i for i in configured if i.ticker in wanted]


def _discover(
    engine: Engine,
    clients: fetch.Sources,
    summary: RunSummary,
    source: str,
    issuer: Issuer,
    since: date,
    explicit: date | None,
) -> None:
    # An explicit date (backfill, --since) lists everything from it; else only what is new.
    state = fetch.discover_task(
        engine, clients, source, issuer, since, explicit is not None, return_state=True
    )
    if state.is_failed():
        summary.source_failures.append(f"{issuer.ticker} {source}: {_reason(state)}")
        return
    listing = state.result()
    summary.found += len(listing.items)
    summary.new += len(load.register(engine, issuer, listing.refs))
    fetch.record_listing(engine, source, issuer, listing)


def _process(
    engine: Engine,
    clients: fetch.Sources,
    archive: RawArchive,
    summary: RunSummary,
    issuer: Issuer,
    document_id: str,
) -> None:
    paused = fetch.pause_reason(engine, document_id.split(":", 1)[0], fetch.utcnow())
    if paused:  # left pending: the first run after the pause fetches it
        if not any(paused in failure for failure in summary.source_failures):
            summary.source_failures.append(f"{issuer.ticker} {paused}")
        return
    try:
        ref = load.document_ref(engine, document_id)
        files = fetch.fetch_files_task(
            engine, clients, archive, ref, issuer.cik, load.stored_files(engine, document_id)
        )
        load.save_files(engine, document_id, files)
        result = extract.extract_document_task(
            document_id, fetch.read_files(archive, files), issuer.ticker
        )
        checks = validate.validate_document_task(engine, document_id, result, summary.data_docs_dir)
        quarantine = validate.quarantine_required(checks)
        counts = load.load_task(
            engine, document_id, result.facts, checks, quarantine, str(result.kind),
            guidance=result.guidance, dividends=result.dividends,
        )  # fmt: skip
        created = alert.store_alerts_task(
            engine, alert.data_quality_alerts(issuer.ticker, document_id, checks)
        )
        # Restatements and guidance outcomes are read from the warehouse after the load.
        created += alert.findings_alerts_task(engine, issuer.ticker, document_id)
    except Exception as exc:  # noqa: BLE001 - one bad document must not stop the others
        load.mark(engine, document_id, Status.FAILED, _one_line(exc))
        summary.failed.append(f"{document_id}: {_one_line(exc)}")
        return
    summary.add_document(document_id, counts.facts_inserted, checks, quarantine, len(created))


def build_run_docs(docs_site: Path, keep_days: int) -> str:
    """The run's Data Docs link ("" for none), built once: each build re-reads what it shows."""
    # A failed build (logged by Prefect) must not stop alert delivery nor fail the loaded run.
    state = docs_sites.build_data_docs_task(docs_site, keep_days, return_state=True)
    return str(state.result()) if state.is_completed() else ""


def _reason(state: State[Any]) -> str:
    try:
        state.result()
    except Exception as exc:  # noqa: BLE001 - we only want its message
        return _one_line(exc)
    return state.message or "failed"


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:500]


@flow(name="ingest-local", log_prints=True, on_failure=[on_run_failed], on_crashed=[on_run_failed])
def ingest_local(paths: list[str], issuer: str = "QFIN") -> RunSummary:
    """Extract -> validate -> load -> alert for files a person dropped in by hand.

    Args:
        paths: Files on the worker's disk: .htm/.html exhibits, .pdf announcements, .txt.
        issuer: Ticker the files belong to.
    """
    settings = load_settings()
    engine = load.open_warehouse(settings.warehouse_url)
    archive = RawArchive(settings.archive_root)
    clients = fetch.build_sources(settings)
    (chosen,) = _select(settings, [issuer])
    summary = RunSummary(data_docs_dir=str(docs_sites.new_docs_site(settings.data_docs_path)))
    progress.start(len(paths), "local files")
    for path in paths:
        ref, stored = fetch.archive_local_file(archive, chosen, Path(path))
        summary.found += 1
        summary.new += len(load.register(engine, chosen, [ref]))
        load.save_files(engine, ref.document_id, [stored])
        _process(engine, clients, archive, summary, chosen, ref.document_id)
        progress.advance(Path(path).name)
    summary.data_docs = build_run_docs(Path(summary.data_docs_dir), settings.data_docs_keep_days)
    summary.alerts_delivered = alert.deliver_task(engine, alert.channels_from_settings(settings))
    return summary
