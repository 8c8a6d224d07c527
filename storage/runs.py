"""Runs in the warehouse: the ``runs`` table, and what a run did read back for its artifact.

Runs are kept here (so ``filings status`` needs no Prefect API). Functions take a
``Connection`` and run inside the caller's transaction.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.engine import Connection

from domain.enums import AlertKind, RunStatus, Severity, Status
from domain.readouts import (
    AlertLine,
    FailedCheck,
    QuarantinedDocument,
    RunActivity,
    RunRecord,
    WarehouseStatus,
)
from storage.audited import all_accuracy
from storage.schema import alert_events, documents, runs, validation_results
from storage.sql import utcnow
from storage.views import ALERTS


def start_run(conn: Connection, flow_run_id: str | None, worker: str | None = None) -> str:
    """Record the start of a pipeline run (``worker``: its process); returns its run_id."""
    run_id = uuid.uuid4().hex
    conn.execute(
        runs.insert().values(
            run_id=run_id,
            flow_run_id=flow_run_id,
            started_at=utcnow(),
            status=RunStatus.RUNNING.value,
            summary="{}",
            worker=worker,
        )
    )
    return run_id


def mark_crashed(conn: Connection, gone: Callable[[str], bool]) -> list[str]:
    """Mark ``crashed`` the runs still ``running`` whose process is ``gone`` (killed without
    a chance to record how it ended); returns their run ids."""
    return _end_running(conn, gone, status=RunStatus.CRASHED.value)


def _end_running(conn: Connection, whose: Callable[[str], bool], **values: Any) -> list[str]:
    """Set ``values`` on the runs still ``running`` whose worker ``whose`` picks (rows that
    ended meanwhile are left as they are); returns their run ids."""
    running = conn.execute(
        select(runs.c.run_id, runs.c.worker).where(
            runs.c.status == RunStatus.RUNNING.value, runs.c.worker.is_not(None)
        )
    ).all()
    picked = [r.run_id for r in running if whose(str(r.worker))]
    if picked:
        conn.execute(
            update(runs)
            .where(runs.c.run_id.in_(picked), runs.c.status == RunStatus.RUNNING.value)
            .values(**values)
        )
    return picked


def started_at(conn: Connection, run_id: str) -> datetime:
    """When a run started, as stored."""
    started: datetime = conn.execute(
        select(runs.c.started_at).where(runs.c.run_id == run_id)
    ).scalar_one()
    return started


def finish_run(conn: Connection, run_id: str, status: RunStatus, summary: dict[str, Any]) -> None:
    """Record how a run ended; ``summary`` is stored as JSON (Decimal and dates as text)."""
    text = json.dumps(summary, sort_keys=True, default=str)
    stmt = (
        update(runs)
        .where(runs.c.run_id == run_id)
        .values(finished_at=utcnow(), status=RunStatus(status).value, summary=text)
    )
    if conn.execute(stmt).rowcount == 0:
        raise LookupError(f"unknown run {run_id!r}")


def fail_runs_of(conn: Connection, flow_run_id: str, status: RunStatus = RunStatus.FAILED) -> int:
    """Mark the still-running runs of a Prefect flow run failed (or ``status``); return how
    many."""
    stmt = (
        update(runs)
        .where(runs.c.flow_run_id == flow_run_id, runs.c.status == RunStatus.RUNNING.value)
        .values(status=status.value, finished_at=utcnow())
    )
    return int(conn.execute(stmt).rowcount or 0)


def interrupt_runs(conn: Connection, mine: Callable[[str], bool]) -> list[str]:
    """Mark ``interrupted`` the runs still ``running`` whose worker is ``mine``."""
    return _end_running(conn, mine, status=RunStatus.INTERRUPTED.value, finished_at=utcnow())


def run_activity(
    conn: Connection, since: datetime, document_ids: Sequence[str], alert_ids: Sequence[str]
) -> RunActivity:
    """What one run did, by its own ids (never another run's beside it): the documents it
    ingested, the checks that failed on them in this run, the alerts it raised."""
    d, v, a = documents, validation_results, alert_events
    docs = conn.execute(
        select(d.c.document_id, d.c.status)
        .where(d.c.document_id.in_(list(document_ids)))
        .order_by(d.c.document_id)
    ).all()
    checks = conn.execute(
        select(v.c.document_id, v.c.suite, v.c.expectation, v.c.severity, v.c.observed)
        .where(
            v.c.validated_at >= since,
            v.c.success.is_(False),
            v.c.document_id.in_(list(document_ids)),
        )
        .order_by(v.c.document_id, v.c.suite, v.c.expectation)
    ).all()
    alerts = conn.execute(
        select(a.c.alert_id, a.c.kind, a.c.issuer, a.c.subject, a.c.created_at)
        .where(a.c.alert_id.in_(list(alert_ids)))
        .order_by(a.c.created_at, a.c.alert_id)
    ).all()
    return RunActivity(
        documents=tuple((r.document_id, Status(r.status)) for r in docs),
        failed_checks=tuple(
            FailedCheck(
                r.document_id, f"{r.suite}.{r.expectation}", Severity(r.severity), r.observed
            )
            for r in checks
        ),
        alerts=tuple(_alert_line(r) for r in alerts),
    )


def delivered_among(conn: Connection, alert_ids: Sequence[str]) -> int:
    """How many of the alerts are delivered on every channel that tried (``alerts`` view)."""
    if not alert_ids:
        return 0
    found = conn.execute(
        select(func.count())
        .select_from(ALERTS)
        .where(ALERTS.c.alert_id.in_(list(alert_ids)), ALERTS.c.delivered_at.is_not(None))
    ).scalar_one()
    return int(found)


def warehouse_status(conn: Connection, last: int = 10) -> WarehouseStatus:
    """Last runs, documents by status (the quarantined by id) and alerts not yet delivered on
    every channel."""
    recent = conn.execute(
        select(runs).order_by(runs.c.started_at.desc(), runs.c.run_id).limit(last)
    ).all()
    by_status = conn.execute(
        select(documents.c.status, func.count())
        .group_by(documents.c.status)
        .order_by(documents.c.status)
    ).all()
    undelivered = conn.execute(
        select(ALERTS.c.alert_id, ALERTS.c.kind, ALERTS.c.issuer, ALERTS.c.subject)
        .add_columns(ALERTS.c.created_at)
        .where(ALERTS.c.delivered_at.is_(None))
        .order_by(ALERTS.c.created_at, ALERTS.c.alert_id)
    ).all()
    held = conn.execute(
        select(documents.c.document_id, documents.c.issuer, documents.c.status_reason)
        .where(documents.c.status == Status.QUARANTINED.value)
        .order_by(documents.c.document_id)
    ).all()
    return WarehouseStatus(
        runs=tuple(_run_record(r) for r in recent),
        documents_by_status={str(s): int(n) for s, n in by_status},
        undelivered=tuple(_alert_line(r) for r in undelivered),
        accuracy=tuple(all_accuracy(conn)),
        quarantined=tuple(QuarantinedDocument(d, i or "", r or "") for d, i, r in held),
    )


def _run_record(r: Any) -> RunRecord:
    summary = json.loads(r.summary or "{}")
    return RunRecord(
        r.run_id, r.flow_run_id, r.started_at, r.finished_at, RunStatus(r.status), summary
    )


def _alert_line(r: Any) -> AlertLine:
    return AlertLine(r.alert_id, AlertKind(r.kind), r.issuer, r.subject, r.created_at)
