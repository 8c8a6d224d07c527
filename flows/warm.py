"""Warm processing: documents processed by long-lived Prefect task workers.

``python -m flows.warm`` starts a task worker (Prefect's ``prefect.task_worker.serve``) that
imports the pipeline, loads Great Expectations' suites and opens the warehouse once, then
serves ``process-documents`` task runs for as long as it lives. An ingest run with
``FILINGS_WARM_WORKERS=true`` downloads as before and hands each batch of claimed, downloaded
documents (one per issuer) to ``process_documents.delay(...)``; whichever worker is free takes
it. More workers, on any machine with the same settings and Prefect server: more batches at
once. An issuer's next batch is handed over only once its previous one is done (each document
is validated against the ones before it).

Claims say who holds each document. The run hands a batch's claims to a token of its own; the
worker that takes the task takes them from the token, processes, and releases them. A batch no
worker took within ``QUEUE_WAIT_SECONDS`` is taken back and processed by the run itself; a
worker killed mid-batch leaves claims held by a gone process (or a lapsed lease), and the run
takes back what it had not finished. Nothing is lost: at worst the next run processes it.
"""

from __future__ import annotations

import argparse
import sys
import time
import uuid
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from prefect import get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.futures import PrefectFuture

from domain import workers
from domain.errors import PipelineError
from domain.records import Issuer, StoredFile
from flows import processing
from flows.cli_common import line
from tasks import extract, load
from tasks.config import wiring
from tasks.config.settings import Settings, load_settings
from tasks.runs import docs_sites
from tasks.runs.summary import RunSummary

IN_FLIGHT = 8  # batches handed over and not done: enough to keep several workers busy
POLL_SECONDS = 2.0  # how often the run looks at a batch it waits for
QUEUE_WAIT_SECONDS = 60.0  # a batch no worker took by then is processed by the run itself
Handed = tuple[Issuer, str, tuple[StoredFile, ...]]


@dataclass(frozen=True)
class _Warm:
    """What a worker keeps loaded between tasks."""

    settings: Settings
    job: processing.Job


@cache
def _warm() -> _Warm:
    """The worker's settings, warehouse, sources and archive, built on its first task (or
    at start-up): read once at the edge, like a run's."""
    settings = load_settings()
    engine = wiring.warehouse(settings)
    job = processing.Job(
        engine,
        wiring.build_sources(settings),
        wiring.raw_archive(settings),
        RunSummary(),
        extract.Reading(catalog_dir=settings.catalog_dir),
    )
    return _Warm(settings, job)


@task(name="process-documents", cache_policy=NO_CACHE, persist_result=True)
def process_documents(
    batch: list[Handed], token: str, reading: extract.Reading, docs_root: str
) -> RunSummary:
    """Extract, validate, load and alert a batch a run handed over (under ``token``)."""
    warm, me = _warm(), workers.worker_id()
    site = docs_sites.new_docs_site(Path(docs_root), uuid.uuid4().hex)
    summary = RunSummary(data_docs_dir=str(site))
    job = processing.Job(warm.job.engine, warm.job.clients, warm.job.archive, summary, reading)
    mine = []
    for issuer, document_id, files in batch:
        if load.hand_over(job.engine, document_id, token, me):
            mine.append((issuer, document_id, files))
        else:  # taken back by the run (it waited too long), or by another run
            summary.elsewhere.append(document_id)
    with docs_sites.recording(site):
        try:
            processing.process_batch(job, mine)
        finally:
            load.release(job.engine, None, me)
        settings = warm.settings
        summary.data_docs = docs_sites.build_data_docs(
            site, settings.data_docs_keep_days, base_url=settings.data_docs_url
        )
    return summary


@dataclass
class _Handover:
    token: str
    batch: list[processing.Claimed]
    future: PrefectFuture[RunSummary]
    since: float = field(default_factory=time.monotonic)


def process_on_workers(
    job: processing.Job, batches: Iterable[Sequence[processing.Claimed]], worker: str
) -> list[str]:
    """Hand each batch to the task workers and wait for them; returns the Data Docs links
    the workers built."""
    waiting: deque[_Handover] = deque()
    links: list[str] = []
    served = True  # until a batch waits QUEUE_WAIT_SECONDS untaken: then the run goes alone
    for number, batch in enumerate(batches):
        issuers = {issuer.ticker for issuer, _, _ in batch}
        while waiting and (
            len(waiting) >= IN_FLIGHT
            or any(i.ticker in issuers for h in waiting for i, _, _ in h.batch)
        ):
            served = _settle(job, waiting.popleft(), worker, links) and served
        ready = [c for c in batch if served and _downloaded(c)]
        here = [c for c in batch if c[1] not in {d for _, d, _ in ready}]  # failed downloads
        processing.process_batch(job, here)
        for _, document_id, _ in here:
            load.release(job.engine, document_id, worker)
        if ready:
            waiting.append(_hand(job, ready, f"{worker}.{number}"))
    while waiting:
        _settle(job, waiting.popleft(), worker, links)
    return links


