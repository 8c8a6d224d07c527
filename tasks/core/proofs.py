"""A label is a claim; arithmetic is the proof: which statement figures a document proves.

A standard figure read from a statement (balance sheet, income statement, cash flow) is
published only when the document ties it: it is a term of an identity that held on this
document (``total assets = total liabilities + total equity``, per period, currency and basis,
rounding allowed as printed), or, for a line no identity names, its row adds up with the rows
around it (``tasks/core/arithmetic``: "part of 'Total current assets'"), or an independent
witness agrees (the document's own narrative). A figure nothing ties stays a line item.

Totals that a mislabelled row could pass for one another (total assets and net assets, total
equity and non-controlling interests, attributable profit, per-share amounts) are proved only
by an identity that names them: a row's arithmetic shows that it is a total, not which one.
Where the label's metric ties nothing and another such metric of its statement would make an
identity hold (and none fail), the row is read as that one (总資產 printed for net assets).

Each statement read must close: a balance sheet balances (in one of its printed forms), an
income statement's profit is its profit before tax less tax. A closing identity whose terms
are not all printed is *unproven*, never a pass (:func:`closings`).

Pure and standard library only; the extract stage applies it, the statement gate reports it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal

from tasks.core.enums import Basis, Origin
from tasks.core.precision import half_unit
from tasks.core.records import Fact, Verdict

Term = tuple[int, str]  # (+1 or -1, metric)


@dataclass(frozen=True, slots=True)
class Identity:
    """sum(lhs) = sum(rhs) over one statement's figures of one period."""

    name: str
    statement: str  # metrics.csv's statement: balance, income, cash_flow
    lhs: tuple[Term, ...]
    rhs: tuple[Term, ...]
    closes: bool = False  # one of its statement's closing identities
    unless: str = ""  # a metric whose presence makes this identity not apply
    form_of: str = ""  # another form of that identity: one form holding is enough

    @property
    def metrics(self) -> tuple[str, ...]:
        """Its terms' metrics, the optional ones included."""
        return tuple(_printed(m) for _, m in (*self.lhs, *self.rhs))

    @property
    def required(self) -> tuple[str, ...]:
        """The metrics that must be printed for it to be evaluated."""
        return tuple(m for _, m in (*self.lhs, *self.rhs) if not m.startswith("?"))


def _terms(text: str) -> tuple[Term, ...]:
    """``"a - b + ?c"`` -> ((1, a), (-1, b), (1, ?c)); a ``?`` term counts 0 when not printed."""
    out, sign = [], 1
    for word in text.split():
        if word in "+-":
            sign = 1 if word == "+" else -1
        else:
            out.append((sign, word))
    return tuple(out)


def _printed(metric: str) -> str:
    return metric.removeprefix("?")


def _identity(
    name: str,
    statement: str,
    lhs: str,
    rhs: str,
    closes: bool = False,
    unless: str = "",
    form_of: str = "",
) -> Identity:
    return Identity(name, statement, _terms(lhs), _terms(rhs), closes, unless, form_of)


