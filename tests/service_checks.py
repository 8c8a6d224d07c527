"""Skip-or-fail for tests that need a local service (PostgreSQL, Chromium).

On a user's machine without the service the test is skipped with the reason; CI sets
FILINGS_REQUIRE_SERVICES=1 (in .ci/run), which turns that skip into a failure.
"""

from __future__ import annotations

import os

import pytest


def unavailable(message: str) -> None:
    """Skip with ``message``, or fail when the services are required (CI)."""
    if os.environ.get("FILINGS_REQUIRE_SERVICES") == "1":
        pytest.fail(message)
    pytest.skip(message)
