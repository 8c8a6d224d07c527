"""What a deployed watch run asks of Prefect: when the next scheduled run of its deployment
takes over (a watching run ends then), and, for a one-pass run, an ``ingest`` flow run of its
own for each finding (one issuer, one source) on the work pool, started and not waited for.

A one-pass run that only detects and dispatches lasts about a second, and the findings of one
pass are processed side by side by the pool's workers. The same finding seen by two passes
before its run has recorded it (a slow worker) maps to one flow run: the run's idempotency key
names the documents and a ten-minute window, so a run that could not record them is tried
again after ten minutes at most (and claims keep any overlap from processing a document
twice).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from uuid import UUID

from prefect import get_client, runtime, task
from prefect.cache_policies import NO_CACHE
from prefect.client.schemas.filters import (
    DeploymentFilter,
    DeploymentFilterId,
    FlowRunFilter,
    FlowRunFilterState,
    FlowRunFilterStateType,
)
from prefect.client.schemas.objects import FlowRun, StateType
from prefect.client.schemas.sorting import FlowRunSort
from prefect.deployments import run_deployment

# The deployment (flow/name) a watch pass hands its findings to (deploy/prefect.yaml).
INGEST_DEPLOYMENT = "ingest/watch-ingest"
KEY_WINDOW_SECONDS = 600


def deployed() -> bool:
    """Whether this flow run belongs to a deployment (a worker can start others for it)."""
    return runtime.deployment.id is not None


def next_scheduled() -> datetime | None:
    """When the next scheduled run of this run's deployment is due, if later than now (None:
    not deployed, or no run scheduled: its schedule is paused)."""
    deployment = runtime.deployment.id
    if deployment is None:
        return None
    with get_client(sync_client=True) as client:
        runs = client.read_flow_runs(
            deployment_filter=DeploymentFilter(id=DeploymentFilterId(any_=[UUID(deployment)])),
            flow_run_filter=FlowRunFilter(
                state=FlowRunFilterState(type=FlowRunFilterStateType(any_=[StateType.SCHEDULED]))
            ),
            sort=FlowRunSort.EXPECTED_START_TIME_ASC,
            limit=5,
        )
    now = datetime.now(UTC)
    due = [r.expected_start_time for r in runs if r.expected_start_time]
    return next((when for when in due if when > now), None)


def idempotency_key(source: str, ticker: str, documents: Sequence[str], now: float) -> str:
    """One key per finding (source, issuer, documents) and ten-minute window."""
    digest = hashlib.sha256(",".join(sorted(documents)).encode()).hexdigest()[:16]
    return f"watch-{source}-{ticker}-{digest}-{int(now // KEY_WINDOW_SECONDS)}"


@task(name="dispatch", cache_policy=NO_CACHE, retries=2, retry_delay_seconds=2)
def dispatch_ingest(source: str, ticker: str, documents: Sequence[str]) -> str:
    """Start the ingest run of one finding on the work pool; return the flow run's name."""
    run: FlowRun = run_deployment(  # type: ignore[assignment]  # sync: never a coroutine
        INGEST_DEPLOYMENT,
        parameters={"issuers": [ticker], "sources": [source]},
        timeout=0,
        idempotency_key=idempotency_key(source, ticker, documents, time.time()),
        as_subflow=False,
    )
    return f"{run.name} ({ticker} {source}: {len(documents)} new)"
