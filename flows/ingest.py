"""The ``ingest`` flow: for each issuer, fetch -> extract -> validate -> load -> alert.

Only composition lives here; every step is a task from ``tasks/``. A failure in one document
or one source is recorded with a one-line reason and the rest of the run goes on.
"""

# No ``from __future__ import annotations`` here: Prefect builds each flow's parameter model
# from the function's annotations in the process that runs it (a served or deployed run), and
# postponed (string) annotations then name types it cannot resolve ("IngestModel is not fully
# defined"). Real annotations travel with the function.
from collections import deque
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any, Literal

from prefect import flow, get_run_logger
from prefect.futures import PrefectFuture
from prefect.states import State
from sqlalchemy.engine import Engine

from flows import downloads, progress
from flows.failures import on_run_failed
from tasks import alert, audit, extract, fetch, load, validate
from tasks.config import wiring
from tasks.config.issuers import select_issuers
from tasks.config.settings import load_settings
from tasks.core import workers
from tasks.core.enums import SourceName, Status
from tasks.core.errors import PipelineError, RefusedFileError
from tasks.core.records import Issuer, document_source
from tasks.delivery.channels import channels_from_settings
from tasks.runs import bookkeeping, docs_sites
from tasks.runs.summary import RunSummary
from tasks.sources.archive import RawArchive
from tasks.sources.protocol import Sources

# The sources a pass may be asked to list, spelled out for Prefect's parameter form (the UI
# offers these values); a test checks they are the registry's listed sources.
ListedSource = Literal["sec", "hkex"]


