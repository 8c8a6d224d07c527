"""The statement gate end to end: a results release whose balance sheet header names no year
(periods not readable) is ingested by hand; it must end quarantined, never loaded, with a
critical data_quality alert naming the statement and the reason, the refused rows stored with
locator, label and reason, and the run summary saying why in one line. SQLite and PostgreSQL.
"""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from flows.ingest import ingest_local
from storage import db
from storage.refusals import stored_refusals
from storage.schema import alert_events, documents, validation_results
from tasks.sources.replay import default_archive_root

Q4_2023_EX99 = default_archive_root() / "sec/0001741530/0001104659-24-032436/tm248123d1_ex99-1.htm"
GATE = re.compile(r"balance sheet: (\d+) rows, period not readable from the header")


@pytest.fixture
def ingested(monkeypatch, tmp_path, db_url):
    monkeypatch.setenv("FILINGS_DATABASE_URL", db_url)
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    html = Q4_2023_EX99.read_text(encoding="utf-8")
    start = html.index("Balance Sheets")
    end = html.index(">ASSETS<", start)
    header = html[start:end]
    for year in ("2022", "2023"):
        header = header.replace(f">December 31, {year}<", ">December 31,<")
    assert header != html[start:end]
    path = tmp_path / "unreadable_balance_sheet_ex99-1.htm"
    path.write_text(html[:start] + header + html[end:], encoding="utf-8")
    summary = ingest_local(paths=[str(path)], issuer="QFIN")
    engine = db.make_engine(db_url)
    with engine.connect() as conn:
        document_id, status = conn.execute(
            select(documents.c.document_id, documents.c.status)
        ).one()
        alerts = conn.execute(select(alert_events.c.kind, alert_events.c.message)).all()
        gate = conn.execute(
            select(validation_results.c.success, validation_results.c.severity).where(
                validation_results.c.expectation == "statements_read"
            )
        ).one()
        refused = stored_refusals(conn, document_id)
    engine.dispose()
    return summary, document_id, status, alerts, gate, refused


def test_unreadable_balance_sheet_quarantines_alerts_and_is_stored(ingested) -> None:
    summary, document_id, status, alerts, gate, refused = ingested
    assert status == "quarantined"
    assert tuple(gate) == (False, "critical")
    messages = [m for kind, m in alerts if kind == "data_quality"]
    named = [m for m in messages if GATE.search(m)]
    assert named and "quarantined" in named[0], messages
    rows = int(GATE.search(named[0])[1])  # type: ignore[index]
    balance = [r for r in refused if r["statement"] == "balance_sheet"]
    assert rows == len({r["row_label"] for r in balance}) > 20
    assert all(r["kind"] == "refused" for r in balance)
    assert {r["reason"].split(" [")[0] for r in balance} == {"period not readable from the header"}
    assert any(r["row_label"] == "TOTAL ASSETS" and r["locator"] for r in balance)
    line = next(ln for ln in summary.render().splitlines() if ln.startswith("quarantined:"))
    assert line.startswith(f"quarantined: {document_id}: balance sheet: {rows} rows, period")
    assert "income statement" not in line  # the statements that were read pass
