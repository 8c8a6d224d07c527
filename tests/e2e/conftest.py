"""A real Prefect deployment on loopback: server, process work pool, worker, replay sources.

Everything runs in child processes of the test with a temporary PREFECT_HOME and is killed at
the end (by process group id). Waits are bounded. Without Chromium or Playwright the browser
tests skip, unless FILINGS_REQUIRE_SERVICES=1 (CI): then they fail.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator

import pytest
import requests
from e2e_stack import (
    ARTIFACTS,
    BIN,
    CHROMIUM,
    POOL,
    ROOT,
    Stack,
    paused,
    prefect,
    scheduled_then_paused,
    wait_for,
)
from service_checks import unavailable

from benchmarks.stack import free_port, start, stop
from tasks.sources.replay import ReplayServer, default_archive_root


@pytest.fixture(scope="session")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """Prefect server + process pool + deployments from deploy/prefect.yaml + worker."""
    base = tmp_path_factory.mktemp("prefect-e2e")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    api_url = f"{url}/api"
    env = {
        **os.environ,
        "PREFECT_HOME": str(base / "prefect"),
        "PREFECT_API_URL": f"{url}/api",
        "PREFECT_UI_API_URL": f"{url}/api",  # the UI otherwise calls port 4200
        "DO_NOT_TRACK": "1",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_SERVER_SERVICES_SCHEDULER_LOOP_SECONDS": "5",
        "PREFECT_WORKER_QUERY_SECONDS": "2",
        "PREFECT_LOGGING_LEVEL": "INFO",
    }
    logs = ARTIFACTS / "e2e"
    logs.mkdir(parents=True, exist_ok=True)
    server = start(
        [str(BIN / "prefect"), "server", "start", "--host", "127.0.0.1", "--port", str(port)],
        env,
        logs / "server.log",
    )
    processes = [server]
    try:
        wait_for(lambda: requests.get(f"{url}/api/health", timeout=5).ok, 240, "prefect server")
        docs = base / "data" / "data_docs"
        docs.mkdir(parents=True)
        docs_port = free_port()
        processes.append(  # where the worker's Data Docs are published, as a web server would
            start(
                [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory",
                 str(docs), str(docs_port)],
                env,
                logs / "data-docs-server.log",
            )
        )  # fmt: skip
        with ReplayServer(default_archive_root()) as replay:
            warehouse = f"sqlite:///{base / 'warehouse.sqlite'}"
            worker_env = {
                **env,
                "FILINGS_PROJECT_DIR": str(ROOT),
                "FILINGS_DATA_DIR": str(base / "data"),
                "FILINGS_DATABASE_URL": warehouse,
                "FILINGS_SEC_DATA_URL": replay.url,
                "FILINGS_SEC_ARCHIVES_URL": replay.url,
                "FILINGS_HKEX_URL": replay.url,
                "FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS": "0",
                "FILINGS_DATA_DOCS_URL": f"http://127.0.0.1:{docs_port}",
            }
            prefect(env, "work-pool", "create", POOL, "--type", "process")
            deploy = ["--no-prompt", "deploy", "--all", "--prefect-file", "deploy/prefect.yaml"]
            prefect(worker_env, *deploy)
            paused(api_url, "watch/watch")
            planned = scheduled_then_paused(api_url, ("sec-pass", "hkex-pass"))
            processes.append(
                start(
                    [str(BIN / "prefect"), "worker", "start", "--pool", POOL],
                    worker_env,
                    logs / "worker.log",
                )
            )
            yield Stack(url, api_url, env, warehouse, logs, planned)
    finally:
        for process in reversed(processes):
            stop(process)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Headless Debian Chromium driven by Playwright (never a downloaded browser).

    Module-scoped: Playwright's sync API keeps an event loop running in this thread until it
    stops, and a later sync Prefect flow call would then return a coroutine.
    """
    if not CHROMIUM.exists() or shutil.which(str(CHROMIUM)) is None:
        unavailable("Chromium not installed at /usr/bin/chromium: apt-get install chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("playwright is not installed: pip install -e '.[dev]'")
    profile = ARTIFACTS / "e2e" / "chromium-profile"
    shutil.rmtree(profile, ignore_errors=True)
    args = [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=str(CHROMIUM),
            headless=True,
            args=args,
            viewport={"width": 1400, "height": 1100},
        )
        try:
            yield context
        finally:
            context.close()
