"""An issuer added as configuration only, read with no catalog of its own, on both databases.

Buckle's real EX-99.1 (EDGAR, USD, 13- and 39-week fiscal periods) ingested for BKE configured
by ticker and CIK alone: every statement row in ``line_items`` as printed, the standard metrics
mapped, no QFIN rule applied. The same file ingested as QFIN is refused; a real Chinese HKEx
profit warning of another issuer is refused in one line, never loaded empty.
"""

from __future__ import annotations

import json
import re
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import select, text

from flows.ingest import ingest, ingest_local
from storage.db import table_counts
from storage.schema import documents, validation_results
from storage.views import FACTS_FISCAL, FACTS_LATEST, LINE_ITEMS
from tasks.config.issuers import read_issuers
from tasks.extract import declared_rules
from tasks.sources.replay import ReplayServer, default_archive_root

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "fixtures" / "reference"
BUCKLE = REFERENCE / "sec" / "sec_8k_ex99-1_buckle_earnings_release.htm"
ALCO_WARNING = REFERENCE / "hkex" / "hkex_00328_2025-06-27_profit_warning_zh.pdf"
ROWS_GOLDEN = ROOT / "golden" / "rows" / "sec_8k_ex99-1_buckle_earnings_release.json"
ISSUERS = """
[[issuer]]
ticker = "QFIN"
name = "Qifu Technology, Inc."
cik = "0001741530"
hkex_code = "03660"

[[issuer]]
ticker = "BKE"
cik = "885245"
fiscal_year_end = "0201"

[[issuer]]
ticker = "ALCO"
hkex_code = "328"
"""
Q3 = (date(2024, 8, 4), date(2024, 11, 2))  # thirteen weeks ended November 2, 2024
# Buckle's fiscal calendar (52/53 weeks to the Saturday nearest January 31): each period of the
# release, by its start and end, as (period type, fiscal year, fiscal quarter).
BUCKLE_FISCAL = {
    (None, date(2023, 10, 28)): ("instant", 2023, 3),
    (None, date(2024, 2, 3)): ("instant", 2023, 4),  # fiscal 2023's year-end balance sheet
    (None, date(2024, 11, 2)): ("instant", 2024, 3),
    (date(2023, 7, 30), date(2023, 10, 28)): ("quarter", 2023, 3),
    Q3: ("quarter", 2024, 3),
    (date(2023, 1, 29), date(2023, 10, 28)): ("other", 2023, None),  # thirty-nine weeks
    (date(2024, 2, 4), date(2024, 11, 2)): ("other", 2024, None),
}


def fiscal_periods(engine) -> dict[tuple[date | None, date], tuple[str, int, int | None]]:
    """BKE's periods in facts_fiscal, each with its type, fiscal year and quarter."""
    v = FACTS_FISCAL.c
    stmt = select(v.period_start, v.period_end, v.period_type, v.fiscal_year, v.fiscal_quarter)
    with engine.connect() as conn:
        rows = conn.execute(stmt.where(v.issuer == "BKE").distinct()).all()
    return {(r[0], r[1]): (r[2], r[3], r[4]) for r in rows}


def _amount(cell: str, scale: int) -> Decimal:
    negative = cell.startswith("(")
    value = Decimal(re.sub(r"[(),]", "", cell)) * Decimal(10) ** scale
    return -value if negative else value


def _period(text_: str) -> tuple[date | None, date]:
    start, _, end = text_.rpartition("/")
    return (date.fromisoformat(start) if start else None), date.fromisoformat(end)


def golden_cells() -> set[tuple[str, str, date | None, date, Decimal]]:
    """Every value cell of the hand-written golden file of Buckle's statements."""
    data = json.loads(ROWS_GOLDEN.read_text(encoding="utf-8"))
    cells = set()
    for table in data["statements"]:
        periods = [_period(p) for p in table["periods"]]
        for label, *values in table["rows"]:
            for (start, end), cell in zip(periods, values, strict=True):
                amount = _amount(cell, table["scale"])
                cells.add((table["statement"], label, start, end, amount))
    return cells


