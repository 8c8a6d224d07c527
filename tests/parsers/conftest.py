"""Shared fixtures: the catalog and extractions of the real fixture documents (parsed once)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from domain.records import Extraction, Fact
from tasks.extract import extract_file, load_catalog
from tasks.parsers.statements.catalog import LabelCatalog
from tasks.sources.replay import default_archive_root

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SEEDS = FIXTURES / "seeds"
ARCHIVE = default_archive_root()
SEC = ARCHIVE / "sec" / "0001741530"
HKEX = ARCHIVE / "hkex" / "03660"

Q4_2023_TEXT = SEEDS / "sec_0001741530_2024-03-12_6k_q4-2023.txt"
Q2_2024_TEXT = SEEDS / "sec_0001741530_2024-08-13_6k_q2-2024.txt"
Q4_2024_TEXT = SEEDS / "hkex_03660_2025-03-17_q4-2024-results.txt"
DIVIDEND_TEXT = SEEDS / "hkex_03660_2024-03-13_dividend-form-h2-2023.txt"
Q4_2023_HTML = SEC / "0001104659-24-032436" / "tm248123d1_ex99-1.htm"
Q2_2024_HTML = SEC / "0001104659-24-088431" / "tm2421456d1_ex99-1.htm"
Q2_2024_IFRS_HTML = SEC / "0001104659-24-088431" / "tm2421456d1_ex99-2.htm"
Q2_2024_COVER_HTML = SEC / "0001104659-24-088431" / "tm2421456d1_6k.htm"
Q4_2024_PDF = HKEX / "11480512.pdf"
DIVIDEND_PDF = HKEX / "11126844.pdf"

_CACHE: dict[Path, Extraction] = {}


@pytest.fixture(scope="session")
def catalog() -> LabelCatalog:
    return load_catalog("QFIN")


def extraction(path: Path) -> Extraction:
    """Extract a fixture file once per session."""
    if path not in _CACHE:
        _CACHE[path] = extract_file(path.name, path.read_bytes(), "QFIN")
    return _CACHE[path]


def fact(
    path: Path, metric: str, end: date, start: date | None = None, basis: str = "us_gaap"
) -> Fact:
    """The single fact for a key; fails the test when it is missing."""
    hits = [f for f in extraction(path).facts if f.key == (metric, start, end, basis)]
    assert len(hits) == 1, f"{metric} {start}..{end} {basis}: {len(hits)} facts in {path.name}"
    return hits[0]


def keys(path: Path) -> set[tuple[str, date | None, date, str]]:
    return {f.key for f in extraction(path).facts}


def thousands(text: str) -> Decimal:
    """'4,160,063' printed in thousands -> whole units, computed rather than hard-coded."""
    return Decimal(text.replace(",", "")) * 1000
