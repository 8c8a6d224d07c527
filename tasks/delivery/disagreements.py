"""The alert of two documents of one disclosure that print a figure otherwise: one alert for
the pair (both are held), naming each figure, its period, both values and both documents."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from domain.enums import AlertKind
from domain.readouts import Disagreement
from domain.records import Fact, NewAlert
from tasks.delivery.wording import amount, exact, metric_label, period_label


def disagreement_alerts(items: Sequence[Disagreement]) -> list[NewAlert]:
    """One alert per pair of documents; its dedup key is the pair and the figures, so
    validating either document again (or both) raises nothing new."""
    return [_alert(d) for d in items if d.figures]


def _alert(d: Disagreement) -> NewAlert:
    first, second = d.documents
    same_source = first.partition(":")[0] == second.partition(":")[0]
    what = "the two editions of one announcement" if same_source else "one disclosure's copies"
    lines = [_line(a, b, first, second) for a, b in d.figures]
    count = len(lines)
    subject = f"{d.issuer} {first} and {second} disagree: " + (
        lines[0] if count == 1 else f"{count} figures"
    )
    message = "\n".join(
        [
            f"{first} and {second}, {what}, print {count} figure"
            f"{'' if count == 1 else 's'} otherwise:",
            *(f"- {line}" for line in lines),
            "Both documents are quarantined: neither value is in facts_latest until a person "
            "checks both documents and runs `filings release DOCUMENT --by NAME` for the one "
            "that is right (the other stays held while its figures disagree).",
        ]
    )
    printed = ";".join(_figure_key(a, b) for a, b in d.figures)
    digest = hashlib.sha256(printed.encode()).hexdigest()[:20]
    return NewAlert(
        kind=AlertKind.DATA_QUALITY,
        issuer=d.issuer,
        subject=subject,
        message=message,
        dedup_key=f"disagreement:{d.issuer}:{first}:{second}:{digest}",
        document_id=second,
        details={
            "documents": [first, second],
            "figures": [_details(a, b) for a, b in d.figures],
        },
    )


def _line(a: Fact, b: Fact, first: str, second: str) -> str:
    """'total assets as of 2014-12-31: HK$802.241m in hkex:1, HK$802.242m in hkex:2'."""
    period = period_label(a.period_start, a.period_end)
    return (
        f"{metric_label(a.metric)} {period}: {amount(a.value, a.unit, a.decimals)} in {first}, "
        f"{amount(b.value, b.unit, b.decimals)} in {second}"
    )


def _figure_key(a: Fact, b: Fact) -> str:
    period = f"{a.period_start or ''}:{a.period_end}"
    return f"{a.metric}:{period}:{a.basis}:{exact(a.value)}:{exact(b.value)}"


def _details(a: Fact, b: Fact) -> dict[str, object]:
    return {
        "metric": a.metric,
        "period_start": a.period_start,
        "period_end": a.period_end,
        "basis": str(a.basis),
        "unit": a.unit,
        "values": [exact(a.value), exact(b.value)],
    }
