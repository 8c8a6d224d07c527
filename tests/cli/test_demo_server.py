"""``filings demo-server``: the production route offline, as a new user tries it.

One command starts a real Prefect server, the process work pool, the deployments of
deploy/prefect.yaml and a process worker against the bundled replay archive. The test then
does what the command says, from another shell (a clean environment, no PREFECT_API_URL):
the printed ``prefect deployment run`` line starts a backfill that the worker completes.
Nothing fetches on a schedule until a person enables it, the run's Data Docs link opens over
http, and SIGTERM stops everything.
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

import pytest
from cli_helpers import FILINGS

from flows.startup import free_port

pytestmark = pytest.mark.timeout(900)
FETCHING = ("watch", "sec-pass", "hkex-pass")


def _post(url: str, body: dict) -> list[dict]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def _wait(check, seconds: float, what: str, log: Path):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            found = check()
        except OSError:
            found = None
        if found:
            return found
        time.sleep(2)
    pytest.fail(f"timed out after {seconds:.0f} s waiting for {what}:\n{log.read_text()[-3000:]}")


def _printed(log: Path, deployment: str) -> str:
    """The command line the demo server printed for a deployment, as printed."""
    for line in log.read_text().splitlines():
        if f"deployment run '{deployment}'" in line:
            return line.strip()
    pytest.fail(f"no command printed for {deployment}:\n{log.read_text()}")


@pytest.fixture
def demo_server(user):
    work, env = user
    port = free_port()
    log = work / "demo-server.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [FILINGS, "demo-server", "--port", str(port)],
            cwd=work, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        _wait(lambda: "ready:" in log.read_text() or process.poll() is not None, 400, "ready", log)
        assert process.poll() is None, log.read_text()
        yield work, env, f"http://127.0.0.1:{port}/api", log, process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_demo_server_runs_what_it_prints_and_schedules_nothing_by_itself(demo_server):
    work, env, api, log, process = demo_server
    deployments = {d["name"]: d for d in _post(f"{api}/deployments/filter", {})}
    assert set(FETCHING) <= set(deployments), sorted(deployments)
    for name in FETCHING:  # paused: a deploy never starts asking SEC or HKEx by itself
        schedules = deployments[name]["schedules"]
        assert schedules and not any(s["active"] for s in schedules), (name, schedules)
    assert any(s["active"] for s in deployments["pipeline-failure-alert"]["schedules"])

    # Another shell: a clean environment in another folder, the line pasted as printed.
    line = _printed(log, "ingest/backfill")
    assert f"PREFECT_API_URL={api}" in line
    shell = subprocess.run(
        ["bash", "-c", line], cwd=work.parent, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert shell.returncode == 0, shell.stdout + shell.stderr
    run_id = re.search(r"UUID: ([0-9a-f-]{36})", shell.stdout)[1]

    def finished():
        [run] = _post(f"{api}/flow_runs/filter", {"flow_runs": {"id": {"any_": [run_id]}}})
        return run if run["state_type"] in ("COMPLETED", "FAILED", "CRASHED") else None

    run = _wait(finished, 600, "the backfill run", log)
    worker_log = work / "data" / "prefect" / "worker.log"
    assert run["state_type"] == "COMPLETED", worker_log.read_text()[-3000:]
    # its own state: a `make run` before it (data/replay) leaves it the whole archive to show
    assert not (work / "data" / "replay").exists()
    with sqlite3.connect(work / "data" / "demo-server" / "warehouse.sqlite") as db:
        loaded = dict(
            db.execute(
                "select source = 'xbrl', count(*) from documents where status = 'loaded' group by 1"
            ).fetchall()
        )
    # the archive's releases (QFIN's 9 and Buckle's 8-K) and QFIN's two audited filings (20-F)
    assert loaded == {0: 10, 1: 2}, loaded
    _data_docs_open_over_http(api, run_id)
    [status] = [x.strip() for x in log.read_text().splitlines() if x.strip().endswith(
        "filings status   # what its runs did")]  # fmt: skip
    shown = subprocess.run(
        ["bash", "-c", status.replace("filings status", FILINGS + " status")], cwd=work,
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert f"run {run_id}" in shown.stdout, shown.stdout + shown.stderr
    planned = _post(
        f"{api}/flow_runs/filter", {"flow_runs": {"state": {"type": {"any_": ["SCHEDULED"]}}}}
    )
    by_deployment = {d["id"]: name for name, d in deployments.items()}
    assert {by_deployment.get(r["deployment_id"]) for r in planned} <= {"pipeline-failure-alert"}

    # Enabling the schedules, as printed, turns them on.
    [resume] = [x.strip() for x in log.read_text().splitlines() if "schedule resume" in x]
    shell = subprocess.run(
        ["bash", "-c", resume], cwd=work.parent, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert shell.returncode == 0, shell.stdout + shell.stderr
    for d in _post(f"{api}/deployments/filter", {}):
        assert all(s["active"] for s in d["schedules"]), d["name"]

    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=120) == 0, log.read_text()[-2000:]
    with pytest.raises(OSError):
        urllib.request.urlopen(f"{api}/health", timeout=3)


def _data_docs_open_over_http(api: str, run_id: str) -> None:
    artifacts = _post(f"{api}/artifacts/filter", {"artifacts": {"flow_run_id": {"any_": [run_id]}}})
    [summary] = [a for a in artifacts if a["key"] == "backfill-run-summary"]
    url = re.search(r"\((http://127\.0\.0\.1:\d+/[^)]+/index\.html)\)", summary["data"])
    assert url, summary["data"]
    with urllib.request.urlopen(url[1], timeout=10) as page:
        assert page.status == 200


def test_demo_server_keeps_state_of_its_own_and_says_so(tmp_path):
    from flows import preflight
    from flows.demo_stack import instructions
    from tasks.config.settings import load_settings

    settings = load_settings(data_dir=tmp_path / "data")
    own = preflight.replay_paths(settings, preflight.DEMO_SERVER_FOLDER)
    replay = preflight.replay_paths(settings)
    for name in ("FILINGS_DATABASE_URL", "FILINGS_ARCHIVE_URL", "FILINGS_DATA_DOCS_DIR"):
        assert str(tmp_path / "data" / "demo-server") in own[name]
        assert own[name] != replay[name]
    said = instructions("http://127.0.0.1:4200/api", 4200, "http://127.0.0.1:1", "sqlite:///w")
    assert any("the demo server's own" in line and "whole archive" in line for line in said)
