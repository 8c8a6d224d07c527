"""The CLI processes of one user share one local Prefect API server (issue 25 defect 8):
three concurrent runs at load 13 all failed before, each one's own temporary server not
answering within 90 s twice. Now the first process starts one server, the others reuse it,
and it stops when the last of them ends (even killed with -9)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(600)

USER = """
import sys, time
from pathlib import Path
from flows import startup
with startup.shared_api(Path(sys.argv[1]), lambda line: print(line, file=sys.stderr)) as url:
    print(url, flush=True)
    time.sleep(float(sys.argv[2]))
"""


def _users(home: Path, count: int, hold: float) -> list[subprocess.Popen[str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_API_URL")}
    env["PREFECT_HOME"] = str(home)
    return [
        subprocess.Popen(
            [sys.executable, "-c", USER, str(home), str(hold)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )  # fmt: skip
        for _ in range(count)
    ]


def _gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def test_concurrent_processes_share_one_server_that_ends_with_the_last(tmp_path):
    users = _users(tmp_path, 3, hold=3.0)
    urls = [u.stdout.readline().strip() for u in users]  # type: ignore[union-attr]
    keeper = int(json.loads((tmp_path / "filings-api.json").read_text())["keeper"])
    outcomes = [u.communicate(timeout=300) for u in users]
    assert [u.returncode for u in users] == [0, 0, 0], outcomes
    assert len(set(urls)) == 1 and urls[0].startswith("http://127.0.0.1:"), urls
    starts = sum(err.count("starting Prefect's local API server") for _, err in outcomes)
    assert starts == 1, outcomes
    assert _gone_within(keeper, 20), "the server outlived its last user"


def test_the_server_ends_when_its_only_user_is_killed(tmp_path):
    (user,) = _users(tmp_path, 1, hold=300.0)
    assert user.stdout.readline().startswith("http://")  # type: ignore[union-attr]
    keeper = int(json.loads((tmp_path / "filings-api.json").read_text())["keeper"])
    os.kill(user.pid, signal.SIGKILL)
    user.wait(timeout=30)
    assert _gone_within(keeper, 20), "the server outlived a killed CLI"
