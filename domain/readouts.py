"""What the warehouse (and Prefect's API) report back: run activity and status, findings,
guidance rows, source state, failed flow runs.

Plain records the storage queries build and the run bookkeeping, alert wording and console
rendering read. Standard library only, like every module of ``domain``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from domain.enums import (
    AlertKind,
    Basis,
    RunStatus,
    Severity,
    SourceName,
    Status,
    VersusGuidance,
)
from domain.records import Fact, Issuer
from domain.xbrlrecords import Accuracy


@dataclass(frozen=True, slots=True)
class RunRecord:
    """One pipeline run as the warehouse remembers it."""

    run_id: str
    flow_run_id: str | None
    started_at: datetime
    finished_at: datetime | None
    status: RunStatus
    summary: dict[str, Any]


@dataclass(frozen=True, slots=True)
class AlertLine:
    """An alert, short: id, kind, issuer, subject."""

    alert_id: str
    kind: AlertKind
    issuer: str
    subject: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class FailedCheck:
    """A failed validation of a document."""

    document_id: str
    check: str  # suite.expectation
    severity: Severity
    observed: str


@dataclass(frozen=True, slots=True)
class RunActivity:
    """What changed in the warehouse since a run started, with ids."""

    documents: tuple[tuple[str, Status], ...]  # (document_id, status)
    failed_checks: tuple[FailedCheck, ...]
    alerts: tuple[AlertLine, ...]


@dataclass(frozen=True, slots=True)
class WarehouseStatus:
    """What ``filings status`` shows."""

    runs: tuple[RunRecord, ...]
    documents_by_status: dict[str, int]
    undelivered: tuple[AlertLine, ...]
    accuracy: tuple[Accuracy, ...] = ()  # extraction accuracy against audited figures


@dataclass(frozen=True, slots=True)
class GuidanceRow:
    """One row of the guidance_vs_actual view."""

    issuer: str
    metric: str
    period_start: date
    period_end: date
    guidance_low: Decimal | None
    guidance_high: Decimal | None
    actual: Decimal | None
    unit: str
    outcome: VersusGuidance
    variance_pct: Decimal | None
    guidance_document_id: str
    actual_document_id: str | None
    actual_origin: str | None = None  # statement, narrative, ...: where the actual was read


@dataclass(frozen=True, slots=True)
class Report:
    """One report of a value, as facts_history has it."""

    value: Decimal
    decimals: int
    unit: str
    document_id: str
    reported_on: date
    label: str = ""  # the line as the document prints it ("Total loan facilitation volume")
    origin: str = ""  # where it was read: "table" (a statement) or "narrative" (running text)
    raw_text: str = ""  # the figure as printed ("RMB38,798 million")
    words: str = ""  # running text: the words after the figure ("in the same period of 2023")
    locator: str = ""  # where in the document ("page 2, narrative: ...", "page 12, table 2")
    note: str = ""  # the document's restating footnote on the figure, if it has one


@dataclass(frozen=True, slots=True)
class Restatement:
    """A later report that disagrees with the value shown until then, beyond rounding."""

    issuer: str
    metric: str
    period_start: date | None
    period_end: date
    basis: Basis
    before: Report
    after: Report


@dataclass(frozen=True, slots=True)
class Disagreement:
    """Two documents of one disclosure (the language editions of an announcement, its SEC and
    HKEx copies) printing figures otherwise, beyond the rounding of both."""

    issuer: str
    documents: tuple[str, str]  # in id order
    figures: tuple[tuple[Fact, Fact], ...]  # (as the first prints it, as the second does)


@dataclass(frozen=True, slots=True)
class GuidanceOutcome:
    """A guided period whose actual has arrived (a row of guidance_vs_actual, plus dates)."""

    issuer: str
    metric: str
    period_start: date
    period_end: date
    low: Decimal | None
    high: Decimal | None
    unit: str
    issued_on: date
    actual: Decimal
    actual_decimals: int | None
    outcome: VersusGuidance  # above | within | below
    variance_pct: Decimal | None
    guidance_document_id: str
    actual_document_id: str


@dataclass(frozen=True, slots=True)
class DocumentInfo:
    """What validation needs to know about a stored document."""

    document_id: str
    issuer: str
    source: SourceName
    kind: str
    status: Status
    published_on: date
    disclosure_id: str | None


@dataclass(frozen=True, slots=True)
class Release:
    """A person let a quarantined document into facts_latest."""

    document_id: str
    released_by: str
    released_at: datetime
    reason: str


@dataclass(frozen=True, slots=True)
class Pause:
    """A source blocked until ``until`` (timezone-aware UTC) for ``reason``."""

    until: datetime
    reason: str


@dataclass(frozen=True, slots=True)
class CachedPage:
    """Validators of a revalidated page and the archived object holding its body."""

    url: str
    etag: str
    last_modified: str
    sha256: str


@dataclass(frozen=True, slots=True)
class DocumentMeta:
    """What a listing says about a document, kept up to date on every listing."""

    document_id: str
    title: str
    category: str = ""
    is_cancelled: bool = False
    headline_revised: bool = False


@dataclass(frozen=True, slots=True)
class FailedRun:
    """A flow run that ended Failed or Crashed."""

    flow_run_id: str
    flow_name: str
    run_name: str
    state_name: str
    message: str
    deployment_id: str
    issuers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LocalIntake:
    """A hand-dropped file (``filings ingest``), read and checked, not yet stored."""

    path: Path
    content: bytes
    sha256: str
    issuer: Issuer
    published: date


@dataclass
class DeliveryReport:
    """What one delivery pass did: alerts delivered (each counted once, however many channels
    it went to) and, per channel, how many were sent, failed (with why) or are in doubt."""

    delivered: int = 0
    delivered_ids: tuple[str, ...] = ()  # the alerts this pass delivered on some channel
    sent: dict[str, int] = field(default_factory=dict)
    failed: dict[str, tuple[int, str]] = field(default_factory=dict)
    in_doubt: dict[str, tuple[int, str]] = field(default_factory=dict)  # by this pass, why
