"""Alerts are raised once per finding and delivered once per channel."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine, select
from sqlalchemy.exc import IntegrityError
from storage_factories import add_document, at

from domain.records import NewAlert
from storage.alerts import add_alerts, alert_id_for, mark_delivery, pending_deliveries
from storage.db import table_counts
from storage.schema import alert_deliveries
from storage.views import ALERTS

CHANNELS = ("email", "slack")


def _alert(key: str, kind: str = "data_quality", doc: str | None = None) -> NewAlert:
    return NewAlert(
        kind=kind,
        issuer="QFIN",
        subject=f"subject {key}",
        message=f"message {key}",
        dedup_key=key,
        document_id=doc,
    )


def _view(engine: Engine) -> dict[str, object]:
    with engine.connect() as conn:
        return {r.alert_id: r.delivered_at for r in conn.execute(select(ALERTS))}


def test_the_same_finding_is_alerted_once(engine: Engine) -> None:
    doc = add_document(engine, "a", at(1))
    with engine.begin() as conn:
        first = add_alerts(conn, [_alert("k1", doc=doc), _alert("k2"), _alert("k1")])
    with engine.begin() as conn:
        again = add_alerts(conn, [_alert("k2"), _alert("k3", kind="restatement")])
        counts = table_counts(conn)
    assert len(first) == 2 and len(set(first)) == 2
    assert again == [alert_id_for("k3")]
    assert counts["alert_events"] == 3


def test_unknown_alert_kinds_are_refused(engine: Engine) -> None:
    with pytest.raises(ValueError), engine.begin() as conn:
        add_alerts(conn, [_alert("k", kind="gossip")])


def test_delivery_fields_and_retries(engine: Engine) -> None:
    with engine.begin() as conn:
        [alert_id] = add_alerts(conn, [_alert("k1")])
        pending = pending_deliveries(conn, CHANNELS)
        assert [(p.alert_id, p.channel, p.attempts) for p in pending] == [
            (alert_id, "email", 0),
            (alert_id, "slack", 0),
        ]
        assert pending[0].subject == "subject k1" and pending[0].kind == "data_quality"
        mark_delivery(conn, alert_id, "email", ok=False, error="SMTP 451")
        mark_delivery(conn, alert_id, "slack", ok=True)
    assert _view(engine) == {alert_id: None}  # email not delivered yet
    with engine.begin() as conn:
        [retry] = pending_deliveries(conn, CHANNELS)
        assert (retry.channel, retry.attempts, retry.last_error) == ("email", 1, "SMTP 451")
        mark_delivery(conn, alert_id, "email", ok=True)
        assert pending_deliveries(conn, CHANNELS) == []
        assert [p.channel for p in pending_deliveries(conn, ["webhook"])] == ["webhook"]
        rows = conn.execute(
            select(
                alert_deliveries.c.channel,
                alert_deliveries.c.attempts,
                alert_deliveries.c.delivered_at,
            )
        ).all()
    delivered = _view(engine)[alert_id]
    assert delivered is not None and delivered == max(r.delivered_at for r in rows)
    assert sorted((r.channel, r.attempts) for r in rows) == [("email", 2), ("slack", 1)]


def test_an_alert_with_no_delivery_yet_is_undelivered(engine: Engine) -> None:
    with engine.begin() as conn:
        [alert_id] = add_alerts(conn, [_alert("k1", kind="pipeline_failure")])
    assert _view(engine) == {alert_id: None}


def test_deliveries_need_an_existing_alert(engine: Engine) -> None:
    with pytest.raises(IntegrityError), engine.begin() as conn:
        mark_delivery(conn, "alert-missing", "email", ok=True)
