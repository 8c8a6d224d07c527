# ruff: noqa: E501  (frozen SQL is kept exactly as it was generated)
"""View SQL frozen per revision: migrations create views from here, never from storage.views.

Append-only: a revision that changes a view adds a new ``VIEWS_<rev>`` mapping and never edits an
old one, so upgrading from any revision rebuilds exactly the views that revision shipped.
``storage.views`` must equal the newest mapping (tests/storage/test_migrations.py checks it).
"""

from __future__ import annotations

from sqlalchemy.engine import Connection

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


def create_views(conn: Connection, views: Views) -> None:
    """Create ``views`` in order (each may read the ones before it)."""
    for name, by_dialect in views.items():
        conn.exec_driver_sql(f"CREATE VIEW {name} AS {by_dialect[conn.dialect.name].strip()}")


def drop_views(conn: Connection, views: Views) -> None:
    """Drop ``views``, dependants first; missing ones are fine."""
    for name in reversed(list(views)):
        conn.exec_driver_sql(f"DROP VIEW IF EXISTS {name}")
