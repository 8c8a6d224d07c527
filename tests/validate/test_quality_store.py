"""Revalidation, release and cross-document checks on a real warehouse (SQLite, PostgreSQL)."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine

from domain.enums import DocKind, Status
from domain.errors import ValidationError
from domain.records import (
    Dividend,
    DocumentRef,
    Extraction,
    Fact,
    Issuer,
    Provenance,
    ValidationResult,
)
from expectations import builders, runner
from storage import quality
from storage.documents import record_documents, set_status, upsert_issuers
from storage.loading import load_document
from storage.schema import documents, releases, validation_results
from storage.views import FACTS_LATEST
from tasks.validate import (
    gather_context,
    release_document,
    revalidate_document,
    revalidation_targets,
    validate_document,
)

from .qfin_facts import DEC24, altered

QFIN = Issuer("QFIN", "Qifu Technology, Inc.", "0001741530", "03660")


def record(engine: Engine, source: str, source_id: str, published: datetime) -> str:
    ref = DocumentRef(source, source_id, "QFIN", "6-K", source_id, published, "https://x.test/")
    with engine.begin() as conn:
        upsert_issuers(conn, [QFIN])
        record_documents(conn, [ref])
    return ref.document_id


def status(engine: Engine, document_id: str) -> str:
    with engine.connect() as conn:
        stmt = select(documents.c.status).where(documents.c.document_id == document_id)
        return str(conn.execute(stmt).scalar_one())


def dividend(per_share: str, per_ads: str | None) -> Dividend:
    prov = Provenance("f", "", "dividend", "", "")
    ads = Decimal(per_ads) if per_ads else None
    end = date(2023, 12, 31)
    return Dividend("USD", Decimal(per_share), ads, None, end, None, None, None, prov)


@pytest.fixture
def loaded(engine: Engine, good_facts: list[Fact]) -> tuple[Engine, str]:
    doc = record(engine, "hkex", "q4-2024", datetime(2025, 3, 17, 10, tzinfo=UTC))
    facts = altered(good_facts, "total_current_assets", DEC24, 5_000_000)  # a warning only
    extraction = Extraction(doc, DocKind.RESULTS_ANNUAL, facts=tuple(facts))
    results = validate_document(engine, doc, extraction)
    load_document(engine, doc, facts, results, quarantine=False)
    return engine, doc


def test_revalidation_reads_the_warehouse_and_a_suite_change_takes_effect(
    loaded: tuple[Engine, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine, doc = loaded
    first = revalidate_document(engine, doc)
    failed = {r.expectation for r in first.results if not r.success}
    assert failed == {"assets_current_plus_non_current"} and first.status is Status.LOADED
    # Make that identity critical in a copy of the suites: no refetch, no re-extraction.
    suites = tmp_path / "suites"
    shutil.copytree(builders.SUITES_DIR, suites)
    raw = json.loads((suites / "balance_sheet.json").read_text())
    for exp in raw["expectations"]:
        if exp["meta"]["name"] == "assets_current_plus_non_current":
            exp["severity"] = "critical"
    (suites / "balance_sheet.json").write_text(json.dumps(raw))
    monkeypatch.setattr(runner, "suites_dir", suites)
    second = revalidate_document(engine, doc)
    assert second.status is Status.QUARANTINED and status(engine, doc) == "quarantined"
    with engine.connect() as conn:
        stored = conn.execute(
            select(validation_results.c.expectation, validation_results.c.severity).where(
                validation_results.c.success.is_(False)
            )
        ).all()
        latest = conn.execute(select(FACTS_LATEST)).all()
    assert stored == [("assets_current_plus_non_current", "critical")]
    assert latest == []  # quarantined facts stay out of facts_latest


def test_release_records_who_and_when_and_publishes(loaded: tuple[Engine, str]) -> None:
    engine, doc = loaded
    with pytest.raises(ValidationError, match="not quarantined"):
        release_document(engine, doc, "analyst")
    with engine.begin() as conn:
        set_status(conn, doc, Status.QUARANTINED, "failed: x")
    done = release_document(engine, doc, "ana", "checked against the PDF")
    assert (done.document_id, done.released_by) == (doc, "ana")
    assert status(engine, doc) == "loaded"
    with engine.connect() as conn:
        row = conn.execute(select(releases)).one()
        latest = conn.execute(select(FACTS_LATEST)).all()
    assert (row.released_by, row.reason) == ("ana", "checked against the PDF")
    assert row.released_at is not None and len(latest) > 0
    # A released document is not quarantined again by a revalidation: a person decided.
    critical = ValidationResult("s", "e", False, "critical", "x 1 vs y 2")
    with engine.begin() as conn:
        assert quality.store_results(conn, doc, [critical], quarantine=True) is Status.LOADED
    with pytest.raises(ValidationError, match="unknown document"):
        release_document(engine, "sec:nope", "ana")


def test_targets_are_the_named_documents_or_every_loaded_one(loaded: tuple[Engine, str]) -> None:
    engine, doc = loaded
    assert revalidation_targets(engine, None) == [doc]
    assert revalidation_targets(engine, "QFIN", [doc]) == [doc]
    with pytest.raises(ValidationError, match="unknown document"):
        revalidation_targets(engine, None, ["sec:missing"])


def test_dividend_of_h2_2023_agrees_between_the_hkex_form_and_the_6k(engine: Engine) -> None:
    six_k = record(engine, "sec", "q4-2023", datetime(2024, 3, 12, 21, tzinfo=UTC))
    form = record(engine, "hkex", "div-h2-2023", datetime(2024, 3, 13, 9, tzinfo=UTC))
    far = record(engine, "hkex", "other", datetime(2024, 8, 14, 9, tzinfo=UTC))
    # "US$0.29 per Class A ordinary share, or US$0.58 per ADS"
    paragraph = [dividend("0.29", "0.58")]
    load_document(engine, six_k, [], [], quarantine=False, dividends=paragraph)
    kind = DocKind.DIVIDEND_FORM
    extraction = Extraction(form, kind, dividends=(dividend("0.29", None),))
    context = gather_context(engine, form, [], extraction)
    assert {s.document_id for s in context.companions} == {six_k}
    assert far not in {s.document_id for s in context.companions}
    results = {r.expectation: r for r in validate_document(engine, form, extraction)}
    agree = results["dividend_agrees_across_sources"]
    # The stored 6-K's figure reads back from a NUMERIC column as 0.290000: the text spells it
    # as the form's 0.29, so a rerun (which reads both back) words this row the same.
    assert agree.success and "0.29 vs sec:q4-2023 0.29 (diff 0, tolerance 0)" in agree.observed
    assert "hkex:div-h2-2023=0.29, sec:q4-2023=0.29" in agree.details
    wrong = replace(extraction, dividends=(dividend("0.92", None),))
    bad = {r.expectation: r for r in validate_document(engine, form, wrong)}
    assert not bad["dividend_agrees_across_sources"].success
    assert "0.92 vs sec:q4-2023 0.29" in bad["dividend_agrees_across_sources"].observed


def test_stored_quarters_complete_a_full_year(engine: Engine, good_facts: list[Fact]) -> None:
    from .qfin_facts import fact

    earlier = record(engine, "sec", "q3-2024", datetime(2024, 11, 20, tzinfo=UTC))
    nine_months = [
        fact("total_net_revenue", "8,313,300", (date(2024, 1, 1), date(2024, 6, 30))),
        fact("total_net_revenue", "4,370,200", (date(2024, 7, 1), date(2024, 9, 30))),
    ]
    load_document(engine, earlier, nine_months, [], quarantine=False)
    doc = record(engine, "hkex", "q4-2024", datetime(2025, 3, 17, tzinfo=UTC))
    extraction = Extraction(doc, DocKind.RESULTS_ANNUAL, facts=tuple(good_facts))
    results = {r.expectation: r for r in validate_document(engine, doc, extraction)}
    year = results["full_year_is_sum_of_quarters"]
    # FY 17,165,656 vs 8,313,300 + 4,370,200 + 4,482,252 = 17,165,752: 96 thousand apart.
    assert not year.success and year.severity == "warning"
    assert "[sec:q3-2024]" in year.observed and "17165656000" in year.observed


def test_the_other_edition_published_the_same_day_is_compared_figure_by_figure(
    engine: Engine, good_facts: list[Fact]
) -> None:
    # An HKEx announcement's English and Chinese editions: the same figures, published together.
    english = record(engine, "hkex", "q4-2024-en", datetime(2025, 3, 17, 10, tzinfo=UTC))
    chinese = record(engine, "hkex", "q4-2024-zh", datetime(2025, 3, 17, 10, 5, tzinfo=UTC))
    later = record(engine, "hkex", "q4-2024-correction", datetime(2025, 3, 19, 9, tzinfo=UTC))
    load_document(engine, english, good_facts, [], quarantine=False)
    load_document(engine, later, good_facts, [], quarantine=False)
    facts = altered(good_facts, "total_current_assets", DEC24, 5_000_000)
    extraction = Extraction(chinese, DocKind.RESULTS_ANNUAL, facts=tuple(facts))
    context = gather_context(engine, chinese, [], extraction)
    assert {s.document_id for s in context.companions} == {english}  # a correction restates
    results = {r.expectation: r for r in validate_document(engine, chinese, extraction)}
    agree = results["facts_agree_across_sources"]
    assert not agree.success and agree.severity == "critical"
    assert "total_current_assets 2024-12-31" in agree.observed
    assert english in agree.observed and chinese in agree.observed
