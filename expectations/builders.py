"""Suites as data, and the frames they run on.

The JSON files under ``suites/`` are Great Expectations suites as GX itself serialises them.
An expectation on the checks frame names its rule in ``meta`` (see ``expectations/rules.py``),
so adding an identity is adding one JSON entry. Builders turn one document's facts into:
- the *facts* frame (one row per fact) for the structure and plausibility suites;
- the *identity_checks* frame (one row per rule x subject) for every comparing suite.
Amounts in the checks frame are Python ints (whole units times ``10**unit_exp``), so GX
compares exact integers and no float rounding can decide a pass or a fail. Each check has its
own ``tolerance__<name>``/``gap__<name>`` pair of columns, empty on other checks' rows: GX
skips the empty rows, which is several times faster than a ``row_condition`` per check.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from domain.enums import Severity
from domain.errors import ConfigError
from domain.metrics import MetricDef, metrics
from domain.records import Fact
from expectations import cross, gate, rules
from expectations.rules import CheckRow, Context, period_label

if TYPE_CHECKING:
    # deferred heavy import: pandas, only when a document is validated
    import pandas as pd

SUITES_DIR = Path(__file__).parent / "suites"
FACTS_FRAME = "facts"
CHECKS_FRAME = "identity_checks"
FACT_COLUMNS = (
    "metric",
    "period_start",
    "period_end",
    "basis",
    "unit",
    "expected_unit",
    "statement",
    "value",
    "number",
    "decimals",
    "origin",
    "flags",
    "raw_text",
    "start_day",
    "next_day",
    "rate_pct",
    "margin_pct",
    "count_value",
)
# Range columns: the figure where the range applies, else empty (GX skips empty values).
_RATE = ("percent", "operating")
_MARGIN = ("percent", "non_gaap")
_COUNT_UNITS = ("count", "shares", "months")
CHECK_COLUMNS = (
    "identity",
    "period",
    "lhs",
    "rhs",
    "abs_diff",
    "tolerance",
    "unit_exp",
    "n_figures",
)
_FACT_DTYPES = {
    "decimals": "int64",
    "number": "float64",
    "start_day": "int64",
    "next_day": "int64",
    "rate_pct": "float64",
    "margin_pct": "float64",
    "count_value": "float64",
}
RULES: dict[str, rules.Rule] = {
    "identity": rules.identity_rule,
    "ratio": rules.ratio_rule,
    "narrative_vs_table": rules.narrative_rule,
    "usd_column": rules.usd_rule,
    "guidance_range": rules.guidance_rule,
    "core_metrics": rules.core_metrics_rule,
    "damaged_text": rules.damaged_text_rule,
    "statements_read": gate.statements_read_rule,
    "statements_add_up": gate.statements_add_up_rule,
    "statements_proved": gate.statements_proved_rule,
    "quarters_sum": cross.quarters_rule,
    "implied_periods": cross.implied_rule,
    "cross_source_facts": cross.cross_source_facts_rule,
    "cross_source_dividend": cross.cross_source_dividend_rule,
    "audited": cross.audited_rule,
}


@dataclass(frozen=True, slots=True)
class SuiteSpec:
    """One suite file: its name, the frame it runs on, and its expectations as JSON dicts."""

    name: str
    frame: str
    expectations: tuple[dict[str, Any], ...]
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def checks(self) -> tuple[tuple[str, dict[str, Any]], ...]:
        """(expectation name, meta) of every expectation evaluated on check rows."""
        if self.frame != CHECKS_FRAME:
            return ()
        return tuple((e["meta"]["name"], e["meta"]) for e in self.expectations)


@dataclass(frozen=True, slots=True)
class IdentityChecks:
    """The checks frame plus what could not be evaluated, per expectation."""

    frame: pd.DataFrame
    rows: tuple[CheckRow, ...]  # rows[i] is frame row i
    skipped: dict[str, tuple[str, ...]]  # expectation -> "period: missing a, b"


def load_suite_specs(directory: Path = SUITES_DIR) -> list[SuiteSpec]:
    """Read every ``*.json`` suite in ``directory``, sorted by file name."""
    specs = []
    for path in sorted(directory.glob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        spec = SuiteSpec(
            name=raw["name"],
            frame=raw["meta"]["frame"],
            expectations=tuple(raw["expectations"]),
            meta=raw["meta"],
        )
        _check_spec(spec, path)
        specs.append(spec)
    return specs


def _check_spec(spec: SuiteSpec, path: Path) -> None:
    # The row condition and meta name are both written by hand: a mismatch would silently
    # validate zero rows, which reads as "not evaluated" forever.
    if spec.frame not in (FACTS_FRAME, CHECKS_FRAME):
        raise ConfigError(f"{path}: meta.frame must be {FACTS_FRAME} or {CHECKS_FRAME}")
    names = [e.get("meta", {}).get("name") for e in spec.expectations]
    if None in names or len(set(names)) != len(names):
        raise ConfigError(f"{path}: every expectation needs a unique meta.name")
    for exp in spec.expectations:
        if exp.get("severity") not in tuple(Severity):
            raise ConfigError(f"{path}: {exp['meta']['name']}: severity must be set")
        if spec.frame != CHECKS_FRAME:
            continue
        rule = exp["meta"].get("rule", "identity")
        if rule not in RULES:
            raise ConfigError(f"{path}: {exp['meta']['name']}: unknown rule {rule!r}")
        name, kwargs = exp["meta"]["name"], exp["kwargs"]
        if (kwargs.get("column_A"), kwargs.get("column_B")) != check_columns(name):
            raise ConfigError(f"{path}: {name}: columns must be {check_columns(name)}")


def facts_frame(facts: Sequence[Fact]) -> pd.DataFrame:
    """One row per distinct fact as extracted.

    An exact repeat (a table figure printed twice) is one row: it cannot conflict. Different
    figures for one key stay, for the structure suite to find.
    """
    # deferred heavy import: pandas, only when a document is validated
    import pandas as pd

    catalog = metrics()
    records = [_fact_record(f, catalog.get(f.metric)) for f in facts]
    frame = pd.DataFrame.from_records(records, columns=list(FACT_COLUMNS))
    # Typed even when empty: an empty object column would fail the type expectation.
    frame = frame.astype(_FACT_DTYPES)
    return frame.drop_duplicates(ignore_index=True)


def expected_unit(catalog_unit: str, fact_unit: str) -> str:
    """metrics.csv's unit in the currency the statement was printed in: an amount metrics.csv
    gives in CNY may be reported in any currency ("USD/share" for "CNY/share")."""
    currency, rest = fact_unit[:3], fact_unit[3:]
    if catalog_unit.startswith("CNY") and currency.isalpha() and currency.isupper():
        return currency + rest if rest == catalog_unit[3:] else catalog_unit
    return catalog_unit


def _fact_record(f: Fact, entry: MetricDef | None) -> dict[str, Any]:
    unit = expected_unit(entry.unit, f.unit) if entry else None
    statement = entry.statement if entry else ""
    return {
        "metric": f.metric,
        # Instants get "" rather than None so the uniqueness check compares them.
        "period_start": f.period_start.isoformat() if f.period_start else "",
        "period_end": f.period_end.isoformat(),
        "basis": f.basis,
        "unit": f.unit,
        "expected_unit": unit,
        "statement": statement,
        "value": format(f.value, "f"),
        # Only for range checks (sign, 0..100); the identities compare exact integers.
        "number": float(f.value),
        "decimals": f.decimals,
        "origin": f.origin,
        "flags": ",".join(f.flags),
        "raw_text": f.provenance.raw_text,
        "start_day": f.period_start.day if f.period_start else 1,
        "next_day": (f.period_end + timedelta(days=1)).day,  # 1 when the period ends a month
        "rate_pct": _where(f, (f.unit, statement) == _RATE),
        "margin_pct": _where(f, (f.unit, statement) == _MARGIN),
        "count_value": _where(f, f.unit in _COUNT_UNITS),
    }


def _where(f: Fact, applies: bool) -> float | None:
    return float(f.value) if applies else None


def identity_checks(
    facts: Sequence[Fact], specs: Sequence[SuiteSpec], context: Context | None = None
) -> IdentityChecks:
    """Evaluate every check-frame rule of ``specs`` on one document's facts."""
    # deferred heavy import: pandas, only when a document is validated
    import pandas as pd

    ctx = context or Context()
    rows: list[CheckRow] = []
    skipped: dict[str, tuple[str, ...]] = {}
    columns = list(CHECK_COLUMNS)
    for spec in specs:
        for name, meta in spec.checks:
            output = RULES[meta.get("rule", "identity")](name, meta, list(facts), ctx)
            rows.extend(output.rows)
            skipped[name] = tuple(output.skipped)
            columns.extend(check_columns(name))
    records = [_record(r) for r in rows]
    # object dtype: exact Python ints, and None (not NaN) where a row belongs to another check.
    frame = pd.DataFrame({c: pd.Series([r.get(c) for r in records], dtype=object) for c in columns})
    return IdentityChecks(frame=frame, rows=tuple(rows), skipped=skipped)


