"""Views for people reading the warehouse (contract additions of revision 0006).

- ``metric_labels``: every metric id of ``metrics.csv`` with a label, its kind, unit and
  statement (frozen into the view by the revision that creates it; a test checks they agree),
  issuer NULL; and (revision 0015) per issuer, each metric it reports in a statement with its
  own wording and the unit it reports in (Buckle's revenue: "SALES, Net of returns and
  allowances", USD).
- ``facts_fiscal``: ``facts_latest`` with the label, fiscal year, period type (quarter, half,
  year, instant) and fiscal quarter, and (revision 0011) each figure's origin and decimals.
  Fiscal years and quarters follow the issuer's fiscal year end (revision 0012,
  :mod:`domain.fiscal`: 52/53-week years, a year ending in January is the one before).
- ``restatements``: each later report of a (issuer, metric, period) whose value differs from
  the report before it beyond the rounding of the less precise of the two: both values, both
  documents, both report dates. Releases only (revision 0015): audited XBRL figures are
  compared in ``audited_vs_reported``, as the alerts do.
- ``dividends`` (revision 0015): every dividend declared by a published document, one row per
  declaration and document, amounts exact in ``currency`` per share and per ADS.
- ``line_items``: every value cell of every statement table read from a document, as printed
  (``statement_rows``, revision 0007): statement, section path, label, period, unit, value and
  the metric it maps to or NULL.
"""

from __future__ import annotations

import csv
from typing import Any

from sqlalchemy import Column, Date, Integer, Table, Text

from domain.enums import Basis, Origin, Status
from domain.fiscal import DECEMBER
from domain.metrics import METRICS_CSV
from storage.types import SCALE, ExactDecimal
from storage.view_parts import precision_steps, sql_literal

_US_GAAP, _QUARANTINED = sql_literal(Basis.US_GAAP), sql_literal(Status.QUARANTINED)
_XBRL, _TABLE = sql_literal(Origin.XBRL), sql_literal(Origin.TABLE)


def _text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


# Notes to the catalog's readers, not names a document prints: left out of the labels.
_NOTES = (" (an expense is positive, whatever the table's parentheses)",
          " (the issuer's own equity line)")  # fmt: skip


def metric_rows() -> list[tuple[str, str, str, str, str]]:
    """(metric, label, kind, unit, statement) from metrics.csv; the label is the first name
    (without the catalog's notes to its readers)."""
    with METRICS_CSV.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))[1:]
    labels = [(r, r[4].split(" / ")[0].strip()) for r in rows if r]
    for note in _NOTES:
        labels = [(r, label.removesuffix(note)) for r, label in labels]
    return [(r[0], label, r[1], r[2], r[3]) for r, label in labels]


def _metric_labels(_dialect: str) -> str:
    """The catalog's rows (issuer NULL), then per issuer each metric it reported in a
    statement: the label it prints most often, and the unit it reports in (revision 0015)."""
    values = ",\n    ".join("(" + ", ".join(map(_text, row)) + ")" for row in metric_rows())
    return f"""
WITH m(metric, label, kind, unit, statement) AS (VALUES
    {values}),
worded AS (
    SELECT d.issuer, f.metric, f.row_label, f.unit, COUNT(*) AS n
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.origin = {_TABLE} AND d.status <> {_QUARANTINED} AND f.row_label <> ''
    GROUP BY d.issuer, f.metric, f.row_label, f.unit
),
ranked AS (
    SELECT w.issuer, w.metric, w.row_label, w.unit,
           ROW_NUMBER() OVER (PARTITION BY w.issuer, w.metric
                              ORDER BY w.n DESC, w.row_label, w.unit) AS rn
    FROM worded w
)
SELECT metric, label, kind, unit, statement, CAST(NULL AS TEXT) AS issuer FROM m
UNION ALL
SELECT r.metric, r.row_label, m.kind, r.unit, m.statement, r.issuer
FROM ranked r JOIN m ON m.metric = r.metric
WHERE r.rn = 1"""


