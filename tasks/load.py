"""Load stage: the warehouse side of a run (documents, files, facts, runs), via ``storage``."""

from __future__ import annotations

from collections.abc import Sequence

from prefect import task
from prefect.cache_policies import NO_CACHE
from sqlalchemy.engine import Engine

from storage import db, repo
from tasks.core.enums import Status
from tasks.core.records import (
    Dividend,
    DocumentRef,
    Fact,
    Guidance,
    Issuer,
    StoredFile,
    ValidationResult,
)


def open_warehouse(url: str) -> Engine:
    """An engine on a warehouse migrated to the current schema."""
    engine = db.make_engine(url)
    db.migrate(engine)
    return engine


def register(engine: Engine, issuer: Issuer, refs: Sequence[DocumentRef]) -> list[str]:
    """Record listed documents; return the ids seen for the first time."""
    with engine.begin() as conn:
        repo.upsert_issuers(conn, [issuer])
        return repo.record_documents(conn, refs)


def pending(engine: Engine, issuer: str, force: bool = False) -> list[str]:
    """Documents of the issuer still to process (new, or failed before)."""
    with engine.begin() as conn:
        return repo.documents_to_process(conn, issuer, force=force)


def document_ref(engine: Engine, document_id: str) -> DocumentRef:
    """The recorded document."""
    with engine.begin() as conn:
        return repo.get_document(conn, document_id)


def stored_files(engine: Engine, document_id: str) -> dict[str, StoredFile]:
    """Files already archived for a document, by name."""
    with engine.begin() as conn:
        return {f.name: f for f in repo.document_files(conn, document_id)}


def save_files(engine: Engine, document_id: str, files: Sequence[StoredFile]) -> None:
    """Remember which archived files make up the document."""
    with engine.begin() as conn:
        repo.record_files(conn, document_id, files)
        repo.set_status(conn, document_id, Status.FETCHED)


def mark(engine: Engine, document_id: str, status: Status, reason: str = "") -> None:
    """Set a document's status (failed documents are retried by the next run)."""
    with engine.begin() as conn:
        repo.set_status(conn, document_id, status, reason)


def load(
    engine: Engine,
    document_id: str,
    facts: Sequence[Fact],
    validations: Sequence[ValidationResult],
    quarantine: bool,
    kind: str,
    guidance: Sequence[Guidance] = (),
    dividends: Sequence[Dividend] = (),
) -> repo.LoadCounts:
    """Upsert one document's facts, outlook, dividends and checks in one transaction."""
    with engine.begin() as conn:
        repo.set_kind(conn, document_id, kind)
    return repo.load_document(
        engine,
        document_id,
        facts,
        validations,
        quarantine=quarantine,
        guidance=guidance,
        dividends=dividends,
    )


load_task = task(name="load", retries=2, retry_delay_seconds=[2, 5], cache_policy=NO_CACHE)(load)
