"""The ``ingest`` flow: for each issuer, fetch -> extract -> validate -> load -> alert.

Only composition lives here; every step is a task from ``tasks/``. A failure in one document
or one source is recorded with a one-line reason and the rest of the run goes on.
"""

# No ``from __future__ import annotations`` here: Prefect builds each flow's parameter model
# from the function's annotations in the process that runs it (a served or deployed run), and
# postponed (string) annotations then name types it cannot resolve ("IngestModel is not fully
# defined"). Real annotations travel with the function.
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing
from datetime import date
from pathlib import Path
from typing import Any, Literal

from prefect import flow, get_run_logger
from prefect.futures import PrefectFuture
from prefect.states import State
from sqlalchemy.engine import Engine

from domain import workers
from domain.enums import SourceName
from domain.errors import PipelineError, after_retries, one_line
from domain.records import Issuer
from flows import downloads, preloaded, processing, progress
from flows import warm as warm_workers
from flows.failures import on_run_failed
from tasks import alert, audit, extract, fetch, intake, load
from tasks.config import wiring
from tasks.config.issuers import select_issuers
from tasks.config.settings import Settings, load_settings
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
    with docs_sites.recording(docs_sites.new_docs_site(settings.data_docs_path)) as site:
        return _ingest(settings, site, issuers, sources, since, force)


def _ingest(
    settings: Settings,
    site: Path,
    issuers: list[str] | None,
    sources: list[ListedSource] | None,
    since: date | None,
    force: bool,
) -> RunSummary:
    engine = wiring.warehouse(settings)
    clients = wiring.build_sources(settings)
    archive = wiring.raw_archive(settings)
    summary = RunSummary(data_docs_dir=str(site))
    chosen = select_issuers(settings.issuers(), issuers)
    worker = workers.worker_id()
    run = bookkeeping.begin(engine, worker)
    asked = [(i, s) for i in chosen for s in sources or clients.listed() if fetch.covers(i, s)]
    preloaded.before_threads()  # the listing's task threads start next
    _discover(engine, clients, summary, asked, since or settings.since, since)
    todo = [(i, d) for i in chosen for d in fetch.pending(engine, i.ticker, force=force)]
    summary.take_up(d for _, d in todo)  # waiting in the warehouse: found too
    try:
        reading = extract.Reading(tuple(settings.issuers()), settings.catalog_dir)
        job = processing.Job(engine, clients, archive, summary, reading)
        warm = settings.warm_workers
        worker_sites = _process_claimed(job, _interleaved(todo), worker, force, warm)
    finally:  # whatever stopped the run, what it claimed is free for the next one
        load.release(engine, None, worker)
    for issuer in chosen:  # extraction told which 6-Ks are results: link them now
        fetch.relink_disclosures(engine, issuer.ticker)
    if SourceName.SEC in (sources or clients.listed()):  # the audited witness is SEC's
        _audit(engine, clients, archive, summary, chosen)
    report = alert.deliver_task(  # before the Data Docs: no alert links them, all wait for it
        engine, channels_from_settings(settings), settings.alert_digest, worker
    )
    summary.record_deliveries(report, bookkeeping.delivered_of(engine, summary.raised_ids))
    summary.data_docs = build_run_docs(
        Path(summary.data_docs_dir), settings.data_docs_keep_days, settings.data_docs_url
    ) or _docs_index(worker_sites)
    bookkeeping.finish(engine, run, summary, [i.ticker for i in chosen])
    get_run_logger().info(summary.render())
    return summary


def _process_claimed(
    job: processing.Job, todo: list[tuple[Issuer, str]], worker: str, force: bool, warm: bool
) -> list[str]:
    """Process the run's documents, here or (``warm``) on the task workers; returns the Data
    Docs links the workers built."""
    if todo:
        issuers = {i.ticker for i, _ in todo}
        progress.start(len(todo), todo[0][0].ticker if len(issuers) == 1 else "all issuers")
        preloaded.before_threads(processing=True)  # the fetch stage's thread starts next
    ahead = downloads.claimed_downloads(  # closed below: its fetch stage stops with the run
        job.engine,
        job.clients,
        job.archive,
        todo,
        worker,
        force,
        job.summary.elsewhere,
        processing.BATCH,
    )
    with closing(ahead):
        if warm:  # the task workers process; this run downloads and hands over
            return warm_workers.process_on_workers(job, _advancing(job, ahead), worker)
        for batch in ahead:
            processing.process_batch(job, batch)
            for _, document_id, _ in batch:
                load.release(job.engine, document_id, worker)
                progress.advance(progress.describe(job.engine, document_id))
    return []


