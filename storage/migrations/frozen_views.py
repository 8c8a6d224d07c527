# ruff: noqa: E501  (frozen SQL is kept exactly as it was generated)
"""View SQL frozen per revision: migrations create views from here, never from storage.views.

Append-only: a revision that changes a view adds a new ``VIEWS_<rev>`` mapping and never edits an
old one, so upgrading from any revision rebuilds exactly the views that revision shipped.
``storage.views`` must equal the newest mapping (tests/storage/test_migrations.py checks it).
"""

from __future__ import annotations

from sqlalchemy.engine import Connection

from storage.migrations.frozen_views_0014 import CHANGED_0014
from storage.migrations.frozen_views_0015 import CHANGED_0015
from storage.migrations.frozen_views_0016 import CHANGED_0016
from storage.migrations.frozen_views_0018 import CHANGED_0018

Views = dict[str, dict[str, str]]  # name -> dialect -> SELECT, in creation order


# Revision 0001: facts_history, facts_latest, alerts, guidance_vs_actual.
VIEWS_0001: Views = {
    "facts_history": {
        "sqlite": """
SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value,
       f.document_id AS source_document_id, f.reported_on, f.basis, f.decimals, f.scale,
       f.origin, d.source, d.form, d.published_at, d.status AS document_status,
       f.file, f.locator, f.row_label, f.column_label, f.raw_text, f.flags, f.loaded_at
FROM facts f JOIN documents d ON d.document_id = f.document_id
""",
        "postgresql": """
SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value,
       f.document_id AS source_document_id, f.reported_on, f.basis, f.decimals, f.scale,
       f.origin, d.source, d.form, d.published_at, d.status AS document_status,
       f.file, f.locator, f.row_label, f.column_label, f.raw_text, f.flags, f.loaded_at
FROM facts f JOIN documents d ON d.document_id = f.document_id
""",
    },
    "facts_latest": {
        "sqlite": """
WITH RECURSIVE
steps(decimals, half_unit) AS (VALUES (-12, 500000000000), (-11, 50000000000), (-10, 5000000000), (-9, 500000000), (-8, 50000000), (-7, 5000000), (-6, 500000), (-5, 50000), (-4, 5000), (-3, 500), (-2, 50), (-1, 5), (0, 0.5), (1, 0.05), (2, 0.005), (3, 0.0005), (4, 0.00005), (5, 0.000005), (6, 0.0000005)),
candidates AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value, f.decimals,
           f.document_id,
           DENSE_RANK() OVER (ORDER BY d.issuer, f.metric, f.period_start, f.period_end) AS grp,
           ROW_NUMBER() OVER (PARTITION BY d.issuer, f.metric, f.period_start, f.period_end
                              ORDER BY f.reported_on, d.published_at, f.document_id) AS rn,
           COUNT(*) OVER (PARTITION BY d.issuer, f.metric, f.period_start, f.period_end) AS cnt
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.basis = 'us_gaap' AND d.status <> 'quarantined'
),
folded(grp, rn, cnt, issuer, metric, period_start, period_end, unit, value, decimals,
       document_id) AS (
    SELECT grp, rn, cnt, issuer, metric, period_start, period_end, unit,
           value, decimals, document_id
    FROM candidates WHERE rn = 1
    UNION ALL
    SELECT n.grp, n.rn, n.cnt, n.issuer, n.metric, n.period_start, n.period_end,
           CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.unit ELSE n.unit END, CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.value ELSE n.value END, CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.decimals ELSE n.decimals END,
           CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.document_id ELSE n.document_id END
    FROM folded c
    JOIN candidates n ON n.grp = c.grp AND n.rn = c.rn + 1
    LEFT JOIN steps s ON s.decimals = n.decimals
)
SELECT issuer, metric, period_start, period_end, unit, value,
       document_id AS source_document_id
FROM folded WHERE rn = cnt
""",
        "postgresql": """
WITH RECURSIVE
steps(decimals, half_unit) AS (VALUES (-12, 500000000000), (-11, 50000000000), (-10, 5000000000), (-9, 500000000), (-8, 50000000), (-7, 5000000), (-6, 500000), (-5, 50000), (-4, 5000), (-3, 500), (-2, 50), (-1, 5), (0, 0.5), (1, 0.05), (2, 0.005), (3, 0.0005), (4, 0.00005), (5, 0.000005), (6, 0.0000005)),
candidates AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value, f.decimals,
           f.document_id,
           DENSE_RANK() OVER (ORDER BY d.issuer, f.metric, f.period_start, f.period_end) AS grp,
           ROW_NUMBER() OVER (PARTITION BY d.issuer, f.metric, f.period_start, f.period_end
                              ORDER BY f.reported_on, d.published_at, f.document_id) AS rn,
           COUNT(*) OVER (PARTITION BY d.issuer, f.metric, f.period_start, f.period_end) AS cnt
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.basis = 'us_gaap' AND d.status <> 'quarantined'
),
folded(grp, rn, cnt, issuer, metric, period_start, period_end, unit, value, decimals,
       document_id) AS (
    SELECT grp, rn, cnt, issuer, metric, period_start, period_end, unit,
           CAST(value AS NUMERIC), decimals, document_id
    FROM candidates WHERE rn = 1
    UNION ALL
    SELECT n.grp, n.rn, n.cnt, n.issuer, n.metric, n.period_start, n.period_end,
           CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.unit ELSE n.unit END, CAST(CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.value ELSE n.value END AS NUMERIC), CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.decimals ELSE n.decimals END,
           CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.document_id ELSE n.document_id END
    FROM folded c
    JOIN candidates n ON n.grp = c.grp AND n.rn = c.rn + 1
    LEFT JOIN steps s ON s.decimals = n.decimals
)
SELECT issuer, metric, period_start, period_end, unit, value,
       document_id AS source_document_id
FROM folded WHERE rn = cnt
""",
    },
    "alerts": {
        "sqlite": """
SELECT a.alert_id, a.kind, a.issuer, a.subject, a.message, a.created_at,
       CASE WHEN COUNT(d.channel) > 0
             AND SUM(CASE WHEN d.status = 'delivered' THEN 0 ELSE 1 END) = 0
            THEN MAX(d.delivered_at) END AS delivered_at
FROM alert_events a LEFT JOIN alert_deliveries d ON d.alert_id = a.alert_id
GROUP BY a.alert_id, a.kind, a.issuer, a.subject, a.message, a.created_at
""",
        "postgresql": """
SELECT a.alert_id, a.kind, a.issuer, a.subject, a.message, a.created_at,
       CASE WHEN COUNT(d.channel) > 0
             AND SUM(CASE WHEN d.status = 'delivered' THEN 0 ELSE 1 END) = 0
            THEN MAX(d.delivered_at) END AS delivered_at
FROM alert_events a LEFT JOIN alert_deliveries d ON d.alert_id = a.alert_id
GROUP BY a.alert_id, a.kind, a.issuer, a.subject, a.message, a.created_at
""",
    },
    "guidance_vs_actual": {
        "sqlite": """
WITH ranked AS (
    SELECT d.issuer, g.metric, g.period_start, g.period_end, g.low, g.high, g.unit,
           g.document_id,
           ROW_NUMBER() OVER (PARTITION BY d.issuer, g.metric, g.period_start, g.period_end
                              ORDER BY g.issued_on DESC, d.published_at DESC,
                                       g.document_id DESC) AS rn
    FROM guidance g JOIN documents d ON d.document_id = g.document_id
    WHERE d.status <> 'quarantined' AND g.is_numeric
      AND (g.low IS NOT NULL OR g.high IS NOT NULL)
),
latest AS (
    SELECT issuer, metric, period_start, period_end, low, high, unit, document_id,
           (COALESCE(low, high) + COALESCE(high, low)) / 2.0 AS midpoint
    FROM ranked WHERE rn = 1
)
SELECT l.issuer, l.metric, l.period_start, l.period_end,
       l.low AS guidance_low, l.high AS guidance_high, a.value AS actual, l.unit,
       CASE WHEN a.value IS NULL THEN 'pending'
            WHEN CAST(a.value AS REAL) > COALESCE(CAST(l.high AS REAL), CAST(l.low AS REAL)) THEN 'above'
            WHEN CAST(a.value AS REAL) < COALESCE(CAST(l.low AS REAL), CAST(l.high AS REAL)) THEN 'below'
            ELSE 'within' END AS outcome,
       CASE WHEN a.value IS NULL OR l.midpoint = 0 THEN NULL
            ELSE ROUND((a.value - l.midpoint) * 100 / l.midpoint, 4) END AS variance_pct,
       l.document_id AS guidance_document_id, a.source_document_id AS actual_document_id
FROM latest l
LEFT JOIN facts_latest a
  ON a.issuer = l.issuer AND a.metric = l.metric AND a.unit = l.unit
 AND a.period_start = l.period_start AND a.period_end = l.period_end
""",
        "postgresql": """
WITH ranked AS (
    SELECT d.issuer, g.metric, g.period_start, g.period_end, g.low, g.high, g.unit,
           g.document_id,
           ROW_NUMBER() OVER (PARTITION BY d.issuer, g.metric, g.period_start, g.period_end
                              ORDER BY g.issued_on DESC, d.published_at DESC,
                                       g.document_id DESC) AS rn
    FROM guidance g JOIN documents d ON d.document_id = g.document_id
    WHERE d.status <> 'quarantined' AND g.is_numeric
      AND (g.low IS NOT NULL OR g.high IS NOT NULL)
),
latest AS (
    SELECT issuer, metric, period_start, period_end, low, high, unit, document_id,
           (COALESCE(low, high) + COALESCE(high, low)) / 2.0 AS midpoint
    FROM ranked WHERE rn = 1
)
SELECT l.issuer, l.metric, l.period_start, l.period_end,
       l.low AS guidance_low, l.high AS guidance_high, a.value AS actual, l.unit,
       CASE WHEN a.value IS NULL THEN 'pending'
            WHEN a.value > COALESCE(l.high, l.low) THEN 'above'
            WHEN a.value < COALESCE(l.low, l.high) THEN 'below'
            ELSE 'within' END AS outcome,
       CASE WHEN a.value IS NULL OR l.midpoint = 0 THEN NULL
            ELSE ROUND((a.value - l.midpoint) * 100 / l.midpoint, 4) END AS variance_pct,
       l.document_id AS guidance_document_id, a.source_document_id AS actual_document_id
FROM latest l
LEFT JOIN facts_latest a
  ON a.issuer = l.issuer AND a.metric = l.metric AND a.unit = l.unit
 AND a.period_start = l.period_start AND a.period_end = l.period_end
""",
    },
}