def _downloaded(claimed: processing.Claimed) -> bool:
    fetched = claimed[2]
    return fetched is not None and not isinstance(fetched, tuple) and fetched.is_completed()


def _hand(job: processing.Job, batch: list[processing.Claimed], token: str) -> _Handover:
    handed: list[Handed] = []
    for issuer, document_id, fetched in batch:
        files = fetched.result() if fetched is not None and not isinstance(fetched, tuple) else ()
        handed.append((issuer, document_id, tuple(files or ())))
    worker = token.rpartition(".")[0]
    for _, document_id, _ in handed:
        load.hand_over(job.engine, document_id, worker, token)
    future = process_documents.delay(handed, token, job.reading, str(_docs_root(job)))
    return _Handover(token, batch, future)


def _docs_root(job: processing.Job) -> Path:
    return Path(job.summary.data_docs_dir).parent


def _settle(job: processing.Job, handed: _Handover, worker: str, links: list[str]) -> bool:
    """Wait for a handed batch; take back what no live worker will finish. False when no
    worker took it in time (none is serving)."""
    while True:
        try:
            handed.future.wait(timeout=POLL_SECONDS)
        except RuntimeError:  # "has no state": the API has not recorded the task run yet
            time.sleep(POLL_SECONDS)
        state = handed.future.state
        if state.is_completed():
            part: RunSummary = state.result()
            job.summary.absorb(part)
            if part.data_docs:
                links.append(part.data_docs)
            return True
        if state.is_final() or _abandoned(job, handed):
            break
        if _unserved(job, handed):
            break
    # Not taken in time, the task failed, or its worker died: the run finishes the batch.
    get_run_logger().warning(
        "documents handed to a task worker were not processed there (%s); processing them "
        "in this run",
        state.name if state.is_final() else "no worker took them, or it stopped",
    )
    unserved = not state.is_final() and _unserved(job, handed)
    again = [c for c in handed.batch if _take_back(job, c[1], handed.token, worker)]
    processing.process_batch(job, again)
    for _, document_id, _ in again:
        load.release(job.engine, document_id, worker)
    return not unserved


def _unserved(job: processing.Job, handed: _Handover) -> bool:
    """No worker took the batch within QUEUE_WAIT_SECONDS."""
    if time.monotonic() - handed.since <= QUEUE_WAIT_SECONDS:
        return False
    return all(load.holder(job.engine, d) == handed.token for _, d, _ in handed.batch)


def _abandoned(job: processing.Job, handed: _Handover) -> bool:
    """The worker that took the batch died (its process is gone) or its lease lapsed."""
    return any(load.abandoned(job.engine, d) for _, d, _ in handed.batch)


def _take_back(job: processing.Job, document_id: str, token: str, worker: str) -> bool:
    # from the token (never taken), or from a worker gone or lapsed (load.claim takes those)
    return load.hand_over(job.engine, document_id, token, worker) or load.claim(
        job.engine, document_id, worker
    )


def serve(limit: int = 1) -> None:
    """Serve ``process-documents`` until interrupted, warmed up first."""
    # deferred: the task worker's machinery is only needed where tasks are served
    from prefect.task_worker import serve as serve_tasks

    from expectations import runner

    _warm()
    runner.suite_specs()  # Great Expectations imported and its context built before any task
    print("warm task worker ready: serving process-documents", file=sys.stderr, flush=True)
    serve_tasks(process_documents, limit=limit)


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m flows.warm [--limit N]``: one warm task worker."""
    parser = argparse.ArgumentParser(prog="python -m flows.warm", description=main.__doc__)
    parser.add_argument("--limit", type=int, default=1, help="task runs at once (one per core)")
    limit = parser.parse_args(argv).limit
    try:
        serve(limit)
    except KeyboardInterrupt:  # Ctrl-C or SIGINT: what it held, the runs take back
        sys.exit(line("warm task worker stopped", "", 130))
    except PipelineError as exc:  # a bad setting, an unreachable warehouse
        sys.exit(line(str(exc), "", 1))


if __name__ == "__main__":
    main()
