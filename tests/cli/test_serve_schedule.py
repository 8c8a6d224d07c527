"""``filings serve`` on one machine: a one-minute cron fires and the run completes.

The command starts its own local Prefect server (Prefect cannot schedule on its ephemeral
API); the test asks that server's REST API for the served deployment's runs.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import time
import urllib.request
from pathlib import Path

from cli_helpers import FILINGS

from flows.startup import free_port

FINAL = ("COMPLETED", "FAILED", "CRASHED")


def _post(url: str, body: dict) -> list[dict]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def _finished_runs(api: str) -> list[dict]:
    try:
        return _post(
            f"{api}/flow_runs/filter",
            {"flow_runs": {"state": {"type": {"any_": list(FINAL)}}}},
        )
    except OSError:
        return []  # the server is not up yet


def test_served_one_minute_cron_fires_and_completes(user):
    work, env = user
    port = free_port()
    api = f"http://127.0.0.1:{port}/api"
    log = (work / "serve.log").open("w")
    process = subprocess.Popen(
        [FILINGS, "serve", "--source", "replay", "--cron", "* * * * *", "--timezone", "UTC",
         "--port", str(port)],
        cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        # Under load two minutes' runs may start together: the one that finds the documents
        # taken says so and validates nothing (no Data Docs); wait for the run that built them.
        deadline = time.monotonic() + 300
        links: list[dict] = []
        while not links and time.monotonic() < deadline and process.poll() is None:
            time.sleep(2)
            links = _links(api)
        output = Path(log.name).read_text()
        assert links, f"no scheduled run published its Data Docs within 300 s:\n{output[-3000:]}"
        # the link is published before the run ends: wait for the run's final state
        finished: list[dict] = []
        while not finished and time.monotonic() < deadline:
            finished = [r for r in _finished_runs(api) if r["id"] == links[0]["flow_run_id"]]
            time.sleep(0 if finished else 2)
        assert finished, f"the run that published Data Docs did not end:\n{output[-3000:]}"
        [run] = finished
        assert run["state_type"] == "COMPLETED", (run["state"], output[-3000:])
        assert run["auto_scheduled"] is True
        assert run["parameters"] == {}
        _the_runs_data_docs_link_opens(links[0])
        _the_printed_command_works_from_another_shell(Path(log.name), api, env, work)
    finally:
        _stop(process)
        log.close()
    with sqlite3.connect(work / "data" / "replay" / "warehouse.sqlite") as db:
        loaded = db.execute("select count(*) from documents where status='loaded'").fetchone()[0]
    assert loaded >= 8


def _links(api: str) -> list[dict]:
    try:
        return _post(
            f"{api}/artifacts/filter",
            {"artifacts": {"key": {"any_": ["filings-ingest-data-docs"]}}},
        )
    except OSError:
        return []  # the server is not up yet


def _the_runs_data_docs_link_opens(link: dict) -> None:
    """The run's link artifact points at the Data Docs the command serves, and it answers."""
    assert link["task_run_id"] is None
    url = re.search(r"\((http://127\.0\.0\.1:\d+/[^)]+/index\.html)\)", link["data"])
    assert url, link["data"]
    with urllib.request.urlopen(url[1], timeout=10) as page:
        assert page.status == 200 and b"Data Docs" in page.read()


def _the_printed_command_works_from_another_shell(log: Path, api: str, env, work: Path) -> None:
    """The line ``serve`` printed to start a run, pasted into a shell without PREFECT_API_URL."""
    printed = [x.strip() for x in log.read_text().splitlines() if "deployment run" in x]
    assert printed and f"PREFECT_API_URL={api}" in printed[0], log.read_text()[-2000:]
    assert "PREFECT_API_URL" not in env
    shell = subprocess.run(
        ["bash", "-c", printed[0]], cwd=work.parent, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert shell.returncode == 0, shell.stdout + shell.stderr
    assert "Created flow run" in shell.stdout, shell.stdout


def _stop(process: subprocess.Popen) -> None:
    """SIGTERM the served command (it stops its server); kill its own group if it hangs."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
