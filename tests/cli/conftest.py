"""The ``filings`` command as a person runs it: the installed executable, in a fresh folder.

Each test gets a clean environment (no Prefect API, no warehouse URL, no Prefect home), so
what it sees is what a new user sees after ``make install``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

FILINGS = str(Path(sys.executable).with_name("filings"))


def clean_env(home: Path) -> dict[str, str]:
    """The environment of a new user: no FILINGS_* or PREFECT_* settings, telemetry off."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FILINGS_", "PREFECT_"))}
    env.update(DO_NOT_TRACK="1", PREFECT_SERVER_ANALYTICS_ENABLED="false", HOME=str(home))
    env["FILINGS_TEST_POSTGRES_URL"] = os.environ.get("FILINGS_TEST_POSTGRES_URL", "")
    return env


@pytest.fixture
def user(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A fresh working folder and a new user's environment."""
    work = tmp_path / "work"
    work.mkdir()
    return work, clean_env(tmp_path)


def filings(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 120):
    """Run ``filings ARGS`` and wait for it."""
    return subprocess.run(
        [FILINGS, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