@flow(name="ingest", log_prints=True, on_failure=[on_run_failed], on_crashed=[on_run_failed])
def ingest(
    issuers: list[str] | None = None,
    sources: list[ListedSource] | None = None,
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
    engine = wiring.warehouse(settings)
    clients = wiring.build_sources(settings)
    archive = wiring.raw_archive(settings)
    summary = RunSummary(data_docs_dir=str(docs_sites.new_docs_site(settings.data_docs_path)))
    chosen = select_issuers(settings.issuers(), issuers)
    worker = workers.worker_id()
    run = bookkeeping.begin(engine, worker)
    asked = [(i, s) for i in chosen for s in sources or clients.listed() if fetch.covers(i, s)]
    _discover(engine, clients, summary, asked, since or settings.since, since)
    todo = [(i, d) for i in chosen for d in fetch.pending(engine, i.ticker, force=force)]
    try:
        reading = extract.Reading(tuple(settings.issuers()), settings.catalog_dir)
        _process_claimed(engine, clients, archive, summary, todo, worker, force, reading)
    finally:  # whatever stopped the run, what it claimed is free for the next one
        load.release(engine, None, worker)
    for issuer in chosen:  # extraction told which 6-Ks are results: link them now
        fetch.relink_disclosures(engine, issuer.ticker)
    if SourceName.SEC in (sources or clients.listed()):  # the audited witness is SEC's
        processed = {i.ticker for i, _ in todo}
        _audit(engine, clients, archive, summary, chosen, processed)
    summary.data_docs = build_run_docs(
        Path(summary.data_docs_dir), settings.data_docs_keep_days, settings.data_docs_url
    )
    summary.record_deliveries(
        alert.deliver_task(engine, channels_from_settings(settings), settings.alert_digest, worker)
    )
    bookkeeping.finish(engine, run, summary, [i.ticker for i in chosen])
    get_run_logger().info(summary.render())
    return summary


def _process_claimed(
    engine: Engine,
    clients: Sources,
    archive: RawArchive,
    summary: RunSummary,
    todo: list[tuple[Issuer, str]],
    worker: str,
    force: bool,
    reading: extract.Reading,
) -> None:
    current = None
    ahead = downloads.claimed_downloads(
        engine, clients, archive, todo, worker, force, summary.elsewhere
    )
    for issuer, document_id, fetched in ahead:
        if issuer is not current:
            current = issuer
            progress.start(sum(1 for i, _ in todo if i is issuer), issuer.ticker)
        _process(engine, clients, archive, summary, issuer, document_id, fetched, reading)
        load.release(engine, document_id, worker)
        progress.advance(document_id)


def _audit(
    engine: Engine,
    clients: Sources,
    archive: RawArchive,
    summary: RunSummary,
    chosen: Sequence[Issuer],
    processed: set[str],
) -> None:
    """The issuers' audited figures (SEC XBRL company facts) against their releases."""
    docs_site = Path(summary.data_docs_dir) if summary.data_docs_dir else None
    for issuer in chosen:
        done = audit.audit_issuer(
            engine, clients, archive, issuer, issuer.ticker in processed, docs_site
        )
        get_run_logger().info("audited: %s", done.line)
        summary.add_audit(done.line, done.facts, done.checks, len(done.alerts), done.failed)


def _discover(
    engine: Engine,
    clients: Sources,
    summary: RunSummary,
    asked: Sequence[tuple[Issuer, str]],
    since: date,
    explicit: date | None,
) -> None:
    """List each (issuer, source), up to IN_FLIGHT questions at a time (the sources' pacers
    keep their pace), and record the answers in order."""
    window: deque[tuple[Issuer, str, PrefectFuture[Any]]] = deque()
    for issuer, source in asked:
        # An explicit date (backfill, --since) lists everything from it; else only what is new.
        future = fetch.discover_task.submit(
            engine, clients, source, issuer, since, explicit is not None
        )
        window.append((issuer, source, future))
        if len(window) >= downloads.IN_FLIGHT:
            _record(engine, summary, *window.popleft())
    while window:
        _record(engine, summary, *window.popleft())


def _record(
    engine: Engine, summary: RunSummary, issuer: Issuer, source: str, future: PrefectFuture[Any]
) -> None:
    future.wait()
    state = future.state
    if state.is_failed():
        summary.source_failures.append(f"{issuer.ticker} {source}: {_reason(state)}")
        return
    listing = state.result()
    summary.found += len(listing.items)
    summary.new += len(fetch.record_listing(engine, source, issuer, listing))


def _process(
    engine: Engine,
    clients: Sources,
    archive: RawArchive,
    summary: RunSummary,
    issuer: Issuer,
    document_id: str,
    fetched: State[Any] | None,
    reading: extract.Reading,
) -> None:
    """Extract, validate, load and alert one document; with ``reading.configured``, refuse it
    unless it names ``issuer`` (a listed document; a hand-dropped file was checked before)."""
    paused = fetch.pause_reason(engine, document_source(document_id), fetch.utcnow())
    if paused:  # left pending: the first run after the pause fetches it
        if not any(paused in failure for failure in summary.source_failures):
            summary.source_failures.append(f"{issuer.ticker} {paused}")
        return
    log = get_run_logger()
    try:
        if fetched is None:  # not downloaded ahead: now
            fetched = fetch.fetch_task(
                engine, clients, archive, issuer.cik, document_id, return_state=True
            )
        files = fetch.archived(archive, fetched.result())  # a failed download raises here
        log.info("%s: found (%d file(s))", document_id, len(files))
        extraction = extract.extract_document_task(
            document_id, files, issuer.ticker, reading.configured, reading.catalog_dir
        )
        log.info("%s: extracted %d facts", document_id, len(extraction.facts))
        if document_source(document_id) is SourceName.LOCAL:  # a person's file: never empty
            extract.require_content(files[0][0].name, extraction)
        checks = validate.validate_document_task(
            engine, document_id, extraction, summary.data_docs_dir, reading.catalog_dir
        )
        failed = sum(1 for c in checks if not c.success)
        log.info("%s: validated, %d passed, %d failed", document_id, len(checks) - failed, failed)
        counts = load.load_task(engine, document_id, extraction, checks, issuer.ticker)
        log.info("%s: %s, %d new facts", document_id, counts.status.value, counts.facts_inserted)
        created = counts.alerts  # raised in the load's transaction: all or nothing
        log.info("%s: %d alert(s) raised", document_id, len(created))
    except RefusedFileError as exc:  # not the issuer's, or empty: nothing of it is stored
        load.refuse(engine, document_id, str(exc))
        summary.failed.append(str(exc))
        log.warning("%s", exc)
        return
    except Exception as exc:  # noqa: BLE001 - one bad document must not stop the others
        load.mark_failed(engine, document_id, _one_line(exc))
        summary.failed.append(f"{document_id}: {_one_line(exc)}")
        log.warning("%s: failed: %s", document_id, _one_line(exc))
        return
    quarantined = counts.status is Status.QUARANTINED
    summary.add_document(document_id, counts.facts_inserted, checks, quarantined, len(created))


def build_run_docs(docs_site: Path, keep_days: int, base_url: str = "") -> str:
    """The run's Data Docs link ("" for none), built once: each build re-reads what it shows."""
    # A failed build (logged by Prefect) must not stop alert delivery nor fail the loaded run.
    state = docs_sites.build_data_docs_task(
        docs_site, keep_days, base_url=base_url, return_state=True
    )
    return str(state.result()) if state.is_completed() else ""


def _reason(state: State[Any]) -> str:
    try:
        state.result()
    except Exception as exc:  # noqa: BLE001 - we only want its message
        return _one_line(exc)
    return state.message or "failed"


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    line = f"{type(exc).__name__}: {text[0] if text else ''}"[:500]
    # reported after the task's retries are spent: the next run is the retry
    return line.replace(", will retry", " (retries spent; the next run tries again)")


@flow(name="ingest-local", log_prints=True, on_failure=[on_run_failed], on_crashed=[on_run_failed])
def ingest_local(
    paths: list[str], issuer: str | None = None, published: date | None = None
) -> RunSummary:
    """Extract -> validate -> load -> alert for files a person dropped in by hand.

    Args:
        paths: Files on the worker's disk: .htm/.html exhibits, .pdf announcements, .txt.
        issuer: Ticker the files belong to; empty means the one configured issuer each file
            names. A file that names another company is refused and nothing of it is stored.
        published: Publication date; empty means each file's dateline (or its "Date:" line).
    """
    settings = load_settings()
    engine = wiring.warehouse(settings)
    archive = wiring.raw_archive(settings)
    clients = wiring.build_sources(settings)
    summary = RunSummary(data_docs_dir=str(docs_sites.new_docs_site(settings.data_docs_path)))
    progress.start(len(paths), "local files")
    for path in paths:
        _ingest_file(engine, archive, clients, summary, Path(path), issuer, published)
        progress.advance(Path(path).name)
    summary.data_docs = build_run_docs(
        Path(summary.data_docs_dir), settings.data_docs_keep_days, settings.data_docs_url
    )
    summary.record_deliveries(
        alert.deliver_task(engine, channels_from_settings(settings), settings.alert_digest)
    )
    get_run_logger().info(summary.render())
    return summary


def _ingest_file(
    engine: Engine,
    archive: RawArchive,
    clients: Sources,
    summary: RunSummary,
    path: Path,
    ticker: str | None,
    published: date | None,
) -> None:
    summary.found += 1
    try:
        checked = extract.inspect_local_file(path, load_settings().issuers(), ticker, published)
    except (PipelineError, OSError) as exc:
        summary.failed.append(_one_line(exc) if isinstance(exc, OSError) else str(exc))
        return
    held = fetch.already_stored(engine, checked)
    if held:
        summary.already_stored.append(f"{path.name}: already in the warehouse as {held}")
        get_run_logger().info("%s: already in the warehouse as %s; not loaded again", path, held)
        return
    document_id = fetch.store_local_file(engine, archive, checked)
    summary.new += 1
    reading = extract.Reading(catalog_dir=load_settings().catalog_dir)
    _process(engine, clients, archive, summary, checked.issuer, document_id, None, reading)
