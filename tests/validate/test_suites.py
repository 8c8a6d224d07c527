"""Every suite against its good and bad JSON fixture (bad = one number altered)."""

from __future__ import annotations

import json

import pytest

from domain.records import ValidationResult, quarantine_required
from expectations import builders, runner
from tasks.validate import validate_facts

from .fixture_io import FIXTURES, load, numbers

EXPECTED_COUNTS = {
    "balance_sheet": 5,
    "consistency": 2,
    "cross_period": 3,
    "cross_source": 2,
    "document": 6,
    "income_statement": 12,
    "plausibility": 5,
    "revenue": 3,
    "structure": 7,
}
SUITES = sorted(EXPECTED_COUNTS)


def run(name: str) -> tuple[dict[str, object], list[ValidationResult]]:
    raw, facts, context = load(name)
    return raw, validate_facts(str(raw["document_id"]), facts, context=context)


def test_each_suite_loads_the_expected_number_of_expectations() -> None:
    on_disk = {
        path.stem: len(json.loads(path.read_text())["expectations"])
        for path in builders.SUITES_DIR.glob("*.json")
    }
    # the audited suite checks SEC's audited filings (tests/storage/test_audited_views.py)
    expected = EXPECTED_COUNTS | {"audited": 1}
    assert on_disk == expected
    # GX drops an expectation it cannot build without a word: count what it holds.
    assert runner.loaded_expectation_counts() == expected


def test_every_expectation_has_a_severity() -> None:
    severities = {e["severity"] for spec in builders.load_suite_specs() for e in spec.expectations}
    assert severities == {"critical", "warning", "info"}


@pytest.mark.parametrize("suite", SUITES)
def test_bad_fixture_differs_from_good_by_one_number(suite: str) -> None:
    good = json.loads((FIXTURES / f"{suite}.good.json").read_text())
    bad = json.loads((FIXTURES / f"{suite}.bad.json").read_text())
    good.pop("breaks"), bad.pop("breaks")
    pairs = list(zip(numbers(good), numbers(bad), strict=True))
    assert sum(a != b for a, b in pairs) == 1


@pytest.mark.parametrize("suite", SUITES)
def test_good_fixture_passes_every_expectation_of_its_suite_evaluated(suite: str) -> None:
    _, results = run(f"{suite}.good")
    assert [r.expectation for r in results if not r.success] == []
    mine = [r for r in results if r.suite == suite]
    assert len(mine) == EXPECTED_COUNTS[suite]
    checks = {name for spec in builders.load_suite_specs() for name, _ in spec.checks}
    for result in mine:
        if result.expectation in checks:
            assert not result.observed.startswith("not evaluated"), result


@pytest.mark.parametrize("suite", SUITES)
def test_bad_fixture_fails_exactly_the_altered_expectation(suite: str) -> None:
    raw, results = run(f"{suite}.bad")
    failed = [r for r in results if not r.success]
    assert [(r.suite, r.expectation) for r in failed] == [(suite, raw["breaks"])]
    assert quarantine_required(results) is (failed[0].severity == "critical")
