"""The audited witness end to end: replay server (QFIN's company facts, none for BKE) ->
ingest flow -> warehouse, on both databases."""

from datetime import date
from decimal import Decimal

import pytest
from rich.console import Console
from sqlalchemy import select, update

from flows.console import accuracy_table
from flows.ingest import ingest
from storage import db
from storage.db import table_counts
from storage.schema import alert_events, documents, facts
from storage.views import AUDITED_VS_REPORTED, EXTRACTION_ACCURACY
from tasks import audit
from tasks.config import wiring
from tasks.config.settings import load_settings
from tasks.runs.bookkeeping import warehouse_status
from tasks.sources.replay import ReplayServer, default_archive_root

FY2023_20F = "0001104659-24-051187"
ALERT = (
    "QFIN FY2023 net income attributable to ordinary shareholders of the Company: "
    "release RMB4,285.3m, 20-F RMB4,275.1m, filed 2024-04-26"
)


@pytest.fixture
def replay():
    with ReplayServer(default_archive_root()) as server:
        yield server


@pytest.fixture
def env(monkeypatch, tmp_path, db_url, replay):
    monkeypatch.setenv("FILINGS_DATABASE_URL", db_url)
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
        monkeypatch.setenv(name, replay.url)
    monkeypatch.setenv("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
    monkeypatch.setenv("FILINGS_ISSUERS_FILE", str(default_archive_root() / "issuers.toml"))
    return db_url


def _rows(url, stmt):
    engine = db.make_engine(url)
    with engine.connect() as conn:
        found = conn.execute(stmt).all()
    engine.dispose()
    return found


def test_first_run_reconciles_qfin_and_raises_one_restatement(env, replay):
    summary = ingest()
    assert summary.audited == [
        "QFIN: 2 audited filing(s) read, 60 new facts; "
        "66 release figures compared: 64 equal, 0 within rounding, 2 differs",
        "BKE: no XBRL company facts at SEC (404); skipped",
    ], summary.render()
    assert summary.ok, summary.render()
    requests = replay.requests("/api/xbrl/companyfacts/")
    assert sorted((r.path.rsplit("/", 1)[-1], r.status) for r in requests) == [
        ("CIK0000885245.json", 404),
        ("CIK0001741530.json", 200),
    ]
    restated = _rows(
        env,
        select(alert_events.c.subject, alert_events.c.document_id).where(
            alert_events.c.kind == "restatement", alert_events.c.subject.contains("20-F")
        ),
    )
    assert [tuple(r) for r in restated] == [(ALERT, f"xbrl:{FY2023_20F}")]
    v = AUDITED_VS_REPORTED
    differs = _rows(
        env, select(v).where(v.c.outcome == "differs").order_by(v.c.reported_document_id)
    )
    assert [(r.reported_document_id, r.reported, r.audited, r.audited_form) for r in differs] == [
        ("hkex:11480512", Decimal("4285336000"), Decimal("4275136000"), "20-F"),
        ("sec:0001104659-24-032436", Decimal("4285336000"), Decimal("4275136000"), "20-F"),
    ]
    accuracy = {r.statement: r for r in _rows(env, select(EXTRACTION_ACCURACY))}
    # FY2022-FY2024: 8 income lines in 4 releases' year columns, 2 of them the wrong FY2023
    assert (accuracy["income"].compared, accuracy["income"].matched) == (32, 30)
    assert (accuracy["cash_flow"].compared, accuracy["cash_flow"].matched) == (4, 4)
    # filings status prints it
    engine = db.make_engine(env)
    console = Console(record=True, width=80)
    for table in accuracy_table(warehouse_status(engine).accuracy):
        console.print(table)
    engine.dispose()
    assert "QFIN    balance 30/30 (100.0%), cash_flow 4/4 (100.0%), income 30/32 (93.8%)" in (
        console.export_text()
    )


def test_a_rerun_adds_nothing(env):
    ingest()
    engine = db.make_engine(env)
    with engine.connect() as conn:
        before = table_counts(conn)
    again = ingest()
    with engine.connect() as conn:
        after = table_counts(conn)
    engine.dispose()
    assert (again.facts_loaded, again.alerts_raised, again.validations_failed) == (0, 0, 0)
    assert again.audited == [
        "QFIN: no new filing listed, 0 new facts; "
        "66 release figures compared: 64 equal, 0 within rounding, 2 differs",
        "BKE: no XBRL company facts held; skipped",
    ]  # the company facts are asked again only when EDGAR lists a newer 20-F/10-K/10-Q
    assert {k: v for k, v in after.items() if k != "runs"} == {
        k: v for k, v in before.items() if k != "runs"
    }


def test_a_wrong_extracted_figure_lowers_accuracy_and_alerts_once(env):
    ingest()
    settings = load_settings()
    engine = wiring.warehouse(settings)
    qfin = next(i for i in settings.issuers() if i.ticker == "QFIN")
    # the Q4 2023 6-K's FY2023 revenue, as if the extractor had read it wrong
    with engine.begin() as conn:
        conn.execute(
            update(facts)
            .where(
                facts.c.document_id == "sec:0001104659-24-032436",
                facts.c.metric == "total_net_revenue",
                facts.c.period_start == date(2023, 1, 1),
                facts.c.period_end == date(2023, 12, 31),
            )
            .values(value=Decimal("16209027000"))
        )
    clients, archive = wiring.build_sources(settings), wiring.raw_archive(settings)
    done = audit.audit_issuer(engine, clients, archive, qfin)
    again = audit.audit_issuer(engine, clients, archive, qfin)
    with engine.connect() as conn:
        income = conn.execute(
            select(EXTRACTION_ACCURACY).where(EXTRACTION_ACCURACY.c.statement == "income")
        ).one()
        kinds = [
            r.subject
            for r in conn.execute(select(alert_events).where(alert_events.c.kind == "data_quality"))
            if "accuracy" in r.subject
        ]
        status = conn.execute(
            select(documents.c.status).where(documents.c.document_id == f"xbrl:{FY2023_20F}")
        ).scalar_one()
    engine.dispose()
    assert (income.compared, income.matched, Decimal(str(income.share))) == (
        32, 29, Decimal("0.9063"),
    )  # fmt: skip
    assert kinds == [
        "QFIN extraction accuracy (income) fell: 30/32 (93.8%) -> 29/32 (90.6%) of audited "
        "annual figures matched"
    ]
    # FY2023 revenue now contradicts the 20-F (a restatement alert) and accuracy fell: once
    assert len(done.alerts) == 2 and again.alerts == ()
    assert status == "loaded"
