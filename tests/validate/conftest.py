"""Fixtures for the validation tests."""

from __future__ import annotations

import pytest

from domain.records import Fact

from .qfin_facts import q4_2024_facts


@pytest.fixture(scope="session")
def good_facts() -> list[Fact]:
    """Real QFIN Q4 2024 balance sheet and revenue facts, all consistent."""
    return q4_2024_facts()
