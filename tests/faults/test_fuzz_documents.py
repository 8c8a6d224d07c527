"""Malformed and hostile documents: seeded mutations of real documents, per format, each read
or refused with one line of the project's errors, never an unhandled exception.

CI runs ``FILINGS_FUZZ_CASES`` (default 25) cases per format; ``python -m benchmarks.faults``
runs 1,000 per format and prints the counts.
"""

from __future__ import annotations

import os
import random

import pytest

from benchmarks import fuzz

CASES = int(os.environ.get("FILINGS_FUZZ_CASES", "25"))


def _check(fmt: str) -> None:
    tally = fuzz.fuzz(fmt, CASES)
    assert tally.cases == CASES and tally.read + tally.refused == CASES
    assert tally.unhandled == []


class TestFuzzedHtml:
    def test_mutated_exhibits(self):
        _check("html")


class TestFuzzedPdf:
    def test_mutated_announcements(self):
        _check("pdf")


class TestFuzzedText:
    def test_mutated_seed_texts(self):
        _check("text")


class TestFuzzedJsonFeeds:
    def test_mutated_submissions_and_title_search(self):
        _check("json")


class TestMutator:
    """The mutations are real: seeded, and they change the document."""

    def test_same_seed_same_case_and_the_document_changes(self):
        original = (
            b"<html><body><table><tr><td>Revenue</td><td>1,234</td></tr></table></body></html>"
        )
        first = [fuzz.mutate(random.Random(7), original) for _ in range(3)]
        assert first[0] == first[1] == first[2]
        cases = [fuzz.mutate(random.Random(seed), original) for seed in range(50)]
        assert len(set(cases)) > 40 and sum(c != original for c in cases) > 45

    @pytest.mark.parametrize("fmt", ["html", "pdf", "text", "json"])
    def test_some_cases_are_still_read_and_some_refused(self, fmt):
        tally = fuzz.fuzz(fmt, 40, seed=1)
        assert tally.read > 0 and tally.refused > 0, tally