@pytest.fixture
def warehouse(configured_warehouse):
    return configured_warehouse(ISSUERS)


@pytest.fixture
def buckle(warehouse):
    summary = ingest_local(paths=[str(BUCKLE)], issuer="BKE", published=date(2024, 11, 22))
    assert summary.ok, summary.render()
    return warehouse


def test_every_statement_row_is_a_line_item_in_dollars_and_weeks(buckle) -> None:
    with buckle.connect() as conn:
        rows = conn.execute(select(LINE_ITEMS).where(LINE_ITEMS.c.issuer == "BKE")).all()
    got = {(r.statement, r.label, r.period_start, r.period_end, r.value) for r in rows}
    assert got == golden_cells()
    assert len(rows) == len(got)
    money = {r.unit for r in rows if "shares" not in r.label}
    assert money == {"USD", "USD/share"}
    assert {r.period_end for r in rows} == {
        date(2024, 11, 2), date(2023, 10, 28), date(2024, 2, 3)
    }  # fmt: skip


def test_fiscal_periods_follow_the_year_end_set_in_the_issuers_file(buckle) -> None:
    assert fiscal_periods(buckle) == BUCKLE_FISCAL


def test_the_standard_metrics_are_mapped_without_a_catalog(buckle) -> None:
    with buckle.connect() as conn:
        latest = {
            (r.metric, r.period_start, r.period_end): (r.value, r.unit)
            for r in conn.execute(select(FACTS_LATEST).where(FACTS_LATEST.c.issuer == "BKE"))
        }
        mapped = conn.execute(
            select(LINE_ITEMS.c.label, LINE_ITEMS.c.metric).where(
                LINE_ITEMS.c.period_end == date(2024, 11, 2), LINE_ITEMS.c.metric.is_not(None)
            )
        ).all()
    assert latest[("total_net_revenue", *Q3)] == (Decimal("293618000"), "USD")
    assert latest[("net_income", *Q3)] == (Decimal("44172000"), "USD")
    assert latest[("total_assets", None, date(2024, 11, 2))] == (Decimal("976270000"), "USD")
    assert latest[("eps_basic_per_share", *Q3)] == (Decimal("0.89"), "USD/share")
    assert latest[("total_operating_expenses", *Q3)] == (Decimal("85588000"), "USD")
    assert ("SALES, Net of returns and allowances", "total_net_revenue") in mapped
    assert ("Total assets", "total_assets") in mapped


def test_no_qfin_rule_is_applied_and_the_document_is_published(buckle) -> None:
    with buckle.connect() as conn:
        status = conn.execute(select(documents.c.status).where(documents.c.issuer == "BKE"))
        checked = set(conn.execute(select(validation_results.c.expectation)).scalars())
        failed = conn.execute(
            select(validation_results.c.expectation).where(
                validation_results.c.success.is_(False), validation_results.c.severity != "info"
            )
        ).all()
        # Buckle's 8-K gives 9M and Q3, not H1: its first halves are flagged, never alerted
        flagged = set(
            conn.execute(
                select(validation_results.c.expectation).where(
                    validation_results.c.success.is_(False), validation_results.c.severity == "info"
                )
            ).scalars()
        )
    assert status.scalar_one() == "loaded"
    assert not checked & declared_rules("QFIN")
    assert {"balance_sheet_balances", "assets_equal_liabilities_plus_equity"} <= checked
    assert failed == []
    assert flagged == {"implied_period_is_stored"}


def test_the_same_file_ingested_as_qfin_is_refused_and_changes_nothing(buckle) -> None:
    with buckle.connect() as conn:
        before = table_counts(conn)
    summary = ingest_local(paths=[str(BUCKLE)], issuer="QFIN", published=date(2024, 11, 22))
    assert summary.failed == [
        f"{BUCKLE.name} refused, nothing stored: it does not name QFIN "
        "(Qifu Technology, HKEx 3660) (it names BKE)"
    ]
    with buckle.connect() as conn:
        after = table_counts(conn)
        qfin = conn.execute(text("SELECT COUNT(*) FROM facts_latest WHERE issuer = 'QFIN'"))
        assert qfin.scalar_one() == 0
    after.pop("runs", None), before.pop("runs", None)
    assert after == before


