"""``facts_derived`` (revision 0016): the quarters and halves the published figures imply.

A flow in money over a longer period less a reported part of it gives the rest: the first
half less the second quarter is the first quarter (H1 - Q2 = Q1), the year less the first
nine months the fourth quarter (FY - 9M = Q4), the year less the first half the second half.
Each row names the two published figures it comes from, and whether ``facts_latest`` holds
that period itself: ``missing`` (only the arithmetic gives it), ``agrees`` (within the
rounding of the three figures) or ``differs``. Only quarters and halves are derived
(``domain.fiscal.DERIVED_DAYS``); per-share amounts, shares, ratios and KPIs never are (they do not
subtract: ``domain.metrics.additive_metrics``).

Amounts stay exact on both dialects: PostgreSQL subtracts NUMERIC; on SQLite, whose
arithmetic on decimal TEXT is binary floating point, the amounts are subtracted as integers of
millionths and written back as canonical decimal text.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Date, Integer, Text

from domain.enums import Origin
from domain.fiscal import DERIVED_DAYS
from domain.metrics import additive_metrics
from storage.types import SCALE, ExactDecimal
from storage.view_parts import precision_steps, sql_literal

_MICRO = 10**SCALE
_DERIVED = sql_literal(Origin.DERIVED)


def _micro(value: str) -> str:
    """SQLite: canonical decimal text (at most SCALE places) as an integer of millionths."""
    padded = (
        f"CASE WHEN instr({value}, '.') = 0 THEN {value} || '.{'0' * SCALE}' "
        f"ELSE substr({value} || '{'0' * SCALE}', 1, instr({value}, '.') + {SCALE}) END"
    )
    return f"CAST(replace({padded}, '.', '') AS INTEGER)"


def _text(micro: str) -> str:
    """SQLite: an integer of millionths back as canonical decimal text ("3599174000")."""
    digits = (
        f"(ABS({micro}) / {_MICRO}) || '.' || substr('{'0' * SCALE}' || (ABS({micro}) % {_MICRO}), "
        f"-{SCALE})"
    )
    sign = f"CASE WHEN {micro} < 0 THEN '-' ELSE '' END"
    return f"{sign} || rtrim(rtrim({digits}, '0'), '.')"


def _amount(dialect: str, column: str) -> str:
    """An amount column as a number that subtracts exactly (NUMERIC, or SQLite millionths)."""
    return column if dialect == "postgresql" else _micro(column)


def _dialect_parts(dialect: str) -> dict[str, str]:
    """The SQL that differs: the amounts' scale and text, the day before/after, a period's days."""
    if dialect == "postgresql":
        return {
            "scale": "1", "out": "d.amount",
            "before": "p.period_start - 1", "after": "p.period_end + 1",
            "days": "(d.period_end - d.period_start)",
        }  # fmt: skip
    return {
        "scale": str(_MICRO), "out": _text("d.amount"),
        "before": "date(p.period_start, '-1 day')", "after": "date(p.period_end, '+1 day')",
        "days": "CAST(julianday(d.period_end) - julianday(d.period_start) AS INTEGER)",
    }  # fmt: skip


def _facts_derived(dialect: str) -> str:
    q = _dialect_parts(dialect)
    wanted = ", ".join(f"'{m}'" for m in sorted(additive_metrics()))
    pair = """SELECT w.issuer, w.metric, w.unit, {start} AS period_start, {end} AS period_end,
           w.amount - p.amount AS amount,
           CASE WHEN w.decimals < p.decimals THEN w.decimals ELSE p.decimals END AS decimals,
           w.decimals AS whole_decimals, p.decimals AS part_decimals,
           w.period_start AS whole_period_start, w.period_end AS whole_period_end,
           w.source_document_id AS whole_document_id,
           p.period_start AS part_period_start, p.period_end AS part_period_end,
           p.source_document_id AS part_document_id
    FROM flows w JOIN flows p
      ON p.issuer = w.issuer AND p.metric = w.metric AND p.unit = w.unit AND {join}"""
    later = pair.format(
        start="w.period_start", end=q["before"],
        join="p.period_end = w.period_end AND p.period_start > w.period_start",
    )  # fmt: skip
    earlier = pair.format(
        start=q["after"], end="w.period_end",
        join="p.period_start = w.period_start AND p.period_end < w.period_end",
    )  # fmt: skip
    gap = f"ABS(d.amount - {_amount(dialect, 'r.value')})"
    halves = " + ".join(f"COALESCE(s{x}.half_unit, 0)" for x in "wpr")
    tolerance = f"({halves}) * {q['scale']}"
    spans = " OR ".join(f"{q['days']} BETWEEN {lo} AND {hi}" for lo, hi in DERIVED_DAYS)
    return f"""
WITH steps(decimals, half_unit) AS ({precision_steps()}),
flows AS (
    SELECT f.issuer, f.metric, f.unit, f.period_start, f.period_end, f.decimals,
           f.source_document_id, {_amount(dialect, "f.value")} AS amount
    FROM facts_latest f
    WHERE f.period_start IS NOT NULL AND f.metric IN ({wanted})
),
derived AS (
    {later}
    UNION ALL
    {earlier}
)
SELECT d.issuer, d.metric, d.period_start, d.period_end, d.unit, {q["out"]} AS value,
       d.decimals, {_DERIVED} AS origin,
       d.whole_period_start, d.whole_period_end, d.whole_document_id,
       d.part_period_start, d.part_period_end, d.part_document_id,
       r.value AS reported_value, r.source_document_id AS reported_document_id,
       CASE WHEN r.value IS NULL THEN 'missing'
            WHEN {gap} <= {tolerance} THEN 'agrees' ELSE 'differs' END AS status
FROM derived d
LEFT JOIN facts_latest r
  ON r.issuer = d.issuer AND r.metric = d.metric AND r.unit = d.unit
 AND r.period_start = d.period_start AND r.period_end = d.period_end
LEFT JOIN steps sw ON sw.decimals = d.whole_decimals
LEFT JOIN steps sp ON sp.decimals = d.part_decimals
LEFT JOIN steps sr ON sr.decimals = r.decimals
WHERE {spans}"""


DEFINITIONS = {"facts_derived": _facts_derived}

_PERIOD = (("period_start", Date), ("period_end", Date))
COLUMNS: dict[str, tuple[tuple[str, Any], ...]] = {
    "facts_derived": (
        ("issuer", Text), ("metric", Text), *_PERIOD, ("unit", Text), ("value", ExactDecimal),
        ("decimals", Integer), ("origin", Text),
        ("whole_period_start", Date), ("whole_period_end", Date), ("whole_document_id", Text),
        ("part_period_start", Date), ("part_period_end", Date), ("part_document_id", Text),
        ("reported_value", ExactDecimal), ("reported_document_id", Text), ("status", Text),
    ),
}  # fmt: skip