def _advancing(
    job: processing.Job, batches: Iterable[Sequence[processing.Claimed]]
) -> Iterator[Sequence[processing.Claimed]]:
    for batch in batches:
        yield batch
        for _, document_id, _ in batch:
            progress.advance(progress.describe(job.engine, document_id))


def _interleaved(todo: list[tuple[Issuer, str]]) -> list[tuple[Issuer, str]]:
    """Each issuer's documents in their order, the issuers taking turns: consecutive documents
    belong to different issuers, so they can be validated together (flows.processing)."""
    lanes: dict[str, list[tuple[Issuer, str]]] = {}
    for issuer, document_id in todo:
        lanes.setdefault(issuer.ticker, []).append((issuer, document_id))
    turns = max((len(lane) for lane in lanes.values()), default=0)
    return [lane[n] for n in range(turns) for lane in lanes.values() if n < len(lane)]


def _audit(
    engine: Engine,
    clients: Sources,
    archive: RawArchive,
    summary: RunSummary,
    chosen: Sequence[Issuer],
) -> None:
    """The issuers' audited figures (SEC XBRL company facts) against their releases."""
    docs_site = Path(summary.data_docs_dir) if summary.data_docs_dir else None
    for issuer in chosen:
        done = audit.audit_issuer(engine, clients, archive, issuer, docs_site)
        get_run_logger().info("audited: %s", done.line)
        summary.add_audit(done.line, done.facts, done.checks, done.alerts, done.failed)


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
    summary.take_up(item.ref.document_id for item in listing.items)
    summary.new += len(fetch.record_listing(engine, source, issuer, listing))


def _docs_index(links: list[str]) -> str:
    """The task workers' one site, or the list of every run's sites when they built several."""
    if len(links) <= 1:
        return links[0] if links else ""
    return links[0].rsplit("/", 2)[0] + "/index.html"


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
        return after_retries(exc)
    return state.message or "failed"


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
    site = docs_sites.new_docs_site(settings.data_docs_path)
    summary = RunSummary(data_docs_dir=str(site))
    job = processing.Job(
        engine, clients, archive, summary, extract.Reading(catalog_dir=settings.catalog_dir)
    )
    configured = settings.issuers()
    run = bookkeeping.begin(engine, workers.worker_id())  # `filings status` lists it
    progress.start(len(paths), "local files")
    with docs_sites.recording(site):
        for path in paths:
            _ingest_file(job, configured, Path(path), issuer, published)
            progress.advance(Path(path).name)
        summary.data_docs = build_run_docs(
            site, settings.data_docs_keep_days, settings.data_docs_url
        )
    report = alert.deliver_task(engine, channels_from_settings(settings), settings.alert_digest)
    summary.record_deliveries(report, bookkeeping.delivered_of(engine, summary.raised_ids))
    bookkeeping.finish(engine, run, summary, [issuer] if issuer else [i.ticker for i in configured])
    get_run_logger().info(summary.render())
    return summary


def _ingest_file(
    job: processing.Job,
    configured: Sequence[Issuer],
    path: Path,
    ticker: str | None,
    published: date | None,
) -> None:
    engine, summary = job.engine, job.summary
    summary.take_up([str(path)])
    try:
        checked = extract.inspect_local_file(path, configured, ticker, published)
    except (PipelineError, OSError) as exc:
        summary.failed.append(one_line(exc) if isinstance(exc, OSError) else str(exc))
        return
    held = intake.already_stored(engine, checked)
    if held:
        summary.already_stored.append(f"{path.name}: already in the warehouse as {held}")
        get_run_logger().info("%s: already in the warehouse as %s; not loaded again", path, held)
        return
    document_id = intake.store_local_file(engine, job.archive, checked)
    summary.new += 1
    processing.process_batch(job, [(checked.issuer, document_id, None)])
