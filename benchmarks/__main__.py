"""Run every benchmark at a CI-friendly size: ``python -m benchmarks``."""

from __future__ import annotations

from benchmarks import pdf, upsert, validation


def main() -> int:
    """Each benchmark's own main, small enough for CI; full sizes via ``-m benchmarks.<name>``."""
    for title, run in (
        ("pdf", lambda: pdf.main(["--quick"])),
        ("validation", lambda: validation.main(["--repeat", "2"])),
        ("upsert", lambda: upsert.main(["--rows", "100000"])),
    ):
        print(f"== {title}")
        run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
