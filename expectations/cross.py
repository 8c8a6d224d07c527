"""Rules that compare a document with others: across periods and across sources."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from domain import releases
from domain.fiscal import derivable
from domain.metrics import additive_metrics, metrics
from domain.precision import half_unit, select_stored_facts
from domain.records import Dividend, Fact
from expectations.rules import (
    IDENTITY_BASIS,
    CheckRow,
    Context,
    Figure,
    PeriodKey,
    RuleOutput,
    completes,
    period_label,
)


@dataclass(frozen=True, slots=True)
class _Pick:
    fact: Fact
    document_id: str  # "" for the document being validated
    published_at: datetime | None = None  # the other document's


def months(start: date, end: date) -> int:
    """Whole calendar months from ``start`` (a 1st) to ``end`` (a month end); 0 otherwise."""
    if start.day != 1 or (end + timedelta(days=1)).day != 1:
        return 0
    return (end.year - start.year) * 12 + end.month - start.month + 1


def _add_months(day: date, n: int) -> date:
    total = day.year * 12 + day.month - 1 + n
    return date(total // 12, total % 12 + 1, 1)


def _pieces(start: date, spans: Iterable[int]) -> list[PeriodKey]:
    keys: list[PeriodKey] = []
    for span in spans:
        nxt = _add_months(start, span)
        keys.append((start, nxt - timedelta(days=1)))
        start = nxt
    return keys


def _pool(facts: list[Fact], ctx: Context) -> dict[tuple[str, PeriodKey], _Pick]:
    """This document's figures first; stored ones (most precise, then newest) fill gaps."""
    wanted = additive_metrics()
    pool: dict[tuple[str, PeriodKey], _Pick] = {
        (f.metric, (f.period_start, f.period_end)): _Pick(f, "")
        for f in select_stored_facts(facts)
        if f.basis == IDENTITY_BASIS and f.metric in wanted and f.period_start
    }
    for item in ctx.prior:
        f = item.fact
        if f is None or f.basis != IDENTITY_BASIS or f.metric not in wanted or not f.period_start:
            continue
        key = (f.metric, (f.period_start, f.period_end))
        current = pool.get(key)
        if current is None or (current.document_id and f.decimals > current.fact.decimals):
            pool[key] = _Pick(f, item.document_id, item.published_at)
    return pool


def quarters_rule(name: str, meta: dict[str, Any], facts: list[Fact], ctx: Context) -> RuleOutput:
    """A six-month or full-year figure equals the sum of its quarters (where all are known)."""
    span = int(meta["months"])
    layouts = [list(s) for s in meta["layouts"]]  # e.g. [[3, 3, 3, 3], [6, 3, 3]]
    pool = _pool(facts, ctx)
    out = RuleOutput([], [])
    for (metric, key), total in sorted(pool.items(), key=lambda kv: (kv[0][1][1], kv[0][0])):
        start, end = key
        if start is None or months(start, end) != span:
            continue
        for layout in layouts:
            parts = [pool.get((metric, k)) for k in _pieces(start, layout)]
            if any(p is None for p in parts):
                continue
            picked = [p for p in parts if p is not None]
            if total.document_id and all(p.document_id for p in picked):
                break  # nothing from this document: checked when those were loaded
            if not completes(ctx, [(p.published_at, p.document_id) for p in [total, *picked]]):
                break  # stored with the last published of its documents
            out.rows.append(_quarters_row(name, metric, total, picked))
            break
    return out


def _tag(p: _Pick) -> str:
    """A figure's period, and its document when another one reported it."""
    where = f" [{p.document_id}]" if p.document_id else ""
    return f"{period_label((p.fact.period_start, p.fact.period_end))}{where}"


def _quarters_row(name: str, metric: str, total: _Pick, parts: list[_Pick]) -> CheckRow:
    lhs = sum((p.fact.value for p in parts), Decimal(0))
    tol = sum((half_unit(p.fact.decimals) for p in [total, *parts]), Decimal(0))
    figures = tuple(Figure(f"{metric} {_tag(p)}", p.fact.value, p.fact.decimals) for p in parts)
    return CheckRow(
        name, f"{metric} {_tag(total)}", " + ".join(_tag(p) for p in parts), lhs,
        "total", total.fact.value, tol, figures,
    )  # fmt: skip


def implied_rule(name: str, meta: dict[str, Any], facts: list[Fact], ctx: Context) -> RuleOutput:
    """A quarter or half that a longer period less a reported part gives (H1 - Q2 = Q1) is
    itself stored (or its two pieces are); one row per such period, "stored 0 vs implied 1"
    when only the arithmetic has it (the ``facts_derived`` view holds the figure)."""
    pool = _pool(facts, ctx)
    out = RuleOutput([], [])
    seen: set[tuple[str, PeriodKey]] = set()
    for (metric, rest), whole, part in _implied(pool):
        if (metric, rest) in seen:
            continue  # the same period is given by another pair too
        if whole.document_id and part.document_id:
            continue  # nothing from this document: checked when those were loaded
        if not completes(ctx, [(p.published_at, p.document_id) for p in (whole, part)]):
            continue  # stored with the last published of its documents
        seen.add((metric, rest))
        out.rows.append(_implied_row(name, metric, rest, whole, part, _covered(pool, metric, rest)))
    return out


def _covered(pool: dict[tuple[str, PeriodKey], _Pick], metric: str, rest: PeriodKey) -> bool:
    """The period is stored, or as two stored pieces (a half as its quarters): a quarterly
    reporter's second half is no gap."""
    if (metric, rest) in pool:
        return True
    start, end = rest
    return any(
        other == metric and p_start == start and p_end < end
        and (metric, (p_end + timedelta(days=1), end)) in pool
        for other, (p_start, p_end) in pool
    )  # fmt: skip


