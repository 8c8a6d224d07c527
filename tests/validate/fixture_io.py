"""Read the JSON fact fixtures (tests/validate/fixtures/<suite>.{good,bad}.json)."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from domain.records import Dividend, Fact, Guidance, Provenance
from domain.rowrecords import StatementKind, StatementRow
from expectations.rules import Context, Sourced
from tasks.parsers.statements.metric_mapping import standard_facts
from tasks.parsers.statements.proving import prove_document

FIXTURES = Path(__file__).parent / "fixtures"


def _day(text: str | None) -> date | None:
    return date.fromisoformat(text) if text else None


def _num(text: str | None) -> Decimal | None:
    return None if text is None else Decimal(text)


def fact(raw: dict[str, Any]) -> Fact:
    """One fact from its JSON form (value as a decimal string)."""
    end = _day(raw["period_end"])
    assert end is not None
    return Fact(
        metric=raw["metric"],
        period_start=_day(raw.get("period_start")),
        period_end=end,
        value=Decimal(raw["value"]),
        unit=raw["unit"],
        scale=raw.get("scale", 0),
        decimals=raw["decimals"],
        provenance=Provenance("fixture", "", raw["metric"], "", raw.get("raw_text", "")),
        basis=raw.get("basis", "us_gaap"),
        origin=raw.get("origin", "table"),
        flags=tuple(raw.get("flags", ())),
    )


def dividend(raw: dict[str, Any]) -> Dividend:
    """One declared dividend from its JSON form."""
    return Dividend(
        raw["currency"], _num(raw.get("per_share")), _num(raw.get("per_ads")),
        _day(raw.get("period_start")), _day(raw.get("period_end")), None, None, None,
        Provenance("fixture", "", "dividend", "", ""),
    )  # fmt: skip


def guidance(raw: dict[str, Any]) -> Guidance:
    """One guidance range from its JSON form."""
    start, end = _day(raw["period_start"]), _day(raw["period_end"])
    assert start and end
    return Guidance(
        raw["metric"], start, end, _num(raw.get("low")), _num(raw.get("high")), raw["unit"],
        date.fromisoformat(raw["issued_on"]), Provenance("fixture", "", raw["metric"], "", ""),
    )  # fmt: skip


def statement_row(
    index: int, statement: str, label: str, end: str, value: str, decimals: int
) -> StatementRow:
    """A statement row as printed, in CNY thousands: [statement, label, period end, value,
    decimals]."""
    return StatementRow(
        StatementKind(statement), "", label, index, "", None, date.fromisoformat(end), "CNY",
        Decimal(value), -decimals, decimals, Provenance("fixture", "", label, "", value),
    )  # fmt: skip


def load(name: str) -> tuple[dict[str, Any], list[Fact], Context]:
    """(raw JSON, facts, context) of one fixture file, e.g. ``load("revenue.bad")``."""
    raw = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    ctx = raw.get("context", {})
    companions = tuple(Sourced(c["document_id"], fact=fact(c)) for c in ctx.get("companions", []))
    companions += tuple(
        Sourced(d["document_id"], dividend=dividend(d)) for d in ctx.get("companion_dividends", [])
    )
    rows = tuple(statement_row(i, *r) for i, r in enumerate(ctx.get("statement_rows", [])))
    facts = [fact(f) for f in raw["facts"]]
    # the proofs, as extract_document makes them: the rows mapped, with the document's facts
    proven, _ = prove_document([*standard_facts(rows, facts), *facts], rows)
    context = Context(
        document_id=raw["document_id"],
        kind=raw.get("kind", ""),
        guidance=tuple(guidance(g) for g in ctx.get("guidance", [])),
        dividends=tuple(dividend(d) for d in ctx.get("dividends", [])),
        usd_rate=_num(ctx.get("usd_rate")),
        usd_facts=tuple(fact(f) for f in ctx.get("usd_facts", [])),
        prior=tuple(Sourced(p["document_id"], fact=fact(p)) for p in ctx.get("prior", [])),
        companions=companions,
        # statement rows read per statement (the statement gate's input)
        statements=tuple(ctx.get("statements", {}).items()),
        statements_known="statements" in ctx,
        statement_rows=rows,
        verdicts=proven.verdicts,
    )
    return raw, facts, context


def numbers(raw: Any) -> list[str]:
    """Every number-bearing string of a fixture, in order (to diff good against bad)."""
    if isinstance(raw, dict):
        return [v for k in sorted(raw) for v in numbers(raw[k])]
    if isinstance(raw, list):
        return [v for item in raw for v in numbers(item)]
    return [str(raw)]
