"""Claimed, downloaded documents processed a batch at a time: extract -> validate -> load -> alert.

The documents of a batch belong to different issuers. Each is validated against the warehouse
as it stands, so an issuer's next document waits for the load of the one before it (the
quarters a full year is checked against, the other source's announcement of the same results);
documents of different issuers do not see each other. Great Expectations runs once per batch
(``tasks.validate.validate_documents``), each document's results split back from its own rows;
each document is then loaded in its own transaction, with its own gate decision. One bad
document fails alone, with a one-line reason; the rest of the batch goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prefect import get_run_logger
from prefect.states import State
from sqlalchemy.engine import Engine

from domain.enums import SourceName, Status
from domain.errors import RefusedFileError, after_retries, one_line
from domain.records import (
    Extraction,
    Issuer,
    StoredFile,
    ValidationResult,
    document_source,
    tally,
)
from tasks import extract, fetch, load, settle, validate
from tasks.runs.summary import RunSummary
from tasks.sources.archive import RawArchive
from tasks.sources.protocol import Sources

# Documents validated in one GX run: its cost is mostly per suite run, so a batch of 16 costs
# about what 2 documents cost alone (benchmarks/stages.py prints both).
BATCH = 16
# issuer, document, its download: its final state, or the files it archived; None: not yet
Claimed = tuple[Issuer, str, "State[Any] | tuple[StoredFile, ...] | None"]
_Read = tuple[Issuer, str, Extraction]


@dataclass(frozen=True, slots=True)
class Job:
    """What processing works with: the run's warehouse, sources, archive and summary, and how
    documents are read (configured issuers, catalog overlays)."""

    engine: Engine
    clients: Sources
    archive: RawArchive
    summary: RunSummary
    reading: extract.Reading


def process_batch(job: Job, batch: Sequence[Claimed]) -> None:
    """Extract, validate, load and alert each document of ``batch`` (distinct issuers)."""
    if len({issuer.ticker for issuer, _, _ in batch}) != len(batch):
        raise ValueError("a batch holds one document per issuer")  # each sees the one before
    read = [item for item in (_extract(job, *claimed) for claimed in batch) if item]
    loaded = []
    for (issuer, document_id, extraction), checks in zip(read, _validate(job, read), strict=True):
        if checks is not None and _load(job, issuer, document_id, extraction, checks):
            loaded.append((issuer.ticker, document_id))
    _settle(job, loaded)


def _settle(job: Job, loaded: list[tuple[str, str]]) -> None:
    """Cross-document checks the loads completed (tasks/settle.py)."""
    if not loaded:
        return
    docs = Path(job.summary.data_docs_dir) if job.summary.data_docs_dir else None
    try:
        raised = settle.settle_task(job.engine, loaded, docs, job.reading.catalog_dir)
    except Exception as exc:  # noqa: BLE001 - the documents are loaded; say it in one line
        job.summary.failed.append(f"cross-document checks not settled: {one_line(exc)}")
        get_run_logger().warning("cross-document checks not settled: %s", one_line(exc))
        return
    job.summary.raised_ids += raised
    job.summary.alerts_raised = len(job.summary.raised_ids)


def _extract(
    job: Job, issuer: Issuer, document_id: str, fetched: State[Any] | tuple[StoredFile, ...] | None
) -> _Read | None:
    """The document's extraction; None when it is left for later or failed (recorded)."""
    paused = fetch.pause_reason(job.engine, document_source(document_id), fetch.utcnow())
    if paused:  # left pending: the first run after the pause fetches it
        job.summary.waiting += 1
        if not any(paused in failure for failure in job.summary.source_failures):
            job.summary.source_failures.append(f"{issuer.ticker} {paused}")
        return None
    log = get_run_logger()
    try:
        if fetched is None:  # not downloaded ahead: now
            fetched = fetch.fetch_task(
                job.engine, job.clients, job.archive, issuer.cik, document_id, return_state=True
            )
        stored = fetched if isinstance(fetched, tuple) else fetched.result()  # a failure raises
        files = fetch.archived(job.archive, stored)
        log.info("%s: found (%d file(s))", document_id, len(files))
        reading = job.reading
        extraction = extract.extract_document_task(
            document_id, files, issuer.ticker, reading.configured, reading.catalog_dir
        )
        log.info("%s: extracted %d facts", document_id, len(extraction.facts))
        if document_source(document_id) is SourceName.LOCAL:  # a person's file: never empty
            extract.require_content(files[0][0].name, extraction)
            held = load.held_release(job.engine, document_id, extraction)
            if held:  # its release in another format: loading it would report every figure twice
                _copy(job, document_id, f"{files[0][0].name}: already in the warehouse as {held}")
                return None
    except Exception as exc:  # noqa: BLE001 - one bad document must not stop the others
        _failed(job, document_id, exc)
        return None
    return issuer, document_id, extraction


def _validate(job: Job, read: Sequence[_Read]) -> list[list[ValidationResult] | None]:
    """Each document's results from one GX run; if the batch fails, each alone, so only the
    document at fault fails (None: failed, recorded)."""
    if not read:
        return []
    docs, catalog = job.summary.data_docs_dir, job.reading.catalog_dir
    if len(read) > 1:
        try:
            pairs = [(d, e) for _, d, e in read]
            return list(validate.validate_documents_task(job.engine, pairs, docs, catalog))
        except Exception:  # noqa: BLE001, S110 - told apart document by document below
            pass
    results: list[list[ValidationResult] | None] = []
    for _, document_id, extraction in read:
        try:
            pair = [(document_id, extraction)]
            results.append(validate.validate_documents_task(job.engine, pair, docs, catalog)[0])
        except Exception as exc:  # noqa: BLE001 - one bad document must not stop the others
            _failed(job, document_id, exc)
            results.append(None)
    return results


def _load(
    job: Job,
    issuer: Issuer,
    document_id: str,
    extraction: Extraction,
    checks: list[ValidationResult],
) -> bool:
    log = get_run_logger()
    passed, failed, noted = tally(checks)
    log.info("%s: validated, %d passed, %d failed, %d flagged", document_id, passed, failed, noted)
    try:
        counts = load.load_task(job.engine, document_id, extraction, checks, issuer.ticker)
    except Exception as exc:  # noqa: BLE001 - one bad document must not stop the others
        _failed(job, document_id, exc)
        return False
    log.info("%s: %s, %d new facts", document_id, counts.status.value, counts.facts_inserted)
    created = counts.alerts  # raised in the load's transaction: all or nothing
    log.info("%s: %d alert(s) raised", document_id, len(created))
    quarantined = counts.status is Status.QUARANTINED
    job.summary.add_document(document_id, counts.facts_inserted, checks, quarantined, created)
    return True


def _copy(job: Job, document_id: str, line: str) -> None:
    load.forget(job.engine, document_id)
    job.summary.add_copy(line)
    get_run_logger().info("%s; not loaded again", line)


def _failed(job: Job, document_id: str, exc: Exception) -> None:
    log = get_run_logger()
    if isinstance(exc, RefusedFileError):  # not the issuer's, or empty: nothing of it is stored
        load.refuse(job.engine, document_id, str(exc))
        job.summary.failed.append(str(exc))
        log.warning("%s", exc)
        return
    why = after_retries(exc)  # a fetch's retries are spent; a failed document is read again
    load.mark_failed(job.engine, document_id, why)
    job.summary.failed.append(f"{document_id}: {why}")
    log.warning("%s: failed: %s", document_id, why)
