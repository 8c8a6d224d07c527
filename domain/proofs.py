"""A label is a claim; arithmetic is the proof: which statement figures a document proves.

A standard figure read from a statement (balance sheet, income statement, cash flow) is
published only when the document ties it: it is a term of an identity that held on this
document (``total assets = total liabilities + total equity``, per period, currency and basis,
rounding allowed as printed), or, for a line no identity names, its row adds up with the rows
around it (``domain/arithmetic``: "part of 'Total current assets'"), or an independent
witness agrees (the document's own narrative). A figure nothing ties stays a line item.

Totals that a mislabelled row could pass for one another (total assets and net assets, total
equity and non-controlling interests, attributable profit, per-share amounts) are proved only
by an identity that names them: a row's arithmetic shows that it is a total, not which one.
Where the label's metric ties nothing and another such metric of its statement would make an
identity hold (and none fail), the row is read as that one (总資產 printed for net assets).

A flow period's identities may name balances: its closing cash is a balance of its last day,
its opening cash one of the day before it starts (printed in the period's column); they are
taken from those days' figures, so opening + change (+ exchange effect) = closing is judged
with the period's flows.

Each statement read must close: a balance sheet balances (in one of its printed forms), an
income statement's profit is its profit before tax less tax. A closing identity whose terms
are not all printed is *unproven*, never a pass (:func:`closings`).

Pure and standard library only; the extract stage applies it, the statement gate reports it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal

from domain.enums import Basis, Origin
from domain.identities import (
    IDENTITIES,
    INC,
    INTERCHANGEABLE,
    NEEDS_IDENTITY,
    ROWS_CLOSE_PROFIT,
    B,
    C,
    Identity,
    Term,
    contradicted,
    printed_metric,
)
from domain.metrics import OPENING_BALANCES
from domain.pershare import PerShareBasis, per_share
from domain.precision import half_unit
from domain.records import Fact, Verdict


@dataclass(frozen=True, slots=True)
class Proven:
    """What a document proves: the facts to publish (``proved_by`` set), the ones held back,
    and every identity's verdict per group."""

    facts: tuple[Fact, ...]
    unproven: tuple[Fact, ...]
    verdicts: tuple[Verdict, ...]


GroupKey = tuple[str, date | None, date, str]  # statement, start, end, basis


def in_scope(fact: Fact, statement_of: dict[str, str]) -> bool:
    """A statement table's figure, as reported (not a reconciliation to another basis), of a
    balance sheet, income statement or cash flow metric."""
    return (
        fact.origin == Origin.TABLE
        and fact.basis == Basis.US_GAAP
        and statement_of.get(fact.metric, "") in (B, INC, C)
    )


def prove_facts(
    facts: Sequence[Fact],
    statement_of: dict[str, str],
    row_ties: dict[int, str],
    witnesses: dict[int, str] | None = None,
    bases: Sequence[PerShareBasis] = (),
) -> Proven:
    """Tie each in-scope fact (see the module docstring). ``row_ties`` and ``witnesses`` map
    ``id(fact)`` to its row's arithmetic tie and to an agreeing witness; ``statement_of`` a
    metric to its statement; ``bases`` are what the EPS note says each period's EPS is of."""
    seen = witnesses or {}
    groups: dict[GroupKey, list[Fact]] = {}
    for fact in facts:
        if in_scope(fact, statement_of):
            groups.setdefault(_group_key(fact, statement_of), []).append(fact)
    renamed: dict[int, Fact] = {}
    verdicts: list[Verdict] = []
    labels: dict[GroupKey, str] = {}
    lent: dict[int, list[str]] = {}  # id(balance) -> the labels of the flow groups it is a term in
    for key, members in groups.items():
        labels[key] = group_label(key, members)
        members = _reread(key[0], members)
        renamed.update({id(old): new for old, new in zip(groups[key], members, strict=True)})
        own = [b for b in bases if (INC, b.period_start, b.period_end, b.basis) == key]
        balances = _balances_of(key, groups)
        for balance in balances:
            lent.setdefault(id(balance), []).append(labels[key])
        found = evaluate(key, [*members, *balances], labels[key], own)
        verdicts += found + _closed_by_rows(groups[key], found, row_ties, labels[key])
    proved: list[Fact] = []
    unproven: list[Fact] = []
    for fact in facts:
        current = renamed.get(id(fact), fact)
        if not in_scope(fact, statement_of):
            proved.append(fact)
            continue
        label = (labels[_group_key(fact, statement_of)], *lent.get(id(fact), ()))
        how = _how(current, label, verdicts, row_ties.get(id(fact)), seen.get(id(fact), ""))
        (proved if how else unproven).append(replace(current, proved_by=how))
    return Proven(tuple(proved), tuple(unproven), tuple(verdicts))