# Revision 0003: adds guidance_history (every outlook statement and the range it revised).
VIEWS_0003: Views = {
    "facts_history": {
        "sqlite": """
SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value,
       f.document_id AS source_document_id, f.reported_on, f.basis, f.decimals, f.scale,
       f.origin, d.source, d.form, d.published_at, d.status AS document_status,
       f.file, f.locator, f.row_label, f.column_label, f.raw_text, f.flags, f.loaded_at
FROM facts f JOIN documents d ON d.document_id = f.document_id
""",
        "postgresql": """
SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value,
       f.document_id AS source_document_id, f.reported_on, f.basis, f.decimals, f.scale,
       f.origin, d.source, d.form, d.published_at, d.status AS document_status,
       f.file, f.locator, f.row_label, f.column_label, f.raw_text, f.flags, f.loaded_at
FROM facts f JOIN documents d ON d.document_id = f.document_id
""",
    },
    "facts_latest": {
        "sqlite": """
WITH RECURSIVE
steps(decimals, half_unit) AS (VALUES (-12, 500000000000), (-11, 50000000000), (-10, 5000000000), (-9, 500000000), (-8, 50000000), (-7, 5000000), (-6, 500000), (-5, 50000), (-4, 5000), (-3, 500), (-2, 50), (-1, 5), (0, 0.5), (1, 0.05), (2, 0.005), (3, 0.0005), (4, 0.00005), (5, 0.000005), (6, 0.0000005)),
candidates AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value, f.decimals,
           f.document_id,
           DENSE_RANK() OVER (ORDER BY d.issuer, f.metric, f.period_start, f.period_end) AS grp,
           ROW_NUMBER() OVER (PARTITION BY d.issuer, f.metric, f.period_start, f.period_end
                              ORDER BY f.reported_on, d.published_at, f.document_id) AS rn,
           COUNT(*) OVER (PARTITION BY d.issuer, f.metric, f.period_start, f.period_end) AS cnt
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.basis = 'us_gaap' AND d.status <> 'quarantined'
),
folded(grp, rn, cnt, issuer, metric, period_start, period_end, unit, value, decimals,
       document_id) AS (
    SELECT grp, rn, cnt, issuer, metric, period_start, period_end, unit,
           value, decimals, document_id
    FROM candidates WHERE rn = 1
    UNION ALL
    SELECT n.grp, n.rn, n.cnt, n.issuer, n.metric, n.period_start, n.period_end,
           CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.unit ELSE n.unit END, CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.value ELSE n.value END, CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.decimals ELSE n.decimals END,
           CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.document_id ELSE n.document_id END
    FROM folded c
    JOIN candidates n ON n.grp = c.grp AND n.rn = c.rn + 1
    LEFT JOIN steps s ON s.decimals = n.decimals
)
SELECT issuer, metric, period_start, period_end, unit, value,
       document_id AS source_document_id
FROM folded WHERE rn = cnt
""",
        "postgresql": """
WITH RECURSIVE
steps(decimals, half_unit) AS (VALUES (-12, 500000000000), (-11, 50000000000), (-10, 5000000000), (-9, 500000000), (-8, 50000000), (-7, 5000000), (-6, 500000), (-5, 50000), (-4, 5000), (-3, 500), (-2, 50), (-1, 5), (0, 0.5), (1, 0.05), (2, 0.005), (3, 0.0005), (4, 0.00005), (5, 0.000005), (6, 0.0000005)),
candidates AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value, f.decimals,
           f.document_id,
           DENSE_RANK() OVER (ORDER BY d.issuer, f.metric, f.period_start, f.period_end) AS grp,
           ROW_NUMBER() OVER (PARTITION BY d.issuer, f.metric, f.period_start, f.period_end
                              ORDER BY f.reported_on, d.published_at, f.document_id) AS rn,
           COUNT(*) OVER (PARTITION BY d.issuer, f.metric, f.period_start, f.period_end) AS cnt
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.basis = 'us_gaap' AND d.status <> 'quarantined'
),
folded(grp, rn, cnt, issuer, metric, period_start, period_end, unit, value, decimals,
       document_id) AS (
    SELECT grp, rn, cnt, issuer, metric, period_start, period_end, unit,
           CAST(value AS NUMERIC), decimals, document_id
    FROM candidates WHERE rn = 1
    UNION ALL
    SELECT n.grp, n.rn, n.cnt, n.issuer, n.metric, n.period_start, n.period_end,
           CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.unit ELSE n.unit END, CAST(CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.value ELSE n.value END AS NUMERIC), CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.decimals ELSE n.decimals END,
           CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.document_id ELSE n.document_id END
    FROM folded c
    JOIN candidates n ON n.grp = c.grp AND n.rn = c.rn + 1
    LEFT JOIN steps s ON s.decimals = n.decimals
)
SELECT issuer, metric, period_start, period_end, unit, value,
       document_id AS source_document_id
FROM folded WHERE rn = cnt
""",
    },
    "alerts": {
        "sqlite": """
SELECT a.alert_id, a.kind, a.issuer, a.subject, a.message, a.created_at,
       CASE WHEN COUNT(d.channel) > 0
             AND SUM(CASE WHEN d.status = 'delivered' THEN 0 ELSE 1 END) = 0
            THEN MAX(d.delivered_at) END AS delivered_at
FROM alert_events a LEFT JOIN alert_deliveries d ON d.alert_id = a.alert_id
GROUP BY a.alert_id, a.kind, a.issuer, a.subject, a.message, a.created_at
""",
        "postgresql": """
SELECT a.alert_id, a.kind, a.issuer, a.subject, a.message, a.created_at,
       CASE WHEN COUNT(d.channel) > 0
             AND SUM(CASE WHEN d.status = 'delivered' THEN 0 ELSE 1 END) = 0
            THEN MAX(d.delivered_at) END AS delivered_at
FROM alert_events a LEFT JOIN alert_deliveries d ON d.alert_id = a.alert_id
GROUP BY a.alert_id, a.kind, a.issuer, a.subject, a.message, a.created_at
""",
    },
    "guidance_vs_actual": {
        "sqlite": """
WITH ranked AS (
    SELECT d.issuer, g.metric, g.period_start, g.period_end, g.low, g.high, g.unit,
           g.document_id,
           ROW_NUMBER() OVER (PARTITION BY d.issuer, g.metric, g.period_start, g.period_end
                              ORDER BY g.issued_on DESC, d.published_at DESC,
                                       g.document_id DESC) AS rn
    FROM guidance g JOIN documents d ON d.document_id = g.document_id
    WHERE d.status <> 'quarantined' AND g.is_numeric
      AND (g.low IS NOT NULL OR g.high IS NOT NULL)
),
latest AS (
    SELECT issuer, metric, period_start, period_end, low, high, unit, document_id,
           (COALESCE(low, high) + COALESCE(high, low)) / 2.0 AS midpoint
    FROM ranked WHERE rn = 1
)
SELECT l.issuer, l.metric, l.period_start, l.period_end,
       l.low AS guidance_low, l.high AS guidance_high, a.value AS actual, l.unit,
       CASE WHEN a.value IS NULL THEN 'pending'
            WHEN CAST(a.value AS REAL) > COALESCE(CAST(l.high AS REAL), CAST(l.low AS REAL)) THEN 'above'
            WHEN CAST(a.value AS REAL) < COALESCE(CAST(l.low AS REAL), CAST(l.high AS REAL)) THEN 'below'
            ELSE 'within' END AS outcome,
       CASE WHEN a.value IS NULL OR l.midpoint = 0 THEN NULL
            ELSE ROUND((a.value - l.midpoint) * 100 / l.midpoint, 4) END AS variance_pct,
       l.document_id AS guidance_document_id, a.source_document_id AS actual_document_id
FROM latest l
LEFT JOIN facts_latest a
  ON a.issuer = l.issuer AND a.metric = l.metric AND a.unit = l.unit
 AND a.period_start = l.period_start AND a.period_end = l.period_end
""",
        "postgresql": """
WITH ranked AS (
    SELECT d.issuer, g.metric, g.period_start, g.period_end, g.low, g.high, g.unit,
           g.document_id,
           ROW_NUMBER() OVER (PARTITION BY d.issuer, g.metric, g.period_start, g.period_end
                              ORDER BY g.issued_on DESC, d.published_at DESC,
                                       g.document_id DESC) AS rn
    FROM guidance g JOIN documents d ON d.document_id = g.document_id
    WHERE d.status <> 'quarantined' AND g.is_numeric
      AND (g.low IS NOT NULL OR g.high IS NOT NULL)
),
latest AS (
    SELECT issuer, metric, period_start, period_end, low, high, unit, document_id,
           (COALESCE(low, high) + COALESCE(high, low)) / 2.0 AS midpoint
    FROM ranked WHERE rn = 1
)
SELECT l.issuer, l.metric, l.period_start, l.period_end,
       l.low AS guidance_low, l.high AS guidance_high, a.value AS actual, l.unit,
       CASE WHEN a.value IS NULL THEN 'pending'
            WHEN a.value > COALESCE(l.high, l.low) THEN 'above'
            WHEN a.value < COALESCE(l.low, l.high) THEN 'below'
            ELSE 'within' END AS outcome,
       CASE WHEN a.value IS NULL OR l.midpoint = 0 THEN NULL
            ELSE ROUND((a.value - l.midpoint) * 100 / l.midpoint, 4) END AS variance_pct,
       l.document_id AS guidance_document_id, a.source_document_id AS actual_document_id
FROM latest l
LEFT JOIN facts_latest a
  ON a.issuer = l.issuer AND a.metric = l.metric AND a.unit = l.unit
 AND a.period_start = l.period_start AND a.period_end = l.period_end
""",
    },
    "guidance_history": {
        "sqlite": """
SELECT d.issuer, g.metric, g.period_start, g.period_end, g.low, g.high, g.unit,
       g.growth_low_pct, g.growth_high_pct, g.is_numeric, g.issued_on, g.document_id,
       ROW_NUMBER() OVER w AS revision,
       LAG(g.low) OVER w AS prev_low, LAG(g.high) OVER w AS prev_high,
       LAG(g.document_id) OVER w AS prev_document_id,
       g.file, g.locator, g.raw_text
FROM guidance g JOIN documents d ON d.document_id = g.document_id
WHERE d.status <> 'quarantined'
WINDOW w AS (PARTITION BY d.issuer, g.metric, g.period_start, g.period_end
             ORDER BY g.issued_on, d.published_at, g.document_id)
""",
        "postgresql": """
SELECT d.issuer, g.metric, g.period_start, g.period_end, g.low, g.high, g.unit,
       g.growth_low_pct, g.growth_high_pct, g.is_numeric, g.issued_on, g.document_id,
       ROW_NUMBER() OVER w AS revision,
       LAG(g.low) OVER w AS prev_low, LAG(g.high) OVER w AS prev_high,
       LAG(g.document_id) OVER w AS prev_document_id,
       g.file, g.locator, g.raw_text
FROM guidance g JOIN documents d ON d.document_id = g.document_id
WHERE d.status <> 'quarantined'
WINDOW w AS (PARTITION BY d.issuer, g.metric, g.period_start, g.period_end
             ORDER BY g.issued_on, d.published_at, g.document_id)
""",
    },
}


