"""The ``filings`` command as a person runs it: the installed executable, in a fresh folder.

Each test gets a clean environment (no Prefect API, no warehouse URL, no Prefect home), so
what it sees is what a new user sees after ``make install``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_helpers import clean_env


@pytest.fixture
def user(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A fresh working folder and a new user's environment."""
    work = tmp_path / "work"
    work.mkdir()
    return work, clean_env(tmp_path)
