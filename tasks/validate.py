"""Validation stage: run the data-quality suites on one document's facts.

Plain functions (the flow wraps them in Prefect tasks). Great Expectations does the checking
(see ``expectations/``); this module builds its input frames and turns its results into
``ValidationResult`` records a person can read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prefect import task
from prefect.cache_policies import NO_CACHE

from tasks.models import Fact, ValidationResult

if TYPE_CHECKING:
    import pandas as pd

    from expectations.builders import CheckRow, IdentityChecks
    from expectations.runner import Outcome

CRITICAL = "critical"
_MAX_LISTED = 5  # failing rows quoted in ``observed``; the rest are counted


def validate_facts(
    document_id: str, facts: Sequence[Fact], *, data_docs_dir: Path | None = None
) -> list[ValidationResult]:
    """Run every suite on ``facts`` of one document; one result per expectation."""
    from expectations import builders, runner

    specs = runner.suite_specs()
    identities = [i for spec in specs for i in spec.identities]
    facts_df = builders.facts_frame(facts)
    checks = builders.identity_checks(facts, identities)
    frames = {builders.FACTS_FRAME: facts_df, builders.CHECKS_FRAME: checks.frame}
    identity_names = {i.name for i in identities}
    results = []
    for outcome in runner.run_suites(document_id, frames, data_docs_dir):
        if outcome.name in identity_names:
            results.append(_identity_result(outcome, checks))
        else:
            results.append(_structure_result(outcome, facts_df, _show_columns(specs, outcome)))
    return results


def quarantine_required(results: Iterable[ValidationResult]) -> bool:
    """True when any critical expectation failed: the document must not be loaded."""
    return any(not r.success and r.severity == CRITICAL for r in results)


def _identity_result(outcome: Outcome, checks: IdentityChecks) -> ValidationResult:
    rows = [(i, r) for i, r in enumerate(checks.rows) if r.identity == outcome.name]
    skipped = checks.skipped.get(outcome.name, ())
    details = [f"not evaluated for {s}" for s in skipped]
    if outcome.exception:
        details.insert(0, f"GX raised: {outcome.exception}")
    if not rows:
        observed = "not evaluated: no period has all the figures"
        return _result(outcome, observed, details or ["no figures for this identity"])
    failing = {int(i) for i in outcome.result.get("unexpected_index_list") or ()}
    shown = [r for i, r in rows if i in failing] if failing else [r for _, r in rows]
    observed = "; ".join(_describe_check(r) for r in shown[:_MAX_LISTED])
    if len(shown) > _MAX_LISTED:
        observed += f"; ... {len(shown) - _MAX_LISTED} more"
    details.insert(0, f"{len(rows)} period(s) evaluated, {len(failing)} outside tolerance")
    details.extend(_describe_terms(r) for i, r in rows if not failing or i in failing)
    return _result(outcome, observed, details)


def _describe_check(row: CheckRow) -> str:
    lhs, rhs = row.lhs_total, row.rhs_total
    return (
        f"{row.period}: {' + '.join(f.metric for f in row.lhs)} {_fmt(lhs)} vs "
        f"{' + '.join(f.metric for f in row.rhs)} {_fmt(rhs)} "
        f"(diff {_fmt(abs(lhs - rhs))}, tolerance {_fmt(row.tolerance)})"
    )


def _describe_terms(row: CheckRow) -> str:
    terms = ", ".join(
        f"{f.metric}={_fmt(f.value)} (decimals {f.decimals})" for f in row.lhs + row.rhs
    )
    return f"{row.period}: {terms}"


def _structure_result(
    outcome: Outcome, facts_df: pd.DataFrame, show: Sequence[str]
) -> ValidationResult:
    result = outcome.result
    details = [f"GX raised: {outcome.exception}"] if outcome.exception else []
    if "observed_value" in result:  # table-level expectation
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


def _show_columns(specs: Sequence[Any], outcome: Outcome) -> Sequence[str]:
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
        severity=outcome.severity,
        observed=observed,
        details="\n".join(details),
    )


def _fmt(value: Any) -> str:
    return format(value, "f")


# GX is deterministic on the same facts: nothing transient to retry.
validate_task = task(name="validate", cache_policy=NO_CACHE)(validate_facts)
