"""Text-extraction damage in the real seed documents becomes a finding, never a number."""

from __future__ import annotations

import pytest

from domain.records import Extraction, StoredFile, ValidationResult, quarantine_required
from expectations.rules import Context
from tasks.extract import extract_document
from tasks.sources.replay import default_archive_root
from tasks.validate import validate_facts

ARCHIVE = default_archive_root()
Q2_2024 = "sec/0001741530/0001104659-24-088431/tm2421456d1_ex99-1.htm"
Q4_2024 = "hkex/03660/11480512.pdf"


def _extract(relative: str) -> Extraction:
    path = ARCHIVE / relative
    stored = StoredFile(path.name, path.as_uri(), "sha", path.stat().st_size, "test")
    return extract_document(f"test:{path.name}", [(stored, path.read_bytes())], "QFIN")


def _validate(extraction: Extraction) -> list[ValidationResult]:
    context = Context.of_extraction(extraction.document, extraction)
    return validate_facts(extraction.document, extraction.facts, context=context)


def _damage(results: list[ValidationResult]) -> ValidationResult:
    (result,) = [r for r in results if r.expectation == "no_damaged_text_figures"]
    return result


class TestQ2_2024Exhibit:
    """The Q2 2024 EX-99.1 prints "RMB71.860 million" and "RMB23.464 million"."""

    @pytest.fixture(scope="class")
    def results(self) -> list[ValidationResult]:
        return _validate(_extract(Q2_2024))

    def test_damage_check_fails(self, results):
        assert not _damage(results).success

    def test_finding_names_the_first_damaged_figure(self, results):
        assert "RMB71.860 million" in _damage(results).observed

    def test_finding_names_the_second_damaged_figure(self, results):
        assert "RMB23.464 million" in _damage(results).observed

    def test_damage_is_a_warning_that_does_not_quarantine(self, results):
        assert _damage(results).severity == "warning"
        assert not quarantine_required(results)

    def test_no_damaged_value_is_stored_as_a_fact(self):
        values = {f.value for f in _extract(Q2_2024).facts}
        assert not values & {71_860_000, 71_860_000_000, 23_464_000, 23_464_000_000}


class TestQ4_2024Announcement:
    """The Q4 2024 HKEx announcement has no damaged figure."""

    def test_damage_check_passes(self):
        assert _damage(_validate(_extract(Q4_2024))).success