B, INC, C = "balance", "income", "cash_flow"
IDENTITIES: tuple[Identity, ...] = (
    _identity("assets_equal_liabilities_plus_equity", B, "total_assets",
              "total_liabilities + total_equity", closes=True),
    _identity("balance_sheet_balances", B, "total_assets", "total_liabilities_and_equity",
              closes=True),
    _identity("net_assets_equal_total_equity", B, "net_assets", "total_equity", closes=True),
    # (equity printed before the non-current liabilities, as many HK issuers print it)
    _identity("equity_plus_non_current_liabilities", B,
              "total_equity + total_non_current_liabilities",
              "total_assets_less_current_liabilities", closes=True),
    _identity("liabilities_plus_equity", B, "total_liabilities + total_equity",
              "total_liabilities_and_equity"),
    _identity("assets_less_liabilities_are_net_assets", B, "total_assets - total_liabilities",
              "net_assets"),
    _identity("current_plus_non_current_assets", B,
              "total_non_current_assets + total_current_assets", "total_assets"),
    _identity("current_plus_non_current_liabilities", B,
              "total_current_liabilities + total_non_current_liabilities", "total_liabilities"),
    _identity("equity_attributable_plus_noncontrolling", B,
              "total_company_equity + noncontrolling_interests", "total_equity"),
    _identity("net_current_assets", B, "total_current_assets - total_current_liabilities",
              "net_current_assets"),
    _identity("total_assets_less_current_liabilities", B,
              "total_assets - total_current_liabilities", "total_assets_less_current_liabilities"),
    _identity("non_current_assets_plus_net_current_assets", B,
              "total_non_current_assets + net_current_assets",
              "total_assets_less_current_liabilities"),
    _identity("assets_less_current_liabilities_less_non_current", B,
              "total_assets_less_current_liabilities - total_non_current_liabilities",
              "net_assets"),
    _identity("profit_before_tax_less_tax_is_profit", INC,
              "income_before_income_tax - income_tax_expense", "net_income", closes=True),
    # a discontinued operation: profit before tax less tax is the continuing operations' profit
    _identity("profit_before_tax_less_tax_and_discontinued_is_profit", INC,
              "income_before_income_tax - income_tax_expense + net_income_discontinued",
              "net_income", closes=True, form_of="profit_before_tax_less_tax_is_profit"),
    _identity("continuing_plus_discontinued_is_profit", INC,
              "net_income_continuing + net_income_discontinued", "net_income"),
    # no profit line of its own: the owners' profit is the profit (no non-controlling share)
    _identity("profit_before_tax_less_tax_is_owners_profit", INC,
              "income_before_income_tax - income_tax_expense",
              "net_income_attributable_to_company", closes=True, unless="net_income"),
    _identity("revenue_less_cost_of_sales_is_gross_profit", INC,
              "total_net_revenue - cost_of_revenue", "gross_profit"),
    _identity("revenue_less_costs_is_operating_income", INC,
              "total_net_revenue - total_operating_costs_and_expenses", "income_from_operations"),
    _identity("profit_attributable_plus_noncontrolling", INC,
              "net_income_attributable_to_company + net_income_attributable_to_noncontrolling",
              "net_income"),
    _identity("eps_basic_per_ads_is_twice_per_share", INC, "eps_basic_per_ads",
              "eps_basic_per_share + eps_basic_per_share"),
    _identity("eps_diluted_per_ads_is_twice_per_share", INC, "eps_diluted_per_ads",
              "eps_diluted_per_share + eps_diluted_per_share"),
    # the cash flow statement's closing balance is the balance sheet's cash (two statements)
    _identity("closing_cash_is_the_balance_sheets", B,
              "cash_and_cash_equivalents + ?restricted_cash", "cash_and_restricted_cash_end"),
    _identity("activities_add_up_to_the_change_in_cash", C,
              "net_cash_operating + net_cash_investing + net_cash_financing",
              "net_change_in_cash"),
    # (a change printed after the effect of exchange rates, as US issuers print it)
    _identity("activities_and_exchange_add_up_to_the_change_in_cash", C,
              "net_cash_operating + net_cash_investing + net_cash_financing"
              " + effect_of_exchange_rate_changes", "net_change_in_cash",
              form_of="activities_add_up_to_the_change_in_cash"),
)  # fmt: skip
_FORM = {i.name: i.form_of or i.name for i in IDENTITIES}

# Proved only by an identity naming them: a mislabelled total passes for any of these.
NEEDS_IDENTITY = frozenset(
    {
        "total_assets", "total_liabilities", "total_equity", "net_assets",
        "total_liabilities_and_equity", "total_company_equity", "noncontrolling_interests",
        "net_income_attributable_to_company", "net_income_attributable_to_noncontrolling",
        "eps_basic_per_share", "eps_diluted_per_share", "eps_basic_per_ads",
        "eps_diluted_per_ads", "weighted_avg_shares_basic", "weighted_avg_shares_diluted",
        "net_cash_operating", "net_cash_investing", "net_cash_financing", "net_change_in_cash",
        "effect_of_exchange_rate_changes", "cash_and_restricted_cash_end",
    }
)  # fmt: skip
# Metrics a row labelled as one may really be (tried only when its own metric ties nothing).
_INTERCHANGEABLE = {
    B: ("total_assets", "net_assets", "total_equity", "total_liabilities_and_equity"),
}
# per share: EPS times the weighted shares is the attributable profit (or the profit)
_EPS = (
    ("eps_basic_per_share", "weighted_avg_shares_basic"),
    ("eps_diluted_per_share", "weighted_avg_shares_diluted"),
)
_PROFIT = ("net_income_attributable_to_company", "net_income")


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
) -> Proven:
    """Tie each in-scope fact (see the module docstring). ``row_ties`` and ``witnesses`` map
    ``id(fact)`` to its row's arithmetic tie and to an agreeing witness; ``statement_of`` a
    metric to its statement."""
    seen = witnesses or {}
    groups: dict[GroupKey, list[Fact]] = {}
    for fact in facts:
        if in_scope(fact, statement_of):
            groups.setdefault(_group_key(fact, statement_of), []).append(fact)
    renamed: dict[int, Fact] = {}
    verdicts: list[Verdict] = []
    labels: dict[GroupKey, str] = {}
    for key, members in groups.items():
        labels[key] = group_label(key, members)
        members = _reread(key[0], members)
        renamed.update({id(old): new for old, new in zip(groups[key], members, strict=True)})
        verdicts += evaluate(key, members, labels[key])
    proved: list[Fact] = []
    unproven: list[Fact] = []
    for fact in facts:
        current = renamed.get(id(fact), fact)
        if not in_scope(fact, statement_of):
            proved.append(fact)
            continue
        label = labels[_group_key(fact, statement_of)]
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


