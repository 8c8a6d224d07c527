"""Pipeline-failure stage: failed or crashed flow runs become ``pipeline_failure`` alerts.

A run that dies cannot be trusted to report itself, so the runs are read back from the Prefect
API by a separate process (a deployment triggered by a server automation, and an hourly sweep);
the failing run's own hook is only the fast path. Every path stores the alert under the key
``pipeline_failure:<flow_run_id>``, so a failure is alerted exactly once whoever sees it first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from prefect import get_client, task
from prefect.cache_policies import NO_CACHE
from prefect.client.schemas.filters import (
    FlowFilter,
    FlowFilterName,
    FlowRunFilter,
    FlowRunFilterExpectedStartTime,
    FlowRunFilterId,
    FlowRunFilterState,
    FlowRunFilterStateType,
)
from prefect.client.schemas.objects import StateType
from sqlalchemy.engine import Engine

from domain.readouts import FailedRun
from storage import alerts
from tasks.delivery.messages import failure_alert

# The flows whose failure is a pipeline failure (not the failure-alert flow itself: no loops).
WATCHED_FLOWS = ("ingest", "ingest-local", "revalidate", "watch")
FAILED_TYPES = (StateType.FAILED, StateType.CRASHED)


def failed_run(flow_run: Any, flow_name: str, state: Any) -> FailedRun:
    """Describe a Prefect flow run (client schema) and the state it ended in."""
    issuers = flow_run.parameters.get("issuers") or flow_run.parameters.get("issuer") or ()
    if isinstance(issuers, str):
        issuers = (issuers,)
    message = (getattr(state, "message", None) or "").strip().splitlines()
    return FailedRun(
        flow_run_id=str(flow_run.id),
        flow_name=flow_name,
        run_name=str(flow_run.name),
        state_name=str(getattr(state, "name", None) or "Failed"),
        message=message[0][:300] if message else "",
        deployment_id=str(flow_run.deployment_id or ""),
        issuers=tuple(str(i).upper() for i in issuers),
    )


def store_failures(engine: Engine, runs: Iterable[FailedRun]) -> list[str]:
    """Store one alert per failed run not alerted before; return the ids created."""
    with engine.begin() as conn:
        return alerts.add_alerts(conn, [failure_alert(r) for r in runs])


def find_failed_runs(
    since: datetime, flow_run_id: str | None = None, flows: Sequence[str] = WATCHED_FLOWS
) -> list[FailedRun]:
    """Failed or crashed runs of the watched flows expected to start after ``since``."""
    run_filter = FlowRunFilter(
        state=FlowRunFilterState(type=FlowRunFilterStateType(any_=list(FAILED_TYPES))),
        expected_start_time=FlowRunFilterExpectedStartTime(after_=since),  # type: ignore[arg-type]
    )
    if flow_run_id:
        run_filter.id = FlowRunFilterId(any_=[UUID(flow_run_id)])
    with get_client(sync_client=True) as client:
        runs = client.read_flow_runs(
            flow_filter=FlowFilter(name=FlowFilterName(any_=list(flows))),
            flow_run_filter=run_filter,
            limit=200,
        )
        names = {fid: client.read_flow(fid).name for fid in {r.flow_id for r in runs}}
    return [failed_run(r, names[r.flow_id], r.state) for r in runs]


find_failed_runs_task = task(name="find-failed-runs", retries=2, cache_policy=NO_CACHE)(
    find_failed_runs
)
store_failures_task = task(name="store-failure-alerts", cache_policy=NO_CACHE)(store_failures)
