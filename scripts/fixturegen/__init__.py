"""Helpers of scripts/build_fixtures.py: seed parsing, repairs, EDGAR HTML, HKEx PDFs."""
