"""Helpers of the end-to-end tests: process control, bounded waits, where things go."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"
POOL = "filings-process"


@dataclass
class Stack:
    """The running deployment: API URL, environment for Prefect clients, warehouse URL."""

    url: str
    api_url: str
    env: dict[str, str]
    warehouse_url: str
    logs: Path
    planned: dict[str, list[Any]]  # scheduled runs the server's scheduler created


def wait_for(check: Callable[[], object], seconds: float, what: str, every: float = 2.0) -> object:
    """Poll ``check`` until it returns something truthy; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = check()
        except (requests.RequestException, OSError):
            value = None
        if value:
            return value
        time.sleep(every)
    pytest.fail(f"timed out after {seconds:.0f}s waiting for {what}")


def prefect(env: dict[str, str], *args: str) -> None:
    result = subprocess.run(
        [str(BIN / "prefect"), *args], cwd=ROOT, env=env, capture_output=True, timeout=300
    )
    assert result.returncode == 0, result.stdout.decode()[-2000:] + result.stderr.decode()[-2000:]


def client_for(api_url: str) -> Any:
    """A context manager giving a sync Prefect client on ``api_url``."""
    from prefect import get_client
    from prefect.settings import PREFECT_API_URL, temporary_settings

    @contextmanager
    def _client() -> Iterator[Any]:
        with temporary_settings({PREFECT_API_URL: api_url}), get_client(sync_client=True) as c:
            yield c

    return _client()


def deployment_runs(client: Any, deployment: str, state: str | None = None, name: str = "") -> Any:
    """Flow runs of a deployment, optionally in a state (by name) or with a run name."""
    from prefect.client.schemas.filters import (
        DeploymentFilter,
        DeploymentFilterName,
        FlowRunFilter,
        FlowRunFilterName,
        FlowRunFilterState,
        FlowRunFilterStateName,
    )

    run_filter = FlowRunFilter()
    if state:
        run_filter.state = FlowRunFilterState(name=FlowRunFilterStateName(any_=[state]))
    if name:
        run_filter.name = FlowRunFilterName(any_=[name])
    return client.read_flow_runs(
        deployment_filter=DeploymentFilter(name=DeploymentFilterName(any_=[deployment])),
        flow_run_filter=run_filter,
        limit=200,
    )


def scheduled_then_paused(api_url: str, deployments: tuple[str, ...]) -> dict[str, list[Any]]:
    """Enable each cron deployment's schedules (deployed paused, as deploy/prefect.yaml says),
    wait for the server's scheduler to plan runs of it, then pause it again.

    Pausing keeps scheduled runs from competing with the test's own runs for the worker.
    """
    planned: dict[str, list[Any]] = {}
    with client_for(api_url) as client:
        for name in deployments:
            found = client.read_deployment_by_name(f"ingest/{name}")
            assert found.schedules and not any(s.active for s in found.schedules), name
            for schedule in found.schedules:
                client.update_deployment_schedule(found.id, schedule.id, active=True)
            planned[name] = wait_for(
                lambda n=name: (
                    deployment_runs(client, n, "Scheduled")
                    if len(deployment_runs(client, n, "Scheduled")) >= 3
                    else None
                ),
                240,
                f"the scheduler to plan runs of {name}",
            )
            deployment = client.read_deployment_by_name(f"ingest/{name}")
            client.pause_deployment(deployment.id)
            for run in deployment_runs(client, name, "Scheduled"):
                client.delete_flow_run(run.id)
    return planned


def paused(api_url: str, deployment: str) -> None:
    """Pause a deployment ("flow/name") and drop the runs its schedule planned: the watch
    deployment's every-minute passes must not compete with the test's own runs."""
    with client_for(api_url) as client:
        found = client.read_deployment_by_name(deployment)
        client.pause_deployment(found.id)
        for run in deployment_runs(client, deployment.split("/", 1)[1], "Scheduled"):
            client.delete_flow_run(run.id)
