"""Every clean seed in every layout variant (scripts/layouts/variants.py) and format (text,
EDGAR HTML, PDF) yields exactly the seed's golden statement facts and guidance; one class per
seed document. ``python -m benchmarks.layouts`` prints the same matrix."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import ClassVar

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts" / "layouts"))

import harness  # noqa: E402

CELLS = [(v, f) for v in harness.VARIANTS for f in harness.FORMATS]


class LayoutMatrix:
    seed: ClassVar[str]

    @pytest.mark.parametrize(("variant", "fmt"), CELLS)
    def test_golden_facts_and_guidance(self, variant: str, fmt: str) -> None:
        got = harness.outcome(self.seed, variant, fmt)
        assert (got.missing, got.wrong, got.guidance_ok) == (0, 0, True), got


class TestQ4_2023Release(LayoutMatrix):
    seed = harness.SEED_NAMES[0]


class TestQ4_2024Announcement(LayoutMatrix):
    seed = harness.SEED_NAMES[1]


def test_every_variant_changes_a_seed() -> None:
    for variant, vary in harness.VARIANTS.items():
        texts = [(harness.SEEDS / s).read_text(encoding="utf-8") for s in harness.SEED_NAMES]
        assert variant == "baseline" or any(vary(t) != t for t in texts), variant
