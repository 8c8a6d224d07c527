"""Data quality in the warehouse: validation results, the status they give, and releases.

- :func:`status_after_validation`, the one rule of a validated document's status (loading and
  revalidation both set it);
- a document's stored guidance and dividends (revalidation reads these, never the web; facts
  are in ``storage.facts``) and the other source's documents of the same disclosure
  (cross-source);
- storing a revalidation's results, and releasing a quarantined document (a ``releases`` row
  and status back to ``loaded``, so facts_latest includes it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from sqlalchemy import case, delete, exists, select, update
from sqlalchemy.engine import Connection

from domain.enums import Severity, SourceName, Status
from domain.errors import NotQuarantinedError, UnknownDocumentError
from domain.readouts import DocumentInfo, Release
from domain.records import Dividend, Guidance, ValidationResult, critical_failures
from domain.releases import AGREEMENT_CHECK
from storage.documents import document_info
from storage.mapping import (
    dividend_from_row,
    guidance_from_row,
    result_from_row,
    result_row,
)
from storage.schema import dividends, documents, guidance, releases, validation_results
from storage.sql import utcnow

# Two announcements of one disclosure (6-K and HKEx) are published within this many days.
COMPANION_DAYS = 3
_USABLE = (Status.LOADED.value, Status.VALIDATED.value)  # never quarantined or failed figures


def companion_documents(conn: Connection, info: DocumentInfo) -> list[str]:
    """The usable documents of the same disclosure: the other source's, and the same source's
    other editions (an HKEx announcement's English and Chinese, published the same day).
    Usable: loaded, or held only because its figures and another document's disagree
    (:func:`held_for_disagreement`): the pair stays compared, so revalidating either keeps both
    held until the figures agree or a person releases one.

    The other source's: same ``disclosure_id`` when both have one; otherwise published within
    COMPANION_DAYS. The same source's: published the same day (a correction published later
    restates; it is no edition).
    """
    d = documents.c
    near: Any = d.published_on.between(
        info.published_on - timedelta(days=COMPANION_DAYS),
        info.published_on + timedelta(days=COMPANION_DAYS),
    )
    if info.disclosure_id:  # (== None would render IS NULL and match every unlinked row)
        near = near | (d.disclosure_id == info.disclosure_id)
    other_source = (d.source != info.source) & near
    edition = (
        (d.source == info.source)
        & (d.published_on == info.published_on)
        & (d.document_id != info.document_id)
    )
    stmt = select(d.document_id, d.published_on, d.disclosure_id).where(
        d.issuer == info.issuer,
        d.status.in_(_USABLE) | held_for_disagreement(),
        other_source | edition,
    )
    found = []
    for row in conn.execute(stmt.order_by(d.published_on, d.document_id)):
        if info.disclosure_id and row.disclosure_id and row.disclosure_id != info.disclosure_id:
            continue
        found.append(row.document_id)
    return found


def held_for_disagreement() -> Any:
    """SQL: the document is quarantined, and by no failed critical check but the comparison of
    its figures with another document's (``releases.AGREEMENT_CHECK``): its own reading stands."""
    d, v = documents.c, validation_results.c
    own_failure = exists().where(
        v.document_id == d.document_id,
        v.success.is_(False),
        v.severity == Severity.CRITICAL.value,
        v.expectation != AGREEMENT_CHECK,
    )
    return (d.status == Status.QUARANTINED.value) & ~own_failure


def stored_dividends(conn: Connection, document_ids: Sequence[str]) -> list[tuple[str, Dividend]]:
    """(document_id, dividend) for those documents."""
    if not document_ids:
        return []
    stmt = select(dividends).where(dividends.c.document_id.in_(list(document_ids)))
    rows = conn.execute(stmt.order_by(dividends.c.dividend_id))
    return [(r.document_id, dividend_from_row(r)) for r in rows]


def stored_guidance(conn: Connection, document_id: str) -> list[Guidance]:
    """The guidance a document gave, as stored."""
    stmt = select(guidance).where(guidance.c.document_id == document_id)
    return [guidance_from_row(r) for r in conn.execute(stmt.order_by(guidance.c.guidance_id))]


