"""An HKEx results announcement in Chinese through the flow, on SQLite and PostgreSQL: its
primary statements' rows in ``line_items`` (CNY, the real figures), never loaded empty.

The PDF is assembled from real figures and the words Chinese editions print (see
``scripts/zh_results.py`` and tests/parsers/test_chinese_results.py for what is real).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import select

from flows.ingest import ingest_local
from storage.schema import documents
from storage.views import FACTS_LATEST, LINE_ITEMS

HANT = (
    Path(__file__).resolve().parents[1]
    / "fixtures"
    / "assembled"
    / "hkex_03660_2025-03-17_fy-2024-results_zh-hant_assembled.pdf"
)
ISSUERS = """
[[issuer]]
ticker = "QFIN"
name = "Qifu Technology, Inc."
cik = "0001741530"
hkex_code = "03660"

[[issuer]]
ticker = "ALCO"
hkex_code = "328"
"""


@pytest.fixture
def warehouse(configured_warehouse):
    return configured_warehouse(ISSUERS)


def test_its_statements_are_line_items_and_facts(warehouse) -> None:
    # no --issuer, no --published: its stock code (股份代號：3660) and Chinese dateline tell
    summary = ingest_local(paths=[str(HANT)])
    assert summary.ok and summary.ingested == 1, summary.render()
    with warehouse.connect() as conn:
        doc = conn.execute(select(documents.c.issuer, documents.c.kind, documents.c.status))
        published = conn.execute(select(documents.c.published_on)).scalar_one()
        items = conn.execute(
            select(LINE_ITEMS.c.statement, LINE_ITEMS.c.label, LINE_ITEMS.c.unit).where(
                LINE_ITEMS.c.period_end == date(2024, 12, 31)
            )
        ).all()
        total_assets = conn.execute(
            select(FACTS_LATEST.c.value).where(
                FACTS_LATEST.c.metric == "total_assets",
                FACTS_LATEST.c.period_end == date(2024, 12, 31),
            )
        ).scalar_one()
        assert doc.one() == ("QFIN", "results_annual", "loaded")
    assert published == date(2025, 3, 17)  # 香港，二零二五年三月十七日
    assert {s for s, _, _ in items} == {"balance_sheet", "income_statement", "cash_flow"}
    assert len(items) == 24 and {u for _, _, u in items} == {"CNY"}
    assert ("balance_sheet", "資產總值", "CNY") in items
    assert total_assets == Decimal("48132618000")


def test_ingested_as_another_issuer_it_is_refused_in_one_line(warehouse) -> None:
    summary = ingest_local(paths=[str(HANT)], issuer="ALCO")
    assert summary.failed == [
        f"{HANT.name} refused, nothing stored: it does not name ALCO (ALCO, HKEx 328) "
        "(it names QFIN)"
    ]
    with warehouse.connect() as conn:
        assert conn.execute(select(documents.c.document_id)).all() == []
