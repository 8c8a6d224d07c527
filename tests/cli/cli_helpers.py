"""Running the installed ``filings`` executable as a new user would (helpers of tests/cli)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

FILINGS = str(Path(sys.executable).with_name("filings"))


def clean_env(home: Path) -> dict[str, str]:
    """The environment of a new user: no FILINGS_* or PREFECT_* settings, telemetry off."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FILINGS_", "PREFECT_"))}
    env.update(DO_NOT_TRACK="1", PREFECT_SERVER_ANALYTICS_ENABLED="false", HOME=str(home))
    return env


def filings(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 120):
    """Run ``filings ARGS`` and wait for it."""
    return subprocess.run(
        [FILINGS, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
