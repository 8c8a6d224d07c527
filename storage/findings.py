"""Findings the warehouse can see once a document is loaded: restatements, guidance outcomes,
figures another document of the same disclosure prints otherwise.

Both read what is stored (never the extraction in hand), so they see every earlier report and
give the same answer on a rerun; the alert stage turns them into alerts with stable dedup keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import and_, select
from sqlalchemy.engine import Connection, Row

from domain import releases
from domain.enums import Basis, Origin, Status, VersusGuidance
from domain.precision import differs, keeps
from domain.readouts import Disagreement, GuidanceOutcome, GuidanceRow, Report, Restatement
from domain.records import Fact
from storage.documents import document_info
from storage.facts import stored_facts
from storage.quality import companion_documents
from storage.schema import documents, facts, guidance
from storage.views import GUIDANCE_VS_ACTUAL


def restatements(conn: Connection, document_id: str) -> list[Restatement]:
    """Restatements that ``document_id`` takes part in, folding reports as facts_latest does.

    Reports of a key are taken in publication order; a less precise report that agrees with
    the current value to its own rounding leaves it in place (no finding); any other report
    that differs beyond the coarser rounding of the two is a restatement
    (:mod:`domain.precision`, the rule the view folds with).
    """
    found = []
    for key, reports in _histories(conn, document_id).items():
        current = reports[0]
        for report in reports[1:]:
            if keeps(current, report):
                continue
            if differs(current, report) and document_id in (
                current.document_id,
                report.document_id,
            ):
                found.append(Restatement(*key, before=current, after=report))
            current = report
    return found


def disagreements(conn: Connection, document_id: str) -> list[Disagreement]:
    """The documents of the disclosure ``document_id`` is compared with (the same as its
    ``facts_agree_across_sources`` check: ``quality.companion_documents``) whose figures and
    its own disagree, with those figures (``releases.disagreements``)."""
    info = document_info(conn, document_id)
    ours = [f for _, f in stored_facts(conn, [document_id])]
    theirs: dict[str, list[Fact]] = {}
    for other, fact in stored_facts(conn, companion_documents(conn, info)):
        theirs.setdefault(other, []).append(fact)
    found = []
    for other, facts_of_other in theirs.items():
        pairs = releases.disagreements(ours, facts_of_other)
        if not pairs:
            continue
        # one order for the pair and its figures, whichever of the two is validated
        if other < document_id:
            pairs = [(b, a) for a, b in pairs]
        pairs.sort(key=lambda p: (p[0].metric, str(p[0].period_start), p[0].period_end))
        first, second = sorted((document_id, other))
        found.append(Disagreement(info.issuer, (first, second), tuple(pairs)))
    return found


_Key = tuple[str, str, date | None, date, Basis]


def _histories(conn: Connection, document_id: str) -> dict[_Key, list[Report]]:
    """Every non-quarantined report of the keys the document reports, oldest first."""
    f, d, k = facts, documents, facts.alias("k")
    same_key = and_(
        k.c.document_id == document_id,
        k.c.metric == f.c.metric,
        k.c.period_end == f.c.period_end,
        k.c.period_start.is_not_distinct_from(f.c.period_start),
        k.c.basis == f.c.basis,
    )
    stmt = (
        select(
            d.c.issuer,
            f.c.metric,
            f.c.period_start,
            f.c.period_end,
            f.c.basis,
            f.c.value,
            f.c.decimals,
            f.c.unit,
            f.c.document_id,
            f.c.reported_on,
            f.c.row_label,
            f.c.origin,
            f.c.raw_text,
            f.c.column_label,
            f.c.locator,
            f.c.note,
        )  # fmt: skip
        .join(d, d.c.document_id == f.c.document_id)
        .where(
            d.c.status != Status.QUARANTINED.value,
            f.c.origin != Origin.XBRL.value,  # audited figures: the audit stage compares them
            select(k.c.fact_id).where(same_key).exists(),
        )
        .order_by(f.c.reported_on, d.c.published_at, f.c.document_id)
    )
    histories: dict[_Key, list[Report]] = {}
    for r in conn.execute(stmt):
        key = (r.issuer, r.metric, r.period_start, r.period_end, Basis(r.basis))
        report = Report(r.value, r.decimals, r.unit, r.document_id, r.reported_on, r.row_label,
                        r.origin, r.raw_text, r.column_label, r.locator, r.note)  # fmt: skip
        histories.setdefault(key, []).append(report)
    return histories


def guidance_rows(conn: Connection, issuers: Sequence[str] = ()) -> list[GuidanceRow]:
    """The guidance_vs_actual view by issuer, metric and period (all issuers when none named)."""
    v = GUIDANCE_VS_ACTUAL
    stmt = select(v).order_by(v.c.issuer, v.c.metric, v.c.period_end, v.c.period_start)
    if issuers:
        stmt = stmt.where(v.c.issuer.in_([i.upper() for i in issuers]))
    return [_guidance_row(r._mapping) for r in conn.execute(stmt)]


def _guidance_row(m: Any) -> GuidanceRow:
    return GuidanceRow(**{**m, "outcome": VersusGuidance(m["outcome"])})


def guidance_outcomes(conn: Connection, issuers: Sequence[str]) -> list[GuidanceOutcome]:
    """Guided periods of the issuers whose actual is known, with when the guidance was issued."""
    v, g = GUIDANCE_VS_ACTUAL.c, guidance.c
    a = facts.alias("a")
    stmt = (
        select(
            v.issuer,
            v.metric,
            v.period_start,
            v.period_end,
            v.guidance_low,
            v.guidance_high,
            v.unit,
            g.issued_on,
            v.actual,
            a.c.decimals,
            v.outcome,
            v.variance_pct,
            v.guidance_document_id,
            v.actual_document_id,
        )  # fmt: skip
        .join(
            guidance,
            and_(
                g.document_id == v.guidance_document_id,
                g.metric == v.metric,
                g.period_start == v.period_start,
                g.period_end == v.period_end,
            ),
        )
        .outerjoin(
            a,
            and_(
                a.c.document_id == v.actual_document_id,
                a.c.metric == v.metric,
                a.c.period_start == v.period_start,
                a.c.period_end == v.period_end,
                a.c.basis == Basis.US_GAAP.value,
            ),
        )
        .where(v.issuer.in_(list(issuers)), v.outcome != VersusGuidance.PENDING.value)
        .order_by(v.issuer, v.period_end, v.metric)
    )
    return [_outcome(r) for r in conn.execute(stmt)]


def _outcome(r: Row[tuple[object, ...]]) -> GuidanceOutcome:
    m = r._mapping
    variance = m["variance_pct"]
    return GuidanceOutcome(
        issuer=m["issuer"],
        metric=m["metric"],
        period_start=m["period_start"],
        period_end=m["period_end"],
        low=m["guidance_low"],
        high=m["guidance_high"],
        unit=m["unit"],
        issued_on=m["issued_on"],
        actual=m["actual"],
        actual_decimals=m["decimals"],
        outcome=VersusGuidance(m["outcome"]),
        variance_pct=None if variance is None else Decimal(str(variance)),
        guidance_document_id=m["guidance_document_id"],
        actual_document_id=m["actual_document_id"],
    )
