"""Small records the storage API takes and returns (tasks.models holds the pipeline's own)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from tasks.models import Status


class UnknownDocumentError(LookupError):
    """The document_id is not in the warehouse: record_documents it first."""


@dataclass(frozen=True, slots=True)
class NewAlert:
    """A finding to alert on; ``dedup_key`` names the finding so reruns do not repeat it."""

    kind: str  # data_quality | guidance_variance | restatement | pipeline_failure
    issuer: str
    subject: str
    message: str
    dedup_key: str
    document_id: str | None = None
    details: Mapping[str, object] = field(default_factory=dict)  # stored as JSON; no secrets


@dataclass(frozen=True, slots=True)
class LoadCounts:
    """What one load_document call changed."""

    facts_inserted: int
    facts_updated: int  # same key in the same document, different value or provenance
    facts_unchanged: int
    validations: int
    guidance: int
    dividends: int
    status: Status


@dataclass(frozen=True, slots=True)
class PendingDelivery:
    """An alert not yet delivered on one channel."""

    alert_id: str
    channel: str
    kind: str
    issuer: str
    subject: str
    message: str
    created_at: datetime
    attempts: int  # failed attempts so far
    last_error: str
