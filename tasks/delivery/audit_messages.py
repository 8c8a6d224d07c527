"""Alerts of the audited second witness: a release figure the audited filing contradicts
(``restatement``), and extraction accuracy that fell (``data_quality``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

from domain.enums import AlertKind
from domain.records import NewAlert
from domain.xbrlrecords import Accuracy, AuditedComparison
from tasks.delivery.wording import amount, metric_label, period_label

DIFFERS = "differs"


def audited_alerts(rows: Sequence[AuditedComparison]) -> list[NewAlert]:
    """One restatement alert per release figure the audited one contradicts beyond rounding:
    "FY2023 net income: release RMB4,285.3m, 20-F RMB4,275.1m, filed 2024-04-26". Releases
    printing the same figure (the 6-K and its HKEx twin) make one finding."""
    alerts: dict[str, NewAlert] = {}
    for r in rows:
        if r.outcome != DIFFERS:
            continue
        period = f"{r.period_start or ''}:{r.period_end}"
        key = (
            f"audited:{r.issuer}:{r.metric}:{period}:{r.unit}:{r.reported.normalize():f}:"
            f"{r.audited_accession}:{r.audited.normalize():f}"
        )
        if key in alerts:
            continue
        places = _places(r.reported, r.audited)
        released = amount(r.reported, r.unit, places - 6)
        audited = amount(r.audited, r.unit, places - 6)
        what = f"{period_label(r.period_start, r.period_end)} {metric_label(r.metric)}"
        line = f"{what}: release {released}, {r.audited_form} {audited}, filed {r.audited_filed}"
        others = sorted({x.reported_document_id for x in rows if _same(x, r)})
        message = (
            f"{r.issuer} {line}. The audited filing ({r.audited_form}, accession "
            f"{r.audited_accession}) differs from the release ({', '.join(others)}) by more "
            "than the release's rounding. facts_latest shows the audited figure; "
            "audited_vs_reported lists every comparison."
        )
        alerts[key] = NewAlert(
            kind=AlertKind.RESTATEMENT,
            issuer=r.issuer,
            subject=f"{r.issuer} {line}",
            message=message,
            dedup_key=key,
            document_id=f"xbrl:{r.audited_accession}",
            details={
                "metric": r.metric,
                "period_start": r.period_start,
                "period_end": r.period_end,
                "reported": str(r.reported),
                "reported_documents": others,
                "audited": str(r.audited),
                "audited_accession": r.audited_accession,
            },
        )
    return list(alerts.values())


def _same(a: AuditedComparison, b: AuditedComparison) -> bool:
    return (a.metric, a.period_start, a.period_end, a.unit, a.reported, a.outcome) == (
        b.metric, b.period_start, b.period_end, b.unit, b.reported, b.outcome,
    )  # fmt: skip


def _places(a: Decimal, b: Decimal) -> int:
    """Millions to 1-3 places: the fewest that show the two figures apart."""
    for places in (1, 2, 3):
        if round(a / 1_000_000, places) != round(b / 1_000_000, places):
            return places
    return 3


def accuracy_alerts(before: Mapping[str, Accuracy], after: Sequence[Accuracy]) -> list[NewAlert]:
    """A data-quality alert for each statement whose share of audited figures the releases
    match fell since it was last kept."""
    alerts = []
    for now in after:
        was = before.get(now.statement)
        if was is None or not was.compared or now.share >= was.share:
            continue
        subject = (
            f"{now.issuer} extraction accuracy ({now.statement}) fell: "
            f"{_share(was)} -> {_share(now)} of audited annual figures matched"
        )
        message = (
            f"{subject}. Some figure extracted from a release no longer matches the audited "
            "filing: see audited_vs_reported rows with outcome 'differs' for "
            f"{now.issuer}, and check the release against its document."
        )
        alerts.append(
            NewAlert(
                kind=AlertKind.DATA_QUALITY,
                issuer=now.issuer,
                subject=subject,
                message=message,
                dedup_key=f"accuracy:{now.issuer}:{now.statement}:{was.matched}/{was.compared}:"
                f"{now.matched}/{now.compared}",
                details={"before": _share(was), "after": _share(now)},
            )
        )
    return alerts


def _share(a: Accuracy) -> str:
    return f"{a.matched}/{a.compared} ({a.share * 100:.1f}%)"
