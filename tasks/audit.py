"""Audit stage: SEC XBRL company facts as a second, audited witness of the releases.

Per issuer with a CIK: one ``companyfacts`` request through EDGAR's client (its pacer and
pause, and the retry policy of every fetch), the body kept in the raw archive, its figures
stored as facts of their filings (document ``xbrl:<accession>``, origin ``xbrl``; a figure
already held is not stored again; figures and cursor in one transaction). When the figures
on either side changed since the last check (their digest is kept with the results: a run
stopped before its check leaves it due, whichever run loaded them), each filing is validated
by the ``audited`` suite against the releases. Once no document of the issuer is being
processed or waits to be, every release figure the audited one contradicts raises one
``restatement`` alert, and extraction accuracy is kept each time it changes (a drop raises a
``data_quality`` alert).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import Connection, Engine

from domain import workers
from domain.enums import SourceName
from domain.errors import ConfigError, NotFoundError, after_retries
from domain.records import Fact, Issuer, NewAlert, ValidationResult
from domain.xbrlrecords import AuditedFiling
from storage import audited as store
from storage import claims, db, quality
from storage import source_state as state
from tasks import fetch
from tasks.alert import store_alerts
from tasks.delivery.audit_messages import accuracy_alerts, audited_alerts
from tasks.parsers.forms.companyfacts import newest_filed, parse_company_facts
from tasks.sources.archive import RawArchive
from tasks.sources.edgar import audited_filing_ref
from tasks.sources.protocol import FactsProvider, Source, Sources
from tasks.validate import validate_audited


@dataclass(frozen=True, slots=True)
class Audit:
    """What the stage did for one issuer: a line for the run's summary and its counts."""

    line: str
    facts: int = 0
    checks: tuple[ValidationResult, ...] = ()
    alerts: tuple[str, ...] = ()
    failed: bool = False  # company facts could not be read (the next run asks again)


@dataclass(frozen=True, slots=True)
class Answer:
    """Company facts as asked: the filings (None: SEC holds none) and the cursor's new
    ``covers``; nothing asked (``covers`` None) while the facts held cover the listing."""

    filings: list[AuditedFiling] | None = None
    covers: str | None = None


def company_facts(engine: Engine, sources: Sources, archive: RawArchive, issuer: Issuer) -> Answer:
    """The issuer's filings as company facts show them.

    Asked once, then only when EDGAR's listing shows a 20-F/10-K/10-Q filed after the newest
    filing the facts held (a no-op run asks nothing more).
    """
    with engine.connect() as conn:
        periodic = state.read_cursor(conn, SourceName.SEC, issuer.ticker).get("periodic", "")
        seen = state.read_cursor(conn, SourceName.XBRL, issuer.ticker)
    if seen.get("covers") is not None and (not periodic or periodic <= seen["covers"]):
        return Answer()

    def question(source: Source) -> bytes:
        if not isinstance(source, FactsProvider):
            raise ConfigError(f"source {source.name} does not serve XBRL company facts")
        response = source.company_facts(issuer.cik)
        archive.put(response.content, url=response.url, headers=response.headers)
        return response.content

    try:
        body: bytes | None = fetch.ask(engine, sources, SourceName.SEC, question)
    except NotFoundError:
        body = None
    # read before the cursor moves: a body that cannot be read is asked for again next run
    filings = parse_company_facts(body, f"CIK{issuer.cik.zfill(10)}.json") if body else None
    # SEC's facts may lag the listing: a filing they do not hold yet is asked for again
    newest = newest_filed(body) if body else None
    return Answer(filings, periodic if body is None else min(periodic or "9999", str(newest or "")))


company_facts_task = fetch.retried("company facts", company_facts)


def audit_issuer(
    engine: Engine,
    sources: Sources,
    archive: RawArchive,
    issuer: Issuer,
    docs_site: Path | None = None,
) -> Audit:
    """Read, store and check the issuer's audited figures: every filing again when its figures
    or the releases' figures of its periods changed since the last check, whichever run
    changed them (a run stopped before its check leaves it due)."""
    if not issuer.cik:
        return Audit(f"{issuer.ticker}: no SEC CIK, no audited figures asked; skipped")
    asking = company_facts_task(engine, sources, archive, issuer, return_state=True)
    if asking.is_failed():
        try:
            asking.result()
        except Exception as exc:  # noqa: BLE001 - reported in one line, the run goes on
            return Audit(f"{issuer.ticker} xbrl: {after_retries(exc)}", failed=True)
    answer: Answer = asking.result()
    provider = sources[SourceName.SEC]
    archives = provider.archives_url if isinstance(provider, FactsProvider) else ""
    added = _store(engine, issuer, answer, archives)
    if answer.covers is not None and answer.filings is None:
        return Audit(f"{issuer.ticker}: no XBRL company facts at SEC (404); skipped")
    with engine.connect() as conn:
        held = store.held_filings(conn, issuer.ticker)
    if not held:
        return Audit(f"{issuer.ticker}: no XBRL company facts held; skipped")
    checks = _check(engine, issuer.ticker, held, docs_site)
    alerts = _alert(engine, issuer.ticker)
    filings = answer.filings
    asked = f"{len(filings)} audited filing(s) read" if filings else "no new filing listed"
    facts = sum(added.values())
    line = _line(engine, issuer.ticker, f"{asked}, {facts} new facts")
    return Audit(line, facts, tuple(checks), tuple(alerts))