def _parts(dialect: str) -> tuple[str, str, str, str]:
    """SQL for the days a period spans, and its end's year, month and day."""
    if dialect == "postgresql":
        year, month, day = (f"CAST(EXTRACT({p} FROM f.period_end) AS INTEGER)"
                            for p in ("YEAR", "MONTH", "DAY"))  # fmt: skip
        return "(f.period_end - f.period_start)", year, month, day
    year, month, day = (f"CAST(strftime('%{p}', f.period_end) AS INTEGER)" for p in "Ymd")
    return "CAST(julianday(f.period_end) - julianday(f.period_start) AS INTEGER)", year, month, day


# The issuer's year-end month and day ("MMDD"; December when not known), and the month whose
# end is nearest it. No "%" anywhere: psycopg reads it as a placeholder.
_YEAR_END = f"COALESCE(NULLIF(i.fiscal_year_end, ''), '{DECEMBER}')"
_MONTH, _DAY = (f"CAST(SUBSTR({_YEAR_END}, {at}, 2) AS INTEGER)" for at in (1, 3))
_YEAR_END_MONTH = (
    f"CASE WHEN {_DAY} > 15 THEN {_MONTH} WHEN {_MONTH} = 1 THEN 12 ELSE {_MONTH} - 1 END"
)


def _facts_fiscal(dialect: str) -> str:
    """facts_latest placed in its issuer's fiscal calendar, as domain.fiscal does: the
    period end at its nearest month end (year and month), counted from the year-end month."""
    days, year, month, day = _parts(dialect)
    quarter = "(p.days BETWEEN 80 AND 100)"
    return f"""
WITH nearest AS (
    SELECT f.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value,
           f.source_document_id, f.origin, f.decimals, {days} AS days,
           {year} * 12 + {month} - 1 - CASE WHEN {day} <= 15 THEN 1 ELSE 0 END AS month_index,
           {_YEAR_END_MONTH} AS year_end_month
    FROM facts_latest f LEFT JOIN issuers i ON i.ticker = f.issuer
),
placed AS (
    SELECT n.*, n.month_index / 12 AS end_year,
           n.month_index - (n.month_index / 12) * 12 + 1 AS end_month
    FROM nearest n
)
SELECT p.issuer, p.metric, m.label, p.period_start, p.period_end,
       p.end_year + CASE WHEN p.end_month > p.year_end_month THEN 1 ELSE 0 END
       - CASE WHEN p.year_end_month < 6 THEN 1 ELSE 0 END AS fiscal_year,
       CASE WHEN p.period_start IS NULL THEN 'instant' WHEN {quarter} THEN 'quarter'
            WHEN p.days BETWEEN 170 AND 190 THEN 'half'
            WHEN p.days BETWEEN 355 AND 370 THEN 'year' ELSE 'other' END AS period_type,
       CASE WHEN p.period_start IS NULL OR {quarter}
            THEN (CASE WHEN p.end_month > p.year_end_month THEN p.end_month - p.year_end_month
                       ELSE p.end_month + 12 - p.year_end_month END + 2) / 3 END
           AS fiscal_quarter,
       p.unit, p.value, p.source_document_id, p.origin, p.decimals
FROM placed p LEFT JOIN metric_labels m ON m.metric = p.metric AND m.issuer IS NULL"""


