"""The statement gate's rule (expectations/gate.py) on the cases the issue names: a primary
statement absent, present with rows refused, core facts only from narrative figures; and the
cases it must leave alone (not a results document, a revalidation without the text)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from domain.enums import DocKind, Origin
from domain.records import Fact, Provenance
from domain.rowrecords import RefusedRow, StatementKind
from expectations.gate import statements_read_rule
from expectations.rules import Context

READ = (("balance_sheet", 82), ("income_statement", 140))


def _fact(origin: Origin) -> Fact:
    prov = Provenance("d", "table 2", "Net income", "", "1,107,688")
    end = date(2023, 12, 31)
    return Fact("net_income", date(2023, 10, 1), end, Decimal(1107688000), "CNY", 3, -3, prov,
                origin=origin)  # fmt: skip


def _refused(label: str) -> RefusedRow:
    return RefusedRow(StatementKind.BALANCE_SHEET, "Balance Sheets", label, "table 1",
                      "period not readable from the header [December 31, RMB]")  # fmt: skip


def _failing(ctx: Context, facts: list[Fact]) -> list[str]:
    rows = statements_read_rule("statements_read", {}, facts, ctx).rows
    return [r.period for r in rows if r.gap > r.tolerance]


def _ctx(**kw: object) -> Context:
    return Context(kind=str(DocKind.RESULTS_ANNUAL), statements_known=True, **kw)  # type: ignore[arg-type]


def test_both_statements_read_pass() -> None:
    assert _failing(_ctx(statements=READ), [_fact(Origin.TABLE)]) == []


def test_refused_rows_name_statement_rows_and_reason() -> None:
    refused = tuple(_refused(f"row {i}") for i in range(34)) + (_refused("row 0"),)
    ctx = _ctx(statements=READ[1:], statements_refused=refused)
    assert _failing(ctx, [_fact(Origin.TABLE)]) == [
        "balance sheet: 34 rows, period not readable from the header"
    ]


def test_absent_statement_fails() -> None:
    ctx = _ctx(statements=READ[:1])
    assert _failing(ctx, [_fact(Origin.TABLE)]) == [
        "income statement: absent (no table of it was read)"
    ]


def test_narrative_only_facts_fail() -> None:
    assert _failing(_ctx(statements=READ), [_fact(Origin.NARRATIVE)]) == [
        "core facts read only from narrative figures"
    ]


def test_other_documents_and_revalidation_are_not_judged() -> None:
    other = Context(kind=str(DocKind.DIVIDEND_FORM), statements_known=True)
    assert statements_read_rule("s", {}, [], other).rows == []
    no_text = Context(kind=str(DocKind.RESULTS_ANNUAL))
    assert statements_read_rule("s", {}, [], no_text).rows == []
