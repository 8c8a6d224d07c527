"""Alert messages: findings (failed checks, restatements, guidance variances, failed runs) as
alerts an analyst reads, each with the dedup key that makes a rerun raise it only once."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from domain.enums import AlertKind, Severity, VersusGuidance
from domain.readouts import FailedRun, GuidanceOutcome, Report, Restatement
from domain.records import ALL_ISSUERS, NewAlert, ValidationResult, flagged
from tasks.delivery.wording import (
    amount,
    evidence,
    exact,
    guidance_range,
    metric_label,
    percent,
    period_label,
    plain_findings,
)


def data_quality_alerts(
    issuer: str,
    document_id: str,
    results: Sequence[ValidationResult],
    alerted_apart: Collection[str] = (),
) -> list[NewAlert]:
    """One alert per failed expectation (but those ``alerted_apart``), in plain words: what was
    expected, how many findings, and whether the document is quarantined or published; the
    same failure of the same document dedups. A document quarantined by any critical failure
    is never "published"."""
    quarantined = any(not r.success and r.severity == Severity.CRITICAL for r in results)
    action = (
        f"The document is quarantined: its figures stay out of facts_latest until a person "
        f"checks them and runs `filings release {document_id} --by NAME`."
        if quarantined
        else "The document is published (a warning does not quarantine): the figures it "
        "stored are in facts_latest; a figure marked 'not stored' above was left out. Please "
        "check them against the document."
    )
    state = "document quarantined" if quarantined else "document published, please review"
    alerts = []
    for result in results:
        if result.success or flagged(result) or result.expectation in alerted_apart:
            continue  # a flagged (info) finding is shown in Data Docs, never alerted
        check = result.expectation.replace("_", " ")
        findings = plain_findings(result.observed) or [result.details or "no detail recorded"]
        count = f"{len(findings)} finding{'' if len(findings) == 1 else 's'}"
        subject = f"{issuer} {document_id}: expected {check}, {count} ({state})"
        message = "\n".join(
            [
                f"{document_id} failed a {result.severity} check ({result.suite}): expected "
                f"{check}. Found:",
                *(f"- {line}" for line in findings),
                action,
            ]
        )
        alerts.append(
            NewAlert(
                kind=AlertKind.DATA_QUALITY,
                issuer=issuer,
                subject=subject,
                message=message,
                dedup_key=f"data_quality:{document_id}:{result.suite}:{result.expectation}:"
                f"{result.observed}",
                document_id=document_id,
            )
        )
    return alerts


def restatement_alerts(items: Sequence[Restatement]) -> list[NewAlert]:
    """One alert per restated value, naming both values and both documents."""
    alerts = []
    for r in items:
        what = f"{r.issuer} {period_label(r.period_start, r.period_end)} {metric_label(r.metric)}"
        old = amount(r.before.value, r.before.unit, r.before.decimals)
        new = amount(r.after.value, r.after.unit, r.after.decimals)
        change = ""
        if r.before.value and r.before.unit == r.after.unit:
            change = f" ({percent((r.after.value - r.before.value) * 100 / r.before.value)})"
        message = (
            f"{what} was restated from {old} ({_where(r.before)}) to {new}{change} "
            f"({_where(r.after)}).{_wording(r.before, r.after)} facts_latest shows {new}; "
            f"facts_history keeps both. {_reason(r.after)}"
        )
        period = f"{r.period_start or ''}:{r.period_end}"
        alerts.append(
            NewAlert(
                kind=AlertKind.RESTATEMENT,
                issuer=r.issuer,
                subject=f"{what} restated: {old} -> {new}",
                message=message,
                dedup_key=f"restatement:{r.issuer}:{r.metric}:{period}:{r.basis}:"
                f"{r.before.document_id}:{r.after.document_id}",
                document_id=r.after.document_id,
                details={
                    "metric": r.metric,
                    "period_start": r.period_start,
                    "period_end": r.period_end,
                    "basis": r.basis,
                    "before": _report(r.before),
                    "after": _report(r.after),
                    "old_value": exact(r.before.value),
                    "new_value": exact(r.after.value),
                    "unit": r.after.unit,
                    "reason": r.after.note,
                    "where": r.after.locator,
                },
            )
        )
    return alerts


def _wording(before: Report, after: Report) -> str:
    """What each document prints about the figure, when it says: ' The later document reads
    "…" (the earlier one: "…").' Only words about this period are quoted (``evidence``)."""
    later, earlier = evidence(after), evidence(before)
    if not later:
        return ""
    was = f' (the earlier one: "{earlier}")' if earlier and earlier != later else ""
    return f' The later document reads "{later}"{was}.'


