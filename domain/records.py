"""Typed records passed between the pipeline's stages and the warehouse.

Pure data: standard library only, so parsers, sources, storage and flows can all share them.
Amounts are Decimal in whole units (CNY, shares, count); percentages are numbers of percent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from domain.enums import (
    AlertKind,
    Basis,
    DocKind,
    Origin,
    Severity,
    SourceName,
    Status,
)
from domain.provenance import Provenance as Provenance  # re-exported: stages import it here
from domain.rowrecords import RefusedRow, StatementRow


@dataclass(frozen=True, slots=True)
class Issuer:
    """A company listed in New York and Hong Kong."""

    ticker: str
    name: str
    cik: str  # 10 digits, zero padded
    hkex_code: str  # 5 digits, zero padded ("03660")
    # other names its documents print it under (a Chinese name, a former name)
    aliases: tuple[str, ...] = ()
    # "MMDD" its fiscal year ends on (SEC's fiscalYearEnd, "0201" for a 52/53-week year ending
    # near January 31); "" when not set: SEC's is learnt at listing, else December
    fiscal_year_end: str = ""


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One file of a document, as listed by its source."""

    name: str  # file name inside the filing / announcement
    url: str
    doc_type: str  # EDGAR Type column ("6-K", "EX-99.1") or "PDF"
    description: str = ""


@dataclass(frozen=True, slots=True)
class DocumentRef:
    """A filing or announcement as a source lists it, before anything is downloaded."""

    source: SourceName
    source_id: str  # accession number, NEWS_ID, or sha256 prefix for local files
    issuer: str  # ticker
    form: str  # "6-K", "6-K/A", or HKEx's category name ("HKEx Final Results")
    title: str
    published_at: datetime  # timezone-aware
    url: str  # landing page: -index.htm or the PDF link
    files: tuple[SourceFile, ...] = ()

    @property
    def document_id(self) -> str:
        """Stable warehouse key, e.g. ``sec:0001104659-24-032436``."""
        return f"{self.source}:{self.source_id}"


def document_source(document_id: str) -> SourceName:
    """The source a ``document_id`` names (its part before the first colon)."""
    return SourceName(document_id.split(":", 1)[0])


@dataclass(frozen=True, slots=True)
class StoredFile:
    """A fetched file in the raw archive (content-addressed)."""

    name: str
    url: str
    sha256: str
    size: int
    doc_type: str


@dataclass(frozen=True, slots=True)
class Fact:
    """One reported value of one metric for one period."""

    metric: str  # id from metrics.csv
    period_start: date | None  # None for instants
    period_end: date
    value: Decimal  # whole units
    unit: str  # as metrics.csv says: CNY, CNY/share, CNY/ADS, shares, count, months, percent
    scale: int  # power of ten the printed figure was multiplied by (3 = thousands, 6 = millions)
    decimals: int  # precision, XBRL-style: -3 = to the thousand, -5 = to 0.1 million, 2 = cents
    provenance: Provenance
    basis: Basis = Basis.US_GAAP
    origin: Origin = Origin.TABLE
    flags: tuple[str, ...] = ()  # e.g. "suspect_decimal_separator"
    # how the document proves it (domain/proofs): "identity: <name>", "arithmetic: ...",
    # "witness: ..."; "" for a figure no statement holds (a KPI, a narrative figure)
    proved_by: str = ""
    # what the document's own footnote on the figure says when it restates ("Retrospectively
    # excluding the impact of discontinued service, ..."); "" when it says nothing of the kind
    note: str = ""

    @property
    def key(self) -> tuple[str, date | None, date, str]:
        """Identity of the fact within one document."""
        return (self.metric, self.period_start, self.period_end, self.basis)


@dataclass(frozen=True, slots=True)
class Guidance:
    """Management's outlook for a future period ("Business Outlook")."""

    metric: str
    period_start: date
    period_end: date
    low: Decimal | None
    high: Decimal | None
    unit: str
    issued_on: date
    provenance: Provenance
    growth_low_pct: Decimal | None = None
    growth_high_pct: Decimal | None = None
    numeric: bool = True  # False when guidance is "given on the call"


@dataclass(frozen=True, slots=True)
class Dividend:
    """A declared cash dividend."""

    currency: str
    per_share: Decimal | None
    per_ads: Decimal | None
    period_start: date | None
    period_end: date | None
    record_date: date | None
    ex_date: date | None
    payment_date: date | None
    provenance: Provenance
    ads_payment_date: date | None = None  # ADS holders are paid days later (stored, 0004)


@dataclass(frozen=True, slots=True)
class UnmappedRow:
    """A statement row no metric maps to: listed, never dropped silently."""

    locator: str
    table_title: str
    row_label: str
    reason: str


@dataclass(frozen=True, slots=True)
class ListedDocument:
    """A recorded document as disclosure linking reads it (:mod:`tasks.sources.disclosure`)."""

    document_id: str
    source: SourceName
    form: str
    category: str
    kind: str  # DocKind value; "" before extraction
    published_at: datetime
    amends_document_id: str | None = None