def test_a_chinese_profit_warning_of_another_issuer_is_refused_in_one_line(warehouse) -> None:
    summary = ingest_local(paths=[str(ALCO_WARNING)], issuer="ALCO")
    assert not summary.ok
    assert len(summary.failed) == 1
    assert summary.failed[0].endswith(
        f"{ALCO_WARNING.name} refused: nothing read from it (no statement table, figure, "
        "outlook or dividend found; a other document)"
    )
    with warehouse.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM line_items")).scalar_one() == 0
        assert conn.execute(text("SELECT COUNT(*) FROM facts")).scalar_one() == 0
        # nothing of it stays: no `failed` document row, no file row
        assert conn.execute(text("SELECT COUNT(*) FROM documents")).scalar_one() == 0
        assert conn.execute(text("SELECT COUNT(*) FROM document_files")).scalar_one() == 0


def test_a_catalog_overlay_in_the_configured_directory_is_read(warehouse, monkeypatch, tmp_path):
    # FILINGS_CATALOG_DIR: an overlay outside the package declaring one issuer-specific rule
    catalogs = tmp_path / "catalogs"
    catalogs.mkdir()
    rule = "pretax_less_tax_is_net_income"
    (catalogs / "bke.toml").write_text(
        f'issuer = "BKE"\n\n[validation]\nrules = ["{rule}"]\n', encoding="utf-8"
    )
    monkeypatch.setenv("FILINGS_CATALOG_DIR", str(catalogs))
    summary = ingest_local(paths=[str(BUCKLE)], issuer="BKE")  # dated by its letterhead
    assert summary.ok, summary.render()
    with warehouse.connect() as conn:
        checked = dict(
            conn.execute(
                select(validation_results.c.expectation, validation_results.c.success)
            ).all()
        )
        published = conn.execute(select(documents.c.published_on)).scalar_one()
    assert checked[rule] is True  # 58,506 - 14,334 = 44,172 thousand dollars
    assert not (checked.keys() & declared_rules("QFIN")) - {rule}
    assert published == date(2024, 11, 22)


def test_the_replay_archive_lists_buckles_8k_under_its_own_cik(warehouse, monkeypatch) -> None:
    # the second issuer of the bundled archive: its real EX-99.1 in an 8-K (item 2.02) under
    # CIK 885245, read for BKE configured as the archive's issuers file configures it
    archive = default_archive_root()
    configured = read_issuers(archive / "issuers.toml")
    assert [(i.ticker, i.cik, i.hkex_code) for i in configured] == [
        ("QFIN", "0001741530", "03660"),
        ("BKE", "0000885245", ""),
    ]
    monkeypatch.setenv("FILINGS_ISSUERS_FILE", str(archive / "issuers.toml"))
    monkeypatch.setenv("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
    with ReplayServer(archive) as server:
        for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
            monkeypatch.setenv(name, server.url)
        summary = ingest(issuers=["BKE"])
    assert summary.ok and (summary.found, summary.ingested) == (1, 1), summary.render()
    with warehouse.connect() as conn:
        doc = conn.execute(select(documents.c.document_id, documents.c.form, documents.c.status))
        assert doc.one() == ("sec:0000885245-24-000052", "8-K", "loaded")
        rows = conn.execute(select(LINE_ITEMS).where(LINE_ITEMS.c.issuer == "BKE")).all()
    got = {(r.statement, r.label, r.period_start, r.period_end, r.value) for r in rows}
    assert got == golden_cells()  # the same 144 cells as the hand-dropped file
    # the archive's issuers file sets no year end: SEC's submissions JSON says "0201"
    assert fiscal_periods(warehouse) == BUCKLE_FISCAL
