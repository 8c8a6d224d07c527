"""Load stage: store what one document yielded, in one transaction (``storage.loading``).

Kind, facts, line items (every statement cell as printed, with the metric it maps to), outlook,
dividends, validation results and the status they give (quarantined when
a critical expectation failed, unless a person released the document) are written together: a
document is loaded whole or not at all. A document a stage failed on is marked ``failed`` and
picked up again by the next run.
"""

from __future__ import annotations

from collections.abc import Sequence

from prefect import task
from prefect.cache_policies import NO_CACHE
from sqlalchemy.engine import Engine

from storage import documents, loading
from tasks.core.enums import Status
from tasks.core.records import Extraction, LoadCounts, ValidationResult, quarantine_required
from tasks.parsers.standard import line_items


def load(
    engine: Engine, document_id: str, extraction: Extraction, checks: Sequence[ValidationResult]
) -> LoadCounts:
    """Upsert one document's extraction and validation results; set its kind and status."""
    return loading.load_document(
        engine,
        document_id,
        extraction.facts,
        checks,
        quarantine=quarantine_required(checks),
        kind=extraction.kind,
        guidance=extraction.guidance,
        dividends=extraction.dividends,
        line_items=line_items(extraction.rows, extraction.facts),
        refused=extraction.refused,
        unmapped=extraction.unmapped,
    )


def mark_failed(engine: Engine, document_id: str, reason: str) -> None:
    """Record that a stage failed on the document (the next run processes it again)."""
    with engine.begin() as conn:
        documents.set_status(conn, document_id, Status.FAILED, reason)


# A transient database error (a lost connection, a lock timeout) may clear on retry.
load_task = task(name="load", retries=2, retry_delay_seconds=[2, 5], cache_policy=NO_CACHE)(load)