def _restatements(dialect: str) -> str:
    gap = "ABS(r.value - r.prev_value)"
    if dialect == "sqlite":  # decimal TEXT subtracts in floating point: round to the scale
        gap = f"ROUND({gap}, {SCALE})"
    return f"""
WITH steps(decimals, half_unit) AS ({precision_steps()}),
reports AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value, f.decimals,
           f.document_id, f.reported_on,
           LAG(f.value) OVER w AS prev_value, LAG(f.unit) OVER w AS prev_unit,
           LAG(f.decimals) OVER w AS prev_decimals, LAG(f.document_id) OVER w AS prev_document_id,
           LAG(f.reported_on) OVER w AS prev_reported_on
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.basis = {_US_GAAP} AND d.status <> {_QUARANTINED} AND f.origin <> {_XBRL}
    WINDOW w AS (PARTITION BY d.issuer, f.metric, f.period_start, f.period_end
                 ORDER BY f.reported_on, d.published_at, f.document_id)
)
SELECT r.issuer, r.metric, r.period_start, r.period_end, r.unit,
       r.prev_value AS value_before, r.value AS value_after,
       r.prev_document_id AS document_before, r.document_id AS document_after,
       r.prev_reported_on AS reported_before, r.reported_on AS reported_after
FROM reports r
LEFT JOIN steps s ON s.decimals = CASE WHEN r.decimals < r.prev_decimals
                                       THEN r.decimals ELSE r.prev_decimals END
WHERE r.prev_document_id IS NOT NULL AND r.prev_unit = r.unit
  AND {gap} > COALESCE(s.half_unit, 0)"""


def _line_items(_dialect: str) -> str:
    return """
SELECT d.issuer, r.document_id, r.statement, NULLIF(r.section, '') AS section, r.label,
       r.period_start, r.period_end, r.unit, r.value, r.metric, r.reported_on, r.proved_by
FROM statement_rows r JOIN documents d ON d.document_id = r.document_id"""


def _dividends(_dialect: str) -> str:
    """Every dividend declared, one row per declaration and document (revision 0015)."""
    return f"""
SELECT d.issuer, v.period_start, v.period_end, v.currency, v.per_share, v.per_ads,
       v.ex_date, v.record_date, v.payment_date, v.ads_payment_date,
       v.document_id AS source_document_id, d.published_on AS reported_on
FROM dividend_declarations v JOIN documents d ON d.document_id = v.document_id
WHERE d.status <> {_QUARANTINED}"""


# Creation order: facts_fiscal and line_items read metric_labels (and facts_latest).
DEFINITIONS = {
    "metric_labels": _metric_labels,
    "facts_fiscal": _facts_fiscal,
    "restatements": _restatements,
    "line_items": _line_items,
}
# Created after the audited views (revision 0015 appends it).
LATER = {"dividends": _dividends}


_PERIOD = (("period_start", Date), ("period_end", Date))
# Each view's columns and their types, for the typed handles (values as Decimal, dates as date).
COLUMNS: dict[str, tuple[tuple[str, Any], ...]] = {
    "metric_labels": tuple(
        (c, Text) for c in ("metric", "label", "kind", "unit", "statement", "issuer")
    ),
    "facts_fiscal": (
        ("issuer", Text), ("metric", Text), ("label", Text), *_PERIOD,
        ("fiscal_year", Integer), ("period_type", Text), ("fiscal_quarter", Integer),
        ("unit", Text), ("value", ExactDecimal), ("source_document_id", Text),
        ("origin", Text), ("decimals", Integer),
    ),
    "restatements": (
        ("issuer", Text), ("metric", Text), *_PERIOD, ("unit", Text),
        ("value_before", ExactDecimal), ("value_after", ExactDecimal),
        ("document_before", Text), ("document_after", Text),
        ("reported_before", Date), ("reported_after", Date),
    ),
    "line_items": (
        ("issuer", Text), ("document_id", Text), ("statement", Text), ("section", Text),
        ("label", Text), *_PERIOD, ("unit", Text), ("value", ExactDecimal), ("metric", Text),
        ("reported_on", Date), ("proved_by", Text),
    ),
    "dividends": (
        ("issuer", Text), *_PERIOD, ("currency", Text), ("per_share", ExactDecimal),
        ("per_ads", ExactDecimal), ("ex_date", Date), ("record_date", Date),
        ("payment_date", Date), ("ads_payment_date", Date), ("source_document_id", Text),
        ("reported_on", Date),
    ),
}  # fmt: skip


def handles(metadata: Any) -> dict[str, Table]:
    """Typed handles for reading the consumer views."""
    return {
        name: Table(name, metadata, *(Column(c, kind) for c, kind in columns))
        for name, columns in COLUMNS.items()
    }