def group_label(key: GroupKey, members: Sequence[Fact] = ()) -> str:
    """``"balance sheet 2024-12-31 HKD"``: the statement, period and currency of a group."""
    statement, start, end, _ = key
    period = f"{start}..{end}" if start else end.isoformat()
    name = {B: "balance sheet", INC: "income statement", C: "cash flow"}[statement]
    money = [f.unit.partition("/")[0] for f in members if f.unit[:3].isupper()]
    currency = max(set(money), key=money.count) if money else ""
    return f"{name} {period} {currency}".rstrip()


def evaluate(key: GroupKey, members: Sequence[Fact], label: str = "") -> list[Verdict]:
    """Every identity of the group's statement on its figures (one per metric)."""
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
    out += _per_share(present, label)
    return out


def _judge(identity: Identity, present: dict[str, Fact], group: str) -> Verdict:
    def side(terms: Sequence[Term]) -> Decimal:
        values = (sign * present[_printed(m)].value for sign, m in terms if _printed(m) in present)
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
    tasks/core/arithmetic allows); one figure printed twice (net assets, total equity) agrees
    exactly."""
    return max(half_unit(f.decimals) * 2 for f in facts)


def _per_share(present: dict[str, Fact], group: str) -> list[Verdict]:
    """EPS x weighted shares = attributable profit (else profit), to the EPS's rounding."""
    out = []
    profit = next((present[m] for m in _PROFIT if m in present), None)
    for eps_metric, shares_metric in _EPS:
        eps, shares = present.get(eps_metric), present.get(shares_metric)
        if eps is None:
            continue
        name = f"{eps_metric}_times_shares_is_profit"
        if shares is None or profit is None:
            missing = tuple(m for m, f in ((shares_metric, shares), (_PROFIT[0], profit)) if not f)
            out.append(Verdict(name, group, False, missing))
            continue
        lhs = eps.value * shares.value
        tolerance = (
            half_unit(eps.decimals) * abs(shares.value)
            + half_unit(shares.decimals) * abs(eps.value)
            + half_unit(profit.decimals)
        )
        held = abs(lhs - profit.value) <= tolerance
        terms = (eps_metric, shares_metric, profit.metric)
        out.append(Verdict(name, group, held, (), lhs, profit.value, tolerance, terms))
    return out


def _reread(statement: str, members: list[Fact]) -> list[Fact]:
    """A total whose metric ties nothing, read as another of its statement's totals when that
    makes an identity hold and none fail (one row at a time, the label's reading first)."""
    choices = _INTERCHANGEABLE.get(statement, ())
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
    wanted = {metric} if metric else {f.metric for f in members} & set(_INTERCHANGEABLE[statement])
    return bool(wanted) and all(any(v.held and m in v.terms for v in verdicts) for m in wanted)


def _fails(statement: str, members: Sequence[Fact]) -> bool:
    return bool(contradicted(evaluate((statement, None, date.min, ""), members, "trial")))


def contradicted(verdicts: Iterable[Verdict]) -> list[Verdict]:
    """The identities evaluated that failed, less those another form of which held on the
    same figures ("... = change in cash" printed before or after the exchange effect)."""
    verdicts = list(verdicts)
    held = {(v.group, _FORM.get(v.identity, v.identity)) for v in verdicts if v.held}
    return [
        v
        for v in verdicts
        if v.evaluated and not v.held and (v.group, _FORM.get(v.identity, v.identity)) not in held
    ]


def _how(
    fact: Fact, label: str, verdicts: Sequence[Verdict], row_tie: str | None, witness: str
) -> str:
    """How ``fact`` is proved ("" when it is not): an identity that held, else a witness,
    else its row's tie (not for a total a mislabelled row could pass for)."""
    mine = [v for v in verdicts if v.group == label and fact.metric in v.terms]
    if contradicted(mine):
        return ""  # an identity on it fails: a line item only
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


def formula(name: str) -> tuple[str, str]:
    """An identity's two sides as text ("total_assets", "total_liabilities + total_equity")."""
    for identity in IDENTITIES:
        if identity.name == name:
            return _side(identity.lhs), _side(identity.rhs)
    eps, _, _ = name.partition("_times_")
    return f"{eps} x weighted shares", "profit attributable to the company"


def _side(terms: Sequence[Term]) -> str:
    text = " ".join(f"{'-' if sign < 0 else '+'} {_printed(metric)}" for sign, metric in terms)
    return text.removeprefix("+ ")


def closing_metrics(statement: str) -> tuple[str, ...]:
    """The metrics of a statement's closing identities ("balance", "income"), in order."""
    found = (m for i in IDENTITIES if i.closes and i.statement == statement for m in i.metrics)
    return tuple(dict.fromkeys(found))
