"""Text damage is caught, the seeds pass, and alerts quote the identity and both sides."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from domain.records import Fact, ValidationResult, flagged, quarantine_required, tally
from expectations.rules import Context
from tasks.delivery.messages import data_quality_alerts
from tasks.extract import extract_file
from tasks.sources.replay import default_archive_root
from tasks.validate import validate_facts

from .qfin_facts import DEC24, altered, fact

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
ARCHIVE = default_archive_root()
SEEDS = FIXTURES / "seeds"
Q2_2023 = (date(2023, 4, 1), date(2023, 6, 30))


def failed(results: list[ValidationResult]) -> dict[str, ValidationResult]:
    return {r.expectation: r for r in results if not r.success}


def test_a_flagged_decimal_separator_is_caught_and_quarantines() -> None:
    # Q2 2024 highlights: "a decrease of 13.9% from RMB71.860 million" (71,860 million).
    damaged = fact(
        "loan_volume_capital_light", "71.860", Q2_2023, scale=6, decimals=-3, origin="narrative"
    )
    damaged = replace(damaged, flags=("suspect_decimal_separator",))
    results = validate_facts("sec:q2-2024", [damaged])
    bad = failed(results)
    assert set(bad) == {"no_suspect_figures"}
    assert bad["no_suspect_figures"].severity == "critical"
    assert "flags=suspect_decimal_separator raw_text=71.860" in bad["no_suspect_figures"].observed
    assert quarantine_required(results)


def test_a_narrative_figure_off_its_table_figure_is_caught(good_facts: list[Fact]) -> None:
    q4 = (date(2024, 10, 1), DEC24)
    ok = fact("total_net_revenue", "4,482.3", q4, scale=6, decimals=-5, origin="narrative")
    off = fact("total_net_revenue", "4,428.3", q4, scale=6, decimals=-5, origin="narrative")
    assert failed(validate_facts("hkex:q4", [*good_facts, ok])) == {}
    bad = failed(validate_facts("hkex:q4", [*good_facts, off]))["narrative_matches_table"]
    assert bad.observed == (
        "total_net_revenue 2024-10-01..2024-12-31: narrative 4428300000 vs table 4482252000 "
        "(diff 53952000, tolerance 50500)"
    )


def test_alert_names_the_failed_identity_and_both_sides(good_facts: list[Fact]) -> None:
    facts = altered(good_facts, "total_assets", DEC24, 100_000)
    results = validate_facts("local:altered", facts)
    alerts = {a.subject: a for a in data_quality_alerts("QFIN", "local:altered", results)}
    subject = (
        "QFIN local:altered: expected balance sheet balances, 1 finding (document quarantined)"
    )
    message = alerts[subject].message
    assert message.startswith(
        "local:altered failed a critical check (balance_sheet): expected balance sheet balances."
    )
    assert (
        "2024-12-31: Total assets RMB48,132.7m vs Total liabilities and equity RMB48,132.6m "
        "(they differ by 100,000, rounding allows 1,000)"
    ) in message
    assert "filings release local:altered" in message


def _seed(name: str, kind_hint: str = "") -> list[ValidationResult]:
    # sec/ and hkex/ documents are the replay archive's; the seeds stay in tests/fixtures
    path = (ARCHIVE if name.startswith(("sec/", "hkex/")) else FIXTURES) / name
    extraction = extract_file(path.name, path.read_bytes(), "QFIN")
    context = Context(
        document_id=path.name,
        kind=str(extraction.kind),
        guidance=extraction.guidance,
        dividends=extraction.dividends,
        usd_rate=extraction.usd_rate,
    )
    return validate_facts(path.name, list(extraction.facts), context=context)


@pytest.mark.parametrize(
    "name",
    [
        "seeds/hkex_03660_2025-03-17_q4-2024-results.txt",
        "seeds/sec_0001741530_2024-03-12_6k_q4-2023.txt",
        "sec/0001741530/0001104659-24-088431/tm2421456d1_ex99-1.htm",
    ],
)
def test_undamaged_seed_documents_pass_every_expectation(name: str) -> None:
    # a flagged (info) finding is no failure: the Q2 2024 6-K implies quarters nobody stored
    assert {k: r for k, r in failed(_seed(name)).items() if not flagged(r)} == {}


class TestQ2_2024ReleaseImpliedQuarters:
    """QFIN's Q2 2024 6-K (EX-99.1 as filed) on its own: H1 less Q2 gives Q1 of both years."""

    NAME = "sec/0001741530/0001104659-24-088431/tm2421456d1_ex99-1.htm"

    def test_q1_2023_revenue_is_flagged_as_implied_only(self) -> None:
        found = failed(_seed(self.NAME))["implied_period_is_stored"]
        assert found.severity == "info"
        # (other comprehensive income, total comprehensive income and its two shares: Q1 of
        # both years, 8 of the 52)
        assert "52 outside tolerance" in found.details
        assert (
            "total_net_revenue 2023-01-01..2023-03-31: total_net_revenue 2023-01-01..2023-06-30"
            "=7513498000 (decimals -3), total_net_revenue 2023-04-01..2023-06-30=3914324000 "
            "(decimals -3), total_net_revenue 2023-01-01..2023-03-31 implied=3599174000"
        ) in found.details

    def test_the_flag_raises_no_alert_and_counts_apart(self) -> None:
        results = _seed(self.NAME)
        assert not quarantine_required(results)
        assert data_quality_alerts("QFIN", self.NAME, results) == []
        passed, failures, noted = tally(results)
        assert (failures, noted) == (0, 1) and passed > 0


def test_q2_2024_text_damage_is_caught() -> None:
    # The text rendering garbles "Noncontrolling interests TOTAL EQUITY" into one line.
    bad = failed(_seed("seeds/sec_0001741530_2024-08-13_6k_q2-2024.txt"))
    assert "results_hold_core_metrics" in bad
    assert "total_equity: required 1 vs reported 0" in bad["results_hold_core_metrics"].observed
