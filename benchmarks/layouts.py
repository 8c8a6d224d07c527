"""Layout-variation matrix: each variant x format -> correct / missing / wrong, over the clean
seeds (scripts/layouts). ``correct``: every golden statement fact exact and the guidance equal,
in every seed. Usage: ``python -m benchmarks.layouts``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    """Print the matrix; exit 1 unless every cell is correct."""
    sys.path.insert(0, str(ROOT / "scripts" / "layouts"))
    import harness  # noqa: PLC0415 - build-time tooling, not a package

    started = time.perf_counter()
    outcomes = harness.matrix()
    formats = harness.FORMATS
    print(f"{'variant':<38}" + "".join(f"{f:>16}" for f in formats))
    for variant in harness.VARIANTS:
        cells = []
        for fmt in formats:
            mine = [o for o in outcomes if o.variant == variant and o.fmt == fmt]
            cells.append(_cell(mine))
        print(f"{variant:<38}" + "".join(f"{c:>16}" for c in cells))
    bad = [o for o in outcomes if not o.correct]
    seconds = time.perf_counter() - started
    print(f"{len(outcomes)} renderings of {len(harness.SEED_NAMES)} seeds in {seconds:.1f} s; "
          f"{len(outcomes) - len(bad)} correct")  # fmt: skip
    return 1 if bad else 0


def _cell(outcomes: list) -> str:
    missing = sum(o.missing for o in outcomes)
    wrong = sum(o.wrong for o in outcomes)
    if wrong:
        return f"wrong {wrong}"
    if missing or not all(o.guidance_ok for o in outcomes):
        return f"missing {missing}" + ("" if all(o.guidance_ok for o in outcomes) else " +g")
    return "correct"


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
