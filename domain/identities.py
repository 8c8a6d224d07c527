"""The identities a statement's figures must satisfy, as data: each a sum of standard metrics
equal to another, per statement and period (domain/proofs evaluates them).

Forms: a statement may print one identity another way (the change in cash before or after the
exchange effect; profit with a discontinued operation; the closing cash with or without the
restricted cash); one form holding is enough. A cash flow identity may name balances (the
opening and closing cash): domain/proofs takes them from the period's days. Pure and
standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from domain.records import Verdict

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
        return tuple(printed_metric(m) for _, m in (*self.lhs, *self.rhs))

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


def printed_metric(metric: str) -> str:
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
    # (an IFRS statement's closing balance is the cash and cash equivalents alone, the
    # restricted cash printed apart)
    _identity("closing_cash_is_the_balance_sheets_cash", B, "cash_and_cash_equivalents",
              "cash_and_restricted_cash_end", form_of="closing_cash_is_the_balance_sheets"),
    _identity("activities_add_up_to_the_change_in_cash", C,
              "net_cash_operating + net_cash_investing + net_cash_financing",
              "net_change_in_cash"),
    # (a change printed after the effect of exchange rates, as US issuers print it)
    _identity("activities_and_exchange_add_up_to_the_change_in_cash", C,
              "net_cash_operating + net_cash_investing + net_cash_financing"
              " + effect_of_exchange_rate_changes", "net_change_in_cash",
              form_of="activities_add_up_to_the_change_in_cash"),
    # the opening balance (of the day before the period starts), the change and the effect of
    # exchange rates printed after it (as HK issuers print it) are the closing balance
    _identity("opening_cash_plus_change_and_exchange_is_closing", C,
              "cash_and_restricted_cash_begin + net_change_in_cash"
              " + ?effect_of_exchange_rate_changes", "cash_and_restricted_cash_end"),
    # (the exchange effect already inside the change, as US issuers print it)
    _identity("opening_cash_plus_change_is_closing", C,
              "cash_and_restricted_cash_begin + net_change_in_cash",
              "cash_and_restricted_cash_end",
              form_of="opening_cash_plus_change_and_exchange_is_closing"),
    _identity("comprehensive_income_attributable_plus_noncontrolling", INC,
              "total_comprehensive_income_attributable_to_company"
              " + total_comprehensive_income_attributable_to_noncontrolling",
              "total_comprehensive_income"),
    _identity("profit_plus_other_comprehensive_income", INC,
              "net_income + other_comprehensive_income", "total_comprehensive_income"),
    # no profit line of its own: the owners' profit is the profit
    _identity("owners_profit_plus_other_comprehensive_income", INC,
              "net_income_attributable_to_company + other_comprehensive_income",
              "total_comprehensive_income", unless="net_income",
              form_of="profit_plus_other_comprehensive_income"),
)  # fmt: skip
# (the profit proved by its statement's own rows: profit before tax, tax and the lines printed
# between tax and profit, an equity-method result booked after tax, add up to it)
ROWS_CLOSE_PROFIT = "profit_before_tax_and_the_rows_below_it_are_profit"
FORM = {i.name: i.form_of or i.name for i in IDENTITIES} | {
    ROWS_CLOSE_PROFIT: "profit_before_tax_less_tax_is_profit"
}

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
        "cash_and_restricted_cash_begin", "other_comprehensive_income",
        "total_comprehensive_income", "total_comprehensive_income_attributable_to_company",
        "total_comprehensive_income_attributable_to_noncontrolling",
    }
)  # fmt: skip
# Metrics a row labelled as one may really be (tried only when its own metric ties nothing).
INTERCHANGEABLE = {
    B: ("total_assets", "net_assets", "total_equity", "total_liabilities_and_equity"),
}


def contradicted(verdicts: Iterable[Verdict]) -> list[Verdict]:
    """The identities evaluated that failed, less those another form of which held on the
    same figures ("... = change in cash" printed before or after the exchange effect)."""
    verdicts = list(verdicts)
    held = {(v.group, FORM.get(v.identity, v.identity)) for v in verdicts if v.held}
    return [
        v
        for v in verdicts
        if v.evaluated and not v.held and (v.group, FORM.get(v.identity, v.identity)) not in held
    ]


def formula(name: str) -> tuple[str, str]:
    """An identity's two sides as text ("total_assets", "total_liabilities + total_equity")."""
    if name == ROWS_CLOSE_PROFIT:
        return "income_before_income_tax - income_tax_expense + the rows below it", "net_income"
    for identity in IDENTITIES:
        if identity.name == name:
            return _side(identity.lhs), _side(identity.rhs)
    eps, _, _ = name.partition("_times_")
    return f"{eps} x weighted shares", "profit attributable to the company"


def _side(terms: Sequence[Term]) -> str:
    text = " ".join(
        f"{'-' if sign < 0 else '+'} {printed_metric(metric)}" for sign, metric in terms
    )
    return text.removeprefix("+ ")


def closing_metrics(statement: str) -> tuple[str, ...]:
    """The metrics of a statement's closing identities ("balance", "income"), in order."""
    found = (m for i in IDENTITIES if i.closes and i.statement == statement for m in i.metrics)
    return tuple(dict.fromkeys(found))
