"""The real HKEx announcements of tests/fixtures/real (Ernest Borel, HKEx 01856), dropped in by
hand with nothing but the folder's issuers.toml: each names its issuer (stock code 1856, its
Chinese name), is dated by its own dateline, is read, adds up and is published, every keyed
fact in line_items with its exact period and currency. SQLite and PostgreSQL.
"""

from __future__ import annotations

import csv
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from sqlalchemy import select

from domain.releases import AGREEMENT_CHECK
from flows.ingest import ingest_local
from storage.schema import documents, validation_results
from storage.views import LINE_ITEMS

REAL = Path(__file__).resolve().parent.parent / "fixtures" / "real"
PUBLISHED = {
    "HK01856_2014FY_annual-results_en.pdf": date(2015, 3, 30),
    "HK01856_2014FY_annual-results_zh.pdf": date(2015, 3, 30),
    "HK01856_2014H1_interim-results_en.pdf": date(2014, 8, 28),
}


def _keys() -> set[tuple[str, str, date | None, date, str, Decimal]]:
    keys = set()
    for name in PUBLISHED:
        with (REAL / name).with_suffix(".key.csv").open(encoding="utf-8", newline="") as f:
            for k in csv.DictReader(f):
                start = date.fromisoformat(k["period_start"]) if k["period_start"] else None
                keys.add((k["statement"], k["label"], start, date.fromisoformat(k["period_end"]),
                          k["currency"], Decimal(k["value"])))  # fmt: skip
    return keys


@pytest.fixture
def warehouse(configured_warehouse):
    return configured_warehouse((REAL / "issuers.toml").read_text(encoding="utf-8"))


def test_each_is_published_with_every_keyed_fact(warehouse) -> None:
    summary = ingest_local(paths=[str(REAL / name) for name in PUBLISHED])
    assert summary.ok and summary.ingested == 3, summary.render()
    with warehouse.connect() as conn:
        docs = conn.execute(
            select(
                documents.c.issuer, documents.c.kind, documents.c.status, documents.c.published_on
            )  # fmt: skip
        ).all()
        items = conn.execute(
            select(
                LINE_ITEMS.c.statement,
                LINE_ITEMS.c.label,
                LINE_ITEMS.c.period_start,
                LINE_ITEMS.c.period_end,
                LINE_ITEMS.c.unit,
                LINE_ITEMS.c.value,
            )  # fmt: skip
        ).all()
    assert sorted(docs, key=str) == sorted(
        [("EBORL", "results_annual", "loaded", date(2015, 3, 30))] * 2
        + [("EBORL", "results_interim", "loaded", date(2014, 8, 28))],
        key=str,
    )
    stored = {(s, lab, ps, pe, unit.split("/")[0], Decimal(v)) for s, lab, ps, pe, unit, v in items}
    assert _keys() - stored == set()
    assert len(items) == 90 + 90 + 86  # every golden cell, nothing else


def test_the_two_editions_witness_each_other(warehouse) -> None:
    # FY2014 in English and Chinese, dropped in together: whichever the run loads first, the
    # settling stores the comparison with both, each naming the other edition's figures
    fy2014 = [name for name in PUBLISHED if name.startswith("HK01856_2014FY")]
    summary = ingest_local(paths=[str(REAL / name) for name in fy2014])
    assert summary.ok and summary.ingested == 2, summary.render()
    v = validation_results.c
    with warehouse.connect() as conn:
        ids = list(conn.execute(select(documents.c.document_id)).scalars())
        found = conn.execute(
            select(v.document_id, v.success, v.details).where(v.expectation == AGREEMENT_CHECK)
        ).all()
    assert sorted(d for d, _, _ in found) == sorted(ids) and len(ids) == 2
    for document_id, success, details in found:
        other = next(d for d in ids if d != document_id)
        # 38 figures: other comprehensive income and its total, both years, among them
        assert success and details.startswith("38 period(s) evaluated, 0 outside tolerance")
        assert f"net_assets 2014-12-31: {document_id}=682495000" in details
        assert f"{other}=682495000" in details
