"""Suites as data, and the frames they run on.

The JSON files under ``suites/`` are Great Expectations suites as GX itself serialises them.
An identity expectation carries its equation in ``meta`` (``lhs``/``rhs`` metric lists), so
adding an identity is adding one JSON entry. Builders turn one document's facts into:
- the *facts* frame (one row per fact) for the structure suite;
- the *identity_checks* frame (one row per identity x period) for the identity suites.
Amounts in the checks frame are Python ints (whole units times ``10**unit_exp``), so GX
compares exact integers and no float rounding can decide a pass or a fail.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tasks.errors import ConfigError
from tasks.models import Fact, select_stored_facts

if TYPE_CHECKING:
    import pandas as pd

SUITES_DIR = Path(__file__).parent / "suites"
METRICS_CSV = Path(__file__).resolve().parent.parent / "tasks" / "metrics.csv"
FACTS_FRAME = "facts"
CHECKS_FRAME = "identity_checks"
IDENTITY_BASIS = "us_gaap"
FACT_COLUMNS = (
    "metric",
    "period_start",
    "period_end",
    "basis",
    "unit",
    "expected_unit",
    "value",
    "decimals",
    "origin",
)
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

PeriodKey = tuple[date | None, date]


@dataclass(frozen=True, slots=True)
class Identity:
    """sum(lhs metrics) = sum(rhs metrics), within the figures' rounding."""

    name: str
    lhs: tuple[str, ...]
    rhs: tuple[str, ...]

    @property
    def metrics(self) -> tuple[str, ...]:
        """Every metric the identity needs."""
        return self.lhs + self.rhs


@dataclass(frozen=True, slots=True)
class SuiteSpec:
    """One suite file: its name, the frame it runs on, and its expectations as JSON dicts."""

    name: str
    frame: str
    expectations: tuple[dict[str, Any], ...]
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def identities(self) -> tuple[Identity, ...]:
        """The identity equations declared in this suite's expectation metadata."""
        return tuple(
            Identity(e["meta"]["name"], tuple(e["meta"]["lhs"]), tuple(e["meta"]["rhs"]))
            for e in self.expectations
            if "lhs" in e["meta"]
        )


@dataclass(frozen=True, slots=True)
class CheckRow:
    """One evaluated identity for one period, with the figures behind it."""

    identity: str
    period: str
    lhs: tuple[Fact, ...]
    rhs: tuple[Fact, ...]
    tolerance: Decimal

    @property
    def lhs_total(self) -> Decimal:
        """Sum of the left-hand figures."""
        return sum((f.value for f in self.lhs), Decimal(0))

    @property
    def rhs_total(self) -> Decimal:
        """Sum of the right-hand figures."""
        return sum((f.value for f in self.rhs), Decimal(0))


@dataclass(frozen=True, slots=True)
class IdentityChecks:
    """The checks frame plus what could not be evaluated, per identity."""

    frame: pd.DataFrame
    rows: tuple[CheckRow, ...]  # rows[i] is frame row i
    skipped: dict[str, tuple[str, ...]]  # identity -> "period: missing a, b"


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
        condition = exp["kwargs"].get("row_condition")
        if "lhs" in exp["meta"] and (condition or {}).get("parameter") != exp["meta"]["name"]:
            raise ConfigError(f"{path}: {exp['meta']['name']}: row_condition names another row")


@lru_cache(maxsize=1)
def metric_units(path: Path = METRICS_CSV) -> dict[str, str]:
    """metric id -> unit, from metrics.csv."""
    with path.open(encoding="utf-8", newline="") as handle:
        return {row["metric"]: row["unit"] for row in csv.DictReader(handle)}