def _implied(
    pool: dict[tuple[str, PeriodKey], _Pick],
) -> list[tuple[tuple[str, PeriodKey], _Pick, _Pick]]:
    """Each (metric, rest period) a longer figure less a part sharing its start or end gives."""
    found = []
    for (metric, (w_start, w_end)), whole in sorted(pool.items(), key=lambda kv: kv[0]):
        for (other, (p_start, p_end)), part in pool.items():
            if other != metric or part.fact.unit != whole.fact.unit or p_start is None:
                continue
            if p_start == w_start and p_end < w_end:
                rest: PeriodKey = (p_end + timedelta(days=1), w_end)
            elif p_end == w_end and w_start is not None and p_start > w_start:
                rest = (w_start, p_start - timedelta(days=1))
            else:
                continue
            if rest[0] is not None and derivable(rest[0], rest[1]):
                found.append(((metric, rest), whole, part))
    return found


def _implied_row(
    name: str, metric: str, rest: PeriodKey, whole: _Pick, part: _Pick, stored: bool
) -> CheckRow:
    value = whole.fact.value - part.fact.value
    figures = (
        Figure(f"{metric} {_tag(whole)}", whole.fact.value, whole.fact.decimals),
        Figure(f"{metric} {_tag(part)}", part.fact.value, part.fact.decimals),
        Figure(f"{metric} {period_label(rest)} implied", value),
    )
    return CheckRow(
        name, f"{metric} {period_label(rest)}", "stored", Decimal(int(stored)),
        f"implied by {_tag(whole)} less {_tag(part)}", Decimal(1), Decimal(0), figures,
    )  # fmt: skip


def cross_source_facts_rule(
    name: str, meta: dict[str, Any], facts: list[Fact], ctx: Context
) -> RuleOutput:
    """A figure another document of the same disclosure also prints (the other source's
    announcement, the other language edition) agrees with it: a row per figure, stored with
    each of the two documents (not only the last published), so a disagreement holds both and
    an agreement is each one's witness (the row names the other document and its value)."""
    out = RuleOutput([], [])
    by_document: dict[str, list[Fact]] = {}
    for item in ctx.companions:
        if item.fact is not None:
            by_document.setdefault(item.document_id, []).append(item.fact)
    label = ctx.document_id or "this document"
    for other, theirs in by_document.items():
        for f, t in releases.printed_by_both(facts, theirs):
            subject = f"{f.metric} {period_label((f.period_start, f.period_end))}"
            figures = (Figure(label, f.value, f.decimals), Figure(other, t.value, t.decimals))
            tol, unit = releases.tolerance(f, t), _currency(f)
            row = CheckRow(name, subject, label, f.value, other, t.value, tol, figures, unit=unit)
            out.rows.append(row)
    return out


def _currency(fact: Fact) -> str:
    """The figure's currency when its metric's usual one differs (an HKD balance sheet), for
    the words of the alert; "" otherwise."""
    usual = metrics().get(fact.metric)
    currency = fact.unit.partition("/")[0]
    return currency if usual and usual.unit.partition("/")[0] != currency else ""


def cross_source_dividend_rule(
    name: str, meta: dict[str, Any], facts: list[Fact], ctx: Context
) -> RuleOutput:
    """The dividend per share (and per ADS) agrees between the 6-K and the HKEx form."""
    out = RuleOutput([], [])
    for item in ctx.companions:
        theirs = item.dividend
        if theirs is None or not completes(ctx, [(item.published_at, item.document_id)]):
            continue
        for d in ctx.dividends:
            if not _same_dividend(d, theirs):
                continue
            subject = f"dividend {d.currency} for period ending {d.period_end or theirs.period_end}"
            for field in ("per_share", "per_ads"):
                a, b = getattr(d, field), getattr(theirs, field)
                if a is None or b is None:
                    continue
                label = ctx.document_id or "this document"
                out.rows.append(
                    CheckRow(
                        name,
                        f"{subject} {field}",
                        label,
                        a,
                        item.document_id,
                        b,
                        Decimal(0),
                        (Figure(label, a), Figure(item.document_id, b)),
                    )  # fmt: skip
                )
    return out


def _same_dividend(a: Dividend, b: Dividend) -> bool:
    if a.currency != b.currency:
        return False
    return a.period_end is None or b.period_end is None or a.period_end == b.period_end


def audited_rule(name: str, meta: dict[str, Any], facts: list[Fact], ctx: Context) -> RuleOutput:
    """A release's figure agrees with the audited filing's (SEC XBRL) to the precision the
    release printed it with: half a unit of its last digit, boundary included. ``facts`` are
    the filing's; ``ctx.reported`` the releases' figures of the same periods."""
    audited = {f.key: f for f in facts}
    label = ctx.document_id or "the audited filing"
    out = RuleOutput([], [])
    for item in ctx.reported:
        release = item.fact
        found = audited.get(release.key) if release is not None else None
        if release is None or found is None or found.unit != release.unit:
            continue
        subject = f"{release.metric} {period_label((release.period_start, release.period_end))}"
        figures = (
            Figure(item.document_id, release.value, release.decimals),
            Figure(label, found.value, found.decimals),
        )
        tol = half_unit(release.decimals)
        out.rows.append(
            CheckRow(
                name, subject, item.document_id, release.value, label, found.value, tol, figures
            )
        )
    return out
