"""Pipeline-failure alerts: the ``pipeline-failure-alert`` flow and the failing run's own hook.

The flow runs in its own process, started by the server (a deployment trigger on the
``prefect.flow-run.Failed``/``Crashed`` events, see deploy/prefect.yaml) and hourly as a
sweep; the hook is the fast path while the failing process is still alive. Both store the
alert under the flow run id, so a failure raises exactly one ``pipeline_failure`` alert.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from prefect import flow, get_run_logger
from prefect.exceptions import TerminationSignal

from tasks import alert
from tasks.config import wiring
from tasks.config.settings import load_settings
from tasks.delivery.channels import channels_from_settings
from tasks.runs import bookkeeping, failed_runs


@flow(name="pipeline-failure-alert", log_prints=True)
def alert_failed_runs(flow_run_id: str = "", lookback_hours: int = 24) -> list[str]:
    """Alert on failed or crashed pipeline runs; each failure is alerted once.

    Args:
        flow_run_id: The failed flow run (the automation fills it in); empty sweeps all
            failed runs of the lookback window.
        lookback_hours: How far back a sweep looks for failed runs.
    """
    settings = load_settings()
    engine = wiring.warehouse(settings)
    since = datetime.now(UTC) - timedelta(hours=lookback_hours)
    runs = failed_runs.find_failed_runs_task(since, flow_run_id or None)
    created = failed_runs.store_failures_task(engine, runs)
    alert.deliver_task(engine, channels_from_settings(settings), settings.alert_digest)
    get_run_logger().info("%d failed run(s) seen, %d new alert(s)", len(runs), len(created))
    return created


def _interrupted(state: Any) -> bool:
    """A crash from a signal (Ctrl-C, or SIGTERM, which Prefect raises as TerminationSignal):
    its state carries the exception (or its record)."""
    data = getattr(state, "data", None)
    return isinstance(getattr(data, "result", data), KeyboardInterrupt | TerminationSignal)


def on_run_failed(flow: Any, flow_run: Any, state: Any) -> None:
    """Flow hook (on_failure, on_crashed): store and send the run's failure alert now; a run
    stopped by Ctrl-C or SIGTERM is only recorded as interrupted (no failure to alert)."""
    settings = load_settings()
    engine = wiring.warehouse(settings)
    if _interrupted(state):
        try:
            bookkeeping.fail_runs_of(engine, str(flow_run.id), interrupted=True)
        finally:
            engine.dispose()
        return
    try:
        failed_runs.store_failures(engine, [failed_runs.failed_run(flow_run, flow.name, state)])
        bookkeeping.fail_runs_of(engine, str(flow_run.id))
        alert.deliver_pending(engine, channels_from_settings(settings))
    finally:
        engine.dispose()
