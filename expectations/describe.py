"""GX outcomes -> ``ValidationResult`` records a person can read (both sides, the figures)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from domain.enums import Severity
from domain.records import ValidationResult

if TYPE_CHECKING:
    import pandas as pd

    from expectations.builders import IdentityChecks, SuiteSpec
    from expectations.outcomes import Outcome
    from expectations.rules import CheckRow

_MAX_LISTED = 5  # failing rows quoted in ``observed``; the rest are counted


def check_result(outcome: Outcome, checks: IdentityChecks) -> ValidationResult:
    """A check-frame expectation: the rows it evaluated, quoting the failing ones."""
    rows = [(i, r) for i, r in enumerate(checks.rows) if r.identity == outcome.name]
    skipped = checks.skipped.get(outcome.name, ())
    details = [f"not evaluated for {s}" for s in skipped]
    if outcome.exception:
        details.insert(0, f"GX raised: {outcome.exception}")
    if not rows:
        observed = "not evaluated: nothing to compare in this document"
        return _result(outcome, observed, details or ["no figures for this check"])
    failing = {int(i) for i in outcome.result.get("unexpected_index_list") or ()}
    shown = [r for i, r in rows if i in failing] if failing else [r for _, r in rows]
    observed = "; ".join(describe_row(r) for r in shown[:_MAX_LISTED])
    if len(shown) > _MAX_LISTED:
        observed += f"; ... {len(shown) - _MAX_LISTED} more"
    details.insert(0, f"{len(rows)} period(s) evaluated, {len(failing)} outside tolerance")
    details.extend(_describe_terms(r) for i, r in rows if not failing or i in failing)
    return _result(outcome, observed, details)


def describe_row(row: CheckRow) -> str:
    """``subject[ in USD]: lhs-label X vs rhs-label Y (diff D, tolerance T)``."""
    relation = "must not exceed" if row.one_sided else "vs"
    subject = f"{row.period} in {row.unit}" if row.unit else row.period
    return (
        f"{subject}: {row.lhs_label} {_fmt(row.lhs)} {relation} {row.rhs_label} "
        f"{_fmt(row.rhs)} (diff {_fmt(row.gap)}, tolerance {_fmt(row.tolerance)})"
    )


def _describe_terms(row: CheckRow) -> str:
    terms = ", ".join(
        f"{f.label}={_fmt(f.value)}" + ("" if f.decimals is None else f" (decimals {f.decimals})")
        for f in row.figures
    )
    return f"{row.period}: {terms}" if terms else row.period


def facts_result(outcome: Outcome, facts_df: pd.DataFrame, show: Sequence[str]) -> ValidationResult:
    """A facts-frame expectation: table-level observation, or the unexpected facts listed."""
    result = outcome.result
    details = [f"GX raised: {outcome.exception}"] if outcome.exception else []
    if "observed_value" in result and "unexpected_index_list" not in result:
        details.extend(f"{k}: {v}" for k, v in (result.get("details") or {}).items())
        return _result(outcome, f"observed {result['observed_value']}", details)
    index = [int(i) for i in result.get("unexpected_index_list") or ()]
    checked = result.get("element_count", len(facts_df))
    if not index:
        return _result(outcome, f"{checked} facts checked, 0 unexpected", details)
    columns = [c for c in show if c in facts_df.columns]
    listed = [" ".join(f"{c}={facts_df.at[i, c]}" for c in columns) for i in index[:_MAX_LISTED]]
    observed = f"{len(index)} of {checked} facts unexpected: " + "; ".join(listed)
    return _result(outcome, observed, details)


def show_columns(specs: Sequence[SuiteSpec], outcome: Outcome) -> Sequence[str]:
    """Columns an expectation's JSON asks to quote for its unexpected facts."""
    for spec in specs:
        for exp in spec.expectations:
            if spec.name == outcome.suite and exp["meta"]["name"] == outcome.name:
                return tuple(exp["meta"].get("show", ()))
    return ()


def _result(outcome: Outcome, observed: str, details: Sequence[str]) -> ValidationResult:
    return ValidationResult(
        suite=outcome.suite,
        expectation=outcome.name,
        success=outcome.success,
        severity=Severity(outcome.severity),
        observed=observed,
        details="\n".join(details),
    )


def _fmt(value: Any) -> str:
    # One figure, one spelling: 0.29 parsed and 0.290000 read back from a NUMERIC column print
    # alike (a rerun's text must equal the first run's), and 4428.3 million is 4428300000.
    if isinstance(value, Decimal):
        value = value.normalize()
    return format(value, "f")
