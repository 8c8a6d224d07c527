"""The metric catalog: ``metrics.csv`` (package data beside this module), read here only.

Every metric id the pipeline stores is a row of it: its kind (flow over a period, or an
instant), its unit, the statement it belongs to and the labels it is printed under.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from pathlib import Path

METRICS_CSV = Path(__file__).resolve().parent / "metrics.csv"


@dataclass(frozen=True, slots=True)
class MetricDef:
    """One row of metrics.csv."""

    metric: str
    kind: str  # "flow" | "instant"
    unit: str  # CNY, CNY/share, CNY/ADS, shares, count, months, percent
    statement: str = ""  # income, balance, cash_flow, non_gaap, operating, percent ...
    meaning: str = ""  # what it is, then the labels it is printed under, " / " between

    @property
    def label(self) -> str:
        """The first label it is printed under ("Net income")."""
        return self.meaning.split(" / ")[0].strip()


# Balances a statement prints in a period's column that are of the day before the period starts
# ("Cash and cash equivalents at beginning of the period", "於期初之現金及現金等值物").
OPENING_BALANCES = frozenset({"cash_and_restricted_cash_begin"})


def figure_period(
    definition: MetricDef, start: date | None, end: date
) -> tuple[date | None, date] | None:
    """The period of a figure of ``definition`` printed in a column of ``start``..``end``: a
    flow's is the column's, a balance's the column's last day, an opening balance's the day
    before the column starts (None: that column prints no start)."""
    if definition.kind != "instant":
        return start, end
    if definition.metric in OPENING_BALANCES:
        return None if start is None else (None, start - timedelta(days=1))
    return None, end


def load_metrics(path: Path = METRICS_CSV) -> dict[str, MetricDef]:
    """Read a metrics file into metric id -> definition."""
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    return {r[0]: MetricDef(*r[:5]) for r in rows[1:] if r}


@cache
def metrics() -> dict[str, MetricDef]:
    """The packaged metrics.csv, read once per process."""
    return load_metrics()


# Statement lines that add up over time; operating KPIs are left out: their definitions get
# restated (Q4 2023 loan volume: 119,002 million then 89,561 million) and would false-alarm.
_ADDITIVE_STATEMENTS = ("income", "non_gaap", "cash_flow")


@cache
def additive_metrics() -> frozenset[str]:
    """Flow metrics in money on the statements: a year's figure is the sum of its quarters',
    and a quarter is a longer period less the rest of it (H1 - Q2 = Q1)."""
    return frozenset(
        m.metric
        for m in metrics().values()
        if m.kind == "flow" and m.unit == "CNY" and m.statement in _ADDITIVE_STATEMENTS
    )
