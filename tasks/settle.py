"""Cross-document checks settled after a load.

A check that compares documents (a year's figure against its quarters) is stored with the
last published of them (``expectations.rules.completes``); the comparison of the documents of
one disclosure (the 6-K and the HKEx announcement, an announcement's two language editions)
with each of them, so the earlier one is settled too when the later one lands (a
disagreement holds both). When an earlier document arrives after a later one was validated
— runs side by side, a backfill out of order, an announcement that came late — the later
one's check could not be made then: after each load its issuer's later documents, the
documents of its disclosure, and the loaded document itself (an earlier one may have landed
while it was being validated), have their cross-document suites run again on what the
warehouse holds now. Settling is serialised per issuer, so the last one sees every load
before it: concurrent runs and a sequential run store the same results.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from sqlalchemy.engine import Connection, Engine

from domain.records import ValidationResult, quarantine_required
from expectations import runner
from storage import db, quality, settling
from storage import facts as facts_store
from tasks.alert import settled_alerts
from tasks.extract import declared_rules
from tasks.stage_task import StageTask
from tasks.validate import Subject, context_on, validate_many


def cross_document_suites() -> tuple[str, ...]:
    """The suites whose meta says they compare documents (``cross_document``)."""
    return tuple(s.name for s in runner.suite_specs() if s.meta.get("cross_document"))


def settle(
    engine: Engine,
    loaded: Sequence[tuple[str, str]],
    docs_site: Path | None = None,
    catalog_dir: Path | None = None,
) -> list[str]:
    """Run the cross-document suites again for the (issuer, document) pairs just loaded and
    their issuers' later documents; store the results that changed, with the status and
    data-quality alerts they give. Returns the ids of the alerts raised."""
    if not loaded:
        return []
    suites = cross_document_suites()
    raised: list[str] = []
    with db.begin_writing(engine) as conn:
        for issuer in sorted({issuer for issuer, _ in loaded}):
            db.serialize(conn, f"cross-document:{issuer}")
        targets = settling.settle_targets(conn, [document for _, document in loaded])
        subjects = [_subject(conn, issuer, doc, catalog_dir) for issuer, doc in targets]
        fresh = validate_many(subjects, docs_site, only=suites)
        for (issuer, doc), results in zip(targets, fresh, strict=True):
            raised += _store(conn, issuer, doc, suites, results)
    return raised


def _subject(conn: Connection, issuer: str, document_id: str, catalog_dir: Path | None) -> Subject:
    facts = [f for _, f in facts_store.stored_facts(conn, [document_id])]
    dividends = tuple(d for _, d in quality.stored_dividends(conn, [document_id]))
    context = replace(context_on(conn, document_id, facts), dividends=dividends)
    return Subject(document_id, facts, context, declared_rules(issuer, catalog_dir))


def _store(
    conn: Connection,
    issuer: str,
    document_id: str,
    suites: Sequence[str],
    results: list[ValidationResult],
) -> list[str]:
    before = settling.document_results(conn, document_id)
    kept = [r for r in before if r.suite not in suites]
    if _same(before, kept + results):
        return []
    quarantine = quarantine_required([*kept, *results])
    quality.store_results(
        conn, document_id, results, quarantine=quarantine, suites=suites, kept=kept
    )
    return settled_alerts(conn, issuer, document_id, results)


def _same(a: Sequence[ValidationResult], b: Sequence[ValidationResult]) -> bool:
    def key(r: ValidationResult) -> tuple[str, str, bool, str, str, str]:
        return (r.suite, r.expectation, r.success, str(r.severity), r.observed, r.details)

    return sorted(map(key, a)) == sorted(map(key, b))


# Deterministic on what is stored: nothing transient to retry (a lost connection fails the
# step; the documents stay loaded with the results their own validation gave).
settle_task = StageTask(settle, name="settle")
