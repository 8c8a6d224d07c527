"""The validation stage, with Great Expectations really running every suite."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from domain.errors import ConfigError
from domain.records import Fact, ValidationResult, quarantine_required
from expectations import builders, context
from tasks.runs.docs_sites import build_data_docs
from tasks.validate import validate_facts

from .qfin_facts import DEC23, DEC24, FY_24, Q4_23, Q4_24, altered, fact

IDENTITIES = {
    "balance_sheet_balances",
    "assets_equal_liabilities_plus_equity",
    "assets_current_plus_non_current",
    "liabilities_current_plus_non_current",
    "equity_company_plus_noncontrolling",
    "revenue_segments_sum_to_total",
    "credit_driven_components_sum",
    "platform_components_sum",
}


def by_name(results: list[ValidationResult]) -> dict[str, ValidationResult]:
    names = [r.expectation for r in results]
    assert len(names) == len(set(names))
    return {r.expectation: r for r in results}


def failures(results: list[ValidationResult]) -> set[str]:
    return {r.expectation for r in results if not r.success}


@pytest.fixture(scope="module")
def good_results(good_facts: list[Fact]) -> list[ValidationResult]:
    return validate_facts("hkex:q4-2024", good_facts)


def test_a_suite_that_gx_cannot_fully_load_is_refused() -> None:
    [spec] = [s for s in builders.load_suite_specs() if s.name == "balance_sheet"]
    bogus = {"type": "expect_a_custom_thing_nobody_imported", "kwargs": {}, "meta": {"name": "x"}}
    broken = replace(spec, expectations=spec.expectations + (bogus,))
    with pytest.raises(ConfigError, match="loaded 5 of 6"):
        context.build_suite(broken)


def test_check_columns_must_be_its_own(tmp_path: Path) -> None:
    raw = json.loads((builders.SUITES_DIR / "revenue.json").read_text())
    raw["expectations"][0]["kwargs"]["column_B"] = "gap__platform_components_sum"
    (tmp_path / "revenue.json").write_text(json.dumps(raw))
    with pytest.raises(ConfigError, match="columns must be"):
        builders.load_suite_specs(tmp_path)


def test_an_expectation_without_severity_is_refused(tmp_path: Path) -> None:
    raw = json.loads((builders.SUITES_DIR / "revenue.json").read_text())
    del raw["expectations"][1]["severity"]
    (tmp_path / "revenue.json").write_text(json.dumps(raw))
    with pytest.raises(ConfigError, match="severity"):
        builders.load_suite_specs(tmp_path)


def test_real_q4_2024_figures_pass_every_expectation(good_results: list[ValidationResult]) -> None:
    results = by_name(good_results)
    assert set(results) >= IDENTITIES
    # one result per expectation of every suite file a release runs (audited: SEC's filings)
    specs = [s for s in builders.load_suite_specs() if s.name != "audited"]
    assert len(results) == sum(len(spec.expectations) for spec in specs)
    assert failures(good_results) == set()
    assert quarantine_required(good_results) is False
    for name in IDENTITIES:
        assert not results[name].observed.startswith("not evaluated"), name
    assert results["balance_sheet_balances"].severity == "critical"
    assert results["assets_current_plus_non_current"].severity == "warning"


def test_observed_quotes_both_sides_for_every_period(good_results: list[ValidationResult]) -> None:
    results = by_name(good_results)
    observed = results["assets_equal_liabilities_plus_equity"].observed
    assert (
        "2024-12-31: total_assets 48132618000 vs total_liabilities + total_equity 48132618000"
    ) in observed
    assert "2023-12-31: total_assets 45818572000" in observed
    revenue = results["revenue_segments_sum_to_total"]
    assert revenue.observed.count("vs total_net_revenue") == 4  # Q4 and FY, 2023 and 2024
    assert "2024-10-01..2024-12-31" in revenue.observed
    assert "4 period(s) evaluated, 0 outside tolerance" in revenue.details


@pytest.mark.parametrize(
    ("metric", "period", "broken"),
    [
        ("total_liabilities_and_equity", (None, DEC24), {"balance_sheet_balances"}),
        (
            "total_equity",
            (None, DEC23),
            {"assets_equal_liabilities_plus_equity", "equity_company_plus_noncontrolling"},
        ),
        ("total_net_revenue", Q4_24, {"revenue_segments_sum_to_total"}),
        ("financing_income", Q4_23, {"credit_driven_components_sum"}),
        ("referral_services_fees", FY_24, {"platform_components_sum"}),
    ],
)
def test_one_altered_figure_fails_exactly_its_identity(
    good_facts: list[Fact], metric: str, period: tuple[date | None, date], broken: set[str]
) -> None:
    facts = altered(good_facts, metric, period[1], 1_000_000, period[0])
    results = validate_facts("hkex:altered", facts)
    assert failures(results) == broken
    assert quarantine_required(results) is True
    for name in broken:
        result = by_name(results)[name]
        assert result.severity in {"critical", "warning"}
        assert "1 outside tolerance" in result.details
        assert result.observed.count(" vs ") == 1  # only the failing period is quoted
        assert metric in result.observed and "diff 1000000" in result.observed


def test_failure_observed_has_both_sides_figures(good_facts: list[Fact]) -> None:
    facts = altered(good_facts, "total_liabilities_and_equity", DEC24, -1_000_000)
    result = by_name(validate_facts("hkex:altered", facts))["balance_sheet_balances"]
    assert result.observed == (
        "2024-12-31: total_assets 48132618000 vs total_liabilities_and_equity 48131618000 "
        "(diff 1000000, tolerance 1000)"
    )
    assert not result.success and result.severity == "critical"


def test_warning_identity_failure_does_not_quarantine(good_facts: list[Fact]) -> None:
    facts = altered(good_facts, "total_current_assets", DEC24, 5_000_000)
    results = validate_facts("hkex:altered", facts)
    assert failures(results) == {"assets_current_plus_non_current"}
    assert by_name(results)["assets_current_plus_non_current"].severity == "warning"
    assert quarantine_required(results) is False


@pytest.mark.parametrize(("delta", "passes"), [(1000, True), (1001, False), (-1001, False)])
def test_tolerance_is_half_a_unit_of_precision_per_figure(
    good_facts: list[Fact], delta: int, passes: bool
) -> None:
    # total_assets = total_liabilities_and_equity: 2 figures to the thousand -> 2 x 500.
    facts = altered(good_facts, "total_liabilities_and_equity", DEC24, delta)
    result = by_name(validate_facts("hkex:edge", facts))["balance_sheet_balances"]
    assert result.success is passes
    assert "tolerance 1000)" in result.observed


@pytest.mark.parametrize(("rhs", "passes"), [("100.01", True), ("100.02", False)])
def test_cent_precision_is_compared_exactly(rhs: str, passes: bool) -> None:
    day = (None, date(2024, 6, 30))
    facts = [
        fact("total_assets", "100.00", day, scale=0, decimals=2),
        fact("total_liabilities_and_equity", rhs, day, scale=0, decimals=2),
    ]
    specs = [s for s in builders.load_suite_specs() if s.name == "balance_sheet"]
    checks = builders.identity_checks(facts, specs)
    # Amounts in cents: tolerance 2 x 0.005 = 1 cent, the gap 1 or 2 cents.
    row = checks.frame[checks.frame["identity"] == "balance_sheet_balances"]
    assert row[["unit_exp", "tolerance"]].values.tolist() == [[2, 1]]
    assert row["abs_diff"].tolist() == [1 if passes else 2]
    result = by_name(validate_facts("local:cents", facts))["balance_sheet_balances"]
    assert result.success is passes


def test_missing_component_is_not_evaluated_not_failed(good_facts: list[Fact]) -> None:
    facts = [f for f in good_facts if not (f.metric == "total_equity" and f.period_end == DEC23)]
    facts = [f for f in facts if f.metric != "platform_services_revenue"]
    results = by_name(validate_facts("hkex:partial", facts))
    assert failures(list(results.values())) == set()
    equity = results["assets_equal_liabilities_plus_equity"]
    assert "not evaluated for 2023-12-31: missing total_equity" in equity.details
    assert "1 period(s) evaluated" in equity.details  # 2024-12-31 still checked
    revenue = results["revenue_segments_sum_to_total"]
    assert revenue.success and revenue.observed.startswith("not evaluated")
    assert revenue.details.count("missing platform_services_revenue") == 4
    assert results["credit_driven_components_sum"].observed.count(" vs ") == 4


def test_only_us_gaap_facts_enter_identities(good_facts: list[Fact]) -> None:
    ifrs = replace(good_facts[4], basis="ifrs", value=Decimal(1))  # a 2023 total_assets
    assert ifrs.metric == "total_assets"
    results = validate_facts("hkex:ifrs", [*good_facts, ifrs])
    assert failures(results) == set()


def test_structure_catches_duplicates_units_and_unknown_metrics(good_facts: list[Fact]) -> None:
    conflicting = fact("total_assets", "48,132,000", (None, DEC24))
    repeated = good_facts[0]  # an identical repeat is no conflict
    narrative = fact(
        "total_assets", "48,132.6", (None, DEC24), scale=6, decimals=-5, origin="narrative"
    )
    wrong_unit = fact("eps_basic_per_ads", "13.5", Q4_24, scale=0, decimals=2, unit="CNY")
    unknown = fact("total_widgets", "1", Q4_24)
    facts = [*good_facts, conflicting, repeated, narrative, wrong_unit, unknown]
    results = by_name(validate_facts("hkex:messy", facts))
    assert {"no_duplicate_facts", "unit_matches_metric", "metric_in_catalog"} <= failures(
        list(results.values())
    )
    dup = results["no_duplicate_facts"].observed
    assert dup.startswith("2 of ") and "value=48132000000" in dup and "value=48132618000" in dup
    assert "unit=CNY expected_unit=CNY/ADS" in results["unit_matches_metric"].observed
    assert "metric=total_widgets" in results["metric_in_catalog"].observed
    assert quarantine_required(list(results.values())) is True


def test_empty_document_passes_with_nothing_evaluated() -> None:
    results = validate_facts("sec:empty", [])
    assert failures(results) == set()
    assert all(
        r.observed.startswith("not evaluated") for r in results if r.expectation in IDENTITIES
    )


def test_data_docs_are_built_when_asked(good_facts: list[Fact], tmp_path: Path) -> None:
    validate_facts("hkex:docs", good_facts, docs_site=tmp_path / "docs")
    assert not (tmp_path / "docs").exists()  # recorded only: the run builds once, at its end
    link = build_data_docs(tmp_path / "docs")
    assert link == (tmp_path / "docs" / "index.html").as_uri()
    assert (tmp_path / "docs" / "index.html").is_file()
    pages = list((tmp_path / "docs" / "validations").rglob("*.html"))
    release_suites = {s.name for s in builders.load_suite_specs()} - {"audited"}
    assert {p.parts[-4] for p in pages} == release_suites


def test_quarantine_only_on_critical_failure() -> None:
    def result(success: bool, severity: str) -> ValidationResult:
        return ValidationResult("s", "e", success, severity, "")

    assert quarantine_required([result(False, "warning"), result(True, "critical")]) is False
    assert quarantine_required([result(False, "info"), result(False, "critical")]) is True
    assert quarantine_required([]) is False


def test_importing_the_stage_does_not_import_gx() -> None:
    code = "import sys, tasks.validate; print('great_expectations' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert out.stdout.strip() == "False"