# Revision 0005: on SQLite, facts_latest rounds the gap between two figures to the stored scale
# before comparing it with half a unit (floating point put 8.15 - 8.1 above 0.05). PostgreSQL's
# SQL and every other view are 0003's.
VIEWS_0005: Views = {
    **VIEWS_0003,
    "facts_latest": {
        "sqlite": """
WITH RECURSIVE
steps(decimals, half_unit) AS (VALUES (-12, 500000000000), (-11, 50000000000), (-10, 5000000000), (-9, 500000000), (-8, 50000000), (-7, 5000000), (-6, 500000), (-5, 50000), (-4, 5000), (-3, 500), (-2, 50), (-1, 5), (0, 0.5), (1, 0.05), (2, 0.005), (3, 0.0005), (4, 0.00005), (5, 0.000005), (6, 0.0000005)),
candidates AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value, f.decimals,
           f.document_id,
           DENSE_RANK() OVER (ORDER BY d.issuer, f.metric, f.period_start, f.period_end) AS grp,
           ROW_NUMBER() OVER (PARTITION BY d.issuer, f.metric, f.period_start, f.period_end
                              ORDER BY f.reported_on, d.published_at, f.document_id) AS rn,
           COUNT(*) OVER (PARTITION BY d.issuer, f.metric, f.period_start, f.period_end) AS cnt
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.basis = 'us_gaap' AND d.status <> 'quarantined'
),
folded(grp, rn, cnt, issuer, metric, period_start, period_end, unit, value, decimals,
       document_id) AS (
    SELECT grp, rn, cnt, issuer, metric, period_start, period_end, unit,
           value, decimals, document_id
    FROM candidates WHERE rn = 1
    UNION ALL
    SELECT n.grp, n.rn, n.cnt, n.issuer, n.metric, n.period_start, n.period_end,
           CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ROUND(ABS(n.value - c.value), 6) <= s.half_unit) THEN c.unit ELSE n.unit END, CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ROUND(ABS(n.value - c.value), 6) <= s.half_unit) THEN c.value ELSE n.value END, CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ROUND(ABS(n.value - c.value), 6) <= s.half_unit) THEN c.decimals ELSE n.decimals END,
           CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ROUND(ABS(n.value - c.value), 6) <= s.half_unit) THEN c.document_id ELSE n.document_id END
    FROM folded c
    JOIN candidates n ON n.grp = c.grp AND n.rn = c.rn + 1
    LEFT JOIN steps s ON s.decimals = n.decimals
)
SELECT issuer, metric, period_start, period_end, unit, value,
       document_id AS source_document_id
FROM folded WHERE rn = cnt
""",
        "postgresql": VIEWS_0003["facts_latest"]["postgresql"],
    },
}


