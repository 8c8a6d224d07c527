"""What settling cross-document checks reads: which documents a load may have completed a
check for, and a document's stored results (``tasks/settle.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.engine import Connection

from domain.enums import SourceName, Status
from domain.records import ValidationResult
from storage.documents import document_info
from storage.mapping import result_from_row
from storage.quality import companion_documents
from storage.schema import documents, validation_results

# A document's cross-period checks read figures of periods ending up to 400 days before its
# own (tasks/validate.py): a document published more than two years later never reads ours.
LATER = timedelta(days=800)
_VALIDATED = (Status.LOADED.value, Status.VALIDATED.value, Status.QUARANTINED.value)


def settle_targets(conn: Connection, document_ids: Sequence[str]) -> list[tuple[str, str]]:
    """(issuer, document) of each document given, of the documents of its disclosure it is
    compared with, and of its issuer's validated releases published after it (within two
    years), oldest first; audited XBRL filings left out."""
    d = documents.c
    loaded = conn.execute(
        select(d.document_id, d.issuer, d.published_at).where(
            d.document_id.in_(sorted(set(document_ids))), d.status.in_(_VALIDATED)
        )
    ).all()
    found = {(r.issuer, r.document_id): r.published_at for r in loaded}
    for row in loaded:
        # the documents it is compared with figure by figure, earlier ones too: each holds
        # the comparison (storage.quality.companion_documents)
        companions = companion_documents(conn, document_info(conn, row.document_id))
        found.update(_published(conn, companions))
        later = select(d.document_id, d.issuer, d.published_at).where(
            d.issuer == row.issuer,
            d.source != SourceName.XBRL.value,
            d.status.in_(_VALIDATED),
            d.published_at >= row.published_at,  # a tie: completes() orders by id
            d.published_at <= row.published_at + LATER,
        )
        found.update({(r.issuer, r.document_id): r.published_at for r in conn.execute(later)})
    return sorted(found, key=lambda key: (found[key], key[1]))


def _published(conn: Connection, document_ids: Sequence[str]) -> dict[tuple[str, str], datetime]:
    d = documents.c
    stmt = select(d.document_id, d.issuer, d.published_at).where(
        d.document_id.in_(list(document_ids))
    )
    return {(r.issuer, r.document_id): r.published_at for r in conn.execute(stmt)}


def document_results(conn: Connection, document_id: str) -> list[ValidationResult]:
    """Every stored validation result of a document."""
    t = validation_results
    rows = conn.execute(select(t).where(t.c.document_id == document_id).order_by(t.c.result_id))
    return [result_from_row(r) for r in rows]
