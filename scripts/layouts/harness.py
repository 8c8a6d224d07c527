"""The layout-variation harness: every clean seed's statements and outlook, in every layout
variant (variants.py) and format (render.py), extracted and compared with the seed's
hand-written golden file (tests/golden): statement facts exact, guidance equal.

Seeds: the Q4 2023 6-K and the Q4 2024 HKEx announcement. The Q2 2024 seed is left out: its
text is itself damaged (merged rows, lost labels), so even its unvaried text may miss facts.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from render import FORMATS, render  # noqa: E402
from variants import VARIANTS  # noqa: E402

from tasks.extract import extract_file  # noqa: E402
from tests.golden.golden import load  # noqa: E402
from tests.golden.test_golden import _golden_guidance, _guidance  # noqa: E402

SEEDS = ROOT / "tests" / "fixtures" / "seeds"
SEED_NAMES = (
    "sec_0001741530_2024-03-12_6k_q4-2023.txt",
    "hkex_03660_2025-03-17_q4-2024-results.txt",
)


@dataclass(frozen=True)
class Outcome:
    """One seed in one variant and format against its golden file."""

    seed: str
    variant: str
    fmt: str
    varied: bool  # False when the seed has nothing the variant changes
    expected: int  # golden statement facts
    missing: int
    wrong: int
    guidance_ok: bool

    @property
    def correct(self) -> bool:
        return self.missing == 0 and self.wrong == 0 and self.guidance_ok


def outcome(seed: str, variant: str, fmt: str) -> Outcome:
    """Render, extract and compare one cell of the matrix."""
    base = (SEEDS / seed).read_text(encoding="utf-8")
    text = VARIANTS[variant](base)
    golden = load(seed)
    name, content = render(text, fmt)
    extraction = extract_file(name, content, "QFIN")
    got = {f.key: f.value for f in extraction.facts if f.origin == "table"}
    wrong = sum(1 for k, v in got.items() if golden.tables.get(k) != v)
    missing = len(set(golden.tables) - set(got))
    guidance = sorted(_guidance(g) for g in extraction.guidance)
    expected = sorted(_golden_guidance(g) for g in golden.guidance)
    return Outcome(
        seed, variant, fmt, text != base, len(golden.tables), missing, wrong, guidance == expected
    )


def matrix() -> list[Outcome]:
    """Every seed x variant x format."""
    return [outcome(s, v, f) for s in SEED_NAMES for v in VARIANTS for f in FORMATS]