# Revision 0006: the consumer views (contract additions): metric_labels, facts_fiscal,
# restatements, line_items. The others stay as 0005 made them.
VIEWS_0006: Views = {
    **VIEWS_0005,
    "metric_labels": {
        "sqlite": """
WITH m(metric, label, kind, unit, statement) AS (VALUES
    ('total_net_revenue', 'Total net revenue', 'flow', 'CNY', 'income'),
    ('credit_driven_services_revenue', 'Credit driven services', 'flow', 'CNY', 'income'),
    ('loan_facilitation_fees_capital_heavy', 'Loan facilitation and servicing fees-capital heavy', 'flow', 'CNY', 'income'),
    ('financing_income', 'Financing income', 'flow', 'CNY', 'income'),
    ('guarantee_release_revenue', 'Revenue from releasing of guarantee liabilities', 'flow', 'CNY', 'income'),
    ('other_services_fees_credit_driven', 'Other services fees (the line under Credit driven services)', 'flow', 'CNY', 'income'),
    ('platform_services_revenue', 'Platform services', 'flow', 'CNY', 'income'),
    ('loan_facilitation_fees_capital_light', 'Loan facilitation and servicing fees-capital light', 'flow', 'CNY', 'income'),
    ('referral_services_fees', 'Referral services fees', 'flow', 'CNY', 'income'),
    ('other_services_fees_platform', 'Other services fees (the line under Platform services)', 'flow', 'CNY', 'income'),
    ('facilitation_origination_servicing_expense', 'Facilitation, origination and servicing', 'flow', 'CNY', 'income'),
    ('funding_costs', 'Funding costs', 'flow', 'CNY', 'income'),
    ('sales_and_marketing_expense', 'Sales and marketing', 'flow', 'CNY', 'income'),
    ('general_and_administrative_expense', 'General and administrative', 'flow', 'CNY', 'income'),
    ('provision_loans_receivable', 'Provision for loans receivable', 'flow', 'CNY', 'income'),
    ('provision_financial_assets_receivable', 'Provision for financial assets receivable', 'flow', 'CNY', 'income'),
    ('provision_accounts_receivable_contract_assets', 'Provision for accounts receivable and contract assets', 'flow', 'CNY', 'income'),
    ('provision_contingent_liabilities', 'Provision for contingent liabilities', 'flow', 'CNY', 'income'),
    ('total_operating_costs_and_expenses', 'Total operating costs and expenses', 'flow', 'CNY', 'income'),
    ('income_from_operations', 'Income from operations', 'flow', 'CNY', 'income'),
    ('interest_income_net', 'Interest income, net', 'flow', 'CNY', 'income'),
    ('other_income_net', 'Other income, net', 'flow', 'CNY', 'income'),
    ('income_before_income_tax', 'Income before income tax expense', 'flow', 'CNY', 'income'),
    ('income_tax_expense', 'Income taxes expense (an expense is positive, whatever the table''s parentheses)', 'flow', 'CNY', 'income'),
    ('net_income', 'Net income', 'flow', 'CNY', 'income'),
    ('net_income_attributable_to_company', 'Net income attributable to ordinary shareholders of the Company', 'flow', 'CNY', 'income'),
    ('eps_basic_per_share', 'Net income per ordinary share - Basic', 'flow', 'CNY/share', 'income'),
    ('eps_diluted_per_share', 'Net income per ordinary share - Diluted', 'flow', 'CNY/share', 'income'),
    ('eps_basic_per_ads', 'Net income per ADS - Basic', 'flow', 'CNY/ADS', 'income'),
    ('eps_diluted_per_ads', 'Net income per ADS - Diluted', 'flow', 'CNY/ADS', 'income'),
    ('weighted_avg_shares_basic', 'Weighted average shares used in calculating net income per ordinary share - Basic', 'flow', 'shares', 'income'),
    ('weighted_avg_shares_diluted', 'Weighted average shares used in calculating net income per ordinary share - Diluted', 'flow', 'shares', 'income'),
    ('share_based_compensation', 'Add: Share-based compensation expenses', 'flow', 'CNY', 'non_gaap'),
    ('non_gaap_income_from_operations', 'Non-GAAP Income from operations', 'flow', 'CNY', 'non_gaap'),
    ('non_gaap_net_income', 'Non-GAAP net income', 'flow', 'CNY', 'non_gaap'),
    ('non_gaap_net_income_attributable_to_company', 'Non-GAAP net income attributable to shareholders', 'flow', 'CNY', 'non_gaap'),
    ('non_gaap_eps_diluted_per_ads', 'Non-GAAP net income per ADS -diluted', 'flow', 'CNY/ADS', 'non_gaap'),
    ('operating_margin', 'Operating margin', 'flow', 'percent', 'non_gaap'),
    ('non_gaap_operating_margin', 'Non-GAAP operating margin', 'flow', 'percent', 'non_gaap'),
    ('net_income_margin', 'Net income margin', 'flow', 'percent', 'non_gaap'),
    ('non_gaap_net_income_margin', 'Non-GAAP net income margin', 'flow', 'percent', 'non_gaap'),
    ('cash_and_cash_equivalents', 'Cash and cash equivalents', 'instant', 'CNY', 'balance'),
    ('restricted_cash', 'Restricted cash', 'instant', 'CNY', 'balance'),
    ('loans_receivable_net_current', 'Loans receivable, net (current)', 'instant', 'CNY', 'balance'),
    ('total_current_assets', 'Total current assets', 'instant', 'CNY', 'balance'),
    ('total_non_current_assets', 'Total non-current assets', 'instant', 'CNY', 'balance'),
    ('total_assets', 'TOTAL ASSETS', 'instant', 'CNY', 'balance'),
    ('total_current_liabilities', 'Total current liabilities', 'instant', 'CNY', 'balance'),
    ('total_non_current_liabilities', 'Total non-current liabilities', 'instant', 'CNY', 'balance'),
    ('total_liabilities', 'TOTAL LIABILITIES', 'instant', 'CNY', 'balance'),
    ('total_company_equity', 'TOTAL QIFU TECHNOLOGY INC EQUITY (the issuer''s own equity line)', 'instant', 'CNY', 'balance'),
    ('noncontrolling_interests', 'Noncontrolling interests', 'instant', 'CNY', 'balance'),
    ('total_equity', 'TOTAL EQUITY', 'instant', 'CNY', 'balance'),
    ('total_liabilities_and_equity', 'TOTAL LIABILITIES AND EQUITY', 'instant', 'CNY', 'balance'),
    ('net_cash_operating', 'Net cash provided by operating activities', 'flow', 'CNY', 'cash_flow'),
    ('net_cash_investing', 'Net cash used in', 'flow', 'CNY', 'cash_flow'),
    ('net_cash_financing', 'Net cash provided by', 'flow', 'CNY', 'cash_flow'),
    ('cash_and_restricted_cash_end', 'Cash, cash equivalents, and restricted cash, end of period', 'instant', 'CNY', 'cash_flow'),
    ('loan_volume_total', 'Total facilitation and origination loan volume', 'flow', 'CNY', 'operating'),
    ('loan_volume_capital_light', 'Loan volume under capital-light model, ICE and technology solutions', 'flow', 'CNY', 'operating'),
    ('outstanding_loan_balance', 'Total outstanding loan balance', 'instant', 'CNY', 'operating'),
    ('outstanding_loan_balance_capital_light', 'Outstanding loan balance under capital-light model, ICE and technology solutions', 'instant', 'CNY', 'operating'),
    ('loans_originated_count', 'Loans originated by financial institutional partners through the platform', 'flow', 'count', 'operating'),
    ('financial_institution_partners', 'Financial institutional partners connected (cumulative)', 'instant', 'count', 'operating'),
    ('cumulative_registered_users', 'Consumers with potential credit needs connected (cumulative registered users)', 'instant', 'count', 'operating'),
    ('cumulative_credit_line_users', 'Cumulative users with approved credit lines', 'instant', 'count', 'operating'),
    ('cumulative_borrowers', 'Cumulative borrowers with successful drawdown', 'instant', 'count', 'operating'),
    ('weighted_avg_tenor_months', 'Weighted average contractual tenor of loans originated', 'flow', 'months', 'operating'),
    ('delinquency_rate_90d', '90 day+ delinquency rate', 'instant', 'percent', 'operating'),
    ('repeat_borrower_contribution', 'Repeat borrower contribution', 'flow', 'percent', 'operating'),
    ('day1_delinquency_rate', 'Day-1 delinquency rate', 'flow', 'percent', 'operating'),
    ('collection_rate_30d', '30-day collection rate', 'flow', 'percent', 'operating'))
SELECT metric, label, kind, unit, statement FROM m
""",
        "postgresql": """
WITH m(metric, label, kind, unit, statement) AS (VALUES
    ('total_net_revenue', 'Total net revenue', 'flow', 'CNY', 'income'),
    ('credit_driven_services_revenue', 'Credit driven services', 'flow', 'CNY', 'income'),
    ('loan_facilitation_fees_capital_heavy', 'Loan facilitation and servicing fees-capital heavy', 'flow', 'CNY', 'income'),
    ('financing_income', 'Financing income', 'flow', 'CNY', 'income'),
    ('guarantee_release_revenue', 'Revenue from releasing of guarantee liabilities', 'flow', 'CNY', 'income'),
    ('other_services_fees_credit_driven', 'Other services fees (the line under Credit driven services)', 'flow', 'CNY', 'income'),
    ('platform_services_revenue', 'Platform services', 'flow', 'CNY', 'income'),
    ('loan_facilitation_fees_capital_light', 'Loan facilitation and servicing fees-capital light', 'flow', 'CNY', 'income'),
    ('referral_services_fees', 'Referral services fees', 'flow', 'CNY', 'income'),
    ('other_services_fees_platform', 'Other services fees (the line under Platform services)', 'flow', 'CNY', 'income'),
    ('facilitation_origination_servicing_expense', 'Facilitation, origination and servicing', 'flow', 'CNY', 'income'),
    ('funding_costs', 'Funding costs', 'flow', 'CNY', 'income'),
    ('sales_and_marketing_expense', 'Sales and marketing', 'flow', 'CNY', 'income'),
    ('general_and_administrative_expense', 'General and administrative', 'flow', 'CNY', 'income'),
    ('provision_loans_receivable', 'Provision for loans receivable', 'flow', 'CNY', 'income'),
    ('provision_financial_assets_receivable', 'Provision for financial assets receivable', 'flow', 'CNY', 'income'),
    ('provision_accounts_receivable_contract_assets', 'Provision for accounts receivable and contract assets', 'flow', 'CNY', 'income'),
    ('provision_contingent_liabilities', 'Provision for contingent liabilities', 'flow', 'CNY', 'income'),
    ('total_operating_costs_and_expenses', 'Total operating costs and expenses', 'flow', 'CNY', 'income'),
    ('income_from_operations', 'Income from operations', 'flow', 'CNY', 'income'),
    ('interest_income_net', 'Interest income, net', 'flow', 'CNY', 'income'),
    ('other_income_net', 'Other income, net', 'flow', 'CNY', 'income'),
    ('income_before_income_tax', 'Income before income tax expense', 'flow', 'CNY', 'income'),
    ('income_tax_expense', 'Income taxes expense (an expense is positive, whatever the table''s parentheses)', 'flow', 'CNY', 'income'),
    ('net_income', 'Net income', 'flow', 'CNY', 'income'),
    ('net_income_attributable_to_company', 'Net income attributable to ordinary shareholders of the Company', 'flow', 'CNY', 'income'),
    ('eps_basic_per_share', 'Net income per ordinary share - Basic', 'flow', 'CNY/share', 'income'),
    ('eps_diluted_per_share', 'Net income per ordinary share - Diluted', 'flow', 'CNY/share', 'income'),
    ('eps_basic_per_ads', 'Net income per ADS - Basic', 'flow', 'CNY/ADS', 'income'),
    ('eps_diluted_per_ads', 'Net income per ADS - Diluted', 'flow', 'CNY/ADS', 'income'),
    ('weighted_avg_shares_basic', 'Weighted average shares used in calculating net income per ordinary share - Basic', 'flow', 'shares', 'income'),
    ('weighted_avg_shares_diluted', 'Weighted average shares used in calculating net income per ordinary share - Diluted', 'flow', 'shares', 'income'),
    ('share_based_compensation', 'Add: Share-based compensation expenses', 'flow', 'CNY', 'non_gaap'),
    ('non_gaap_income_from_operations', 'Non-GAAP Income from operations', 'flow', 'CNY', 'non_gaap'),
    ('non_gaap_net_income', 'Non-GAAP net income', 'flow', 'CNY', 'non_gaap'),
    ('non_gaap_net_income_attributable_to_company', 'Non-GAAP net income attributable to shareholders', 'flow', 'CNY', 'non_gaap'),
    ('non_gaap_eps_diluted_per_ads', 'Non-GAAP net income per ADS -diluted', 'flow', 'CNY/ADS', 'non_gaap'),
    ('operating_margin', 'Operating margin', 'flow', 'percent', 'non_gaap'),
    ('non_gaap_operating_margin', 'Non-GAAP operating margin', 'flow', 'percent', 'non_gaap'),
    ('net_income_margin', 'Net income margin', 'flow', 'percent', 'non_gaap'),
    ('non_gaap_net_income_margin', 'Non-GAAP net income margin', 'flow', 'percent', 'non_gaap'),
    ('cash_and_cash_equivalents', 'Cash and cash equivalents', 'instant', 'CNY', 'balance'),
    ('restricted_cash', 'Restricted cash', 'instant', 'CNY', 'balance'),
    ('loans_receivable_net_current', 'Loans receivable, net (current)', 'instant', 'CNY', 'balance'),
    ('total_current_assets', 'Total current assets', 'instant', 'CNY', 'balance'),
    ('total_non_current_assets', 'Total non-current assets', 'instant', 'CNY', 'balance'),
    ('total_assets', 'TOTAL ASSETS', 'instant', 'CNY', 'balance'),
    ('total_current_liabilities', 'Total current liabilities', 'instant', 'CNY', 'balance'),
    ('total_non_current_liabilities', 'Total non-current liabilities', 'instant', 'CNY', 'balance'),
    ('total_liabilities', 'TOTAL LIABILITIES', 'instant', 'CNY', 'balance'),
    ('total_company_equity', 'TOTAL QIFU TECHNOLOGY INC EQUITY (the issuer''s own equity line)', 'instant', 'CNY', 'balance'),
    ('noncontrolling_interests', 'Noncontrolling interests', 'instant', 'CNY', 'balance'),
    ('total_equity', 'TOTAL EQUITY', 'instant', 'CNY', 'balance'),
    ('total_liabilities_and_equity', 'TOTAL LIABILITIES AND EQUITY', 'instant', 'CNY', 'balance'),
    ('net_cash_operating', 'Net cash provided by operating activities', 'flow', 'CNY', 'cash_flow'),
    ('net_cash_investing', 'Net cash used in', 'flow', 'CNY', 'cash_flow'),
    ('net_cash_financing', 'Net cash provided by', 'flow', 'CNY', 'cash_flow'),
    ('cash_and_restricted_cash_end', 'Cash, cash equivalents, and restricted cash, end of period', 'instant', 'CNY', 'cash_flow'),
    ('loan_volume_total', 'Total facilitation and origination loan volume', 'flow', 'CNY', 'operating'),
    ('loan_volume_capital_light', 'Loan volume under capital-light model, ICE and technology solutions', 'flow', 'CNY', 'operating'),
    ('outstanding_loan_balance', 'Total outstanding loan balance', 'instant', 'CNY', 'operating'),
    ('outstanding_loan_balance_capital_light', 'Outstanding loan balance under capital-light model, ICE and technology solutions', 'instant', 'CNY', 'operating'),
    ('loans_originated_count', 'Loans originated by financial institutional partners through the platform', 'flow', 'count', 'operating'),
    ('financial_institution_partners', 'Financial institutional partners connected (cumulative)', 'instant', 'count', 'operating'),
    ('cumulative_registered_users', 'Consumers with potential credit needs connected (cumulative registered users)', 'instant', 'count', 'operating'),
    ('cumulative_credit_line_users', 'Cumulative users with approved credit lines', 'instant', 'count', 'operating'),
    ('cumulative_borrowers', 'Cumulative borrowers with successful drawdown', 'instant', 'count', 'operating'),
    ('weighted_avg_tenor_months', 'Weighted average contractual tenor of loans originated', 'flow', 'months', 'operating'),
    ('delinquency_rate_90d', '90 day+ delinquency rate', 'instant', 'percent', 'operating'),
    ('repeat_borrower_contribution', 'Repeat borrower contribution', 'flow', 'percent', 'operating'),
    ('day1_delinquency_rate', 'Day-1 delinquency rate', 'flow', 'percent', 'operating'),
    ('collection_rate_30d', '30-day collection rate', 'flow', 'percent', 'operating'))
SELECT metric, label, kind, unit, statement FROM m
""",
    },
    "facts_fiscal": {
        "sqlite": """
SELECT f.issuer, f.metric, m.label, f.period_start, f.period_end, CAST(strftime('%Y', f.period_end) AS INTEGER) AS fiscal_year,
       CASE WHEN f.period_start IS NULL THEN 'instant' WHEN (CAST(julianday(f.period_end) - julianday(f.period_start) AS INTEGER) BETWEEN 80 AND 100) THEN 'quarter'
            WHEN CAST(julianday(f.period_end) - julianday(f.period_start) AS INTEGER) BETWEEN 170 AND 190 THEN 'half'
            WHEN CAST(julianday(f.period_end) - julianday(f.period_start) AS INTEGER) BETWEEN 355 AND 370 THEN 'year' ELSE 'other' END AS period_type,
       CASE WHEN f.period_start IS NULL OR (CAST(julianday(f.period_end) - julianday(f.period_start) AS INTEGER) BETWEEN 80 AND 100) THEN (CAST(strftime('%m', f.period_end) AS INTEGER) + 2) / 3 END
           AS fiscal_quarter,
       f.unit, f.value, f.source_document_id
FROM facts_latest f LEFT JOIN metric_labels m ON m.metric = f.metric
""",
        "postgresql": """
SELECT f.issuer, f.metric, m.label, f.period_start, f.period_end, CAST(EXTRACT(YEAR FROM f.period_end) AS INTEGER) AS fiscal_year,
       CASE WHEN f.period_start IS NULL THEN 'instant' WHEN ((f.period_end - f.period_start) BETWEEN 80 AND 100) THEN 'quarter'
            WHEN (f.period_end - f.period_start) BETWEEN 170 AND 190 THEN 'half'
            WHEN (f.period_end - f.period_start) BETWEEN 355 AND 370 THEN 'year' ELSE 'other' END AS period_type,
       CASE WHEN f.period_start IS NULL OR ((f.period_end - f.period_start) BETWEEN 80 AND 100) THEN (CAST(EXTRACT(MONTH FROM f.period_end) AS INTEGER) + 2) / 3 END
           AS fiscal_quarter,
       f.unit, f.value, f.source_document_id
FROM facts_latest f LEFT JOIN metric_labels m ON m.metric = f.metric
""",
    },
    "restatements": {
        "sqlite": """
WITH steps(decimals, half_unit) AS (VALUES (-12, 500000000000), (-11, 50000000000), (-10, 5000000000), (-9, 500000000), (-8, 50000000), (-7, 5000000), (-6, 500000), (-5, 50000), (-4, 5000), (-3, 500), (-2, 50), (-1, 5), (0, 0.5), (1, 0.05), (2, 0.005), (3, 0.0005), (4, 0.00005), (5, 0.000005), (6, 0.0000005)),
reports AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value, f.decimals,
           f.document_id, f.reported_on,
           LAG(f.value) OVER w AS prev_value, LAG(f.unit) OVER w AS prev_unit,
           LAG(f.decimals) OVER w AS prev_decimals, LAG(f.document_id) OVER w AS prev_document_id,
           LAG(f.reported_on) OVER w AS prev_reported_on
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.basis = 'us_gaap' AND d.status <> 'quarantined'
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
  AND ROUND(ABS(r.value - r.prev_value), 6) > COALESCE(s.half_unit, 0)
""",
        "postgresql": """
WITH steps(decimals, half_unit) AS (VALUES (-12, 500000000000), (-11, 50000000000), (-10, 5000000000), (-9, 500000000), (-8, 50000000), (-7, 5000000), (-6, 500000), (-5, 50000), (-4, 5000), (-3, 500), (-2, 50), (-1, 5), (0, 0.5), (1, 0.05), (2, 0.005), (3, 0.0005), (4, 0.00005), (5, 0.000005), (6, 0.0000005)),
reports AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value, f.decimals,
           f.document_id, f.reported_on,
           LAG(f.value) OVER w AS prev_value, LAG(f.unit) OVER w AS prev_unit,
           LAG(f.decimals) OVER w AS prev_decimals, LAG(f.document_id) OVER w AS prev_document_id,
           LAG(f.reported_on) OVER w AS prev_reported_on
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.basis = 'us_gaap' AND d.status <> 'quarantined'
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
  AND ABS(r.value - r.prev_value) > COALESCE(s.half_unit, 0)
""",
    },
    "line_items": {
        "sqlite": """
SELECT d.issuer, f.document_id,
       CASE WHEN f.basis = 'ifrs' THEN 'ifrs_reconciliation'
            ELSE CASE m.statement WHEN 'income' THEN 'income_statement' WHEN 'balance' THEN 'balance_sheet' WHEN 'cash_flow' THEN 'cash_flow' WHEN 'non_gaap' THEN 'non_gaap_reconciliation' ELSE 'other' END END AS statement,
       CAST(NULL AS TEXT) AS section, f.row_label AS label, f.period_start, f.period_end,
       f.unit, f.value, f.metric, f.reported_on
FROM facts f JOIN documents d ON d.document_id = f.document_id
LEFT JOIN metric_labels m ON m.metric = f.metric
WHERE f.origin = 'table'
""",
        "postgresql": """
SELECT d.issuer, f.document_id,
       CASE WHEN f.basis = 'ifrs' THEN 'ifrs_reconciliation'
            ELSE CASE m.statement WHEN 'income' THEN 'income_statement' WHEN 'balance' THEN 'balance_sheet' WHEN 'cash_flow' THEN 'cash_flow' WHEN 'non_gaap' THEN 'non_gaap_reconciliation' ELSE 'other' END END AS statement,
       CAST(NULL AS TEXT) AS section, f.row_label AS label, f.period_start, f.period_end,
       f.unit, f.value, f.metric, f.reported_on
FROM facts f JOIN documents d ON d.document_id = f.document_id
LEFT JOIN metric_labels m ON m.metric = f.metric
WHERE f.origin = 'table'
""",
    },
}


