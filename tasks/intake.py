"""Intake of a hand-dropped file (``filings ingest PATH``): the document already holding it,
or the file archived and recorded as a ``local`` document."""

from __future__ import annotations

from sqlalchemy.engine import Engine

from domain.enums import Status
from domain.readouts import LocalIntake
from storage import documents
from tasks.sources.archive import RawArchive
from tasks.sources.local import archive_local_file


def already_stored(engine: Engine, intake: LocalIntake) -> str:
    """The document already holding a hand-dropped file ("" when none): same content or exhibit."""
    with engine.connect() as conn:
        found = documents.same_file_documents(
            conn, intake.issuer.ticker, intake.sha256, intake.path.name
        )
    # a local file whose earlier ingest failed is processed again (its id is its content)
    retry = {Status.FETCHED.value, Status.FAILED.value}
    held = [d for d, status in found if not (d.startswith("local:") and status in retry)]
    return held[0] if held else ""


def store_local_file(engine: Engine, archive: RawArchive, intake: LocalIntake) -> str:
    """Archive a hand-dropped file and record it as a ``local`` document; return its id."""
    ref, stored = archive_local_file(
        archive, intake.issuer, intake.path, intake.published, intake.content
    )
    with engine.begin() as conn:
        documents.upsert_issuers(conn, [intake.issuer])
        documents.record_documents(conn, [ref])
        documents.record_files(conn, ref.document_id, [stored])
    return ref.document_id
