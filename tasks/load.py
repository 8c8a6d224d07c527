"""Load stage: store what one document yielded, in one transaction (``storage.loading``).

Kind, facts, line items (every statement cell as printed, with the metric it maps to), outlook,
dividends, validation results and the status they give (quarantined when
a critical expectation failed, unless a person released the document) are written together: a
document is loaded whole or not at all, with the alerts it raises. A document a stage failed on
is marked ``failed`` and picked up again by the next run. A run claims each document before it
fetches it (``storage.claims``): of several runs racing on the same documents, one processes
each.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from sqlalchemy.engine import Connection, Engine

from domain import releases, workers
from domain.enums import SourceName, Status
from domain.records import Extraction, LoadCounts, ValidationResult, quarantine_required
from storage import claims, documents, loading
from storage import facts as facts_store
from tasks import alert
from tasks.parsers.statements.standard import line_items
from tasks.stage_task import StageTask


def load(
    engine: Engine,
    document_id: str,
    extraction: Extraction,
    checks: Sequence[ValidationResult],
    issuer: str = "",
) -> LoadCounts:
    """Upsert one document's extraction and validation results; set its kind and status; with
    ``issuer``, raise the alerts the load gives in the same transaction (tasks.alert)."""

    def raise_alerts(conn: Connection) -> list[str]:
        return alert.document_alerts(conn, issuer, document_id, checks)

    return loading.load_document(
        engine,
        document_id,
        extraction.facts,
        checks,
        quarantine=quarantine_required(checks),
        kind=extraction.kind,
        guidance=extraction.guidance,
        dividends=extraction.dividends,
        line_items=line_items(extraction.rows, extraction.facts, extraction.row_ties),
        refused=extraction.refused,
        unmapped=extraction.unmapped,
        then=raise_alerts if issuer else None,
    )


def refuse(engine: Engine, document_id: str, reason: str) -> None:
    """Record that a document was refused (not the issuer's, or nothing read from it): a
    hand-dropped file is forgotten (nothing of it stays); a listed one stays ``failed`` with
    the reason and is not processed again (``--force`` does, after the issuers are fixed)."""
    with engine.begin() as conn:
        if document_id.startswith(f"{SourceName.LOCAL}:"):
            documents.forget_document(conn, document_id)
        else:
            why = reason.partition("nothing stored: ")[2] or reason
            documents.set_status(conn, document_id, Status.FAILED, documents.REFUSED + why)


def forget(engine: Engine, document_id: str) -> None:
    """Forget a hand-dropped document nothing of which was stored (its files are archived)."""
    with engine.begin() as conn:
        documents.forget_document(conn, document_id)


def held_release(engine: Engine, document_id: str, extraction: Extraction) -> str:
    """The held document that is the same release as this one, said in a line ("" when none):
    the issuer's, published within days of it, printing nearly all of its figures the same."""
    with engine.connect() as conn:
        info = documents.document_info(conn, document_id)
        day = info.published_on
        near = facts_store.published_near(
            conn, info.issuer, day - releases.NEAR, day + releases.NEAR, document_id
        )
    for other, theirs in near.items():
        if releases.is_same_release(extraction.facts, theirs):
            same, total = releases.shared(extraction.facts, theirs)
            return f"{other} (the same release: {same} of its {total} figures printed the same)"
    return ""


def mark_failed(engine: Engine, document_id: str, reason: str) -> None:
    """Record that a stage failed on the document (the next run processes it again)."""
    with engine.begin() as conn:
        documents.set_status(conn, document_id, Status.FAILED, reason)


# A transient database error (a lost connection, a lock timeout) may clear on retry.
# Longer than any one document takes; a run that died leaves claims others take over after it.
CLAIM_LEASE = timedelta(minutes=15)


def claim(engine: Engine, document_id: str, worker: str, force: bool = False) -> bool:
    """Claim (or renew) the document for ``worker``: False when another run holds it, or when
    (unless ``force``) it was processed since it was listed."""
    with engine.begin() as conn:
        if claims.claim(conn, document_id, worker, datetime.now(UTC), CLAIM_LEASE, force):
            return True
        held_by = claims.holder(conn, document_id)
        if held_by is None or not workers.gone(held_by):
            return False
        # A run killed on this machine (kill -9) never releases: its claim goes now, not
        # after the lease, so the next run finishes what it left.
        claims.release(conn, document_id, held_by)
        return claims.claim(conn, document_id, worker, datetime.now(UTC), CLAIM_LEASE, force)


def release(engine: Engine, document_id: str | None, worker: str) -> None:
    """Drop the claim once the document is done (loaded, quarantined or failed); ``None``:
    every claim ``worker`` still holds, at the end of its run."""
    with engine.begin() as conn:
        claims.release(conn, document_id, worker)


def hand_over(engine: Engine, document_id: str, giver: str, taker: str) -> bool:
    """Pass ``giver``'s claim to ``taker`` (a run handing a document to a task worker, or
    taking it back): False when ``giver`` no longer holds it."""
    with engine.begin() as conn:
        return claims.hand_over(conn, document_id, giver, taker, datetime.now(UTC), CLAIM_LEASE)


def holder(engine: Engine, document_id: str) -> str | None:
    """Who holds the document's claim now, if anyone."""
    with engine.connect() as conn:
        return claims.holder(conn, document_id)


def abandoned(engine: Engine, document_id: str) -> bool:
    """True when the document's claim is held by a process gone from this host, or lapsed:
    whoever held it will not finish it."""
    with engine.connect() as conn:
        held = claims.lease(conn, document_id)
    if held is None:
        return False
    holder, expires = held
    return workers.gone(holder) or expires < datetime.now(UTC)


load_task = StageTask(load, name="load", retries=2, retry_delay_seconds=[2, 5])