def status_after_validation(
    document_id: str, results: Sequence[ValidationResult], *, quarantine: bool
) -> dict[str, Any]:
    """The document's status and reason once validated: the one rule, as UPDATE values.

    ``quarantine`` (a critical expectation failed) quarantines the document unless a person has
    released it: a release is a person's decision about the document, so it stays loaded.
    SQL expressions, so the caller sets them in the statement that locks the document's row
    (nothing is read before that lock; a read first would make SQLite fail at once, not wait).
    """
    if not quarantine:
        return {"status": Status.LOADED.value, "status_reason": ""}
    failed = critical_failures(results)
    released = exists().where(releases.c.document_id == document_id)
    return {
        "status": case((released, Status.LOADED.value), else_=Status.QUARANTINED.value),
        "status_reason": case(
            (released, ""),
            else_=_reason(document_id, failed, results) if failed else Status.QUARANTINED.value,
        ),
    }


# A document id as a check's observation names it ("hkex:11480512", "sec:0001104659-24-032436").
_DOCUMENT_ID = re.compile(rf"\b(?:{'|'.join(s.value for s in SourceName)}):[^\s,;()\[\]]+")


def _reason(document_id: str, failed: list[str], results: Sequence[ValidationResult]) -> str:
    """The reason of a held document: the critical checks it failed; the comparison with
    another document names the documents it disagrees with ("failed:
    facts_agree_across_sources (disagrees with hkex:11480512)")."""
    names = []
    for name in failed:
        others = [
            found
            for r in results
            if r.expectation == name == AGREEMENT_CHECK and not r.success
            for found in _DOCUMENT_ID.findall(r.observed)
            if found != document_id
        ]
        names.append(
            f"{name} (disagrees with {', '.join(dict.fromkeys(others))})" if others else name
        )
    return "failed: " + ", ".join(names)


def store_results(
    conn: Connection,
    document_id: str,
    results: Sequence[ValidationResult],
    *,
    quarantine: bool,
    suites: Sequence[str] = (),
    kept: Sequence[ValidationResult] = (),
) -> Status:
    """Replace the document's validation results and set its status from them (revalidation).
    With ``suites``, only those suites' results are replaced; ``kept`` are its other results,
    which its status comes from too (settling cross-document checks)."""
    now = utcnow()
    values = status_after_validation(document_id, [*kept, *results], quarantine=quarantine)
    stmt = (
        update(documents)
        .where(documents.c.document_id == document_id)
        .values(updated_at=now, **values)
        .returning(documents.c.status)
    )
    status = conn.execute(stmt).scalar_one_or_none()
    if status is None:
        raise UnknownDocumentError(f"unknown document {document_id!r}: check the id in documents")
    replaced = validation_results.c.document_id == document_id
    if suites:
        replaced &= validation_results.c.suite.in_(list(suites))
    conn.execute(delete(validation_results).where(replaced))
    rows = [{**result_row(r, None, now), "document_id": document_id} for r in results]
    if rows:
        conn.execute(validation_results.insert(), rows)
    return Status(status)


def stored_results(
    conn: Connection, document_id: str, names: Sequence[str]
) -> dict[str, ValidationResult]:
    """The stored results of the named expectations of a document, by name."""
    table = validation_results
    rows = conn.execute(
        select(table).where(table.c.document_id == document_id, table.c.expectation.in_(names))
    )
    return {r.expectation: result_from_row(r) for r in rows}


def release(conn: Connection, document_id: str, released_by: str, reason: str = "") -> Release:
    """Record who released a quarantined document, and load it (facts_latest includes it)."""
    info = document_info(conn, document_id)
    if info.status != Status.QUARANTINED:
        raise NotQuarantinedError(
            f"{document_id} is {info.status}, not quarantined: there is nothing to release"
        )
    now = utcnow()
    conn.execute(
        releases.insert().values(
            document_id=document_id, released_by=released_by, released_at=now, reason=reason
        )
    )
    conn.execute(
        update(documents)
        .where(documents.c.document_id == document_id)
        .values(
            status=Status.LOADED.value, status_reason=f"released by {released_by}", updated_at=now
        )
    )
    return Release(document_id, released_by, now, reason)


def quality_targets(
    conn: Connection, issuer: str | None, document_ids: Sequence[str] = ()
) -> list[str]:
    """Documents to revalidate: those named, else every loaded or quarantined one."""
    d = documents.c
    stmt = select(d.document_id).where(
        d.status.in_([Status.LOADED.value, Status.QUARANTINED.value]),
        d.source != SourceName.XBRL.value,  # audited filings: checked by the audit stage
    )
    if document_ids:
        stmt = select(d.document_id).where(d.document_id.in_(list(document_ids)))
    if issuer is not None:
        stmt = stmt.where(d.issuer == issuer)
    found = list(conn.execute(stmt.order_by(d.published_at, d.document_id)).scalars())
    missing = sorted(set(document_ids) - set(found))
    if missing:
        raise UnknownDocumentError(f"unknown document(s) {', '.join(missing)}: check the ids")
    return found
