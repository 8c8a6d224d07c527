"""Alerts in the warehouse: raised once per finding (dedup_key), delivered once per channel.

Functions take a ``Connection`` and run inside the caller's transaction.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import false, func, or_, select, update
from sqlalchemy.engine import Connection

from domain.enums import AlertKind, DeliveryStatus
from domain.records import NewAlert, PendingDelivery
from storage.schema import ALERT_KINDS, alert_deliveries, alert_events
from storage.sql import chunks, insert, utcnow


def alert_id_for(dedup_key: str) -> str:
    """The alert id a finding always gets, so ids are stable across reruns and databases."""
    return "alert-" + hashlib.sha256(dedup_key.encode()).hexdigest()[:20]


def add_alerts(conn: Connection, alerts: Iterable[NewAlert]) -> list[str]:
    """Raise alerts; a finding already raised (same dedup_key) is skipped.

    Returns the ids of the alerts actually created, in input order.
    """
    now = utcnow()
    rows: dict[str, dict[str, object]] = {}
    for a in alerts:
        if a.kind not in ALERT_KINDS:
            raise ValueError(f"unknown alert kind {a.kind!r}; expected one of {ALERT_KINDS}")
        rows.setdefault(
            a.dedup_key,
            {
                "alert_id": alert_id_for(a.dedup_key),
                "kind": str(a.kind),
                "issuer": a.issuer,
                "subject": a.subject,
                "message": a.message,
                "dedup_key": a.dedup_key,
                "document_id": a.document_id,
                "created_at": now,
                "details": json.dumps(dict(a.details), sort_keys=True, default=str),
            },
        )
    created: set[str] = set()
    for chunk in chunks(list(rows.values())):
        stmt = (
            insert(conn, alert_events)
            .values(chunk)
            .on_conflict_do_nothing()
            .returning(alert_events.c.alert_id)
        )
        created.update(conn.execute(stmt).scalars())
    return [str(r["alert_id"]) for r in rows.values() if r["alert_id"] in created]


def pending_deliveries(conn: Connection, channels: Sequence[str]) -> list[PendingDelivery]:
    """Every (alert, channel) pair not yet delivered, oldest alert first."""
    wanted = list(dict.fromkeys(channels))
    if not wanted:
        return []
    a, d = alert_events, alert_deliveries
    done = (
        select(d.c.alert_id)
        .where(d.c.channel.in_(wanted), d.c.status == DeliveryStatus.DELIVERED.value)
        .group_by(d.c.alert_id)
        .having(func.count() == len(wanted))
    )
    stmt = (
        select(
            a.c.alert_id,
            a.c.kind,
            a.c.issuer,
            a.c.subject,
            a.c.message,
            a.c.created_at,
            a.c.details,
            d.c.channel,
            d.c.status,
            d.c.attempts,
            d.c.last_error,
            d.c.in_doubt,
        )
        .select_from(a.outerjoin(d, (d.c.alert_id == a.c.alert_id) & d.c.channel.in_(wanted)))
        .where(a.c.alert_id.not_in(done))
        .order_by(a.c.created_at, a.c.alert_id)
    )
    attempts: dict[tuple[str, str], tuple[str, int, str, bool]] = {}
    alerts: dict[str, PendingDelivery] = {}
    for r in conn.execute(stmt):
        alerts.setdefault(r.alert_id, _pending(r))
        if r.channel is not None:
            attempts[(r.alert_id, r.channel)] = (r.status, r.attempts, r.last_error, r.in_doubt)
    pending = []
    never = (DeliveryStatus.PENDING.value, 0, "", False)
    for alert_id, alert in alerts.items():
        for channel in wanted:
            status, tries, error, doubt = attempts.get((alert_id, channel), never)
            if status != DeliveryStatus.DELIVERED and not doubt:  # in doubt: never resent
                pending.append(replace(alert, channel=channel, attempts=tries, last_error=error))
    return pending


def _pending(r: Any) -> PendingDelivery:
    """An alert row, not yet tied to a channel."""
    details = json.loads(r.details or "{}")
    return PendingDelivery(
        r.alert_id, "", AlertKind(r.kind), r.issuer, r.subject, r.message, r.created_at, 0, "",
        details if isinstance(details, dict) else {},
    )  # fmt: skip


def mark_delivery(
    conn: Connection, alert_id: str, channel: str, ok: bool, error: str = "", doubt: bool = False
) -> None:
    """Record how one send of an alert on a channel ended (and drop its claim); ``doubt``: it
    may have reached the receiver, so it is not sent again unless an operator says so."""
    now = utcnow()
    stmt = insert(conn, alert_deliveries).values(
        alert_id=alert_id,
        channel=channel,
        status=(DeliveryStatus.DELIVERED if ok else DeliveryStatus.FAILED).value,
        attempts=1,
        last_error="" if ok else error,
        delivered_at=now if ok else None,
        claimed_by=None,
        claimed_at=None,
        in_doubt=doubt and not ok,
    )
    conn.execute(
        stmt.on_conflict_do_update(
            index_elements=["alert_id", "channel"],
            set_={
                "status": stmt.excluded.status,
                "last_error": stmt.excluded.last_error,
                "delivered_at": stmt.excluded.delivered_at,
                "in_doubt": stmt.excluded.in_doubt,
                "attempts": alert_deliveries.c.attempts + 1,
                "claimed_by": None,
                "claimed_at": None,
            },
        )
    )


def claim_delivery(
    conn: Connection, alert_id: str, channel: str, worker: str, now: datetime
) -> bool:
    """Claim the send of an alert on a channel for ``worker``; False when it was delivered, is
    in doubt, or another run is sending it.

    Commit the claim before sending: a run that dies between the send and
    :func:`mark_delivery` leaves the claim behind, and the next run marks the send in doubt
    (:func:`mark_in_doubt`) instead of sending it again. The upsert takes the row lock
    (PostgreSQL) or the write lock (SQLite): of two racing runs, one gets the claim.
    """
    d = alert_deliveries
    stmt = insert(conn, d).values(
        alert_id=alert_id,
        channel=channel,
        status=DeliveryStatus.PENDING.value,
        attempts=0,
        last_error="",
        claimed_by=worker,
        claimed_at=now,
    )
    stmt = stmt.on_conflict_do_update(
        index_elements=["alert_id", "channel"],
        set_={"claimed_by": stmt.excluded.claimed_by, "claimed_at": stmt.excluded.claimed_at},
        where=(d.c.status != DeliveryStatus.DELIVERED.value)
        & d.c.claimed_by.is_(None)
        & d.c.in_doubt.is_(False),
    ).returning(d.c.alert_id)
    return conn.execute(stmt).first() is not None


def mark_in_doubt(
    conn: Connection, gone: Callable[[str], bool], stale_before: datetime
) -> dict[str, int]:
    """Sends whose run died before recording the result (its process is ``gone``, or the claim
    is older than ``stale_before``): marked in doubt, never sent again; returns how many were
    marked now, per channel."""
    d = alert_deliveries
    claimed = conn.execute(
        select(d.c.alert_id, d.c.channel, d.c.claimed_by, d.c.claimed_at).where(
            d.c.claimed_by.is_not(None),
            d.c.status != DeliveryStatus.DELIVERED.value,
            d.c.in_doubt.is_(False),
        )
    ).all()
    marked: dict[str, int] = {}
    for r in claimed:
        if not (gone(str(r.claimed_by)) or r.claimed_at < stale_before):
            continue
        conn.execute(
            update(d)
            .where(d.c.alert_id == r.alert_id, d.c.channel == r.channel)
            .values(
                in_doubt=True,
                last_error=f"in doubt: run {r.claimed_by} stopped while sending it; not resent",
            )
        )
        marked[r.channel] = marked.get(r.channel, 0) + 1
    return marked


def release_for_resend(
    conn: Connection, alert_ids: Sequence[str], in_doubt: bool, channels: Sequence[str]
) -> list[tuple[str, str]]:
    """An operator's decision: the named alerts' undelivered sends (and with ``in_doubt`` every
    send in doubt) on ``channels`` become pending again; returns the (alert, channel) pairs."""
    d = alert_deliveries
    chosen = or_(d.c.alert_id.in_(list(alert_ids)), d.c.in_doubt.is_(True) if in_doubt else false())
    rows = conn.execute(
        update(d)
        .where(chosen, d.c.channel.in_(list(channels)))
        .where(d.c.status != DeliveryStatus.DELIVERED.value)
        .values(
            in_doubt=False,
            claimed_by=None,
            claimed_at=None,
            status=DeliveryStatus.FAILED.value,
            last_error="released for resending by an operator",
        )
        .returning(d.c.alert_id, d.c.channel)
    ).all()
    return sorted((str(a), str(c)) for a, c in rows)


def unknown_alerts(conn: Connection, alert_ids: Sequence[str]) -> list[str]:
    """The ids of ``alert_ids`` no stored alert has."""
    known = set(
        conn.execute(
            select(alert_events.c.alert_id).where(alert_events.c.alert_id.in_(list(alert_ids)))
        ).scalars()
    )
    return [a for a in alert_ids if a not in known]