def check_columns(name: str) -> tuple[str, str]:
    """The (tolerance, gap) columns one check's expectation compares."""
    return f"tolerance__{name}", f"gap__{name}"


def _record(row: CheckRow) -> dict[str, Any]:
    # Scale so both sides, the gap and the tolerance are whole numbers (cents, per-share).
    values = (row.lhs, row.rhs, row.tolerance)
    exp = max([0] + [-_exponent(v) for v in values])
    lhs, rhs, tol = (_to_int(v, exp) for v in values)
    gap = max(lhs - rhs, 0) if row.one_sided else abs(lhs - rhs)
    tol_column, gap_column = check_columns(row.identity)
    return {
        "identity": row.identity,
        "period": row.period,
        "lhs": lhs,
        "rhs": rhs,
        "abs_diff": gap,
        "tolerance": tol,
        "unit_exp": exp,
        "n_figures": len(row.figures),
        tol_column: tol,
        gap_column: gap,
    }


def _exponent(value: Decimal) -> int:
    exponent = value.normalize().as_tuple().exponent
    return exponent if isinstance(exponent, int) else 0


def _to_int(value: Decimal, exp: int) -> int:
    scaled = value.scaleb(exp)
    if scaled != scaled.to_integral_value():
        raise ValueError(f"{value} is not whole at 10^-{exp}")  # _record chose exp to avoid it
    return int(scaled)


__all__ = ["IdentityChecks", "SuiteSpec", "identity_checks", "period_label"]