# Revision 0007: line_items reads statement_rows (every statement cell as printed, mapped or not);
# metric_labels gains the shared mapping's metrics (cost_of_revenue, gross_profit,
# total_operating_expenses).
_LINE_ITEMS_0007 = """
SELECT d.issuer, r.document_id, r.statement, NULLIF(r.section, '') AS section, r.label,
       r.period_start, r.period_end, r.unit, r.value, r.metric, r.reported_on
FROM statement_rows r JOIN documents d ON d.document_id = r.document_id
"""
_METRIC_LABELS_0007 = """
WITH m(metric, label, kind, unit, statement) AS (VALUES
    ('total_net_revenue', 'Total net revenue', 'flow', 'CNY', 'income'),
    ('credit_driven_services_revenue', 'Credit driven services', 'flow', 'CNY', 'income'),
    ('loan_facilitation_fees_capital_heavy', 'Loan facilitation and servicing fees-capital heavy', 'flow', 'CNY', 'income'),
    ('financing_income', 'Financing income', 'flow', 'CNY', 'income'),
    ('guarantee_release_revenue', 'Revenue from releasing of guarantee liabilities', 'flow', 'CNY', 'income'),
    ('other_services_fees_credit_driven', 'Other services fees (the line under Credit driven services)', 'flow', 'CNY', 'income'),
    ('platform_services_revenue', 'Platform services', 'flow', 'CNY', 'income'),
    ('loan_facilitation_fees_capital_light', 'Loan facilitation and servicing fees-capital light', 'flow', 'CNY', 'income'),
    ('referral_services_fees', 'Referral services fees', 'flow', 'CNY', 'income'),
    ('other_services_fees_platform', 'Other services fees (the line under Platform services)', 'flow', 'CNY', 'income'),
    ('facilitation_origination_servicing_expense', 'Facilitation, origination and servicing', 'flow', 'CNY', 'income'),
    ('funding_costs', 'Funding costs', 'flow', 'CNY', 'income'),
    ('sales_and_marketing_expense', 'Sales and marketing', 'flow', 'CNY', 'income'),
    ('general_and_administrative_expense', 'General and administrative', 'flow', 'CNY', 'income'),
    ('provision_loans_receivable', 'Provision for loans receivable', 'flow', 'CNY', 'income'),
    ('provision_financial_assets_receivable', 'Provision for financial assets receivable', 'flow', 'CNY', 'income'),
    ('provision_accounts_receivable_contract_assets', 'Provision for accounts receivable and contract assets', 'flow', 'CNY', 'income'),
    ('provision_contingent_liabilities', 'Provision for contingent liabilities', 'flow', 'CNY', 'income'),
    ('total_operating_costs_and_expenses', 'Total operating costs and expenses', 'flow', 'CNY', 'income'),
    ('cost_of_revenue', 'Cost of revenue', 'flow', 'CNY', 'income'),
    ('gross_profit', 'Gross profit', 'flow', 'CNY', 'income'),
    ('total_operating_expenses', 'Total operating expenses', 'flow', 'CNY', 'income'),
    ('income_from_operations', 'Income from operations', 'flow', 'CNY', 'income'),
    ('interest_income_net', 'Interest income, net', 'flow', 'CNY', 'income'),
    ('other_income_net', 'Other income, net', 'flow', 'CNY', 'income'),
    ('income_before_income_tax', 'Income before income tax expense', 'flow', 'CNY', 'income'),
    ('income_tax_expense', 'Income taxes expense (an expense is positive, whatever the table''s parentheses)', 'flow', 'CNY', 'income'),
    ('net_income', 'Net income', 'flow', 'CNY', 'income'),
    ('net_income_attributable_to_company', 'Net income attributable to ordinary shareholders of the Company', 'flow', 'CNY', 'income'),
    ('eps_basic_per_share', 'Net income per ordinary share - Basic', 'flow', 'CNY/share', 'income'),
    ('eps_diluted_per_share', 'Net income per ordinary share - Diluted', 'flow', 'CNY/share', 'income'),
    ('eps_basic_per_ads', 'Net income per ADS - Basic', 'flow', 'CNY/ADS', 'income'),
    ('eps_diluted_per_ads', 'Net income per ADS - Diluted', 'flow', 'CNY/ADS', 'income'),
    ('weighted_avg_shares_basic', 'Weighted average shares used in calculating net income per ordinary share - Basic', 'flow', 'shares', 'income'),
    ('weighted_avg_shares_diluted', 'Weighted average shares used in calculating net income per ordinary share - Diluted', 'flow', 'shares', 'income'),
    ('share_based_compensation', 'Add: Share-based compensation expenses', 'flow', 'CNY', 'non_gaap'),
    ('non_gaap_income_from_operations', 'Non-GAAP Income from operations', 'flow', 'CNY', 'non_gaap'),
    ('non_gaap_net_income', 'Non-GAAP net income', 'flow', 'CNY', 'non_gaap'),
    ('non_gaap_net_income_attributable_to_company', 'Non-GAAP net income attributable to shareholders', 'flow', 'CNY', 'non_gaap'),
    ('non_gaap_eps_diluted_per_ads', 'Non-GAAP net income per ADS -diluted', 'flow', 'CNY/ADS', 'non_gaap'),
    ('operating_margin', 'Operating margin', 'flow', 'percent', 'non_gaap'),
    ('non_gaap_operating_margin', 'Non-GAAP operating margin', 'flow', 'percent', 'non_gaap'),
    ('net_income_margin', 'Net income margin', 'flow', 'percent', 'non_gaap'),
    ('non_gaap_net_income_margin', 'Non-GAAP net income margin', 'flow', 'percent', 'non_gaap'),
    ('cash_and_cash_equivalents', 'Cash and cash equivalents', 'instant', 'CNY', 'balance'),
    ('restricted_cash', 'Restricted cash', 'instant', 'CNY', 'balance'),
    ('loans_receivable_net_current', 'Loans receivable, net (current)', 'instant', 'CNY', 'balance'),
    ('total_current_assets', 'Total current assets', 'instant', 'CNY', 'balance'),
    ('total_non_current_assets', 'Total non-current assets', 'instant', 'CNY', 'balance'),
    ('total_assets', 'TOTAL ASSETS', 'instant', 'CNY', 'balance'),
    ('total_current_liabilities', 'Total current liabilities', 'instant', 'CNY', 'balance'),
    ('total_non_current_liabilities', 'Total non-current liabilities', 'instant', 'CNY', 'balance'),
    ('total_liabilities', 'TOTAL LIABILITIES', 'instant', 'CNY', 'balance'),
    ('total_company_equity', 'TOTAL QIFU TECHNOLOGY INC EQUITY (the issuer''s own equity line)', 'instant', 'CNY', 'balance'),
    ('noncontrolling_interests', 'Noncontrolling interests', 'instant', 'CNY', 'balance'),
    ('total_equity', 'TOTAL EQUITY', 'instant', 'CNY', 'balance'),
    ('total_liabilities_and_equity', 'TOTAL LIABILITIES AND EQUITY', 'instant', 'CNY', 'balance'),
    ('net_cash_operating', 'Net cash provided by operating activities', 'flow', 'CNY', 'cash_flow'),
    ('net_cash_investing', 'Net cash used in', 'flow', 'CNY', 'cash_flow'),
    ('net_cash_financing', 'Net cash provided by', 'flow', 'CNY', 'cash_flow'),
    ('cash_and_restricted_cash_end', 'Cash, cash equivalents, and restricted cash, end of period', 'instant', 'CNY', 'cash_flow'),
    ('loan_volume_total', 'Total facilitation and origination loan volume', 'flow', 'CNY', 'operating'),
    ('loan_volume_capital_light', 'Loan volume under capital-light model, ICE and technology solutions', 'flow', 'CNY', 'operating'),
    ('outstanding_loan_balance', 'Total outstanding loan balance', 'instant', 'CNY', 'operating'),
    ('outstanding_loan_balance_capital_light', 'Outstanding loan balance under capital-light model, ICE and technology solutions', 'instant', 'CNY', 'operating'),
    ('loans_originated_count', 'Loans originated by financial institutional partners through the platform', 'flow', 'count', 'operating'),
    ('financial_institution_partners', 'Financial institutional partners connected (cumulative)', 'instant', 'count', 'operating'),
    ('cumulative_registered_users', 'Consumers with potential credit needs connected (cumulative registered users)', 'instant', 'count', 'operating'),
    ('cumulative_credit_line_users', 'Cumulative users with approved credit lines', 'instant', 'count', 'operating'),
    ('cumulative_borrowers', 'Cumulative borrowers with successful drawdown', 'instant', 'count', 'operating'),
    ('weighted_avg_tenor_months', 'Weighted average contractual tenor of loans originated', 'flow', 'months', 'operating'),
    ('delinquency_rate_90d', '90 day+ delinquency rate', 'instant', 'percent', 'operating'),
    ('repeat_borrower_contribution', 'Repeat borrower contribution', 'flow', 'percent', 'operating'),
    ('day1_delinquency_rate', 'Day-1 delinquency rate', 'flow', 'percent', 'operating'),
    ('collection_rate_30d', '30-day collection rate', 'flow', 'percent', 'operating'))
SELECT metric, label, kind, unit, statement FROM m
"""
VIEWS_0007: Views = {
    **VIEWS_0006,
    "metric_labels": {"sqlite": _METRIC_LABELS_0007, "postgresql": _METRIC_LABELS_0007},
    "line_items": {"sqlite": _LINE_ITEMS_0007, "postgresql": _LINE_ITEMS_0007},
}


