"""Run-level reporting of the ingest flows: the ``runs`` row and the run's artifacts.

Kept out of flows/ingest.py so the flow body stays a list of stages.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime

from prefect import runtime
from sqlalchemy.engine import Engine

from tasks import artifacts, report, status
from tasks.summary import RunSummary


@dataclass(frozen=True, slots=True)
class RunHandle:
    """A started run: its warehouse id and start time."""

    run_id: str
    started_at: datetime


def begin(engine: Engine) -> RunHandle:
    """Record the run in the warehouse's ``runs`` table."""
    flow_run_id = runtime.flow_run.id
    run_id, started = status.start_run(engine, str(flow_run_id) if flow_run_id else None)
    return RunHandle(run_id, started)


def finish(engine: Engine, run: RunHandle, summary: RunSummary, issuers: list[str]) -> None:
    """Publish the run's artifacts and record how it ended."""
    activity = status.run_activity(engine, run.started_at, issuers)
    guidance = report.read_guidance(engine, issuers)
    scope = runtime.deployment.name or runtime.flow_run.flow_name or "ingest"
    artifacts.publish_run_task(scope, summary, activity, guidance)
    outcome = "completed" if summary.ok else "completed_with_errors"
    status.finish_run(engine, run.run_id, outcome, asdict(summary))