def facts_frame(facts: Sequence[Fact]) -> pd.DataFrame:
    """One row per distinct fact as extracted.

    An exact repeat (a table figure printed twice) is one row: it cannot conflict. Different
    figures for one key stay, for the structure suite to find.
    """
    import pandas as pd

    units = metric_units()
    records = [
        {
            "metric": f.metric,
            # Instants get "" rather than None so the uniqueness check compares them.
            "period_start": f.period_start.isoformat() if f.period_start else "",
            "period_end": f.period_end.isoformat(),
            "basis": f.basis,
            "unit": f.unit,
            "expected_unit": units.get(f.metric),
            "value": format(f.value, "f"),
            "decimals": f.decimals,
            "origin": f.origin,
        }
        for f in facts
    ]
    frame = pd.DataFrame.from_records(records, columns=list(FACT_COLUMNS))
    return frame.drop_duplicates(ignore_index=True)


def period_label(key: PeriodKey) -> str:
    """``2024-12-31`` for an instant, ``2024-10-01..2024-12-31`` for a duration."""
    start, end = key
    return end.isoformat() if start is None else f"{start.isoformat()}..{end.isoformat()}"


def identity_checks(facts: Iterable[Fact], identities: Iterable[Identity]) -> IdentityChecks:
    """Evaluate-ready rows for each identity and each period that has all its figures."""
    import pandas as pd

    by_period: dict[PeriodKey, dict[str, Fact]] = {}
    # Same choice as the warehouse makes, so we validate what will be stored.
    for f in select_stored_facts([f for f in facts if f.basis == IDENTITY_BASIS]):
        by_period.setdefault((f.period_start, f.period_end), {})[f.metric] = f
    rows: list[CheckRow] = []
    skipped: dict[str, tuple[str, ...]] = {}
    for identity in identities:
        new_rows, missing = _rows_for(identity, by_period)
        rows.extend(new_rows)
        skipped[identity.name] = missing
    frame = pd.DataFrame.from_records([_record(r) for r in rows], columns=list(CHECK_COLUMNS))
    return IdentityChecks(frame=frame, rows=tuple(rows), skipped=skipped)


def _rows_for(
    identity: Identity, by_period: dict[PeriodKey, dict[str, Fact]]
) -> tuple[list[CheckRow], tuple[str, ...]]:
    rows, missing = [], []
    for key in sorted(by_period, key=lambda k: (k[1], k[0] or k[1])):
        present = by_period[key]
        absent = [m for m in identity.metrics if m not in present]
        if len(absent) == len(identity.metrics):
            continue  # the period has nothing to do with this identity
        if absent:
            missing.append(f"{period_label(key)}: missing {', '.join(absent)}")
            continue
        lhs = tuple(present[m] for m in identity.lhs)
        rhs = tuple(present[m] for m in identity.rhs)
        rows.append(CheckRow(identity.name, period_label(key), lhs, rhs, tolerance(lhs + rhs)))
    return rows, tuple(missing)


def tolerance(figures: Sequence[Fact]) -> Decimal:
    """Largest honest rounding gap: each figure may be off by half its last printed digit."""
    return sum((Decimal("0.5").scaleb(-f.decimals) for f in figures), Decimal(0))


def _record(row: CheckRow) -> dict[str, Any]:
    figures = row.lhs + row.rhs
    # Scale so every amount and the tolerance are whole numbers (cents, per-share values).
    exp = max([0] + [f.decimals + 1 for f in figures] + [-_exponent(f.value) for f in figures])
    lhs, rhs, tol = (_to_int(v, exp) for v in (row.lhs_total, row.rhs_total, row.tolerance))
    return {
        "identity": row.identity,
        "period": row.period,
        "lhs": lhs,
        "rhs": rhs,
        "abs_diff": abs(lhs - rhs),
        "tolerance": tol,
        "unit_exp": exp,
        "n_figures": len(figures),
    }


def _exponent(value: Decimal) -> int:
    exponent = value.as_tuple().exponent
    return exponent if isinstance(exponent, int) else 0


def _to_int(value: Decimal, exp: int) -> int:
    scaled = value.scaleb(exp)
    if scaled != scaled.to_integral_value():
        raise ValueError(f"{value} is not whole at 10^-{exp}")  # _record chose exp to avoid it
    return int(scaled)