def create_views(conn: Connection, views: Views) -> None:
    """Create ``views`` in order (each may read the ones before it)."""
    for name, by_dialect in views.items():
        conn.exec_driver_sql(f"CREATE VIEW {name} AS {by_dialect[conn.dialect.name].strip()}")


def drop_views(conn: Connection, views: Views) -> None:
    """Drop ``views``, dependants first; missing ones are fine."""
    for name in reversed(list(views)):
        conn.exec_driver_sql(f"DROP VIEW IF EXISTS {name}")


# Revision 0011: facts_latest and facts_fiscal gain origin (statement, narrative, ...) and decimals;
# a period's narrative reports count only when no other report of it is published;
# guidance_vs_actual gains actual_origin.
_FACTS_LATEST_0011_SQLITE = """
WITH RECURSIVE
steps(decimals, half_unit) AS (VALUES (-12, 500000000000), (-11, 50000000000), (-10, 5000000000), (-9, 500000000), (-8, 50000000), (-7, 5000000), (-6, 500000), (-5, 50000), (-4, 5000), (-3, 500), (-2, 50), (-1, 5), (0, 0.5), (1, 0.05), (2, 0.005), (3, 0.0005), (4, 0.00005), (5, 0.000005), (6, 0.0000005)),
reports AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value, f.decimals,
           CASE WHEN f.origin = 'table' THEN 'statement' ELSE f.origin END AS origin, f.document_id, f.reported_on, d.published_at,
           CASE WHEN f.origin = 'narrative' THEN 0 ELSE 1 END AS origin_rank,
           MAX(CASE WHEN f.origin = 'narrative' THEN 0 ELSE 1 END) OVER (
               PARTITION BY d.issuer, f.metric, f.period_start, f.period_end) AS best
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.basis = 'us_gaap' AND d.status <> 'quarantined'
),
candidates AS (
    SELECT issuer, metric, period_start, period_end, unit, value, decimals, origin, document_id,
           DENSE_RANK() OVER (ORDER BY issuer, metric, period_start, period_end) AS grp,
           ROW_NUMBER() OVER (PARTITION BY issuer, metric, period_start, period_end
                              ORDER BY reported_on, published_at, document_id) AS rn,
           COUNT(*) OVER (PARTITION BY issuer, metric, period_start, period_end) AS cnt
    FROM reports WHERE origin_rank = best
),
folded(grp, rn, cnt, issuer, metric, period_start, period_end, unit, value, decimals,
       origin, document_id) AS (
    SELECT grp, rn, cnt, issuer, metric, period_start, period_end, unit,
           value, decimals, origin, document_id
    FROM candidates WHERE rn = 1
    UNION ALL
    SELECT n.grp, n.rn, n.cnt, n.issuer, n.metric, n.period_start, n.period_end,
           CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ROUND(ABS(n.value - c.value), 6) <= s.half_unit) THEN c.unit ELSE n.unit END, CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ROUND(ABS(n.value - c.value), 6) <= s.half_unit) THEN c.value ELSE n.value END, CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ROUND(ABS(n.value - c.value), 6) <= s.half_unit) THEN c.decimals ELSE n.decimals END,
           CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ROUND(ABS(n.value - c.value), 6) <= s.half_unit) THEN c.origin ELSE n.origin END, CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ROUND(ABS(n.value - c.value), 6) <= s.half_unit) THEN c.document_id ELSE n.document_id END
    FROM folded c
    JOIN candidates n ON n.grp = c.grp AND n.rn = c.rn + 1
    LEFT JOIN steps s ON s.decimals = n.decimals
)
SELECT issuer, metric, period_start, period_end, unit, value,
       document_id AS source_document_id, origin, decimals
FROM folded WHERE rn = cnt
"""
_FACTS_LATEST_0011_POSTGRESQL = """
WITH RECURSIVE
steps(decimals, half_unit) AS (VALUES (-12, 500000000000), (-11, 50000000000), (-10, 5000000000), (-9, 500000000), (-8, 50000000), (-7, 5000000), (-6, 500000), (-5, 50000), (-4, 5000), (-3, 500), (-2, 50), (-1, 5), (0, 0.5), (1, 0.05), (2, 0.005), (3, 0.0005), (4, 0.00005), (5, 0.000005), (6, 0.0000005)),
reports AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value, f.decimals,
           CASE WHEN f.origin = 'table' THEN 'statement' ELSE f.origin END AS origin, f.document_id, f.reported_on, d.published_at,
           CASE WHEN f.origin = 'narrative' THEN 0 ELSE 1 END AS origin_rank,
           MAX(CASE WHEN f.origin = 'narrative' THEN 0 ELSE 1 END) OVER (
               PARTITION BY d.issuer, f.metric, f.period_start, f.period_end) AS best
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.basis = 'us_gaap' AND d.status <> 'quarantined'
),
candidates AS (
    SELECT issuer, metric, period_start, period_end, unit, value, decimals, origin, document_id,
           DENSE_RANK() OVER (ORDER BY issuer, metric, period_start, period_end) AS grp,
           ROW_NUMBER() OVER (PARTITION BY issuer, metric, period_start, period_end
                              ORDER BY reported_on, published_at, document_id) AS rn,
           COUNT(*) OVER (PARTITION BY issuer, metric, period_start, period_end) AS cnt
    FROM reports WHERE origin_rank = best
),
folded(grp, rn, cnt, issuer, metric, period_start, period_end, unit, value, decimals,
       origin, document_id) AS (
    SELECT grp, rn, cnt, issuer, metric, period_start, period_end, unit,
           CAST(value AS NUMERIC), decimals, origin, document_id
    FROM candidates WHERE rn = 1
    UNION ALL
    SELECT n.grp, n.rn, n.cnt, n.issuer, n.metric, n.period_start, n.period_end,
           CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.unit ELSE n.unit END, CAST(CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.value ELSE n.value END AS NUMERIC), CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.decimals ELSE n.decimals END,
           CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.origin ELSE n.origin END, CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.document_id ELSE n.document_id END
    FROM folded c
    JOIN candidates n ON n.grp = c.grp AND n.rn = c.rn + 1
    LEFT JOIN steps s ON s.decimals = n.decimals
)
SELECT issuer, metric, period_start, period_end, unit, value,
       document_id AS source_document_id, origin, decimals
FROM folded WHERE rn = cnt
"""
_FACTS_FISCAL_0011_SQLITE = """
SELECT f.issuer, f.metric, m.label, f.period_start, f.period_end, CAST(strftime('%Y', f.period_end) AS INTEGER) AS fiscal_year,
       CASE WHEN f.period_start IS NULL THEN 'instant' WHEN (CAST(julianday(f.period_end) - julianday(f.period_start) AS INTEGER) BETWEEN 80 AND 100) THEN 'quarter'
            WHEN CAST(julianday(f.period_end) - julianday(f.period_start) AS INTEGER) BETWEEN 170 AND 190 THEN 'half'
            WHEN CAST(julianday(f.period_end) - julianday(f.period_start) AS INTEGER) BETWEEN 355 AND 370 THEN 'year' ELSE 'other' END AS period_type,
       CASE WHEN f.period_start IS NULL OR (CAST(julianday(f.period_end) - julianday(f.period_start) AS INTEGER) BETWEEN 80 AND 100) THEN (CAST(strftime('%m', f.period_end) AS INTEGER) + 2) / 3 END
           AS fiscal_quarter,
       f.unit, f.value, f.source_document_id, f.origin, f.decimals
FROM facts_latest f LEFT JOIN metric_labels m ON m.metric = f.metric
"""
_FACTS_FISCAL_0011_POSTGRESQL = """
SELECT f.issuer, f.metric, m.label, f.period_start, f.period_end, CAST(EXTRACT(YEAR FROM f.period_end) AS INTEGER) AS fiscal_year,
       CASE WHEN f.period_start IS NULL THEN 'instant' WHEN ((f.period_end - f.period_start) BETWEEN 80 AND 100) THEN 'quarter'
            WHEN (f.period_end - f.period_start) BETWEEN 170 AND 190 THEN 'half'
            WHEN (f.period_end - f.period_start) BETWEEN 355 AND 370 THEN 'year' ELSE 'other' END AS period_type,
       CASE WHEN f.period_start IS NULL OR ((f.period_end - f.period_start) BETWEEN 80 AND 100) THEN (CAST(EXTRACT(MONTH FROM f.period_end) AS INTEGER) + 2) / 3 END
           AS fiscal_quarter,
       f.unit, f.value, f.source_document_id, f.origin, f.decimals
FROM facts_latest f LEFT JOIN metric_labels m ON m.metric = f.metric
"""
_GUIDANCE_VS_ACTUAL_0011_SQLITE = """
WITH ranked AS (
    SELECT d.issuer, g.metric, g.period_start, g.period_end, g.low, g.high, g.unit,
           g.document_id,
           ROW_NUMBER() OVER (PARTITION BY d.issuer, g.metric, g.period_start, g.period_end
                              ORDER BY g.issued_on DESC, d.published_at DESC,
                                       g.document_id DESC) AS rn
    FROM guidance g JOIN documents d ON d.document_id = g.document_id
    WHERE d.status <> 'quarantined' AND g.is_numeric
      AND (g.low IS NOT NULL OR g.high IS NOT NULL)
),
latest AS (
    SELECT issuer, metric, period_start, period_end, low, high, unit, document_id,
           (COALESCE(low, high) + COALESCE(high, low)) / 2.0 AS midpoint
    FROM ranked WHERE rn = 1
)
SELECT l.issuer, l.metric, l.period_start, l.period_end,
       l.low AS guidance_low, l.high AS guidance_high, a.value AS actual, l.unit,
       CASE WHEN a.value IS NULL THEN 'pending'
            WHEN CAST(a.value AS REAL) > COALESCE(CAST(l.high AS REAL), CAST(l.low AS REAL)) THEN 'above'
            WHEN CAST(a.value AS REAL) < COALESCE(CAST(l.low AS REAL), CAST(l.high AS REAL)) THEN 'below'
            ELSE 'within' END AS outcome,
       CASE WHEN a.value IS NULL OR l.midpoint = 0 THEN NULL
            ELSE ROUND((a.value - l.midpoint) * 100 / l.midpoint, 4) END AS variance_pct,
       l.document_id AS guidance_document_id, a.source_document_id AS actual_document_id,
       a.origin AS actual_origin
FROM latest l
LEFT JOIN facts_latest a
  ON a.issuer = l.issuer AND a.metric = l.metric AND a.unit = l.unit
 AND a.period_start = l.period_start AND a.period_end = l.period_end
"""
_GUIDANCE_VS_ACTUAL_0011_POSTGRESQL = """
WITH ranked AS (
    SELECT d.issuer, g.metric, g.period_start, g.period_end, g.low, g.high, g.unit,
           g.document_id,
           ROW_NUMBER() OVER (PARTITION BY d.issuer, g.metric, g.period_start, g.period_end
                              ORDER BY g.issued_on DESC, d.published_at DESC,
                                       g.document_id DESC) AS rn
    FROM guidance g JOIN documents d ON d.document_id = g.document_id
    WHERE d.status <> 'quarantined' AND g.is_numeric
      AND (g.low IS NOT NULL OR g.high IS NOT NULL)
),
latest AS (
    SELECT issuer, metric, period_start, period_end, low, high, unit, document_id,
           (COALESCE(low, high) + COALESCE(high, low)) / 2.0 AS midpoint
    FROM ranked WHERE rn = 1
)
SELECT l.issuer, l.metric, l.period_start, l.period_end,
       l.low AS guidance_low, l.high AS guidance_high, a.value AS actual, l.unit,
       CASE WHEN a.value IS NULL THEN 'pending'
            WHEN a.value > COALESCE(l.high, l.low) THEN 'above'
            WHEN a.value < COALESCE(l.low, l.high) THEN 'below'
            ELSE 'within' END AS outcome,
       CASE WHEN a.value IS NULL OR l.midpoint = 0 THEN NULL
            ELSE ROUND((a.value - l.midpoint) * 100 / l.midpoint, 4) END AS variance_pct,
       l.document_id AS guidance_document_id, a.source_document_id AS actual_document_id,
       a.origin AS actual_origin
FROM latest l
LEFT JOIN facts_latest a
  ON a.issuer = l.issuer AND a.metric = l.metric AND a.unit = l.unit
 AND a.period_start = l.period_start AND a.period_end = l.period_end
"""
VIEWS_0011: Views = {
    **VIEWS_0007,
    "facts_latest": {
        "sqlite": _FACTS_LATEST_0011_SQLITE,
        "postgresql": _FACTS_LATEST_0011_POSTGRESQL,
    },
    "facts_fiscal": {
        "sqlite": _FACTS_FISCAL_0011_SQLITE,
        "postgresql": _FACTS_FISCAL_0011_POSTGRESQL,
    },
    "guidance_vs_actual": {
        "sqlite": _GUIDANCE_VS_ACTUAL_0011_SQLITE,
        "postgresql": _GUIDANCE_VS_ACTUAL_0011_POSTGRESQL,
    },
}