@dataclass(frozen=True, slots=True)
class Extraction:
    """Everything read from one file."""

    document: str  # file name
    kind: DocKind
    facts: tuple[Fact, ...] = ()
    guidance: tuple[Guidance, ...] = ()
    dividends: tuple[Dividend, ...] = ()
    unmapped: tuple[UnmappedRow, ...] = ()
    usd_rate: Decimal | None = None  # RMB per USD of the convenience column
    warnings: tuple[str, ...] = ()
    # Narrative figures for a key ``facts`` already holds (one fact per key is stored): never
    # stored, only validated against the figure that is (narrative_vs_table).
    narrative_twins: tuple[Fact, ...] = ()
    # Every value cell of the primary statements as printed, and the rows that could not be read.
    rows: tuple[StatementRow, ...] = ()
    refused: tuple[RefusedRow, ...] = ()
    # The proof (domain/proofs): statement figures nothing tied (never published), every
    # identity's verdict, and how each row of ``segments`` was tied by its statement's arithmetic.
    unproven: tuple[Fact, ...] = ()
    verdicts: tuple[Verdict, ...] = ()
    row_ties: tuple[tuple[int, str], ...] = ()

    @property
    def mapped(self) -> tuple[Fact, ...]:
        """Every figure read into a metric: the published ones, then those held unproved."""
        return self.facts + self.unproven


@dataclass(frozen=True, slots=True)
class Verdict:
    """One identity on one statement's figures of one period: held, failed, or not evaluated
    because some of its terms are not printed (``missing``)."""

    identity: str
    group: str  # "balance sheet 2024-12-31 HKD"
    held: bool
    missing: tuple[str, ...]  # metrics not printed
    lhs: Decimal = Decimal(0)
    rhs: Decimal = Decimal(0)
    tolerance: Decimal = Decimal(0)
    terms: tuple[str, ...] = ()  # the metrics evaluated
    closes: bool = False  # a closing identity of its statement (it balances / profit closes)
    printed: tuple[tuple[str, str, Decimal], ...] = ()  # (metric, label as printed, value)

    @property
    def evaluated(self) -> bool:
        """True when every term was printed."""
        return not self.missing


@dataclass(frozen=True, slots=True)
class ValidationResult:
    """Outcome of one expectation on one document."""

    suite: str
    expectation: str  # a stable, human-readable name, e.g. "balance_sheet_balances"
    success: bool
    severity: Severity
    observed: str  # what was seen, e.g. "total_assets 48132618000 != 48132617000"
    details: str = ""


@dataclass(frozen=True, slots=True)
class Revalidation:
    """One stored document validated again."""

    document_id: str
    issuer: str
    results: list[ValidationResult]
    status: Status


def critical_failures(results: Iterable[ValidationResult]) -> list[str]:
    """Names of the critical expectations that failed, sorted and once each."""
    return sorted(
        {r.expectation for r in results if not r.success and r.severity == Severity.CRITICAL}
    )


def flagged(result: ValidationResult) -> bool:
    """A failed info check: shown with the results and in Data Docs, never alerted on and not
    counted as a failure (a quarter only the arithmetic gives, say)."""
    return not result.success and result.severity == Severity.INFO


def tally(results: Iterable[ValidationResult]) -> tuple[int, int, int]:
    """How many checks passed, failed and were flagged (failed info checks)."""
    passed = failed = noted = 0
    for r in results:
        if r.success:
            passed += 1
        elif flagged(r):
            noted += 1
        else:
            failed += 1
    return passed, failed, noted


def quarantine_required(results: Iterable[ValidationResult]) -> bool:
    """True when any critical expectation failed: the document must not be published."""
    return bool(critical_failures(results))


ALL_ISSUERS = "*"  # the issuer of an alert about no one issuer (a failed run)


@dataclass(frozen=True, slots=True)
class NewAlert:
    """A finding to alert on; ``dedup_key`` names the finding so reruns do not repeat it."""

    kind: AlertKind
    issuer: str  # a ticker, or ALL_ISSUERS
    subject: str
    message: str
    dedup_key: str
    document_id: str | None = None
    details: Mapping[str, object] = field(default_factory=dict)  # stored as JSON; no secrets


@dataclass(frozen=True, slots=True)
class LoadCounts:
    """What loading one document changed."""

    facts_inserted: int
    facts_updated: int  # same key in the same document, different value or provenance
    facts_unchanged: int
    validations: int
    guidance: int
    dividends: int
    status: Status
    alerts: tuple[str, ...] = ()  # ids of the alerts stored in the load's transaction


@dataclass(frozen=True, slots=True)
class PendingDelivery:
    """An alert not yet delivered on one channel."""

    alert_id: str
    channel: str
    kind: AlertKind
    issuer: str
    subject: str
    message: str
    created_at: datetime
    attempts: int  # failed attempts so far
    last_error: str
    # what the finding is about, for programs (metric, period, values, unit, links): the
    # webhook's structured fields (tasks.delivery.channels.PAYLOAD_FIELDS)
    details: Mapping[str, object] = field(default_factory=dict)
