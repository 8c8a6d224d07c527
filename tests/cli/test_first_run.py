"""A new user's first ``filings run --source replay`` on a busy 2-core machine.

Two busy-loop processes keep both cores busy while the command starts Prefect's local API
server for the first time (a fresh Prefect home): it must succeed at the first try and say
what it is doing before it waits: its first line arrives while that server does not answer yet
(an order of events, not a time bound a busy machine breaks; the time is printed).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from cli_helpers import FILINGS

from flows.api_keeper import STATE

BUSY_SECONDS = 300


@contextmanager
def busy_cores(count: int = 2) -> Iterator[None]:
    """``count`` busy loops (each stops by itself after BUSY_SECONDS)."""
    loop = (
        f"import time\nend = time.monotonic() + {BUSY_SECONDS}\nwhile time.monotonic() < end: pass"
    )
    burners = [subprocess.Popen([sys.executable, "-c", loop]) for _ in range(count)]
    try:
        time.sleep(1)  # let them take the cores first
        yield
    finally:
        for process in burners:
            process.kill()
            process.wait()


def _server_answers(home: Path) -> bool:
    """The shared local API server (its keeper's state file names it) answers its health."""
    try:
        url = json.loads((home / STATE).read_text(encoding="utf-8"))["url"]
        with urllib.request.urlopen(f"{url}/health", timeout=2) as response:
            return bool(response.status == 200)
    except (OSError, ValueError, KeyError):
        return False


# its load is the two busy loops, not also another test beside it (make test: after the others)
@pytest.mark.alone
def test_first_replay_run_succeeds_under_cpu_load_and_speaks_before_it_waits(user):
    work, env = user
    home = work / "data" / "prefect"
    with busy_cores(2):
        started = time.monotonic()
        process = subprocess.Popen(
            [FILINGS, "run", "--source", "replay"],
            cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        stderr: list[tuple[float, str]] = []
        answering: list[bool] = []  # whether the server answered when each line arrived

        def read() -> None:
            assert process.stderr is not None
            for line in process.stderr:
                stderr.append((time.monotonic() - started, line))
                answering.append(_server_answers(home))

        reader = threading.Thread(target=read)
        reader.start()
        assert process.stdout is not None
        stdout = process.stdout.read()  # until the command exits
        process.wait(timeout=280)
        reader.join(timeout=10)
    assert process.returncode == 0, (stdout, stderr)
    assert stderr, "nothing printed on stderr"
    first_at, first_line = stderr[0]
    assert "starting Prefect" in first_line
    assert not answering[0], f"the first line came once the server answered: {first_line}"
    # the archive's two issuers: QFIN's 9 documents and Buckle's 8-K
    assert "documents: 10 found, 10 new, 10 ingested" in stdout
    assert "Traceback" not in stdout + "".join(line for _, line in stderr)
    print(f"first line after {first_at:.2f}s; finished after {time.monotonic() - started:.1f}s")