def _store(engine: Engine, issuer: Issuer, answer: Answer, archives: str) -> dict[str, int]:
    """Store the filings' figures and move the cursor in one transaction: a run killed
    between them would otherwise leave the figures unasked for and unheld."""
    added: dict[str, int] = {}
    if answer.covers is None:
        return added
    with engine.begin() as conn:
        now = fetch.utcnow()
        for filing in answer.filings or ():
            ref = audited_filing_ref(issuer, filing, archives)
            _, added[ref.document_id] = store.store_filing(conn, ref, filing, now)
        _note(conn, issuer.ticker, covers=answer.covers)
    return added


def _check(
    engine: Engine, ticker: str, held: dict[str, list[Fact]], docs_site: Path | None
) -> list[ValidationResult]:
    """Each held filing's figures against the releases, its results replacing the last; none
    when the figures on both sides are those last checked (their digest in the cursor)."""
    with engine.connect() as conn:
        inputs = {
            document_id: (
                figures,
                store.reported_facts(conn, ticker, [f.period_end for f in figures]),
            )
            for document_id, figures in held.items()
        }
        checked = state.read_cursor(conn, SourceName.XBRL, ticker).get("checked")
    digest = _digest(inputs)
    if digest == checked:
        return []
    found = {
        document_id: validate_audited(document_id, figures, reported, docs_site)
        for document_id, (figures, reported) in inputs.items()
    }
    with engine.begin() as conn:  # the results and their digest, or neither (checked again)
        for document_id, checks in found.items():
            quality.store_results(conn, document_id, checks, quarantine=False)
        _note(conn, ticker, checked=digest)
    return [check for checks in found.values() for check in checks]


def _note(conn: Connection, ticker: str, **values: str) -> None:
    """Set keys of the issuer's company-facts cursor, keeping the others."""
    cursor = state.read_cursor(conn, SourceName.XBRL, ticker)
    state.write_cursor(conn, SourceName.XBRL, ticker, cursor | values)


def _digest(inputs: dict[str, tuple[list[Fact], list[tuple[str, Fact]]]]) -> str:
    """The checks' inputs as one value, whatever order the rows were stored in."""
    text = sorted(
        repr((doc, sorted(map(repr, figures)), sorted(map(repr, reported))))
        for doc, (figures, reported) in inputs.items()
    )
    return hashlib.sha256("\n".join(text).encode()).hexdigest()


def _alert(engine: Engine, ticker: str) -> list[str]:
    """Restatement alerts for contradicted figures; keep accuracy, alert a drop. Nothing
    while the issuer's releases are not all in: an alert names the releases it compared and
    a measure counts them; the run that loads the last of them raises and keeps them."""
    with engine.connect() as conn:
        if _unsettled(conn, ticker):
            return []
        found: list[NewAlert] = audited_alerts(store.comparisons(conn, ticker))
    # Two runs auditing at once would each find the measure changed and keep it twice; one
    # auditing while another still loads the issuer's documents would keep a passing state.
    # The run that loads last measures (its claims are released before its audit).
    with db.begin_writing(engine) as conn:
        db.serialize(conn, f"accuracy:{ticker}")
        if not _unsettled(conn, ticker):
            before = store.kept_accuracy(conn, ticker)
            now = store.accuracy(conn, ticker)
            kept = [a for a in now if before.get(a.statement) != a]
            store.keep_accuracy(conn, kept, fetch.utcnow())
            found += accuracy_alerts(before, now)
    return store_alerts(engine, found)


def _unsettled(conn: Connection, ticker: str) -> bool:
    """Whether documents of the issuer are being processed by a live run, or wait for the
    next (failed, or left by a run that stopped; not those their source cancelled)."""
    if claims.in_flight(conn, ticker, fetch.utcnow(), workers.gone):
        return True
    return bool(fetch.pending_on(conn, ticker))


def _line(engine: Engine, ticker: str, read: str) -> str:
    """'QFIN: 2 audited filing(s) read, 60 new facts; 66 release figures compared: ...'."""
    with engine.connect() as conn:
        outcomes = Counter(r.outcome for r in store.comparisons(conn, ticker))
    compared = sum(outcomes.values())
    parts = [
        f"{outcomes[o]} {o.replace('_', ' ')}" for o in ("equal", "within_rounding", "differs")
    ]
    return f"{ticker}: {read}; {compared} release figures compared: {', '.join(parts)}"
