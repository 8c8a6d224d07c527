"""Hand-dropped files (``filings ingest``): the fetch stage's door for documents a person brings.

Before anything is stored a file is read and checked: whose it is (its registrant name, ticker
or stock code against the configured issuer: never a default), when it was published (its
dateline or "Date:" line, or the date the person gave: never today by default, so an old
release cannot displace newer figures), and whether the warehouse holds it already (the same
content, or the same exhibit fetched from a source), in which case nothing is loaded again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from sqlalchemy.engine import Engine

from storage import documents
from tasks.core.enums import Status
from tasks.core.errors import ParseError, PipelineError
from tasks.core.records import Issuer
from tasks.parsers import prose
from tasks.parsers.identity import identify, publication_date
from tasks.sources.archive import RawArchive
from tasks.sources.local import archive_local_file


class RefusedFileError(PipelineError):
    """A hand-dropped file that must not be stored: the message says why, in one line."""


@dataclass(frozen=True, slots=True)
class LocalIntake:
    """A hand-dropped file, read and checked, not yet stored."""

    path: Path
    content: bytes
    sha256: str
    issuer: Issuer
    published: date


def inspect_local_file(
    path: Path, configured: Sequence[Issuer], ticker: str | None, published: date | None
) -> LocalIntake:
    """Read a file and check whose it is and when it was published; refuse it otherwise."""
    # deferred: the parsers pull in pdfplumber and lxml
    from tasks.extract import parse_document

    content = path.read_bytes()
    try:
        doc = parse_document(path.name, content)
    except ParseError as exc:
        raise RefusedFileError(f"{path.name}: cannot be read ({exc})") from None
    text = prose.clean(doc.prose or doc.text)
    check = identify(text, configured, ticker)
    if check.issuer is None:
        raise RefusedFileError(f"{path.name} refused, nothing stored: it {check.reason}")
    when = published or publication_date(text)
    if when is None:
        raise RefusedFileError(
            f"{path.name}: no dateline or 'Date:' line found; pass --published YYYY-MM-DD"
        )
    sha = hashlib.sha256(content).hexdigest()
    return LocalIntake(path, content, sha, check.issuer, when)


def already_stored(engine: Engine, intake: LocalIntake) -> str:
    """The document already holding this file ("" when none): same content or same exhibit."""
    with engine.connect() as conn:
        found = documents.same_file_documents(
            conn, intake.issuer.ticker, intake.sha256, intake.path.name
        )
    # a local file whose earlier ingest failed is processed again (its id is its content)
    retry = {Status.FETCHED.value, Status.FAILED.value}
    held = [d for d, status in found if not (d.startswith("local:") and status in retry)]
    return held[0] if held else ""


def store_local_file(engine: Engine, archive: RawArchive, intake: LocalIntake) -> str:
    """Archive the file and record it as a ``local`` document; return its id."""
    ref, stored = archive_local_file(
        archive, intake.issuer, intake.path, intake.published, intake.content
    )
    with engine.begin() as conn:
        documents.upsert_issuers(conn, [intake.issuer])
        documents.record_documents(conn, [ref])
        documents.record_files(conn, ref.document_id, [stored])
    return ref.document_id
