"""The contract's SQL views, and typed handles to read them.

Reading views: on PostgreSQL amounts are NUMERIC. On SQLite they are decimal TEXT passed
through unchanged, so select through the ``Table`` handles below (``select(FACTS_LATEST)``)
to get ``Decimal`` and ``date`` back on both; ``variance_pct`` is derived and is a float on
SQLite. Plain-SQL readers on SQLite should ``CAST(value AS REAL)`` before comparing amounts.

The migrations create the views from SQL frozen per revision (storage/migrations/
frozen_views.py); this module is the current definition and must equal the newest frozen one,
so changing a view here means a new revision that freezes the new SQL.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Boolean, Column, Date, Integer, MetaData, Numeric, Table, Text

from domain.enums import Basis, DeliveryStatus, Origin, Status, VersusGuidance
from storage import audit_views, consumer_views, derived_views
from storage.types import SCALE, ExactDecimal, UtcDateTime
from storage.view_parts import precision_steps, sql_literal

_US_GAAP, _QUARANTINED = sql_literal(Basis.US_GAAP), sql_literal(Status.QUARANTINED)
_DELIVERED = sql_literal(DeliveryStatus.DELIVERED)


def _facts_history(_dialect: str) -> str:
    return """
SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value,
       f.document_id AS source_document_id, f.reported_on, f.basis, f.decimals, f.scale,
       f.origin, d.source, d.form, d.published_at, d.status AS document_status,
       f.file, f.locator, f.row_label, f.column_label, f.raw_text, f.flags, f.loaded_at,
       f.proved_by
FROM facts f JOIN documents d ON d.document_id = f.document_id"""


# The contract's names for where a figure was read: facts store a statement table's as 'table'.
_ORIGIN = f"CASE WHEN f.origin = {sql_literal(Origin.TABLE)} THEN 'statement' ELSE f.origin END"
_NARRATIVE = sql_literal(Origin.NARRATIVE)

# The reports facts_latest chooses from, numbered oldest first within each group (grp): a
# period's narrative reports only when no statement (or other) report of it is published.
_CANDIDATES = f"""reports AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value, f.decimals,
           {_ORIGIN} AS origin, f.proved_by, f.document_id, f.reported_on, d.published_at,
           CASE WHEN f.origin = {_NARRATIVE} THEN 0 ELSE 1 END AS origin_rank,
           MAX(CASE WHEN f.origin = {_NARRATIVE} THEN 0 ELSE 1 END) OVER (
               PARTITION BY d.issuer, f.metric, f.period_start, f.period_end) AS best
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.basis = {_US_GAAP} AND d.status <> {_QUARANTINED}
),
candidates AS (
    SELECT issuer, metric, period_start, period_end, unit, value, decimals, origin, proved_by,
           document_id,
           DENSE_RANK() OVER (ORDER BY issuer, metric, period_start, period_end) AS grp,
           ROW_NUMBER() OVER (PARTITION BY issuer, metric, period_start, period_end
                              ORDER BY reported_on, published_at, document_id) AS rn,
           COUNT(*) OVER (PARTITION BY issuer, metric, period_start, period_end) AS cnt
    FROM reports WHERE origin_rank = best
),
"""


def _facts_latest(dialect: str) -> str:
    """Fold each (issuer, metric, period)'s reports oldest to newest with a recursive CTE.

    A report replaces the current value unless it is less precise and agrees with it to its
    own rounding: then the more precise figure stays. Disagreeing beyond rounding is a
    restatement and wins. A fold (not a "latest row" pick) keeps later restatements right.
    Narrative reports take part only for a period no statement reports (``_CANDIDATES``).
    """
    # PostgreSQL needs one type for a recursive column; a bare CAST on SQLite would turn the
    # exact decimal TEXT into a float.
    num = "CAST({} AS NUMERIC)" if dialect == "postgresql" else "{}"
    # SQLite subtracts in binary floating point (8.15 - 8.1 > 0.05): rounding the gap to the
    # stored scale gives back the exact difference, so the boundary agrees there as well.
    gap = "ABS(n.value - c.value)"
    if dialect == "sqlite":
        gap = f"ROUND({gap}, {SCALE})"
    keep = f"(n.decimals < c.decimals AND n.unit = c.unit AND {gap} <= s.half_unit)"

    def pick(column: str) -> str:
        return f"CASE WHEN {keep} THEN c.{column} ELSE n.{column} END"

    return f"""
