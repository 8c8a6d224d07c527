"""The runner's two passes: cheap result formats first, COMPLETE only for a failing suite."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from domain.records import Fact
from expectations import builders, runner
from tasks.runs.docs_sites import build_data_docs
from tasks.validate import validate_facts

from .qfin_facts import DEC24, altered

Run = tuple[str, str, tuple[str, ...]]  # frame, result format, suites


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[Run]:
    """Every checkpoint run, as (frame, result format, suites it ran)."""
    import great_expectations as gx

    seen: list[Run] = []
    original = gx.Checkpoint.run

    def spy(self: Any, *args: Any, **kwargs: Any) -> Any:
        frame = self.validation_definitions[0].data.data_asset.name
        fmt = self.result_format["result_format"]
        seen.append((frame, fmt, tuple(d.name for d in self.validation_definitions)))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(gx.Checkpoint, "run", spy)
    return seen


def release_specs() -> list[builders.SuiteSpec]:
    """The suites a release runs: every one but the audited suite (SEC's audited filings')."""
    return [s for s in builders.load_suite_specs() if s.name != "audited"]


def suites_of(frame: str) -> tuple[str, ...]:
    return tuple(s.name for s in release_specs() if s.frame == frame)


def test_a_passing_document_runs_each_frame_once_in_its_cheap_format(
    good_facts: list[Fact], runs: list[Run]
) -> None:
    validate_facts("hkex:good", good_facts)
    assert sorted(runs) == [
        ("facts", "BASIC", suites_of("facts")),
        ("identity_checks", "BOOLEAN_ONLY", suites_of("identity_checks")),
    ]


def test_only_the_failing_suite_runs_again_in_complete(
    good_facts: list[Fact], runs: list[Run]
) -> None:
    facts = altered(good_facts, "total_liabilities_and_equity", DEC24, 1_000_000)
    results = validate_facts("hkex:altered", facts)
    assert ("identity_checks", "COMPLETE", ("balance_sheet",)) in runs
    assert len(runs) == 3
    # The rerun's failing-row indices reach the record: only the failing period is quoted.
    (failed,) = [r for r in results if not r.success]
    assert failed.expectation == "balance_sheet_balances"
    assert failed.observed.startswith("2024-12-31: total_assets 48132618000 vs")
    assert len(results) == sum(len(s.expectations) for s in release_specs())


def test_data_docs_keep_one_detailed_page_per_suite(
    good_facts: list[Fact], runs: list[Run], tmp_path: Path
) -> None:
    facts = altered(good_facts, "total_liabilities_and_equity", DEC24, 1_000_000)
    validate_facts("hkex_docs", facts, docs_site=tmp_path)
    # Data Docs print every check's "% unexpected": BASIC, not BOOLEAN_ONLY, on the checks.
    assert {fmt for _, fmt, _ in runs} == {"BASIC", "COMPLETE"}
    # The page of the failing suite renders the COMPLETE result, which replaced the first
    # (read before the build, which forgets the run's results).
    store = runner._runtime().context.validation_results_store
    (key,) = [
        k
        for k in store.list_keys()
        if k.run_id.run_name == "hkex_docs"
        and k.expectation_suite_identifier.name == "balance_sheet"
    ]
    stored = {r.expectation_config.meta["name"]: r for r in store.get(key).results}
    rows = builders.identity_checks(facts, runner.suite_specs()).rows
    wrong = [
        i
        for i, row in enumerate(rows)
        if (row.identity, row.period) == ("balance_sheet_balances", "2024-12-31")
    ]
    # each failing row named by what it is about, its position kept (expectations.outcomes)
    failing = stored["balance_sheet_balances"].result["unexpected_index_list"]
    assert [r["row"] for r in failing] == wrong
    assert {(r["identity"], r["period"]) for r in failing} == {
        ("balance_sheet_balances", "2024-12-31")
    }
    assert build_data_docs(tmp_path)
    pages = list((tmp_path / "validations").rglob("*.html"))
    assert sorted(p.parts[-4] for p in pages) == sorted(s.name for s in release_specs())
    page = next(p for p in pages if p.parts[-4] == "balance_sheet").read_text(encoding="utf-8")
    assert f"df.filter(items={wrong}, axis=0)" in page  # the COMPLETE rows reached the page
