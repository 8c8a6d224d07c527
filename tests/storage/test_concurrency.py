"""Two runs loading the same documents at once leave one set of rows, alerts and deliveries."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, date, datetime
from decimal import Decimal

from sqlalchemy import Engine
from storage_factories import QFIN, check, fact

from domain.records import DocumentRef, Fact, Guidance, Provenance
from storage import db
from storage.db import table_counts
from storage.documents import record_documents, upsert_issuers
from storage.loading import load_document
from tasks.alert import deliver_pending, findings_alerts
from tasks.delivery.channels import Channel

Q3_2024 = (date(2024, 7, 1), date(2024, 9, 30))
DOCS = (
    ("q2", datetime(2024, 8, 13, 22, tzinfo=UTC)),
    ("q4", datetime(2025, 3, 16, 22, tzinfo=UTC)),
)


def _extraction(name: str) -> tuple[list[Fact], list[Guidance]]:
    if name == "q2":
        outlook = Guidance(
            "net_income", *Q3_2024, Decimal("1500000000"), Decimal("1600000000"), "CNY",
            date(2024, 8, 13), Provenance("ex99-1.htm", "Business Outlook", "", "", ""),
        )  # fmt: skip
        facts = [fact(f"m{i}", str(1000 * i), period=Q3_2024) for i in range(1, 400)]
        return facts, [outlook]
    actual = fact("net_income", "1798800000", decimals=-5, period=Q3_2024, origin="narrative")
    restated = fact("m1", "5000", period=Q3_2024)
    return [
        actual,
        restated,
        *(fact(f"m{i}", str(1000 * i), period=Q3_2024) for i in range(2, 400)),
    ], []


def _run(url: str, sent: list[str]) -> None:
    """What one ingest does to the warehouse for the two documents, then delivery."""
    engine = db.make_engine(url)
    try:
        db.migrate(engine)
        for name, published in DOCS:
            ref = DocumentRef("sec", name, "QFIN", "6-K", name, published, "https://x.test/")
            with engine.begin() as conn:
                upsert_issuers(conn, [QFIN])
                record_documents(conn, [ref])
            facts, guidance = _extraction(name)
            load_document(
                engine, ref.document_id, facts, [check()], quarantine=False, guidance=guidance
            )
            findings_alerts(engine, "QFIN", ref.document_id)
        deliver_pending(
            engine, [Channel("webhook", lambda batch: sent.extend(a.alert_id for a in batch))]
        )
    finally:
        engine.dispose()


def _at_once(*runs: Callable[[], None]) -> None:
    start = threading.Barrier(len(runs))
    errors: list[BaseException] = []

    def go(run: Callable[[], None]) -> None:
        start.wait()
        try:
            run()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=go, args=(r,)) for r in runs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []


def test_two_ingests_at_once_leave_one_set_of_rows(engine: Engine, db_url: str) -> None:
    sent: list[str] = []
    _at_once(lambda: _run(db_url, sent), lambda: _run(db_url, sent))
    with engine.connect() as conn:
        counts = table_counts(conn)
    assert counts["facts"] == 399 + 400 and counts["guidance"] == 1
    assert counts["alert_events"] == 2  # one restatement (m1), one guidance variance
    assert counts["alert_deliveries"] == 2 and sorted(sent) == sorted(set(sent)) and len(sent) == 2
    _run(db_url, sent)  # and a third, later run changes nothing
    with engine.connect() as conn:
        assert table_counts(conn) == counts
    assert len(sent) == 2
