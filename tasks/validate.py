"""Validation stage: run the data-quality suites on one document's facts.

Plain functions (the flows wrap them in Prefect tasks). Great Expectations does the checking
(see ``expectations/``); this module gathers what a document is checked against from the
warehouse (earlier documents, the other source's announcement of the same disclosure),
stores revalidation results and records releases of quarantined documents.

Data Docs sites (one per run, built at its end) are kept by ``tasks.runs.docs_sites``.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from pathlib import Path

from sqlalchemy.engine import Connection, Engine

from domain.errors import NotQuarantinedError, ValidationError
from domain.readouts import Release
from domain.records import (
    Extraction,
    Fact,
    Revalidation,
    ValidationResult,
    quarantine_required,
)
from expectations import builders, describe, runner
from expectations.rules import Context, Sourced
from storage import documents, quality
from storage import facts as facts_store
from tasks.extract import declared_rules
from tasks.stage_task import StageTask

# Suites whose meta says so check audited filings (tasks/audit.py), not a release's figures.
AUDITED_FILING = "audited_filing"
_PRIOR_DAYS = 400  # a full year's quarters, whatever the document's latest period


def validate_facts(
    document_id: str,
    facts: Sequence[Fact],
    *,
    docs_site: Path | None = None,
    context: Context | None = None,
    declared: Collection[str] | None = None,
) -> list[ValidationResult]:
    """Run every suite on ``facts`` (all reported figures) of one document.

    With ``docs_site`` (the run's Data Docs folder) the results are kept for
    :func:`build_data_docs`; without it GX forgets them at once. Expectations a suite marks
    ``declared`` (issuer-specific: QFIN's revenue components, its ADS ratio...) count only when
    named in ``declared``, the rules the issuer's catalog overlay declares; ``None`` keeps all.
    """
    return validate_many([Subject(document_id, facts, context, declared)], docs_site)[0]


@dataclass(frozen=True, slots=True)
class Subject:
    """One document to validate: its figures, what they are checked against, and the
    issuer-specific rules that count (``None``: all)."""

    document_id: str
    facts: Sequence[Fact]
    context: Context | None = None
    declared: Collection[str] | None = None


def validate_many(
    subjects: Sequence[Subject], docs_site: Path | None = None, only: Collection[str] = ()
) -> list[list[ValidationResult]]:
    """:func:`validate_facts` for many documents in one GX run of the suites (``only``: of
    those named), ``runner.run_batch``; each document's results come from its own rows only."""
    specs = [s for s in runner.suite_specs() if not s.meta.get(AUDITED_FILING)]
    specs = [s for s in specs if not only or s.name in only]
    check_names = {name for spec in specs for name, _ in spec.checks}
    prepared = []
    for subject in subjects:
        facts_df = builders.facts_frame(subject.facts)
        checks = builders.identity_checks(subject.facts, specs, subject.context)
        prepared.append((facts_df, checks))
    frames = [{builders.FACTS_FRAME: f, builders.CHECKS_FRAME: c.frame} for f, c in prepared]
    names = [s.document_id for s in subjects]
    suites = tuple(s.name for s in specs)
    every = []
    for subject, (facts_df, checks), outcomes in zip(
        subjects, prepared, runner.run_batch(names, frames, docs_site, suites), strict=True
    ):
        results = []
        for outcome in outcomes:
            if outcome.name in check_names:
                results.append(describe.check_result(outcome, checks))
            else:
                show = describe.show_columns(specs, outcome)
                results.append(describe.facts_result(outcome, facts_df, show))
        declared = subject.declared
        every.append(results if declared is None else _applicable(results, specs, declared))
    return every


def validate_audited(
    document_id: str,
    facts: Sequence[Fact],
    reported: Sequence[tuple[str, Fact]],
    docs_site: Path | None = None,
) -> list[ValidationResult]:
    """Run the suites of audited filings (``audited``) on one filing's XBRL figures against
    the releases' ``reported`` figures (document, fact) of the same periods."""
    specs = [s for s in runner.suite_specs() if s.meta.get(AUDITED_FILING)]
    context = Context(
        document_id=document_id, reported=tuple(Sourced(d, fact=f) for d, f in reported)
    )
    checks = builders.identity_checks(facts, specs, context)
    frames = {builders.CHECKS_FRAME: checks.frame}
    names = tuple(s.name for s in specs)
    outcomes = runner.run_suites(document_id, frames, docs_site, suites=names)
    return [describe.check_result(o, checks) for o in outcomes]


def _applicable(
    results: list[ValidationResult], specs: Sequence[builders.SuiteSpec], declared: Collection[str]
) -> list[ValidationResult]:
    """The results of generic expectations, and of issuer-specific ones the issuer declares."""
    specific = {
        e["meta"]["name"] for s in specs for e in s.expectations if e["meta"].get("declared")
    }
    return [r for r in results if r.expectation not in specific or r.expectation in declared]


def gather_context(
    engine: Engine, document_id: str, facts: Sequence[Fact], extraction: Extraction | None = None
) -> Context:
    """What the warehouse knows that this document is checked against."""
    with engine.begin() as conn:
        return context_on(conn, document_id, facts, extraction)


def context_on(
    conn: Connection, document_id: str, facts: Sequence[Fact], extraction: Extraction | None = None
) -> Context:
    """:func:`gather_context` inside the caller's transaction."""
    info = documents.document_info(conn, document_id)
    prior: list[tuple[str, Fact]] = []
    if facts:
        ends = [f.period_end for f in facts]
        since = min(ends) - timedelta(days=_PRIOR_DAYS)
        prior = facts_store.prior_facts(conn, info.issuer, document_id, since, max(ends))
    companions = quality.companion_documents(conn, info)
    their_facts = facts_store.stored_facts(conn, companions)
    their_dividends = quality.stored_dividends(conn, companions)
    when = documents.published_times(conn, [document_id, *(d for d, _ in prior), *companions])
    own = Context.of_extraction(document_id, extraction) if extraction else None
    return replace(
        own or Context(document_id=document_id, kind=info.kind),
        published_at=when.get(document_id),
        prior=tuple(Sourced(d, fact=f, published_at=when.get(d)) for d, f in prior),
        companions=tuple(Sourced(d, fact=f, published_at=when.get(d)) for d, f in their_facts)
        + tuple(Sourced(d, dividend=v, published_at=when.get(d)) for d, v in their_dividends),
    )


def validate_document(
    engine: Engine,
    document_id: str,
    extraction: Extraction,
    docs_site: Path | str = "",
    catalog_dir: Path | None = None,
) -> list[ValidationResult]:
    """Validate a freshly extracted document against itself and the stored warehouse.

    The narrative twins (figures the text repeats from a table, never stored) are validated
    with the facts, so narrative_vs_table compares them. ``docs_site`` ("" for none) is the
    run's Data Docs folder the results are recorded for; ``catalog_dir`` the overlays'
    directory (the issuer-specific rules its overlay declares apply).
    """
    return validate_documents(engine, [(document_id, extraction)], docs_site, catalog_dir)[0]


def validate_documents(
    engine: Engine,
    extracted: Sequence[tuple[str, Extraction]],
    docs_site: Path | str = "",
    catalog_dir: Path | None = None,
) -> list[list[ValidationResult]]:
    """:func:`validate_document` for many documents in one GX run. Each is checked against
    the warehouse as it is now: documents one of them should see stored (an issuer's earlier
    quarter, the other source's announcement) must be loaded before, not in the same batch."""
    subjects = [subject(engine, d, e, catalog_dir) for d, e in extracted]
    return validate_many(subjects, Path(docs_site) if docs_site else None)


def subject(
    engine: Engine, document_id: str, extraction: Extraction, catalog_dir: Path | None = None
) -> Subject:
    """What one extracted document is validated on: its facts and narrative twins, the
    warehouse's context and the rules its issuer declares."""
    context = gather_context(engine, document_id, extraction.facts, extraction)
    facts = extraction.facts + extraction.narrative_twins
    declared = declared_rules(_issuer(engine, document_id), catalog_dir)
    return Subject(document_id, facts, context, declared)


def _issuer(engine: Engine, document_id: str) -> str:
    with engine.connect() as conn:
        return documents.document_info(conn, document_id).issuer


def revalidate_document(
    engine: Engine,
    document_id: str,
    docs_site: Path | None = None,
    catalog_dir: Path | None = None,
) -> Revalidation:
    """Validate a stored document again from the warehouse (no fetch, no extraction).

    Reads the stored facts, guidance and dividends, runs today's suites, replaces the
    stored results and sets the status (a released document stays loaded). Expectations
    marked ``extraction_only`` in their suite need what is never stored (narrative twins,
    refused figures, duplicate table figures): the result of the last validation that had
    the text is kept, with today's severity (a contradiction keeps its quarantine).
    """

    with engine.begin() as conn:
        info = documents.document_info(conn, document_id)
        facts = [f for _, f in facts_store.stored_facts(conn, [document_id])]
        guidance = tuple(quality.stored_guidance(conn, document_id))
        dividends = tuple(d for _, d in quality.stored_dividends(conn, [document_id]))
        earlier = quality.stored_results(conn, document_id, _text_only_checks())
    base = gather_context(engine, document_id, facts)
    context = replace(base, guidance=guidance, dividends=dividends)
    declared = declared_rules(info.issuer, catalog_dir)
    results = validate_facts(
        document_id, facts, docs_site=docs_site, context=context, declared=declared
    )
    results = [_kept(r, earlier.get(r.expectation)) for r in results]
    with engine.begin() as conn:
        status = quality.store_results(
            conn, document_id, results, quarantine=quarantine_required(results)
        )
    return Revalidation(document_id, info.issuer, results, status)


_NOT_EVALUATED = "not evaluated"
_KEPT_NOTE = "kept from the validation of the extracted text: its inputs are not stored"


def _text_only_checks() -> list[str]:
    """Expectations whose inputs exist only in an extraction (suite meta ``extraction_only``)."""
    return [
        e["meta"]["name"]
        for s in runner.suite_specs()
        for e in s.expectations
        if e["meta"].get("extraction_only")
    ]


def _kept(now: ValidationResult, earlier: ValidationResult | None) -> ValidationResult:
    # Today's severity applies; what was seen can only come from the last look at the text
    # (stored facts would make these checks pass vacuously).
    if earlier is None or earlier.observed.startswith(_NOT_EVALUATED):
        return now
    details = (
        earlier.details if _KEPT_NOTE in earlier.details else f"{earlier.details}\n{_KEPT_NOTE}"
    )
    return ValidationResult(
        now.suite, now.expectation, earlier.success, now.severity, earlier.observed, details
    )


def revalidation_targets(
    engine: Engine, issuer: str | None, document_ids: Sequence[str] = ()
) -> list[str]:
    """The named documents, else every loaded or quarantined document (of the issuer)."""
    try:
        with engine.begin() as conn:
            return quality.quality_targets(conn, issuer, document_ids)
    except LookupError as exc:
        raise ValidationError(str(exc).strip("'\"")) from None


def release_document(
    engine: Engine, document_id: str, released_by: str, reason: str = ""
) -> Release:
    """Let a quarantined document into facts_latest, recording who and when."""
    if not released_by.strip():
        raise ValidationError("say who releases the document: --by NAME")
    try:
        with engine.begin() as conn:
            return quality.release(conn, document_id, released_by.strip(), reason)
    except (LookupError, NotQuarantinedError) as exc:
        raise ValidationError(str(exc).strip("'\"")) from None


# GX is deterministic on the same facts: nothing transient to retry.
validate_task = StageTask(validate_facts, name="validate")
validate_document_task = StageTask(validate_document, name="validate")
validate_documents_task = StageTask(validate_documents, name="validate")
revalidate_task = StageTask(revalidate_document, name="revalidate")
release_task = StageTask(release_document, name="release")
