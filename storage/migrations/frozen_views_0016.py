# ruff: noqa: E501  (frozen SQL is kept exactly as it was generated)
"""Revision 0016's view SQL: facts_derived, the quarters and halves the published figures
imply (H1 - Q2 = Q1, FY - 9M = Q4). Append-only, like frozen_views."""

from __future__ import annotations

_FACTS_DERIVED_0016_SQLITE = """
WITH steps(decimals, half_unit) AS (VALUES (-12, 500000000000), (-11, 50000000000), (-10, 5000000000), (-9, 500000000), (-8, 50000000), (-7, 5000000), (-6, 500000), (-5, 50000), (-4, 5000), (-3, 500), (-2, 50), (-1, 5), (0, 0.5), (1, 0.05), (2, 0.005), (3, 0.0005), (4, 0.00005), (5, 0.000005), (6, 0.0000005)),
flows AS (
    SELECT f.issuer, f.metric, f.unit, f.period_start, f.period_end, f.decimals,
           f.source_document_id, CAST(replace(CASE WHEN instr(f.value, '.') = 0 THEN f.value || '.000000' ELSE substr(f.value || '000000', 1, instr(f.value, '.') + 6) END, '.', '') AS INTEGER) AS amount
    FROM facts_latest f
    WHERE f.period_start IS NOT NULL AND f.metric IN ('cost_of_revenue', 'credit_driven_services_revenue', 'effect_of_exchange_rate_changes', 'facilitation_origination_servicing_expense', 'financing_income', 'funding_costs', 'general_and_administrative_expense', 'gross_profit', 'guarantee_release_revenue', 'income_before_income_tax', 'income_from_operations', 'income_tax_expense', 'interest_income_net', 'loan_facilitation_fees_capital_heavy', 'loan_facilitation_fees_capital_light', 'net_cash_financing', 'net_cash_investing', 'net_cash_operating', 'net_change_in_cash', 'net_income', 'net_income_attributable_to_company', 'net_income_attributable_to_noncontrolling', 'net_income_continuing', 'net_income_discontinued', 'non_gaap_income_from_operations', 'non_gaap_net_income', 'non_gaap_net_income_attributable_to_company', 'other_income_net', 'other_services_fees_credit_driven', 'other_services_fees_platform', 'platform_services_revenue', 'provision_accounts_receivable_contract_assets', 'provision_contingent_liabilities', 'provision_financial_assets_receivable', 'provision_loans_receivable', 'referral_services_fees', 'sales_and_marketing_expense', 'share_based_compensation', 'total_net_revenue', 'total_operating_costs_and_expenses', 'total_operating_expenses')
),
derived AS (
    SELECT w.issuer, w.metric, w.unit, w.period_start AS period_start, date(p.period_start, '-1 day') AS period_end,
           w.amount - p.amount AS amount,
           CASE WHEN w.decimals < p.decimals THEN w.decimals ELSE p.decimals END AS decimals,
           w.decimals AS whole_decimals, p.decimals AS part_decimals,
           w.period_start AS whole_period_start, w.period_end AS whole_period_end,
           w.source_document_id AS whole_document_id,
           p.period_start AS part_period_start, p.period_end AS part_period_end,
           p.source_document_id AS part_document_id
    FROM flows w JOIN flows p
      ON p.issuer = w.issuer AND p.metric = w.metric AND p.unit = w.unit AND p.period_end = w.period_end AND p.period_start > w.period_start
    UNION ALL
    SELECT w.issuer, w.metric, w.unit, date(p.period_end, '+1 day') AS period_start, w.period_end AS period_end,
           w.amount - p.amount AS amount,
           CASE WHEN w.decimals < p.decimals THEN w.decimals ELSE p.decimals END AS decimals,
           w.decimals AS whole_decimals, p.decimals AS part_decimals,
           w.period_start AS whole_period_start, w.period_end AS whole_period_end,
           w.source_document_id AS whole_document_id,
           p.period_start AS part_period_start, p.period_end AS part_period_end,
           p.source_document_id AS part_document_id
    FROM flows w JOIN flows p
      ON p.issuer = w.issuer AND p.metric = w.metric AND p.unit = w.unit AND p.period_start = w.period_start AND p.period_end < w.period_end
)
SELECT d.issuer, d.metric, d.period_start, d.period_end, d.unit, CASE WHEN d.amount < 0 THEN '-' ELSE '' END || rtrim(rtrim((ABS(d.amount) / 1000000) || '.' || substr('000000' || (ABS(d.amount) % 1000000), -6), '0'), '.') AS value,
       d.decimals, 'derived' AS origin,
       d.whole_period_start, d.whole_period_end, d.whole_document_id,
       d.part_period_start, d.part_period_end, d.part_document_id,
       r.value AS reported_value, r.source_document_id AS reported_document_id,
       CASE WHEN r.value IS NULL THEN 'missing'
            WHEN ABS(d.amount - CAST(replace(CASE WHEN instr(r.value, '.') = 0 THEN r.value || '.000000' ELSE substr(r.value || '000000', 1, instr(r.value, '.') + 6) END, '.', '') AS INTEGER)) <= (COALESCE(sw.half_unit, 0) + COALESCE(sp.half_unit, 0) + COALESCE(sr.half_unit, 0)) * 1000000 THEN 'agrees' ELSE 'differs' END AS status
FROM derived d
LEFT JOIN facts_latest r
  ON r.issuer = d.issuer AND r.metric = d.metric AND r.unit = d.unit
 AND r.period_start = d.period_start AND r.period_end = d.period_end
LEFT JOIN steps sw ON sw.decimals = d.whole_decimals
LEFT JOIN steps sp ON sp.decimals = d.part_decimals
LEFT JOIN steps sr ON sr.decimals = r.decimals
WHERE CAST(julianday(d.period_end) - julianday(d.period_start) AS INTEGER) BETWEEN 80 AND 100 OR CAST(julianday(d.period_end) - julianday(d.period_start) AS INTEGER) BETWEEN 170 AND 190
"""