# Revision 0012: facts_fiscal places periods in the issuer's fiscal calendar
# (issuers.fiscal_year_end,
# 52/53-week years; domain.fiscal).
_FACTS_FISCAL_0012_SQLITE = """
WITH nearest AS (
    SELECT f.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value,
           f.source_document_id, f.origin, f.decimals, CAST(julianday(f.period_end) - julianday(f.period_start) AS INTEGER) AS days,
           CAST(strftime('%Y', f.period_end) AS INTEGER) * 12 + CAST(strftime('%m', f.period_end) AS INTEGER) - 1 - CASE WHEN CAST(strftime('%d', f.period_end) AS INTEGER) <= 15 THEN 1 ELSE 0 END AS month_index,
           CASE WHEN CAST(SUBSTR(COALESCE(NULLIF(i.fiscal_year_end, ''), '1231'), 3, 2) AS INTEGER) > 15 THEN CAST(SUBSTR(COALESCE(NULLIF(i.fiscal_year_end, ''), '1231'), 1, 2) AS INTEGER) WHEN CAST(SUBSTR(COALESCE(NULLIF(i.fiscal_year_end, ''), '1231'), 1, 2) AS INTEGER) = 1 THEN 12 ELSE CAST(SUBSTR(COALESCE(NULLIF(i.fiscal_year_end, ''), '1231'), 1, 2) AS INTEGER) - 1 END AS year_end_month
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
       CASE WHEN p.period_start IS NULL THEN 'instant' WHEN (p.days BETWEEN 80 AND 100) THEN 'quarter'
            WHEN p.days BETWEEN 170 AND 190 THEN 'half'
            WHEN p.days BETWEEN 355 AND 370 THEN 'year' ELSE 'other' END AS period_type,
       CASE WHEN p.period_start IS NULL OR (p.days BETWEEN 80 AND 100)
            THEN (CASE WHEN p.end_month > p.year_end_month THEN p.end_month - p.year_end_month
                       ELSE p.end_month + 12 - p.year_end_month END + 2) / 3 END
           AS fiscal_quarter,
       p.unit, p.value, p.source_document_id, p.origin, p.decimals
FROM placed p LEFT JOIN metric_labels m ON m.metric = p.metric
"""
_FACTS_FISCAL_0012_POSTGRESQL = """
WITH nearest AS (
    SELECT f.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value,
           f.source_document_id, f.origin, f.decimals, (f.period_end - f.period_start) AS days,
           CAST(EXTRACT(YEAR FROM f.period_end) AS INTEGER) * 12 + CAST(EXTRACT(MONTH FROM f.period_end) AS INTEGER) - 1 - CASE WHEN CAST(EXTRACT(DAY FROM f.period_end) AS INTEGER) <= 15 THEN 1 ELSE 0 END AS month_index,
           CASE WHEN CAST(SUBSTR(COALESCE(NULLIF(i.fiscal_year_end, ''), '1231'), 3, 2) AS INTEGER) > 15 THEN CAST(SUBSTR(COALESCE(NULLIF(i.fiscal_year_end, ''), '1231'), 1, 2) AS INTEGER) WHEN CAST(SUBSTR(COALESCE(NULLIF(i.fiscal_year_end, ''), '1231'), 1, 2) AS INTEGER) = 1 THEN 12 ELSE CAST(SUBSTR(COALESCE(NULLIF(i.fiscal_year_end, ''), '1231'), 1, 2) AS INTEGER) - 1 END AS year_end_month
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
       CASE WHEN p.period_start IS NULL THEN 'instant' WHEN (p.days BETWEEN 80 AND 100) THEN 'quarter'
            WHEN p.days BETWEEN 170 AND 190 THEN 'half'
            WHEN p.days BETWEEN 355 AND 370 THEN 'year' ELSE 'other' END AS period_type,
       CASE WHEN p.period_start IS NULL OR (p.days BETWEEN 80 AND 100)
            THEN (CASE WHEN p.end_month > p.year_end_month THEN p.end_month - p.year_end_month
                       ELSE p.end_month + 12 - p.year_end_month END + 2) / 3 END
           AS fiscal_quarter,
       p.unit, p.value, p.source_document_id, p.origin, p.decimals
FROM placed p LEFT JOIN metric_labels m ON m.metric = p.metric
"""
VIEWS_0012: Views = {
    **VIEWS_0011,
    "facts_fiscal": {
        "sqlite": _FACTS_FISCAL_0012_SQLITE,
        "postgresql": _FACTS_FISCAL_0012_POSTGRESQL,
    },
}