def _group_key(fact: Fact, statement_of: dict[str, str]) -> GroupKey:
    """Statement, period and basis: a period's shares and per-share figures go with its money."""
    statement = statement_of.get(fact.metric, "")
    if fact.period_start is None:  # a balance, wherever printed, is of the balance sheet's day
        statement = B
    start = None if statement == B else fact.period_start
    return (statement, start, fact.period_end, str(fact.basis))


def _balances_of(key: GroupKey, groups: dict[GroupKey, list[Fact]]) -> list[Fact]:
    """The balances a flow period's identities name, from the balances of its days: those at
    its end (the closing cash) and, for an opening balance, at the day before it starts."""
    statement, start, end, basis = key
    if statement == B or start is None:
        return []
    named = {m for i in IDENTITIES if i.statement == statement for m in i.metrics}
    opening = start - timedelta(days=1)
    return [
        f
        for day in (end, opening)
        for f in groups.get((B, None, day, basis), ())
        if f.metric in named and (f.metric in OPENING_BALANCES) == (day == opening)
    ]


def group_label(key: GroupKey, members: Sequence[Fact] = ()) -> str:
    """``"balance sheet 2024-12-31 HKD"``: the statement, period and currency of a group."""
    statement, start, end, _ = key
    period = f"{start}..{end}" if start else end.isoformat()
    name = {B: "balance sheet", INC: "income statement", C: "cash flow"}[statement]
    money = [f.unit.partition("/")[0] for f in members if f.unit[:3].isupper()]
    currency = max(set(money), key=money.count) if money else ""
    return f"{name} {period} {currency}".rstrip()


def evaluate(
    key: GroupKey,
    members: Sequence[Fact],
    label: str = "",
    bases: Sequence[PerShareBasis] = (),
) -> list[Verdict]:
    """Every identity of the group's statement on its figures (one per metric), and per
    share: EPS x its weighted shares (printed, or the note's ``bases``) = its earnings."""
    present = {f.metric: f for f in members}
    label = label or group_label(key, members)
    out = []
    for identity in IDENTITIES:
        if identity.statement != key[0] or identity.unless in present:
            continue
        missing = tuple(m for m in dict.fromkeys(identity.required) if m not in present)
        if missing:
            out.append(Verdict(identity.name, label, False, missing, closes=identity.closes))
            continue
        out.append(_judge(identity, present, label))
    out += per_share(present, label, bases)
    return out


def _judge(identity: Identity, present: dict[str, Fact], group: str) -> Verdict:
    def side(terms: Sequence[Term]) -> Decimal:
        values = (
            sign * present[printed_metric(m)].value
            for sign, m in terms
            if printed_metric(m) in present
        )
        return sum(values, Decimal(0))

    lhs, rhs = side(identity.lhs), side(identity.rhs)
    used = tuple(m for m in dict.fromkeys(identity.metrics) if m in present)
    tolerance = _slack([present[m] for m in used]) if len(used) > 2 else Decimal(0)
    held = abs(lhs - rhs) <= tolerance
    printed = tuple((m, present[m].provenance.row_label, present[m].value) for m in used)
    return Verdict(
        identity.name, group, held, (), lhs, rhs, tolerance, used, identity.closes, printed
    )