WITH RECURSIVE
steps(decimals, half_unit) AS ({precision_steps()}),
{_CANDIDATES}folded(grp, rn, cnt, issuer, metric, period_start, period_end, unit, value, decimals,
       origin, proved_by, document_id) AS (
    SELECT grp, rn, cnt, issuer, metric, period_start, period_end, unit,
           {num.format("value")}, decimals, origin, proved_by, document_id
    FROM candidates WHERE rn = 1
    UNION ALL
    SELECT n.grp, n.rn, n.cnt, n.issuer, n.metric, n.period_start, n.period_end,
           {pick("unit")}, {num.format(pick("value"))}, {pick("decimals")},
           {pick("origin")}, {pick("proved_by")}, {pick("document_id")}
    FROM folded c
    JOIN candidates n ON n.grp = c.grp AND n.rn = c.rn + 1
    LEFT JOIN steps s ON s.decimals = n.decimals
)
SELECT issuer, metric, period_start, period_end, unit, value,
       document_id AS source_document_id, origin, decimals, proved_by
FROM folded WHERE rn = cnt"""


def _alerts(_dialect: str) -> str:
    return f"""
SELECT a.alert_id, a.kind, a.issuer, a.subject, a.message, a.created_at,
       CASE WHEN COUNT(d.channel) > 0
             AND SUM(CASE WHEN d.status = {_DELIVERED} THEN 0 ELSE 1 END) = 0
            THEN MAX(d.delivered_at) END AS delivered_at
FROM alert_events a LEFT JOIN alert_deliveries d ON d.alert_id = a.alert_id
GROUP BY a.alert_id, a.kind, a.issuer, a.subject, a.message, a.created_at"""


def _guidance_vs_actual(dialect: str) -> str:
    # SQLite stores amounts as TEXT: compare them as numbers, never as strings
    num = "CAST({} AS REAL)" if dialect == "sqlite" else "{}"
    actual, low, high = num.format("a.value"), num.format("l.low"), num.format("l.high")
    return f"""
WITH ranked AS (
    SELECT d.issuer, g.metric, g.period_start, g.period_end, g.low, g.high, g.unit,
           g.document_id,
           ROW_NUMBER() OVER (PARTITION BY d.issuer, g.metric, g.period_start, g.period_end
                              ORDER BY g.issued_on DESC, d.published_at DESC,
                                       g.document_id DESC) AS rn
    FROM guidance g JOIN documents d ON d.document_id = g.document_id
    WHERE d.status <> {_QUARANTINED} AND g.is_numeric
      AND (g.low IS NOT NULL OR g.high IS NOT NULL)
),
latest AS (
    SELECT issuer, metric, period_start, period_end, low, high, unit, document_id,
           (COALESCE(low, high) + COALESCE(high, low)) / 2.0 AS midpoint
    FROM ranked WHERE rn = 1
)
SELECT l.issuer, l.metric, l.period_start, l.period_end,
       l.low AS guidance_low, l.high AS guidance_high, a.value AS actual, l.unit,
       CASE WHEN a.value IS NULL THEN {sql_literal(VersusGuidance.PENDING)}
            WHEN {actual} > COALESCE({high}, {low}) THEN {sql_literal(VersusGuidance.ABOVE)}
            WHEN {actual} < COALESCE({low}, {high}) THEN {sql_literal(VersusGuidance.BELOW)}
            ELSE {sql_literal(VersusGuidance.WITHIN)} END AS outcome,
       CASE WHEN a.value IS NULL OR l.midpoint = 0 THEN NULL
            ELSE ROUND((a.value - l.midpoint) * 100 / l.midpoint, 4) END AS variance_pct,
       l.document_id AS guidance_document_id, a.source_document_id AS actual_document_id,
       a.origin AS actual_origin
FROM latest l
LEFT JOIN facts_latest a
  ON a.issuer = l.issuer AND a.metric = l.metric AND a.unit = l.unit
 AND a.period_start = l.period_start AND a.period_end = l.period_end"""


def _guidance_history(_dialect: str) -> str:
    """Every outlook statement, numeric or not, with the range it revised (prev_low/prev_high)."""
    return f"""
SELECT d.issuer, g.metric, g.period_start, g.period_end, g.low, g.high, g.unit,
       g.growth_low_pct, g.growth_high_pct, g.is_numeric, g.issued_on, g.document_id,
       ROW_NUMBER() OVER w AS revision,
       LAG(g.low) OVER w AS prev_low, LAG(g.high) OVER w AS prev_high,
       LAG(g.document_id) OVER w AS prev_document_id,
       g.file, g.locator, g.raw_text
