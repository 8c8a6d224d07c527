"""The pipeline's closed sets, as StrEnums.

A member equals (and hashes as) its value, so a member can be stored, compared with a row read
back, formatted into SQL or used as a dict key wherever the plain string was. The warehouse's
CHECK constraints are built from these (``storage.schema``).
"""

from __future__ import annotations

from enum import StrEnum


class SourceName(StrEnum):
    """Where a document comes from: the first part of its ``document_id``."""

    SEC = "sec"  # SEC EDGAR 6-K filings
    HKEX = "hkex"  # HKEXnews announcements
    LOCAL = "local"  # files a person dropped in by hand (``filings ingest``)
    XBRL = "xbrl"  # SEC XBRL company facts: one document per audited filing (20-F, 10-K, 10-Q)


class Status(StrEnum):
    """Processing state of a document in the warehouse."""

    FETCHED = "fetched"
    EXTRACTED = "extracted"
    VALIDATED = "validated"
    LOADED = "loaded"
    QUARANTINED = "quarantined"
    FAILED = "failed"


class DocKind(StrEnum):
    """What a document is, which decides what is extracted from it."""

    RESULTS_QUARTERLY = "results_quarterly"
    RESULTS_INTERIM = "results_interim"
    RESULTS_ANNUAL = "results_annual"
    DIVIDEND_FORM = "dividend_form"
    COVER_PAGE = "cover_page"
    OTHER = "other"


RESULTS_KINDS = (DocKind.RESULTS_QUARTERLY, DocKind.RESULTS_INTERIM, DocKind.RESULTS_ANNUAL)


class Basis(StrEnum):
    """The accounting basis a figure is reported on."""

    US_GAAP = "us_gaap"
    IFRS = "ifrs"


class Origin(StrEnum):
    """Where in a document a figure was read."""

    TABLE = "table"  # a statement table
    NARRATIVE = "narrative"  # running text ("RMB4,482.3 million")
    XBRL = "xbrl"  # SEC XBRL company facts (the audited filing's figures)
    DERIVED = "derived"  # arithmetic on published figures (H1 - Q2): facts_derived only


class Severity(StrEnum):
    """How much a failed expectation matters."""

    CRITICAL = "critical"  # quarantines the document
    WARNING = "warning"  # publishes and alerts
    INFO = "info"


class AlertKind(StrEnum):
    """What an alert is about (the ``alerts`` view's ``kind``)."""

    DATA_QUALITY = "data_quality"
    GUIDANCE_VARIANCE = "guidance_variance"
    RESTATEMENT = "restatement"
    PIPELINE_FAILURE = "pipeline_failure"


class DeliveryStatus(StrEnum):
    """Where one alert stands on one channel."""

    PENDING = "pending"
    DELIVERED = "delivered"
    FAILED = "failed"


class ChannelName(StrEnum):
    """The alert channels."""

    EMAIL = "email"
    WEBHOOK = "webhook"
    SLACK = "slack"


class RunStatus(StrEnum):
    """How a pipeline run stands in the ``runs`` table."""

    RUNNING = "running"
    COMPLETED = "completed"
    COMPLETED_WITH_ERRORS = "completed_with_errors"  # a source or a document failed
    FAILED = "failed"  # the run itself failed
    CRASHED = "crashed"  # its process is gone (kill -9, power loss): marked by a later run
    INTERRUPTED = "interrupted"  # stopped by Ctrl-C or SIGTERM; a rerun finishes its work


class VersusGuidance(StrEnum):
    """Where an actual landed against its guidance (``guidance_vs_actual.outcome``)."""

    ABOVE = "above"
    WITHIN = "within"
    BELOW = "below"
    PENDING = "pending"  # no actual yet