_FACTS_DERIVED_0016_POSTGRESQL = """
WITH steps(decimals, half_unit) AS (VALUES (-12, 500000000000), (-11, 50000000000), (-10, 5000000000), (-9, 500000000), (-8, 50000000), (-7, 5000000), (-6, 500000), (-5, 50000), (-4, 5000), (-3, 500), (-2, 50), (-1, 5), (0, 0.5), (1, 0.05), (2, 0.005), (3, 0.0005), (4, 0.00005), (5, 0.000005), (6, 0.0000005)),
flows AS (
    SELECT f.issuer, f.metric, f.unit, f.period_start, f.period_end, f.decimals,
           f.source_document_id, f.value AS amount
    FROM facts_latest f
    WHERE f.period_start IS NOT NULL AND f.metric IN ('cost_of_revenue', 'credit_driven_services_revenue', 'effect_of_exchange_rate_changes', 'facilitation_origination_servicing_expense', 'financing_income', 'funding_costs', 'general_and_administrative_expense', 'gross_profit', 'guarantee_release_revenue', 'income_before_income_tax', 'income_from_operations', 'income_tax_expense', 'interest_income_net', 'loan_facilitation_fees_capital_heavy', 'loan_facilitation_fees_capital_light', 'net_cash_financing', 'net_cash_investing', 'net_cash_operating', 'net_change_in_cash', 'net_income', 'net_income_attributable_to_company', 'net_income_attributable_to_noncontrolling', 'net_income_continuing', 'net_income_discontinued', 'non_gaap_income_from_operations', 'non_gaap_net_income', 'non_gaap_net_income_attributable_to_company', 'other_income_net', 'other_services_fees_credit_driven', 'other_services_fees_platform', 'platform_services_revenue', 'provision_accounts_receivable_contract_assets', 'provision_contingent_liabilities', 'provision_financial_assets_receivable', 'provision_loans_receivable', 'referral_services_fees', 'sales_and_marketing_expense', 'share_based_compensation', 'total_net_revenue', 'total_operating_costs_and_expenses', 'total_operating_expenses')
),
derived AS (
    SELECT w.issuer, w.metric, w.unit, w.period_start AS period_start, p.period_start - 1 AS period_end,
           w.amount - p.amount AS amount,
           CASE WHEN w.decimals < p.decimals THEN w.decimals ELSE p.decimals END AS decimals,
           w.decimals AS whole_decimals, p.decimals AS part_decimals,
           w.period_start AS whole_period_start, w.period_end AS whole_period_end,
           w.source_document_id AS whole_document_id,
           p.period_start AS part_period_start, p.period_end AS part_period_end,
           p.source_document_id AS part_document_id
    FROM flows w JOIN flows p
      ON p.issuer = w.issuer AND p.metric = w.metric AND p.unit = w.unit AND p.period_end = w.period_end AND p.period_start > w.period_start
    UNION ALL
    SELECT w.issuer, w.metric, w.unit, p.period_end + 1 AS period_start, w.period_end AS period_end,
           w.amount - p.amount AS amount,
           CASE WHEN w.decimals < p.decimals THEN w.decimals ELSE p.decimals END AS decimals,
           w.decimals AS whole_decimals, p.decimals AS part_decimals,
           w.period_start AS whole_period_start, w.period_end AS whole_period_end,
           w.source_document_id AS whole_document_id,
           p.period_start AS part_period_start, p.period_end AS part_period_end,
           p.source_document_id AS part_document_id
    FROM flows w JOIN flows p
      ON p.issuer = w.issuer AND p.metric = w.metric AND p.unit = w.unit AND p.period_start = w.period_start AND p.period_end < w.period_end
)
SELECT d.issuer, d.metric, d.period_start, d.period_end, d.unit, d.amount AS value,
       d.decimals, 'derived' AS origin,
       d.whole_period_start, d.whole_period_end, d.whole_document_id,
       d.part_period_start, d.part_period_end, d.part_document_id,
       r.value AS reported_value, r.source_document_id AS reported_document_id,
       CASE WHEN r.value IS NULL THEN 'missing'
            WHEN ABS(d.amount - r.value) <= (COALESCE(sw.half_unit, 0) + COALESCE(sp.half_unit, 0) + COALESCE(sr.half_unit, 0)) * 1 THEN 'agrees' ELSE 'differs' END AS status
FROM derived d
LEFT JOIN facts_latest r
  ON r.issuer = d.issuer AND r.metric = d.metric AND r.unit = d.unit
 AND r.period_start = d.period_start AND r.period_end = d.period_end
LEFT JOIN steps sw ON sw.decimals = d.whole_decimals
LEFT JOIN steps sp ON sp.decimals = d.part_decimals
LEFT JOIN steps sr ON sr.decimals = r.decimals
WHERE (d.period_end - d.period_start) BETWEEN 80 AND 100 OR (d.period_end - d.period_start) BETWEEN 170 AND 190
"""

CHANGED_0016: dict[str, dict[str, str]] = {
    "facts_derived": {
        "sqlite": _FACTS_DERIVED_0016_SQLITE,
        "postgresql": _FACTS_DERIVED_0016_POSTGRESQL,
    },
}
