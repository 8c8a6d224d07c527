"""A real results release with one total altered (Buckle's EX-99.1 as filed, its Total assets
976,270 printed 979,270), ingested by hand: the statements are read, yet the arithmetic of
its balance sheet does not hold, so it is quarantined with a critical data_quality alert naming
the row, the printed figure and the sum of its rows. The release as filed is published.
SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import select

from flows.ingest import ingest_local
from storage.schema import alert_events, documents, validation_results

BUCKLE = (
    Path(__file__).resolve().parent.parent
    / "fixtures/reference/sec/sec_8k_ex99-1_buckle_earnings_release.htm"
)
ISSUERS = """
[[issuer]]
ticker = "BKE"
cik = "885245"
"""


def _ingest(warehouse, path: Path):
    summary = ingest_local(paths=[str(path)], issuer="BKE", published=date(2024, 11, 22))
    with warehouse.connect() as conn:
        status = conn.execute(select(documents.c.status)).scalar_one()
        check = conn.execute(
            select(validation_results.c.success, validation_results.c.severity).where(
                validation_results.c.expectation == "statements_add_up"
            )
        ).one()
        alerts = conn.execute(select(alert_events.c.kind, alert_events.c.message)).all()
    return summary, status, tuple(check), alerts


@pytest.fixture
def warehouse(configured_warehouse):
    return configured_warehouse(ISSUERS)


def test_an_altered_total_is_quarantined_naming_the_row_the_figure_and_the_sum(
    warehouse, tmp_path
) -> None:
    altered = tmp_path / "sec_8k_ex99-1_buckle_total_assets_altered.htm"
    altered.write_bytes(BUCKLE.read_bytes().replace(b"976,270", b"979,270", 1))
    summary, status, check, alerts = _ingest(warehouse, altered)
    assert status == "quarantined"
    assert check == (False, "critical")
    named = [m for kind, m in alerts if kind == "data_quality" and "statements add up" in m]
    assert named, alerts
    assert (
        "balance sheet 2024-11-02 USD 'Total assets': printed 979270000 vs sum of its rows "
        "976270000" in named[0]
    )
    assert "quarantined" in named[0]
    assert "statements add up" in summary.render()
    # Buckle reports in US dollars: the alert naming the total speaks of no RMB
    assert "USD" in named[0] and "RMB" not in named[0], alerts


def test_the_release_as_filed_adds_up_and_is_published(warehouse) -> None:
    _, status, check, _ = _ingest(warehouse, BUCKLE)
    assert (status, check) == ("loaded", (True, "critical"))
