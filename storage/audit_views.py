"""Views of the audited second witness (contract additions of revision 0013).

- ``audited_vs_reported``: every figure a release reported (any origin but ``xbrl``, its
  document not quarantined) for a period SEC XBRL company facts also hold, against the audited
  figure: the latest filed value of the period, named by the first filing that carried it.
  ``difference`` is reported minus audited; ``outcome`` is ``equal``, ``within_rounding``
  (apart by at most half a unit of the release's printed precision, boundary included: the
  precision rule of :mod:`domain.precision`) or ``differs``.
- ``extraction_accuracy``: per issuer and statement (metrics.csv), how many release figures
  were compared with an annual report's (20-F, 10-K, 40-F), over how many period ends, how
  many matched at the release's printed precision (``equal`` or ``within_rounding``), and the
  share matched (a fraction, 4 places).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Date, Integer, Numeric, Text

from domain.enums import Origin, Status
from domain.xbrlrecords import ANNUAL_FORMS
from storage.types import SCALE, ExactDecimal
from storage.view_parts import precision_steps

_XBRL, _QUARANTINED = f"'{Origin.XBRL.value}'", f"'{Status.QUARANTINED.value}'"
_KEY = "issuer, metric, period_start, period_end, basis, unit"


def _audited_vs_reported(dialect: str) -> str:
    same_start = (
        "a.period_start IS NOT DISTINCT FROM r.period_start"
        if dialect == "postgresql"
        else "a.period_start IS r.period_start"
    )
    diff = "r.value - a.value"
    if dialect == "sqlite":  # decimal TEXT subtracts in floating point: round to the scale
        diff = f"ROUND({diff}, {SCALE})"
    gap = f"ABS({diff})"
    return f"""
WITH steps(decimals, half_unit) AS ({precision_steps()}),
xbrl AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.basis, f.unit, f.value,
           d.source_id AS accession, d.form, f.reported_on, f.document_id,
           FIRST_VALUE(f.value) OVER (PARTITION BY d.issuer, f.metric, f.period_start,
                                                   f.period_end, f.basis, f.unit
                                      ORDER BY f.reported_on DESC, f.document_id DESC) AS latest
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.origin = {_XBRL}
),
audited AS (
    SELECT {_KEY}, value, accession, form,
           ROW_NUMBER() OVER (PARTITION BY {_KEY} ORDER BY reported_on, document_id) AS rn
    FROM xbrl WHERE value = latest
),
reported AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.basis, f.unit, f.value,
           f.decimals, f.document_id
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.origin <> {_XBRL} AND d.status <> {_QUARANTINED}
)
SELECT r.issuer, r.metric, r.period_start, r.period_end, r.unit,
       r.value AS reported, r.document_id AS reported_document_id,
       a.value AS audited, a.accession AS audited_accession, a.form AS audited_form,
       {diff} AS difference,
       CASE WHEN {gap} = 0 THEN 'equal'
            WHEN {gap} <= COALESCE(s.half_unit, 0) THEN 'within_rounding'
            ELSE 'differs' END AS outcome
FROM reported r
JOIN audited a ON a.rn = 1 AND a.issuer = r.issuer AND a.metric = r.metric
 AND a.period_end = r.period_end AND {same_start} AND a.basis = r.basis AND a.unit = r.unit
LEFT JOIN steps s ON s.decimals = r.decimals"""


def _extraction_accuracy(_dialect: str) -> str:
    forms = ", ".join(f"'{f}'" for f in ANNUAL_FORMS)
    matched = "SUM(CASE WHEN v.outcome <> 'differs' THEN 1 ELSE 0 END)"
    return f"""
SELECT v.issuer, m.statement, COUNT(DISTINCT v.period_end) AS periods, COUNT(*) AS compared,
       {matched} AS matched, ROUND({matched} * 1.0 / COUNT(*), 4) AS share
FROM audited_vs_reported v JOIN metric_labels m ON m.metric = v.metric AND m.issuer IS NULL
WHERE v.audited_form IN ({forms})
GROUP BY v.issuer, m.statement"""


# Creation order: extraction_accuracy reads audited_vs_reported (and metric_labels).
DEFINITIONS = {
    "audited_vs_reported": _audited_vs_reported,
    "extraction_accuracy": _extraction_accuracy,
}


def columns() -> dict[str, tuple[tuple[str, Any], ...]]:
    """Each view's columns and their types, for typed handles."""
    period = (("period_start", Date), ("period_end", Date))
    return {
        "audited_vs_reported": (
            ("issuer", Text), ("metric", Text), *period, ("unit", Text),
            ("reported", ExactDecimal), ("reported_document_id", Text),
            ("audited", ExactDecimal), ("audited_accession", Text), ("audited_form", Text),
            ("difference", ExactDecimal), ("outcome", Text),
        ),
        "extraction_accuracy": (
            ("issuer", Text), ("statement", Text), ("periods", Integer), ("compared", Integer),
            ("matched", Integer), ("share", Numeric(10, 4, asdecimal=True)),
        ),
    }  # fmt: skip
