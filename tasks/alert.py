"""Alert stage: turn findings into stored alerts (an outbox), then deliver them once per channel.

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

from storage import repo
from storage.findings import (
    GuidanceOutcome,
    Report,
    Restatement,
    guidance_outcomes,
    restatements,
)
from tasks.alert_text import amount, guidance_range, metric_label, percent, period_label
from tasks.channels import DELIVERY_ERRORS, Channel, channels_from_settings
from tasks.core.enums import AlertKind, Severity, VersusGuidance
from tasks.core.records import ValidationResult

__all__ = [
    "Channel",
    "channels_from_settings",
    "data_quality_alerts",
    "deliver_pending",
    "findings_alerts",
    "guidance_variance_alerts",
    "restatement_alerts",
    "store_alerts",
]
log = logging.getLogger(__name__)


def data_quality_alerts(
    issuer: str, document_id: str, results: Sequence[ValidationResult]
) -> list[repo.NewAlert]:
    """One alert per failed expectation; the same failure of the same document dedups."""
    alerts = []
    for result in results:
        if result.success:
            continue
        check = f"{result.suite}.{result.expectation}"
        subject = f"{issuer} {document_id}: {check} failed ({result.severity})"
        # observed quotes the failed identity's two sides and their figures, e.g.
        # "2023-12-31: total_assets 45818672000 vs total_liabilities_and_equity 45818572000".
        action = (
            f"Quarantined: its facts stay out of facts_latest until "
            f"`filings release {document_id} --by NAME`."
            if result.severity == Severity.CRITICAL
            else "Published; please review."
        )
        message = f"{subject}. {result.observed}. {action}\n{result.details}".strip()
        alerts.append(
            repo.NewAlert(
                kind=AlertKind.DATA_QUALITY,
                issuer=issuer,
                subject=subject,
                message=message,
                dedup_key=f"data_quality:{document_id}:{result.suite}:{result.expectation}:"
                f"{result.observed}",
                document_id=document_id,
            )
        )
    return alerts


def restatement_alerts(items: Sequence[Restatement]) -> list[repo.NewAlert]:
    """One alert per restated value, naming both values and both documents."""
    alerts = []
    for r in items:
        what = f"{r.issuer} {period_label(r.period_start, r.period_end)} {metric_label(r.metric)}"
        old = amount(r.before.value, r.before.unit, r.before.decimals)
        new = amount(r.after.value, r.after.unit, r.after.decimals)
        change = ""
        if r.before.value and r.before.unit == r.after.unit:
            change = f" ({percent((r.after.value - r.before.value) * 100 / r.before.value)})"
        message = (
            f"{what} was restated from {old} ({r.before.document_id}, reported "
            f"{r.before.reported_on}) to {new}{change} ({r.after.document_id}, reported "
            f"{r.after.reported_on}). facts_latest shows {new}; facts_history keeps both. "
            "Check the later document's notes for the reason before using the old figure."
        )
        period = f"{r.period_start or ''}:{r.period_end}"
        alerts.append(
            repo.NewAlert(
                kind=AlertKind.RESTATEMENT,
                issuer=r.issuer,
                subject=f"{what} restated: {old} -> {new}",
                message=message,
                dedup_key=f"restatement:{r.issuer}:{r.metric}:{period}:{r.basis}:"
                f"{r.before.document_id}:{r.after.document_id}",
                document_id=r.after.document_id,
                details={
                    "metric": r.metric,
                    "period_start": r.period_start,
                    "period_end": r.period_end,
                    "basis": r.basis,
                    "before": _report(r.before),
                    "after": _report(r.after),
                },
            )
        )
    return alerts


def _report(r: Report) -> dict[str, object]:
    return {k: str(getattr(r, k)) for k in ("value", "decimals", "unit", "document_id")}


def guidance_variance_alerts(items: Sequence[GuidanceOutcome]) -> list[repo.NewAlert]:
    """One alert per guided period whose actual landed outside the range (above or below)."""
    alerts = []
    for o in items:
        if o.outcome not in (VersusGuidance.ABOVE, VersusGuidance.BELOW):
            continue
        near, far = (o.high, o.low) if o.outcome == VersusGuidance.ABOVE else (o.low, o.high)
        bound = near if near is not None else far
        what = f"{o.issuer} {period_label(o.period_start, o.period_end)} {metric_label(o.metric)}"
        actual = amount(o.actual, o.unit, o.actual_decimals)
        side = "top" if o.outcome == VersusGuidance.ABOVE else "bottom"
        off = abs(o.actual - bound) * 100 / abs(bound) if bound else None
        how = f"{percent(off, signed=False)} {o.outcome} the {side}" if off is not None else side
        message = (
            f"{what} {actual} is {how} of its guidance {guidance_range(o.low, o.high, o.unit)}"
            f" (issued {o.issued_on})."
        )
        if o.variance_pct is not None:
            message += f" Variance against the midpoint: {percent(o.variance_pct)}."
        message += f" Actual from {o.actual_document_id}; guidance from {o.guidance_document_id}."
        alerts.append(
            repo.NewAlert(
                kind=AlertKind.GUIDANCE_VARIANCE,
                issuer=o.issuer,
                subject=f"{what} {o.outcome} guidance",
                message=message,
                dedup_key=f"guidance_variance:{o.issuer}:{o.metric}:{o.period_start}:"
                f"{o.period_end}:{o.guidance_document_id}:{o.outcome}",
                document_id=o.actual_document_id,
                details={"variance_pct": o.variance_pct, "outcome": o.outcome},
            )
        )
    return alerts


def findings_alerts(engine: Engine, issuer: str, document_id: str) -> list[str]:
    """Store restatement and guidance-variance alerts after a load; returns ids created."""
    with engine.connect() as conn:
        found = restatement_alerts(restatements(conn, document_id))
        found += guidance_variance_alerts(guidance_outcomes(conn, [issuer]))
    # A separate write transaction: on SQLite a read that turns into a write fails at once
    # ("database is locked") when another run wrote in between; dedup keys make this safe.
    return store_alerts(engine, found)


def store_alerts(engine: Engine, alerts: Sequence[repo.NewAlert]) -> list[str]:
    """Insert alerts not seen before; return the ids created by this call."""
    with engine.begin() as conn:
        return repo.add_alerts(conn, alerts)


def deliver_pending(engine: Engine, channels: Sequence[Channel]) -> int:
    """Send every stored alert not yet delivered on each channel; return deliveries made."""
    if not channels:
        return 0
    with engine.begin() as conn:
        pending = repo.pending_deliveries(conn, [c.name for c in channels])
    by_name = {c.name: c for c in channels}
    delivered = 0
    for item in pending:
        channel = by_name[item.channel]
        # Claim, send and mark in one transaction: see the module docstring.
        with engine.begin() as conn:
            if not repo.claim_delivery(conn, item.alert_id, item.channel):
                continue
            try:
                channel.send(item)
            except DELIVERY_ERRORS as exc:
                error = channel.describe_error(exc)
                log.warning("alert %s not delivered on %s: %s", item.alert_id, channel.name, error)
                repo.mark_delivery(conn, item.alert_id, item.channel, ok=False, error=error)
                continue
            repo.mark_delivery(conn, item.alert_id, item.channel, ok=True)
        delivered += 1
    return delivered


store_alerts_task = task(name="store-alerts", cache_policy=NO_CACHE)(store_alerts)
findings_alerts_task = task(name="findings-alerts", cache_policy=NO_CACHE)(findings_alerts)
deliver_task = task(name="deliver-alerts", cache_policy=NO_CACHE)(deliver_pending)
