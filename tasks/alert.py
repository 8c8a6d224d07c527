"""Alert stage: turn findings into stored alerts (an outbox), then deliver them once per channel.

What the alerts say is :mod:`tasks.delivery.messages`; how they travel is
:mod:`tasks.delivery.channels`.

Storing comes first. Each (alert, channel) is then claimed, sent and marked delivered in one
transaction: a crash before the commit leaves it undelivered, so the next run sends it again
(receivers can drop that rare repeat by its Message-ID / Idempotency-Key), and a delivered
alert is never sent again. A concurrent run waits on the claim and then skips the alert.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from prefect import task
from prefect.cache_policies import NO_CACHE
from sqlalchemy.engine import Engine

from storage import alerts, findings
from tasks.core.records import NewAlert, ValidationResult
from tasks.delivery.channels import DELIVERY_ERRORS, Channel
from tasks.delivery.messages import (
    data_quality_alerts,
    guidance_variance_alerts,
    restatement_alerts,
)

log = logging.getLogger(__name__)


def document_alerts(
    engine: Engine, issuer: str, document_id: str, checks: Sequence[ValidationResult]
) -> list[str]:
    """After a load: alert the document's failed checks, then what the warehouse now shows
    (restatements, guidance outcomes); returns the ids created."""
    return check_alerts(engine, issuer, document_id, checks) + findings_alerts(
        engine, issuer, document_id
    )


def check_alerts(
    engine: Engine, issuer: str, document_id: str, checks: Sequence[ValidationResult]
) -> list[str]:
    """Store one data-quality alert per failed expectation; returns the ids created."""
    return store_alerts(engine, data_quality_alerts(issuer, document_id, checks))


def findings_alerts(engine: Engine, issuer: str, document_id: str) -> list[str]:
    """Store restatement and guidance-variance alerts after a load; returns ids created."""
    with engine.connect() as conn:
        found = restatement_alerts(findings.restatements(conn, document_id))
        found += guidance_variance_alerts(findings.guidance_outcomes(conn, [issuer]))
    # A separate write transaction: on SQLite a read that turns into a write fails at once
    # ("database is locked") when another run wrote in between; dedup keys make this safe.
    return store_alerts(engine, found)


def store_alerts(engine: Engine, found: Sequence[NewAlert]) -> list[str]:
    """Insert alerts not seen before; return the ids created by this call."""
    with engine.begin() as conn:
        return alerts.add_alerts(conn, found)


def deliver_pending(engine: Engine, channels: Sequence[Channel]) -> int:
    """Send every stored alert not yet delivered on each channel; return deliveries made."""
    if not channels:
        return 0
    with engine.begin() as conn:
        pending = alerts.pending_deliveries(conn, [c.name for c in channels])
    by_name: dict[str, Channel] = {c.name: c for c in channels}
    delivered = 0
    for item in pending:
        channel = by_name[item.channel]
        # Claim, send and mark in one transaction: see the module docstring.
        with engine.begin() as conn:
            if not alerts.claim_delivery(conn, item.alert_id, item.channel):
                continue
            try:
                channel.send(item)
            except DELIVERY_ERRORS as exc:
                error = channel.describe_error(exc)
                log.warning("alert %s not delivered on %s: %s", item.alert_id, channel.name, error)
                alerts.mark_delivery(conn, item.alert_id, item.channel, ok=False, error=error)
                continue
            alerts.mark_delivery(conn, item.alert_id, item.channel, ok=True)
        delivered += 1
    return delivered


alert_checks_task = task(name="alert", cache_policy=NO_CACHE)(check_alerts)
alert_document_task = task(name="alert", cache_policy=NO_CACHE)(document_alerts)
deliver_task = task(name="deliver-alerts", cache_policy=NO_CACHE)(deliver_pending)
