"""Typed records passed between the pipeline's stages.

Pure data: standard library only, so parsers, storage and flows can all share them.
Amounts are Decimal in whole units (CNY, shares, count); percentages are numbers of percent.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum


class DocKind(StrEnum):
    """What a document is, which decides what is extracted from it."""

    RESULTS_QUARTERLY = "results_quarterly"
    RESULTS_INTERIM = "results_interim"
    RESULTS_ANNUAL = "results_annual"
    DIVIDEND_FORM = "dividend_form"
    COVER_PAGE = "cover_page"
    OTHER = "other"


class Status(StrEnum):
    """Processing state of a document in the warehouse."""

    FETCHED = "fetched"
    EXTRACTED = "extracted"
    VALIDATED = "validated"
    LOADED = "loaded"
    QUARANTINED = "quarantined"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class Issuer:
    """A company listed in New York and Hong Kong."""

    ticker: str
    name: str
    cik: str  # 10 digits, zero padded
    hkex_code: str  # 5 digits, zero padded ("03660")


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

    source: str  # "sec" | "hkex" | "local"
    source_id: str  # accession number, NEWS_ID, or sha256 prefix for local files
    issuer: str  # ticker
    form: str  # "6-K", "6-K/A", or the HKEx t2 category code ("13300")
    title: str
    published_at: datetime  # timezone-aware
    url: str  # landing page: -index.htm or the PDF link
    files: tuple[SourceFile, ...] = ()

    @property
    def document_id(self) -> str:
        """Stable warehouse key, e.g. ``sec:0001104659-24-032436``."""
        return f"{self.source}:{self.source_id}"


@dataclass(frozen=True, slots=True)
class StoredFile:
    """A fetched file in the raw archive (content-addressed)."""

    name: str
    url: str
    sha256: str
    size: int
    doc_type: str


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where a fact was read: enough for a person to find it again."""

    document: str  # file name (exhibit, PDF, text file)
    locator: str  # "table 4", "page 12, table 2", "paragraph 31"
    row_label: str
    column: str  # column header as printed, e.g. "Three months ended June 30, 2024 RMB"
    raw_text: str  # the cell or sentence as printed, e.g. "(366,065)"


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
    basis: str = "us_gaap"  # "us_gaap" | "ifrs"
    origin: str = "table"  # "table" | "narrative"
    flags: tuple[str, ...] = ()  # e.g. "suspect_decimal_separator"

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
    source: str
    form: str
    category: str
    kind: str
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


@dataclass(frozen=True, slots=True)
class ValidationResult:
    """Outcome of one expectation on one document."""

    suite: str
    expectation: str  # a stable, human-readable name, e.g. "balance_sheet_balances"
    success: bool
    severity: str  # "critical" | "warning" | "info"
    observed: str  # what was seen, e.g. "total_assets 48132618000 != 48132617000"
    details: str = ""


def select_stored_facts(facts: tuple[Fact, ...] | list[Fact]) -> list[Fact]:
    """One fact per key: the most precise wins, a table figure beats a narrative one.

    A narrative figure rounded to 0.1 million must never displace the table figure in
    thousands it agrees with, so precision decides before order.
    """
    best: dict[tuple[str, date | None, date, str], Fact] = {}
    for fact in facts:
        current = best.get(fact.key)
        if current is None or _rank(fact) > _rank(current):
            best[fact.key] = fact
    return list(best.values())


def _rank(fact: Fact) -> tuple[int, int]:
    return (fact.decimals, 1 if fact.origin == "table" else 0)
