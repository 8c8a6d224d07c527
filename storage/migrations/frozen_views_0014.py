# ruff: noqa: E501  (frozen SQL is kept exactly as it was generated)
"""Revision 0014's view SQL: facts_history, facts_latest and line_items show how the document
proves each figure (``proved_by``); metric_labels lists the metrics the proofs added (net assets,
net current assets, total assets less current liabilities, the non-controlling share of profit,
the change in cash and the effect of exchange rates). Append-only, like frozen_views."""

from __future__ import annotations

_FACTS_HISTORY_0014_SQLITE = """
SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value,
       f.document_id AS source_document_id, f.reported_on, f.basis, f.decimals, f.scale,
       f.origin, d.source, d.form, d.published_at, d.status AS document_status,
       f.file, f.locator, f.row_label, f.column_label, f.raw_text, f.flags, f.loaded_at,
       f.proved_by
FROM facts f JOIN documents d ON d.document_id = f.document_id
"""
_FACTS_HISTORY_0014_POSTGRESQL = """
SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value,
       f.document_id AS source_document_id, f.reported_on, f.basis, f.decimals, f.scale,
       f.origin, d.source, d.form, d.published_at, d.status AS document_status,
       f.file, f.locator, f.row_label, f.column_label, f.raw_text, f.flags, f.loaded_at,
       f.proved_by
FROM facts f JOIN documents d ON d.document_id = f.document_id
"""
_FACTS_LATEST_0014_SQLITE = """
WITH RECURSIVE
steps(decimals, half_unit) AS (VALUES (-12, 500000000000), (-11, 50000000000), (-10, 5000000000), (-9, 500000000), (-8, 50000000), (-7, 5000000), (-6, 500000), (-5, 50000), (-4, 5000), (-3, 500), (-2, 50), (-1, 5), (0, 0.5), (1, 0.05), (2, 0.005), (3, 0.0005), (4, 0.00005), (5, 0.000005), (6, 0.0000005)),
reports AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value, f.decimals,
           CASE WHEN f.origin = 'table' THEN 'statement' ELSE f.origin END AS origin, f.proved_by, f.document_id, f.reported_on, d.published_at,
           CASE WHEN f.origin = 'narrative' THEN 0 ELSE 1 END AS origin_rank,
           MAX(CASE WHEN f.origin = 'narrative' THEN 0 ELSE 1 END) OVER (
               PARTITION BY d.issuer, f.metric, f.period_start, f.period_end) AS best
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.basis = 'us_gaap' AND d.status <> 'quarantined'
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
folded(grp, rn, cnt, issuer, metric, period_start, period_end, unit, value, decimals,
       origin, proved_by, document_id) AS (
    SELECT grp, rn, cnt, issuer, metric, period_start, period_end, unit,
           value, decimals, origin, proved_by, document_id
    FROM candidates WHERE rn = 1
    UNION ALL
    SELECT n.grp, n.rn, n.cnt, n.issuer, n.metric, n.period_start, n.period_end,
           CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ROUND(ABS(n.value - c.value), 6) <= s.half_unit) THEN c.unit ELSE n.unit END, CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ROUND(ABS(n.value - c.value), 6) <= s.half_unit) THEN c.value ELSE n.value END, CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ROUND(ABS(n.value - c.value), 6) <= s.half_unit) THEN c.decimals ELSE n.decimals END,
           CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ROUND(ABS(n.value - c.value), 6) <= s.half_unit) THEN c.origin ELSE n.origin END, CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ROUND(ABS(n.value - c.value), 6) <= s.half_unit) THEN c.proved_by ELSE n.proved_by END, CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ROUND(ABS(n.value - c.value), 6) <= s.half_unit) THEN c.document_id ELSE n.document_id END
    FROM folded c
    JOIN candidates n ON n.grp = c.grp AND n.rn = c.rn + 1
    LEFT JOIN steps s ON s.decimals = n.decimals
)
SELECT issuer, metric, period_start, period_end, unit, value,
       document_id AS source_document_id, origin, decimals, proved_by
FROM folded WHERE rn = cnt
"""
_FACTS_LATEST_0014_POSTGRESQL = """
WITH RECURSIVE
steps(decimals, half_unit) AS (VALUES (-12, 500000000000), (-11, 50000000000), (-10, 5000000000), (-9, 500000000), (-8, 50000000), (-7, 5000000), (-6, 500000), (-5, 50000), (-4, 5000), (-3, 500), (-2, 50), (-1, 5), (0, 0.5), (1, 0.05), (2, 0.005), (3, 0.0005), (4, 0.00005), (5, 0.000005), (6, 0.0000005)),
reports AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value, f.decimals,
           CASE WHEN f.origin = 'table' THEN 'statement' ELSE f.origin END AS origin, f.proved_by, f.document_id, f.reported_on, d.published_at,
           CASE WHEN f.origin = 'narrative' THEN 0 ELSE 1 END AS origin_rank,
           MAX(CASE WHEN f.origin = 'narrative' THEN 0 ELSE 1 END) OVER (
               PARTITION BY d.issuer, f.metric, f.period_start, f.period_end) AS best
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.basis = 'us_gaap' AND d.status <> 'quarantined'
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
folded(grp, rn, cnt, issuer, metric, period_start, period_end, unit, value, decimals,
       origin, proved_by, document_id) AS (
    SELECT grp, rn, cnt, issuer, metric, period_start, period_end, unit,
           CAST(value AS NUMERIC), decimals, origin, proved_by, document_id
    FROM candidates WHERE rn = 1
    UNION ALL
    SELECT n.grp, n.rn, n.cnt, n.issuer, n.metric, n.period_start, n.period_end,
           CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.unit ELSE n.unit END, CAST(CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.value ELSE n.value END AS NUMERIC), CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.decimals ELSE n.decimals END,
           CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.origin ELSE n.origin END, CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.proved_by ELSE n.proved_by END, CASE WHEN (n.decimals < c.decimals AND n.unit = c.unit AND ABS(n.value - c.value) <= s.half_unit) THEN c.document_id ELSE n.document_id END
    FROM folded c
    JOIN candidates n ON n.grp = c.grp AND n.rn = c.rn + 1
    LEFT JOIN steps s ON s.decimals = n.decimals
)
SELECT issuer, metric, period_start, period_end, unit, value,
       document_id AS source_document_id, origin, decimals, proved_by
FROM folded WHERE rn = cnt
"""
_METRIC_LABELS_0014_SQLITE = """
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
    ('net_income_attributable_to_noncontrolling', 'Net income attributable to non-controlling interests', 'flow', 'CNY', 'income'),
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
    ('net_assets', 'Net assets', 'instant', 'CNY', 'balance'),
    ('net_current_assets', 'Net current assets', 'instant', 'CNY', 'balance'),
    ('total_assets_less_current_liabilities', 'Total assets less current liabilities', 'instant', 'CNY', 'balance'),
    ('net_cash_operating', 'Net cash provided by operating activities', 'flow', 'CNY', 'cash_flow'),
    ('net_cash_investing', 'Net cash used in', 'flow', 'CNY', 'cash_flow'),
    ('net_cash_financing', 'Net cash provided by', 'flow', 'CNY', 'cash_flow'),
    ('effect_of_exchange_rate_changes', 'Effect of foreign exchange rate changes on cash and cash equivalents', 'flow', 'CNY', 'cash_flow'),
    ('net_change_in_cash', 'Net increase (decrease) in cash and cash equivalents', 'flow', 'CNY', 'cash_flow'),
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
_METRIC_LABELS_0014_POSTGRESQL = """
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
    ('net_income_attributable_to_noncontrolling', 'Net income attributable to non-controlling interests', 'flow', 'CNY', 'income'),
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
    ('net_assets', 'Net assets', 'instant', 'CNY', 'balance'),
    ('net_current_assets', 'Net current assets', 'instant', 'CNY', 'balance'),
    ('total_assets_less_current_liabilities', 'Total assets less current liabilities', 'instant', 'CNY', 'balance'),
    ('net_cash_operating', 'Net cash provided by operating activities', 'flow', 'CNY', 'cash_flow'),
    ('net_cash_investing', 'Net cash used in', 'flow', 'CNY', 'cash_flow'),
    ('net_cash_financing', 'Net cash provided by', 'flow', 'CNY', 'cash_flow'),
    ('effect_of_exchange_rate_changes', 'Effect of foreign exchange rate changes on cash and cash equivalents', 'flow', 'CNY', 'cash_flow'),
    ('net_change_in_cash', 'Net increase (decrease) in cash and cash equivalents', 'flow', 'CNY', 'cash_flow'),
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
_LINE_ITEMS_0014_SQLITE = """
SELECT d.issuer, r.document_id, r.statement, NULLIF(r.section, '') AS section, r.label,
       r.period_start, r.period_end, r.unit, r.value, r.metric, r.reported_on, r.proved_by
FROM statement_rows r JOIN documents d ON d.document_id = r.document_id
"""
_LINE_ITEMS_0014_POSTGRESQL = """
SELECT d.issuer, r.document_id, r.statement, NULLIF(r.section, '') AS section, r.label,
       r.period_start, r.period_end, r.unit, r.value, r.metric, r.reported_on, r.proved_by
FROM statement_rows r JOIN documents d ON d.document_id = r.document_id
"""
CHANGED_0014: dict[str, dict[str, str]] = {
    "facts_history": {
        "sqlite": _FACTS_HISTORY_0014_SQLITE,
        "postgresql": _FACTS_HISTORY_0014_POSTGRESQL,
    },
    "facts_latest": {
        "sqlite": _FACTS_LATEST_0014_SQLITE,
        "postgresql": _FACTS_LATEST_0014_POSTGRESQL,
    },
    "metric_labels": {
        "sqlite": _METRIC_LABELS_0014_SQLITE,
        "postgresql": _METRIC_LABELS_0014_POSTGRESQL,
    },
    "line_items": {"sqlite": _LINE_ITEMS_0014_SQLITE, "postgresql": _LINE_ITEMS_0014_POSTGRESQL},
}
