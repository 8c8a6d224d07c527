"""The statement gate: a results document is published only when its primary statements
were read from their tables, and what was read adds up.

A balance sheet or income statement that is absent, or present with rows refused ("period not
readable from the header"), or a document whose facts come only from narrative figures, fails
this critical check: the document is quarantined and the alert names the statement and the
reason ("balance sheet: 34 rows, period not readable from the header").

A statement whose printed total disagrees with its own rows (domain/arithmetic: subtotals
equal the rows above them, the balance sheet balances) fails the critical check
``statements_add_up``: the alert names the statement, its period, the row, the printed figure
and the sum of the rows ("balance sheet 2024-11-02 USD 'Total assets': printed 979,270,000 vs
sum of its rows 976,270,000"). A reading that cannot be judged (a summary table) passes.
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from typing import Any

from domain.arithmetic import columns, prove
from domain.enums import RESULTS_KINDS, Origin
from domain.identities import closing_metrics, contradicted, formula
from domain.proofs import closings
from domain.records import Fact, Verdict
from domain.rowrecords import StatementKind, StatementRow
from expectations.rules import CheckRow, Context, Figure, RuleOutput

PRIMARY = (StatementKind.BALANCE_SHEET, StatementKind.INCOME_STATEMENT)


def statements_read_rule(
    name: str, meta: dict[str, Any], facts: list[Fact], ctx: Context
) -> RuleOutput:
    """One row per primary statement (and one for narrative-only facts): 1 problem vs 0."""
    if ctx.kind not in RESULTS_KINDS or not ctx.statements_known:
        return RuleOutput([], [])  # revalidation has no text: the last reading's result stands
    read = dict(ctx.statements)
    rows = [_row(name, kind, read.get(kind, 0), ctx) for kind in PRIMARY]
    if facts and not any(f.origin == Origin.TABLE for f in facts):
        rows.append(_problem(name, "core facts read only from narrative figures"))
    return RuleOutput(rows, [])


def _row(name: str, kind: StatementKind, read: int, ctx: Context) -> CheckRow:
    label = kind.value.replace("_", " ")
    refused = [r for r in ctx.statements_refused if r.statement == kind]
    if refused:
        labels = len({(r.locator, r.row_label) for r in refused})
        reason = Counter(_reason(r.reason) for r in refused).most_common(1)[0][0]
        return _problem(name, f"{label}: {labels} rows, {reason}")
    if not read:
        return _problem(name, f"{label}: absent (no table of it was read)")
    return CheckRow(name, f"{label}: {read} figures read", "statement problems", Decimal(0),
                    "allowed", Decimal(0), Decimal(0), one_sided=True)  # fmt: skip


def _reason(text: str) -> str:
    """The reason without the column it names ("... [December 31, 2023 RMB]")."""
    return text.split(" [", 1)[0]


def _problem(name: str, subject: str) -> CheckRow:
    return CheckRow(name, subject, "statement problems", Decimal(1), "allowed", Decimal(0),
                    Decimal(0), one_sided=True)  # fmt: skip


def statements_add_up_rule(
    name: str, meta: dict[str, Any], facts: list[Fact], ctx: Context
) -> RuleOutput:
    """One row per column of a statement read: each disagreeing total (printed vs the sum of
    its rows), or the count of totals proved."""
    if ctx.kind not in RESULTS_KINDS or not ctx.statements_known:
        return RuleOutput([], [])
    rows = []
    for column, lines in columns(ctx.statement_rows).items():
        proof = prove(lines, column.startswith("balance"))
        rows += [
            CheckRow(name, f"{column} {d.label or '(unlabelled subtotal)'!r}", "printed",
                     d.printed, "sum of its rows", d.nearest, d.tolerance)
            for d in proof.disagreements
        ]  # fmt: skip
        if not proof.disagreements:
            subject = f"{column}: {proof.proved} totals add up"
            rows.append(CheckRow(name, subject, "printed", Decimal(0), "sum of its rows",
                                 Decimal(0), Decimal(0)))  # fmt: skip
    return RuleOutput(rows, [])


def statements_proved_rule(
    name: str, meta: dict[str, Any], facts: list[Fact], ctx: Context
) -> RuleOutput:
    """Each identity that failed on the document's statement figures (one side vs the other:
    its figures are not published, and the document is held), per statement column read the
    identity that closes it, or, when none could be evaluated, "unproven" with the terms not
    printed (a check that finds nothing to compare is no pass); then the other identities
    that held."""
    if ctx.kind not in RESULTS_KINDS or not ctx.statements_known:
        return RuleOutput([], [])
    failed = contradicted(ctx.verdicts)
    rows = [_identity_row(name, v) for v in failed]
    closing = closings(ctx.verdicts)
    for group in _columns_read(ctx.statement_rows):
        verdicts = closing.get(group, ())
        held = next((v for v in verdicts if v.held), None)
        if held is not None:
            subject = f"{group}: proved by {held.identity}"
            rows.append(CheckRow(name, subject, "unproven", Decimal(0), "allowed", Decimal(0),
                                 Decimal(0), one_sided=True))  # fmt: skip
        elif not any(v.evaluated for v in verdicts):
            rows.append(_problem(name, f"unproven: {group}: {_missing(verdicts, group)}"))
    failed_ids = {id(v) for v in failed}
    rows += [
        _identity_row(name, v)
        for v in ctx.verdicts
        if v.held and not v.closes and id(v) not in failed_ids
    ]  # the other proofs, for the person reading Data Docs
    return RuleOutput(rows, [])


def _columns_read(rows: tuple[StatementRow, ...]) -> list[str]:
    """The primary statements' columns read ("balance sheet 2024-12-31 HKD"), in order, each
    with at least two money rows."""
    counted: Counter[str] = Counter()
    for row in rows:
        if row.statement in PRIMARY and row.currency:
            counted[_column(row)] += 1
    return [column for column, count in counted.items() if count >= 2]


def _column(row: StatementRow) -> str:
    if row.statement == StatementKind.BALANCE_SHEET:
        return f"balance sheet {row.period_end.isoformat()} {row.currency}"
    start = row.period_start.isoformat() if row.period_start else ""
    return f"income statement {start}..{row.period_end.isoformat()} {row.currency}"


def _missing(verdicts: tuple[Verdict, ...], group: str) -> str:
    """Which terms each closing identity lacks ("net_assets_equal_total_equity: net_assets")."""
    if not verdicts:
        statement = "balance" if group.startswith("balance") else "income"
        wanted = closing_metrics(statement)
        return f"none of the figures it closes by was read ({', '.join(wanted)})"
    return "; ".join(f"{v.identity}: missing {', '.join(v.missing)}" for v in verdicts)


def _identity_row(name: str, verdict: Verdict) -> CheckRow:
    """An identity's two sides, and each term as printed ("total_equity 'TOTAL EQUITY'")."""
    lhs, rhs = formula(verdict.identity)
    figures = tuple(Figure(f"{m} {label!r}", value) for m, label, value in verdict.printed)
    currency = verdict.group.rsplit(" ", 1)[-1]  # "balance sheet 2024-11-02 USD"
    return CheckRow(name, f"{verdict.group}: {verdict.identity}", lhs, verdict.lhs, rhs,
                    verdict.rhs, verdict.tolerance, figures,
                    unit=currency if currency.isupper() else "")  # fmt: skip
