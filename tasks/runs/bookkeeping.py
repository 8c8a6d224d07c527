"""Run bookkeeping: each run's row in the warehouse's ``runs`` table, and what it published.

A run is recorded when it starts; when it ends, what it did (read back from the warehouse by
time and issuer) is published as its Prefect artifacts and its counters are stored with how
it ended. ``filings status`` reads the same table, so it needs no Prefect API: Prefect is
imported only by the functions a flow calls (a status read never loads it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.engine import Engine

from domain import workers
from domain.enums import RunStatus
from domain.readouts import WarehouseStatus
from storage import db, findings, runs
from tasks.runs.summary import RunSummary


@dataclass(frozen=True, slots=True)
class RunHandle:
    """A started run: its warehouse id and start time."""

    run_id: str
    started_at: datetime


def begin(engine: Engine, worker: str | None = None) -> RunHandle:
    """Record the run in the warehouse's ``runs`` table, as process ``worker``; first mark
    ``crashed`` the runs left ``running`` by a process that is gone (killed on this host)."""
    from prefect import runtime  # deferred: only a flow begins a run

    flow_run_id = runtime.flow_run.id
    with db.begin_writing(engine) as conn:
        runs.mark_crashed(conn, workers.gone)
        run_id = runs.start_run(conn, str(flow_run_id) if flow_run_id else None, worker)
        return RunHandle(run_id, runs.started_at(conn, run_id))


def finish(engine: Engine, run: RunHandle, summary: RunSummary, issuers: list[str]) -> None:
    """Publish the run's artifacts and record how it ended (its counters, for ``status``)."""
    # deferred: only a flow finishes a run; status reads stay without Prefect
    from prefect import runtime

    from tasks.runs import artifacts

    with engine.connect() as conn:
        activity = runs.run_activity(conn, run.started_at, summary.ingested_ids, summary.raised_ids)
        guidance = findings.guidance_rows(conn, issuers)
    scope = runtime.deployment.name or runtime.flow_run.flow_name or "ingest"
    artifacts.publish_run(scope, summary, activity, guidance)
    outcome = RunStatus.COMPLETED if summary.ok else RunStatus.COMPLETED_WITH_ERRORS
    with engine.begin() as conn:
        runs.finish_run(conn, run.run_id, outcome, summary.counts())


def delivered_of(engine: Engine, alert_ids: Sequence[str]) -> int:
    """How many of the alerts are delivered on every channel now (by any run)."""
    with engine.connect() as conn:
        return runs.delivered_among(conn, alert_ids)


def fail_runs_of(engine: Engine, flow_run_id: str, interrupted: bool = False) -> int:
    """Mark the still-running runs of a Prefect flow run failed (or interrupted); return how
    many."""
    status = RunStatus.INTERRUPTED if interrupted else RunStatus.FAILED
    with engine.begin() as conn:
        return runs.fail_runs_of(conn, flow_run_id, status)


def interrupt_runs(engine: Engine, mine: Callable[[str], bool]) -> list[str]:
    """Mark this process's still-running runs interrupted (``mine`` tells its workers)."""
    with engine.begin() as conn:
        return runs.interrupt_runs(conn, mine)


def warehouse_status(engine: Engine, last: int = 10) -> WarehouseStatus:
    """Last runs, documents by status and alerts not yet delivered on every channel."""
    with engine.connect() as conn:
        return runs.warehouse_status(conn, last)