def _slack(facts: Sequence[Fact]) -> Decimal:
    """A total of rounded figures may be a unit off their sum: one unit of the coarsest (as
    domain/arithmetic allows); one figure printed twice (net assets, total equity) agrees
    exactly."""
    return max(half_unit(f.decimals) * 2 for f in facts)


def _reread(statement: str, members: list[Fact]) -> list[Fact]:
    """A total whose metric ties nothing, read as another of its statement's totals when that
    makes an identity hold and none fail (one row at a time, the label's reading first)."""
    choices = INTERCHANGEABLE.get(statement, ())
    out = list(members)
    for position, fact in enumerate(out):
        if fact.metric not in choices or _ties(statement, out):
            continue
        taken = {f.metric for f in out}
        for other in choices:
            if other in taken:
                continue
            trial = [*out[:position], replace(fact, metric=other), *out[position + 1 :]]
            if _ties(statement, trial, other) and not _fails(statement, trial):
                out = trial
                break
    return out


def _ties(statement: str, members: Sequence[Fact], metric: str = "") -> bool:
    """True when ``metric`` (default: every interchangeable total present) is in a held identity."""
    verdicts = evaluate((statement, None, date.min, ""), members, "trial")
    wanted = {metric} if metric else {f.metric for f in members} & set(INTERCHANGEABLE[statement])
    return bool(wanted) and all(any(v.held and m in v.terms for v in verdicts) for m in wanted)


def _fails(statement: str, members: Sequence[Fact]) -> bool:
    return bool(contradicted(evaluate((statement, None, date.min, ""), members, "trial")))


def _how(
    fact: Fact,
    groups: tuple[str, ...],
    verdicts: Sequence[Verdict],
    row_tie: str | None,
    witness: str,
) -> str:
    """How ``fact`` is proved ("" when it is not): an identity that held, else a witness,
    else its row's tie (not for a total a mislabelled row could pass for). ``groups`` are the
    labels of the groups it is a term in (its own, and the flow periods a balance closes)."""
    around = [v for v in verdicts if v.group in groups]
    if any(fact.metric in v.terms for v in contradicted(around)):
        return ""  # an identity on it fails (and no other form of it held): a line item only
    mine = [v for v in around if fact.metric in v.terms]
    held = next((v for v in mine if v.held), None)
    if held is not None:
        return f"identity: {held.identity}"
    if witness:
        return witness
    if fact.metric in NEEDS_IDENTITY or not row_tie:
        return ""
    return f"arithmetic: {row_tie}"


def closings(verdicts: Iterable[Verdict]) -> dict[str, tuple[Verdict, ...]]:
    """Per group, its closing identities' verdicts (the gate needs one held in each group)."""
    out: dict[str, list[Verdict]] = {}
    for v in verdicts:
        if v.closes:
            out.setdefault(v.group, []).append(v)
    return {group: tuple(vs) for group, vs in out.items()}


def _closed_by_rows(
    members: Sequence[Fact], found: Sequence[Verdict], ties: dict[int, str], group: str
) -> list[Verdict]:
    """Profit before tax less tax is not the profit, yet the statement's rows add up to it
    from profit before tax (tax and the lines printed between tax and profit, an equity-method
    result booked after tax): its own arithmetic closes it."""
    failed = [v for v in found if v.identity == "profit_before_tax_less_tax_is_profit"]
    if not failed or failed[0].held or not failed[0].evaluated:
        return []
    by = {f.metric: f for f in members}
    profit, tax = by["net_income"], by["income_tax_expense"]
    # the tax (the row under profit before tax, itself a total) is one of the profit's parts
    into = f"adds up to {profit.provenance.row_label!r}"
    if not ties.get(id(profit), "").startswith("the sum of") or ties.get(id(tax)) != into:
        return []
    terms = ("income_before_income_tax", "income_tax_expense", "net_income")
    return [Verdict(ROWS_CLOSE_PROFIT, group, True, (), profit.value, profit.value,
                    Decimal(0), terms, closes=True)]  # fmt: skip
