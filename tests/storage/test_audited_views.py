"""audited_vs_reported and extraction_accuracy on both databases: release figures against an
audited filing's XBRL figures, one of them extracted wrong."""

from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal

from sqlalchemy import Engine, select

from domain.records import DocumentRef, Fact
from domain.xbrlrecords import AuditedFiling
from storage.audited import accuracy, comparisons, store_filing
from storage.views import AUDITED_VS_REPORTED, EXTRACTION_ACCURACY
from tests.storage.storage_factories import at, fact, load

FY2023 = (date(2023, 1, 1), date(2023, 12, 31))
YEAR_END = (None, date(2023, 12, 31))
ACCN, LATER = "0001104659-24-051187", "0001104659-25-034412"


def _audited(metric: str, value: str, period: tuple[date | None, date] = FY2023) -> Fact:
    return replace(fact(metric, value, decimals=0, period=period), origin="xbrl", scale=0)


AUDITED = (
    _audited("total_net_revenue", "16290027000"),
    _audited("net_income", "4268577000"),
    _audited("net_income_attributable_to_company", "4275136000"),
    _audited("total_assets", "45818572000", YEAR_END),
)


def _store(engine: Engine, accession: str, filed: date, facts: tuple[Fact, ...]) -> int:
    ref = DocumentRef(
        source="xbrl", source_id=accession, issuer="QFIN", form="20-F", title="20-F",
        published_at=datetime(filed.year, filed.month, filed.day, tzinfo=UTC),
        url=f"https://www.sec.gov/Archives/edgar/data/1741530/{accession.replace('-', '')}/",
    )  # fmt: skip
    with engine.begin() as conn:
        _, inserted = store_filing(
            conn, ref, AuditedFiling(accession, "20-F", filed, facts), datetime.now(UTC)
        )
    return inserted


def _release(engine: Engine) -> str:
    """The Q4 2023 release as extracted: net income attributable read wrong (4,285,336 is what
    it printed; the audited figure is 4,275,136), net income only from the text (-5)."""
    return load(
        engine,
        "0001104659-24-032436",
        at(12, 3),
        fact("total_net_revenue", "16290027000", period=FY2023),
        fact("net_income", "4268600000", decimals=-5, period=FY2023, origin="narrative"),
        fact("net_income_attributable_to_company", "4285336000", period=FY2023),
        fact("total_assets", "45818572000", period=YEAR_END),
    )


def test_each_release_figure_against_the_audited_one(engine):
    release = _release(engine)
    assert _store(engine, ACCN, date(2024, 4, 26), AUDITED) == 4
    with engine.connect() as conn:
        rows = {r.metric: r for r in conn.execute(select(AUDITED_VS_REPORTED))}
        found = comparisons(conn, "QFIN")
    assert {m: r.outcome for m, r in rows.items()} == {
        "total_net_revenue": "equal",
        "net_income": "within_rounding",  # 4,268.6 million against 4,268,577 thousand
        "net_income_attributable_to_company": "differs",
        "total_assets": "equal",
    }
    wrong = rows["net_income_attributable_to_company"]
    assert (wrong.reported, wrong.audited, wrong.difference) == (
        Decimal("4285336000"), Decimal("4275136000"), Decimal("10200000"),
    )  # fmt: skip
    assert (wrong.reported_document_id, wrong.audited_accession, wrong.audited_form) == (
        release, ACCN, "20-F",
    )  # fmt: skip
    assert {r.audited_filed for r in found} == {date(2024, 4, 26)}


def test_accuracy_counts_the_one_wrong_figure(engine):
    _release(engine)
    _store(engine, ACCN, date(2024, 4, 26), AUDITED)
    with engine.connect() as conn:
        rows = {r.statement: r for r in conn.execute(select(EXTRACTION_ACCURACY))}
        measured = {a.statement: a for a in accuracy(conn, "QFIN")}
    income, balance = rows["income"], rows["balance"]
    assert (income.periods, income.compared, income.matched) == (1, 3, 2)
    assert Decimal(str(income.share)) == Decimal("0.6667")
    assert (balance.periods, balance.compared, balance.matched, balance.share) == (1, 1, 1, 1)
    assert measured["income"].share == Decimal(2) / 3


def test_a_figure_held_is_not_stored_again(engine):
    _release(engine)
    assert _store(engine, ACCN, date(2024, 4, 26), AUDITED) == 4
    assert _store(engine, ACCN, date(2024, 4, 26), AUDITED) == 0


def test_the_latest_audited_value_is_named_by_its_first_filing(engine):
    _release(engine)
    _store(engine, ACCN, date(2024, 4, 26), AUDITED)
    # the next 20-F repeats FY2023 as its comparative, restating nothing
    assert _store(engine, LATER, date(2025, 4, 10), AUDITED) == 4
    with engine.connect() as conn:
        accessions = {r.audited_accession for r in conn.execute(select(AUDITED_VS_REPORTED))}
    assert accessions == {ACCN}
    # ...then restates revenue: the later filing is the audited figure now
    restated = (_audited("total_net_revenue", "16290000000"),)
    _store(engine, "0001104659-26-000001", date(2026, 4, 10), restated)
    with engine.connect() as conn:
        v = AUDITED_VS_REPORTED
        row = conn.execute(select(v).where(v.c.metric == "total_net_revenue")).one()
    assert (row.audited_accession, row.audited, row.outcome) == (
        "0001104659-26-000001", Decimal("16290000000"), "differs",
    )  # fmt: skip
