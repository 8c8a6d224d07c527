"""A new user's first ``filings run --source replay`` on a busy 2-core machine.

Two busy-loop processes keep both cores busy while the command starts Prefect's local API
server for the first time (a fresh Prefect home): it must succeed at the first try and say
what it is doing within 2 s.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from cli_helpers import FILINGS

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


# its load is the two busy loops, not also another test beside it (make test: after the others)
@pytest.mark.alone
def test_first_replay_run_succeeds_under_cpu_load_and_speaks_within_2s(user):
    work, env = user
    with busy_cores(2):
        started = time.monotonic()
        process = subprocess.Popen(
            [FILINGS, "run", "--source", "replay"],
            cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        stderr: list[tuple[float, str]] = []
        reader = threading.Thread(
            target=lambda: stderr.extend(
                (time.monotonic() - started, line) for line in process.stderr
            )
        )
        reader.start()
        assert process.stdout is not None
        stdout = process.stdout.read()  # until the command exits
        process.wait(timeout=280)
        reader.join(timeout=10)
    assert process.returncode == 0, (stdout, stderr)
    assert stderr, "nothing printed on stderr"
    first_at, first_line = stderr[0]
    assert first_at < 2.0, (first_at, first_line)
    assert "starting Prefect" in first_line
    # the archive's two issuers: QFIN's 9 documents and Buckle's 8-K
    assert "documents: 10 found, 10 new, 10 ingested" in stdout
    assert "Traceback" not in stdout + "".join(line for _, line in stderr)
    print(f"first line after {first_at:.2f}s; finished after {time.monotonic() - started:.1f}s")