FROM guidance g JOIN documents d ON d.document_id = g.document_id
WHERE d.status <> {_QUARANTINED}
WINDOW w AS (PARTITION BY d.issuer, g.metric, g.period_start, g.period_end
             ORDER BY g.issued_on, d.published_at, g.document_id)"""


# Creation order: guidance_vs_actual reads facts_latest.
_DEFINITIONS = {
    "facts_history": _facts_history,
    "facts_latest": _facts_latest,
    "alerts": _alerts,
    "guidance_vs_actual": _guidance_vs_actual,
    "guidance_history": _guidance_history,
    **consumer_views.DEFINITIONS,
    **audit_views.DEFINITIONS,
    **consumer_views.LATER,
    **derived_views.DEFINITIONS,
}
VIEW_NAMES: tuple[str, ...] = tuple(_DEFINITIONS)


def view_sql(name: str, dialect: str) -> str:
    """The SELECT behind view ``name`` for a dialect ("sqlite" or "postgresql")."""
    return _DEFINITIONS[name](dialect).strip()


# Typed handles for reading the views; on their own MetaData so nothing ever creates them.
view_metadata = MetaData()
_PERIOD = ("period_start", "period_end")


def _view(name: str, *columns: Column[Any]) -> Table:
    return Table(name, view_metadata, *columns)


FACTS_LATEST = _view(
    "facts_latest",
    Column("issuer", Text),
    Column("metric", Text),
    *(Column(c, Date) for c in _PERIOD),
    Column("unit", Text),
    Column("value", ExactDecimal),
    Column("source_document_id", Text),
    Column("origin", Text),
    Column("decimals", Integer),
    Column("proved_by", Text),
)
FACTS_HISTORY = _view(
    "facts_history",
    Column("issuer", Text),
    Column("metric", Text),
    *(Column(c, Date) for c in _PERIOD),
    Column("unit", Text),
    Column("value", ExactDecimal),
    Column("source_document_id", Text),
    Column("reported_on", Date),
    Column("basis", Text),
    Column("decimals", Integer),
    Column("scale", Integer),
    Column("origin", Text),
    Column("source", Text),
    Column("form", Text),
    Column("published_at", UtcDateTime),
    Column("document_status", Text),
    Column("file", Text),
    Column("locator", Text),
    Column("row_label", Text),
    Column("column_label", Text),
    Column("raw_text", Text),
    Column("flags", Text),
    Column("loaded_at", UtcDateTime),
    Column("proved_by", Text),
)
ALERTS = _view(
    "alerts",
    Column("alert_id", Text),
    Column("kind", Text),
    Column("issuer", Text),
    Column("subject", Text),
    Column("message", Text),
    Column("created_at", UtcDateTime),
    Column("delivered_at", UtcDateTime),
)
GUIDANCE_VS_ACTUAL = _view(
    "guidance_vs_actual",
    Column("issuer", Text),
    Column("metric", Text),
    *(Column(c, Date) for c in _PERIOD),
    Column("guidance_low", ExactDecimal),
    Column("guidance_high", ExactDecimal),
    Column("actual", ExactDecimal),
    Column("unit", Text),
    Column("outcome", Text),
    Column("variance_pct", Numeric(20, 4, asdecimal=True)),
    Column("guidance_document_id", Text),
    Column("actual_document_id", Text),
    Column("actual_origin", Text),
)
GUIDANCE_HISTORY = _view(
    "guidance_history",
    Column("issuer", Text),
    Column("metric", Text),
    *(Column(c, Date) for c in _PERIOD),
    Column("low", ExactDecimal),
    Column("high", ExactDecimal),
    Column("unit", Text),
    Column("growth_low_pct", ExactDecimal),
    Column("growth_high_pct", ExactDecimal),
    Column("is_numeric", Boolean),
    Column("issued_on", Date),
    Column("document_id", Text),
    Column("revision", Integer),
    Column("prev_low", ExactDecimal),
    Column("prev_high", ExactDecimal),
    Column("prev_document_id", Text),
    Column("file", Text),
    Column("locator", Text),
    Column("raw_text", Text),
)
_CONSUMER = consumer_views.handles(view_metadata)
METRIC_LABELS = _CONSUMER["metric_labels"]
FACTS_FISCAL = _CONSUMER["facts_fiscal"]
RESTATEMENTS = _CONSUMER["restatements"]
LINE_ITEMS = _CONSUMER["line_items"]
DIVIDENDS = _CONSUMER["dividends"]
FACTS_DERIVED = _view(
    "facts_derived", *(Column(c, kind) for c, kind in derived_views.COLUMNS["facts_derived"])
)
AUDITED_VS_REPORTED, EXTRACTION_ACCURACY = (
    _view(name, *(Column(c, kind) for c, kind in columns))
    for name, columns in audit_views.columns().items()
)
