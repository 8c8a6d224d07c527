"""Alert stage: turn findings into stored alerts (an outbox), then deliver them once per channel.

What the alerts say is :mod:`tasks.delivery.messages`; how they travel is
:mod:`tasks.delivery.channels`.

Storing comes first. Each (alert, channel) send is then claimed (committed), sent, and its
result recorded: at most once per channel. A send that cannot have reached the receiver (no
connection, or the receiver refused it) is released and sent again by the next run. One that
may have (the connection failed after the message went out) is *in doubt*, with that reason;
so is a send whose run was killed between the claim and the result (the next run marks it).
A send in doubt is never sent again on its own, so no receiver gets an alert twice;
``filings status`` lists it, and ``filings alerts resend`` sends it again when an operator
decides. Every send carries the alert's id as its Message-ID /
Idempotency-Key, the same on every try. A concurrent run sees the claim and skips the alert.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Collection, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from sqlalchemy.engine import Connection, Engine

from domain import workers
from domain.enums import AlertKind
from domain.errors import NotSentError, SendInDoubtError
from domain.readouts import DeliveryReport
from domain.records import NewAlert, PendingDelivery, ValidationResult, critical_failures
from domain.releases import AGREEMENT_CHECK
from storage import alerts, db, documents, findings
from tasks.delivery.channels import Channel
from tasks.delivery.disagreements import disagreement_alerts
from tasks.delivery.messages import (
    data_quality_alerts,
    guidance_variance_alerts,
    restatement_alerts,
)
from tasks.runs.run_links import run_reference
from tasks.sources.urls import public_document_url
from tasks.stage_task import StageTask

log = logging.getLogger(__name__)


def document_alerts(
    conn: Connection, issuer: str, document_id: str, checks: Sequence[ValidationResult]
) -> list[str]:
    """In the load's transaction: alert the document's failed checks, then what the warehouse
    now shows (restatements, guidance outcomes); returns the ids created. A run killed after
    the load cannot leave a loaded document whose alerts were never raised."""
    found = quality_alerts(conn, issuer, document_id, checks)
    found += restatement_alerts(findings.restatements(conn, document_id))
    found += guidance_variance_alerts(findings.guidance_outcomes(conn, [issuer]))
    return alerts.add_alerts(conn, linked_alerts(conn, found))


def settled_alerts(
    conn: Connection, issuer: str, document_id: str, checks: Sequence[ValidationResult]
) -> list[str]:
    """In the settling transaction (tasks/settle.py): alert the failed cross-document checks
    of a document (a finding alerted before is not raised again); returns the ids created."""
    return alerts.add_alerts(
        conn, linked_alerts(conn, quality_alerts(conn, issuer, document_id, checks))
    )


def check_alerts(
    engine: Engine, issuer: str, document_id: str, checks: Sequence[ValidationResult]
) -> list[str]:
    """Store one data-quality alert per failed expectation; returns the ids created."""
    with engine.connect() as conn:
        found = quality_alerts(conn, issuer, document_id, checks)
    return store_alerts(engine, found)


def quality_alerts(
    conn: Connection, issuer: str, document_id: str, checks: Sequence[ValidationResult]
) -> list[NewAlert]:
    """One alert per failed check, but a disagreement with another document of the same
    disclosure when it is the only critical failure (the document's own reading stands, and
    both are held): one alert for the pair, the same whichever of the two is validated."""
    if critical_failures(checks) != [AGREEMENT_CHECK]:
        return data_quality_alerts(issuer, document_id, checks)
    pairs = disagreement_alerts(findings.disagreements(conn, document_id))
    if not pairs:  # nothing stored to name (figures not stored yet): the check's own alert
        return data_quality_alerts(issuer, document_id, checks)
    return data_quality_alerts(issuer, document_id, checks, (AGREEMENT_CHECK,)) + pairs


def findings_alerts(engine: Engine, issuer: str, document_id: str) -> list[str]:
    """Store restatement and guidance-variance alerts after a load; returns ids created."""
    with engine.connect() as conn:
        found = restatement_alerts(findings.restatements(conn, document_id))
        found += guidance_variance_alerts(findings.guidance_outcomes(conn, [issuer]))
    # A separate write transaction: on SQLite a read that turns into a write fails at once
    # ("database is locked") when another run wrote in between; dedup keys make this safe.
    return store_alerts(engine, found)


def with_links(engine: Engine, found: Sequence[NewAlert]) -> list[NewAlert]:
    """Each alert with where to look: its documents on EDGAR / HKEXnews, and this run in the
    Prefect UI (when the run has a server's UI)."""
    with engine.connect() as conn:
        return linked_alerts(conn, found)


def linked_alerts(conn: Connection, found: Sequence[NewAlert]) -> list[NewAlert]:
    """:func:`with_links` on an open connection (a load's transaction)."""
    linked = []
    for item in found:
        ids = [d for d in (*_other_documents(item), item.document_id) if d]
        urls = {d: _public_url(conn, d) for d in dict.fromkeys(ids)}
        lines = [f"Document: {url} ({d})" if url else f"Document: {d}" for d, url in urls.items()]
        run = _run_link(item)
        lines += [f"Prefect run: {run}"] if run else []
        text = "\n".join([item.message, *lines]) if lines else item.message
        # the finding's own document (the later one of a restatement) and this run, for programs
        page = run if run.startswith(("http://", "https://")) else None
        links = {"document_url": urls.get(item.document_id or ""), "run_url": page}
        linked.append(replace(item, message=text, details={**item.details, **links}))
    return linked


def _other_documents(item: NewAlert) -> list[str]:
    """The documents an alert names besides its own: a restatement's earlier one, both of a
    disagreeing pair."""
    before = item.details.get("before")
    if isinstance(before, dict):
        return [str(before.get("document_id", ""))]
    named = item.details.get("documents")
    return [str(d) for d in named] if isinstance(named, list) else []


def _public_url(conn: Connection, document_id: str) -> str | None:
    """Where a person opens the document (EDGAR, HKEXnews), or None when it is not stored."""
    try:
        ref = documents.get_document(conn, document_id)
    except LookupError:
        return None
    return public_document_url(ref.source, ref.url)


def _run_link(item: NewAlert) -> str:
    """The run's page in the Prefect UI (the failed run's, for a pipeline failure) when that
    page outlives the run, else the run's id (:mod:`tasks.runs.run_links`); "" outside a run."""
    # deferred: a run link is asked for inside a flow only
    from prefect import runtime
    from prefect.settings import PREFECT_API_URL, PREFECT_UI_URL

    api = PREFECT_API_URL.value()
    ui = PREFECT_UI_URL.value() if api else None
    run_id = runtime.flow_run.id
    if item.kind == AlertKind.PIPELINE_FAILURE:
        run_id = item.dedup_key.rpartition(":")[2]
    return run_reference(api, ui, str(run_id or ""))


def store_alerts(engine: Engine, found: Sequence[NewAlert]) -> list[str]:
    """Insert alerts not seen before (with their links); return the ids created by this call."""
    linked = with_links(engine, found)
    with engine.begin() as conn:
        return alerts.add_alerts(conn, linked)


# A send takes seconds (SEND_TIMEOUT_SECONDS): a claim this old belongs to a run that died,
# wherever it ran.
STALE_CLAIM = timedelta(hours=1)
# A failed send that took this long met a channel that does not answer (an answer, even a
# refusal, comes within a second): the channel's other messages wait for the next run.
HUNG_AFTER_SECONDS = 5.0


def deliver_pending(
    engine: Engine,
    channels: Sequence[Channel],
    digest: bool = False,
    worker: str = "",
    only: Collection[str] | None = None,
) -> DeliveryReport:
    """Send every stored alert not yet delivered on each channel (``only`` those alerts), as
    ``worker``.

    With ``digest`` each channel gets one message carrying all of its pending alerts (one
    per run); else one message per alert. Sends claimed by a run that died are marked in
    doubt first and never resent (module docstring).
    """
    report = DeliveryReport()
    if not channels:
        return report
    worker = worker or workers.worker_id()
    names = [c.name for c in channels]
    with db.begin_writing(engine) as conn:
        stale = alerts.mark_in_doubt(conn, workers.gone, datetime.now(UTC) - STALE_CLAIM)
        pending = alerts.pending_deliveries(conn, names)
    if only is not None:
        pending = [p for p in pending if p.alert_id in only]
    for name, count in stale.items():
        _count(report.in_doubt, name, count, "a run stopped while sending them")
    delivered: set[str] = set()
    for channel in channels:
        mine = [p for p in pending if p.channel == channel.name]
        batches = [mine] if digest and mine else [[p] for p in mine]
        delivered.update(_deliver_channel(engine, channel, batches, worker, report))
    report.delivered = len(delivered)
    report.delivered_ids = tuple(sorted(delivered))
    return report


def _deliver_channel(
    engine: Engine,
    channel: Channel,
    batches: Sequence[Sequence[PendingDelivery]],
    worker: str,
    report: DeliveryReport,
) -> list[str]:
    """Send a channel's messages in turn until one fails after waiting (a channel that does
    not answer): its other messages are not tried in this run, and stay pending for the next
    (a run against hung webhook and Slack endpoints took 133 s, one timeout per message)."""
    delivered: list[str] = []
    for n, batch in enumerate(batches):
        started = time.monotonic()
        done = _deliver(engine, channel, batch, worker, report)
        delivered += done
        if done:
            report.sent[channel.name] = report.sent.get(channel.name, 0) + len(done)
        elif time.monotonic() - started >= HUNG_AFTER_SECONDS:
            left = sum(len(b) for b in batches[n + 1 :])
            if left:
                why = "not tried: the channel did not answer in time; the next run sends them"
                log.warning("%d alert(s) not tried on %s: %s", left, channel.name, why)
                _count(report.failed, channel.name, left, why)
            break
    return delivered


def _deliver(
    engine: Engine,
    channel: Channel,
    batch: Sequence[PendingDelivery],
    worker: str,
    report: DeliveryReport,
) -> list[str]:
    """Claim (committed), send, then record the result of one message's alerts.

    A send that cannot have reached the receiver is released (retried next run), whatever
    failed (a bug too, which then propagates); one that may have, is in doubt with its reason.
    Only a run that stops during the send itself leaves its claim for the next run to judge.
    """
    with engine.begin() as conn:
        now = datetime.now(UTC)
        claimed = [
            p for p in batch if alerts.claim_delivery(conn, p.alert_id, p.channel, worker, now)
        ]
    if not claimed:
        return []
    try:
        channel.send(claimed)
    except SendInDoubtError as exc:
        why = channel.describe_error(exc)
        _record(engine, claimed, f"in doubt: {why}; not resent", doubt=True)
        _count(report.in_doubt, channel.name, len(claimed), why)
        return []
    except Exception as exc:
        error = channel.describe_error(exc)
        log.warning("%d alert(s) not delivered on %s: %s", len(claimed), channel.name, error)
        _record(engine, claimed, error, doubt=False)
        _count(report.failed, channel.name, len(claimed), error)
        if not isinstance(exc, NotSentError):
            raise
        return []
    with engine.begin() as conn:
        for p in claimed:
            alerts.mark_delivery(conn, p.alert_id, p.channel, ok=True)
    return [p.alert_id for p in claimed]


def _record(engine: Engine, claimed: Sequence[PendingDelivery], error: str, doubt: bool) -> None:
    with engine.begin() as conn:
        for p in claimed:
            alerts.mark_delivery(conn, p.alert_id, p.channel, ok=False, error=error, doubt=doubt)


def _count(counts: dict[str, tuple[int, str]], channel: str, n: int, error: str) -> None:
    count, _ = counts.get(channel, (0, ""))
    counts[channel] = (count + n, error)


alert_checks_task = StageTask(check_alerts, name="alert")
deliver_task = StageTask(deliver_pending, name="deliver-alerts")