# Revision 0013: audited_vs_reported and extraction_accuracy (SEC XBRL company facts).
_AUDITED_VS_REPORTED_0013_SQLITE = """
WITH steps(decimals, half_unit) AS (VALUES (-12, 500000000000), (-11, 50000000000), (-10, 5000000000), (-9, 500000000), (-8, 50000000), (-7, 5000000), (-6, 500000), (-5, 50000), (-4, 5000), (-3, 500), (-2, 50), (-1, 5), (0, 0.5), (1, 0.05), (2, 0.005), (3, 0.0005), (4, 0.00005), (5, 0.000005), (6, 0.0000005)),
xbrl AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.basis, f.unit, f.value,
           d.source_id AS accession, d.form, f.reported_on, f.document_id,
           FIRST_VALUE(f.value) OVER (PARTITION BY d.issuer, f.metric, f.period_start,
                                                   f.period_end, f.basis, f.unit
                                      ORDER BY f.reported_on DESC, f.document_id DESC) AS latest
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.origin = 'xbrl'
),
audited AS (
    SELECT issuer, metric, period_start, period_end, basis, unit, value, accession, form,
           ROW_NUMBER() OVER (PARTITION BY issuer, metric, period_start, period_end, basis, unit ORDER BY reported_on, document_id) AS rn
    FROM xbrl WHERE value = latest
),
reported AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.basis, f.unit, f.value,
           f.decimals, f.document_id
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.origin <> 'xbrl' AND d.status <> 'quarantined'
)
SELECT r.issuer, r.metric, r.period_start, r.period_end, r.unit,
       r.value AS reported, r.document_id AS reported_document_id,
       a.value AS audited, a.accession AS audited_accession, a.form AS audited_form,
       ROUND(r.value - a.value, 6) AS difference,
       CASE WHEN ABS(ROUND(r.value - a.value, 6)) = 0 THEN 'equal'
            WHEN ABS(ROUND(r.value - a.value, 6)) <= COALESCE(s.half_unit, 0) THEN 'within_rounding'
            ELSE 'differs' END AS outcome
FROM reported r
JOIN audited a ON a.rn = 1 AND a.issuer = r.issuer AND a.metric = r.metric
 AND a.period_end = r.period_end AND a.period_start IS r.period_start AND a.basis = r.basis AND a.unit = r.unit
LEFT JOIN steps s ON s.decimals = r.decimals
"""
_AUDITED_VS_REPORTED_0013_POSTGRESQL = """
WITH steps(decimals, half_unit) AS (VALUES (-12, 500000000000), (-11, 50000000000), (-10, 5000000000), (-9, 500000000), (-8, 50000000), (-7, 5000000), (-6, 500000), (-5, 50000), (-4, 5000), (-3, 500), (-2, 50), (-1, 5), (0, 0.5), (1, 0.05), (2, 0.005), (3, 0.0005), (4, 0.00005), (5, 0.000005), (6, 0.0000005)),
xbrl AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.basis, f.unit, f.value,
           d.source_id AS accession, d.form, f.reported_on, f.document_id,
           FIRST_VALUE(f.value) OVER (PARTITION BY d.issuer, f.metric, f.period_start,
                                                   f.period_end, f.basis, f.unit
                                      ORDER BY f.reported_on DESC, f.document_id DESC) AS latest
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.origin = 'xbrl'
),
audited AS (
    SELECT issuer, metric, period_start, period_end, basis, unit, value, accession, form,
           ROW_NUMBER() OVER (PARTITION BY issuer, metric, period_start, period_end, basis, unit ORDER BY reported_on, document_id) AS rn
    FROM xbrl WHERE value = latest
),
reported AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.basis, f.unit, f.value,
           f.decimals, f.document_id
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.origin <> 'xbrl' AND d.status <> 'quarantined'
)
SELECT r.issuer, r.metric, r.period_start, r.period_end, r.unit,
       r.value AS reported, r.document_id AS reported_document_id,
       a.value AS audited, a.accession AS audited_accession, a.form AS audited_form,
       r.value - a.value AS difference,
       CASE WHEN ABS(r.value - a.value) = 0 THEN 'equal'
            WHEN ABS(r.value - a.value) <= COALESCE(s.half_unit, 0) THEN 'within_rounding'
            ELSE 'differs' END AS outcome
FROM reported r
JOIN audited a ON a.rn = 1 AND a.issuer = r.issuer AND a.metric = r.metric
 AND a.period_end = r.period_end AND a.period_start IS NOT DISTINCT FROM r.period_start AND a.basis = r.basis AND a.unit = r.unit
LEFT JOIN steps s ON s.decimals = r.decimals
"""
_EXTRACTION_ACCURACY_0013_SQLITE = """
SELECT v.issuer, m.statement, COUNT(DISTINCT v.period_end) AS periods, COUNT(*) AS compared,
       SUM(CASE WHEN v.outcome <> 'differs' THEN 1 ELSE 0 END) AS matched, ROUND(SUM(CASE WHEN v.outcome <> 'differs' THEN 1 ELSE 0 END) * 1.0 / COUNT(*), 4) AS share
FROM audited_vs_reported v JOIN metric_labels m ON m.metric = v.metric
WHERE v.audited_form IN ('20-F', '20-F/A', '10-K', '10-K/A', '40-F', '40-F/A')
GROUP BY v.issuer, m.statement
"""
_EXTRACTION_ACCURACY_0013_POSTGRESQL = """
SELECT v.issuer, m.statement, COUNT(DISTINCT v.period_end) AS periods, COUNT(*) AS compared,
       SUM(CASE WHEN v.outcome <> 'differs' THEN 1 ELSE 0 END) AS matched, ROUND(SUM(CASE WHEN v.outcome <> 'differs' THEN 1 ELSE 0 END) * 1.0 / COUNT(*), 4) AS share
FROM audited_vs_reported v JOIN metric_labels m ON m.metric = v.metric
WHERE v.audited_form IN ('20-F', '20-F/A', '10-K', '10-K/A', '40-F', '40-F/A')
GROUP BY v.issuer, m.statement
"""
VIEWS_0013: Views = {
    **VIEWS_0012,
    "audited_vs_reported": {
        "sqlite": _AUDITED_VS_REPORTED_0013_SQLITE,
        "postgresql": _AUDITED_VS_REPORTED_0013_POSTGRESQL,
    },
    "extraction_accuracy": {
        "sqlite": _EXTRACTION_ACCURACY_0013_SQLITE,
        "postgresql": _EXTRACTION_ACCURACY_0013_POSTGRESQL,
    },
}


# Revision 0014: proved_by on facts_history, facts_latest and line_items; metric_labels lists the
# metrics the proofs added (their SQL in frozen_views_0014, to keep this file from growing).
VIEWS_0014: Views = {**VIEWS_0013, **CHANGED_0014}


# Revision 0015: dividends (every dividend a published document declares, one row per
# declaration and document), a view of the table dividend_declarations; metric_labels gains
# issuer (per issuer: its own wording and unit; the catalog's rows without its notes to
# readers) and facts_fiscal / extraction_accuracy join it by issuer; restatements leaves out
# audited XBRL figures (compared in audited_vs_reported, as the alerts do). SQL in
# frozen_views_0015.
VIEWS_0015: Views = {**VIEWS_0014, **CHANGED_0015}
VIEWS_0016: Views = {**VIEWS_0015, **CHANGED_0016}


# Revision 0018: metric_labels lists the cash flow statement's opening balance and the
# comprehensive income metrics (their identities: opening + change = closing, owners' +
# non-controlling interests' share = total); facts_derived counts the comprehensive income
# flows among the additive ones. SQL in frozen_views_0018.
VIEWS_0018: Views = {**VIEWS_0016, **CHANGED_0018}
