"""Status stage: the warehouse's account of runs, documents and alerts.

Runs are bookkept in the ``runs`` table (so ``filings status`` needs no Prefect API), and what
one run did is read back by time and issuer for its artifact.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.engine import Engine

from storage import repo
from storage.schema import alert_events, documents, runs, validation_results
from storage.sql import utcnow
from storage.views import ALERTS


@dataclass(frozen=True, slots=True)
class RunRecord:
    """One pipeline run as the warehouse remembers it."""

    run_id: str
    flow_run_id: str | None
    started_at: datetime
    finished_at: datetime | None
    status: str
    summary: dict[str, Any]


@dataclass(frozen=True, slots=True)
class AlertLine:
    """An alert, short: id, kind, issuer, subject."""

    alert_id: str
    kind: str
    issuer: str
    subject: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class FailedCheck:
    """A failed validation of a document."""

    document_id: str
    check: str  # suite.expectation
    severity: str
    observed: str


@dataclass(frozen=True, slots=True)
class RunActivity:
    """What changed in the warehouse since a run started, with ids."""

    documents: tuple[tuple[str, str], ...]  # (document_id, status)
    failed_checks: tuple[FailedCheck, ...]
    alerts: tuple[AlertLine, ...]


@dataclass(frozen=True, slots=True)
class WarehouseStatus:
    """What ``filings status`` shows."""

    runs: tuple[RunRecord, ...]
    documents_by_status: dict[str, int]
    undelivered: tuple[AlertLine, ...]


def start_run(engine: Engine, flow_run_id: str | None) -> tuple[str, datetime]:
    """Record a run's start; return its run_id and start time."""
    with engine.begin() as conn:
        run_id = repo.start_run(conn, flow_run_id)
        started = conn.execute(select(runs.c.started_at).where(runs.c.run_id == run_id)).scalar()
    return run_id, started or utcnow()


def finish_run(engine: Engine, run_id: str, status: str, summary: dict[str, Any]) -> None:
    """Record how a run ended (completed, failed) and its counters."""
    with engine.begin() as conn:
        repo.finish_run(conn, run_id, status, summary)


def fail_runs_of(engine: Engine, flow_run_id: str) -> int:
    """Mark the still-running warehouse runs of a Prefect flow run failed; return how many."""
    stmt = (
        update(runs)
        .where(runs.c.flow_run_id == flow_run_id, runs.c.status == "running")
        .values(status="failed", finished_at=utcnow())
    )
    with engine.begin() as conn:
        return int(conn.execute(stmt).rowcount or 0)


def run_activity(engine: Engine, since: datetime, issuers: Sequence[str]) -> RunActivity:
    """Documents touched, checks failed and alerts raised since ``since`` for the issuers."""
    d, v, a = documents, validation_results, alert_events
    with engine.connect() as conn:
        docs = conn.execute(
            select(d.c.document_id, d.c.status)
            .where(d.c.updated_at >= since, d.c.issuer.in_(issuers))
            .order_by(d.c.document_id)
        ).all()
        checks = conn.execute(
            select(v.c.document_id, v.c.suite, v.c.expectation, v.c.severity, v.c.observed)
            .join(d, d.c.document_id == v.c.document_id)
            .where(v.c.validated_at >= since, v.c.success.is_(False), d.c.issuer.in_(issuers))
            .order_by(v.c.document_id, v.c.suite, v.c.expectation)
        ).all()
        alerts = conn.execute(
            select(a.c.alert_id, a.c.kind, a.c.issuer, a.c.subject, a.c.created_at)
            .where(a.c.created_at >= since, a.c.issuer.in_([*issuers, "*"]))
            .order_by(a.c.created_at, a.c.alert_id)
        ).all()
    return RunActivity(
        documents=tuple((r.document_id, r.status) for r in docs),
        failed_checks=tuple(
            FailedCheck(r.document_id, f"{r.suite}.{r.expectation}", r.severity, r.observed)
            for r in checks
        ),
        alerts=tuple(AlertLine(*r) for r in alerts),
    )


def warehouse_status(engine: Engine, last: int = 10) -> WarehouseStatus:
    """Last runs, documents by status and alerts not yet delivered on every channel."""
    with engine.connect() as conn:
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
    return WarehouseStatus(
        runs=tuple(
            RunRecord(
                r.run_id,
                r.flow_run_id,
                r.started_at,
                r.finished_at,
                r.status,
                json.loads(r.summary or "{}"),
            )
            for r in recent
        ),
        documents_by_status={str(s): int(n) for s, n in by_status},
        undelivered=tuple(AlertLine(*r) for r in undelivered),
    )