def _where(r: Report) -> str:
    """``hkex:11480512, page 2, reported 2025-03-17``: the page when the locator names one."""
    page = r.locator.partition(",")[0] if r.locator.startswith("page ") else ""
    return ", ".join(x for x in (r.document_id, page, f"reported {r.reported_on}") if x)


def _reason(r: Report) -> str:
    """The later document's own reason when its note on the figure gives one."""
    if r.note:
        return f'The later document\'s note on the figure says: "{r.note}"'
    return "Check the later document's notes for the reason before using the old figure."


def _report(r: Report) -> dict[str, object]:
    return {k: str(getattr(r, k)) for k in ("value", "decimals", "unit", "document_id")}


def guidance_variance_alerts(items: Sequence[GuidanceOutcome]) -> list[NewAlert]:
    """One alert per guided period whose actual landed outside the range (above or below)."""
    alerts = []
    for o in items:
        if o.outcome not in (VersusGuidance.ABOVE, VersusGuidance.BELOW):
            continue
        near, far = (o.high, o.low) if o.outcome == VersusGuidance.ABOVE else (o.low, o.high)
        bound = near if near is not None else far
        what = f"{o.issuer} {period_label(o.period_start, o.period_end)} {metric_label(o.metric)}"
        actual = amount(o.actual, o.unit, o.actual_decimals)
        side = "top" if o.outcome == VersusGuidance.ABOVE else "bottom"
        off = abs(o.actual - bound) * 100 / abs(bound) if bound else None
        how = f"{percent(off, signed=False)} {o.outcome} the {side}" if off is not None else side
        message = (
            f"{what} {actual} is {how} of its guidance {guidance_range(o.low, o.high, o.unit)}"
            f" (issued {o.issued_on})."
        )
        if o.variance_pct is not None:
            message += f" Variance against the midpoint: {percent(o.variance_pct)}."
        message += f" Actual from {o.actual_document_id}; guidance from {o.guidance_document_id}."
        alerts.append(
            NewAlert(
                kind=AlertKind.GUIDANCE_VARIANCE,
                issuer=o.issuer,
                subject=f"{what} {o.outcome} guidance",
                message=message,
                dedup_key=f"guidance_variance:{o.issuer}:{o.metric}:{o.period_start}:"
                f"{o.period_end}:{o.guidance_document_id}:{o.outcome}",
                document_id=o.actual_document_id,
                details={
                    "variance_pct": o.variance_pct,
                    "outcome": o.outcome,
                    "metric": o.metric,
                    "period_start": o.period_start,
                    "period_end": o.period_end,
                    "new_value": exact(o.actual),
                    "guidance_low": exact(o.low),
                    "guidance_high": exact(o.high),
                    "unit": o.unit,
                },
            )
        )
    return alerts


def failure_alert(run: FailedRun) -> NewAlert:
    """The alert of one failed run; its dedup key is the flow run id."""
    issuer = ",".join(run.issuers) or ALL_ISSUERS
    subject = f"pipeline run {run.flow_name}/{run.run_name} {run.state_name.lower()}"
    reason = run.message or "no message; see the run's logs in the Prefect UI"
    message = (
        f"{subject}: {reason}. Flow run {run.flow_run_id}. Fix the cause and rerun: "
        "documents already stored are kept and the next run picks up the rest."
    )
    return NewAlert(
        kind=AlertKind.PIPELINE_FAILURE,
        issuer=issuer,
        subject=subject,
        message=message,
        dedup_key=f"pipeline_failure:{run.flow_run_id}",
    )
