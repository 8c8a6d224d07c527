# ruff: noqa: E501  (frozen SQL is kept exactly as it was generated)
"""Revision 0015's view SQL: the dividends view; metric_labels per issuer; facts_fiscal and
extraction_accuracy joining it by issuer; restatements without audited XBRL figures.
Append-only, like frozen_views."""

from __future__ import annotations

_METRIC_LABELS_0015_SQLITE = """
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
    ('income_tax_expense', 'Income taxes expense', 'flow', 'CNY', 'income'),
    ('net_income', 'Net income', 'flow', 'CNY', 'income'),
    ('net_income_continuing', 'Profit for the period from continuing operations', 'flow', 'CNY', 'income'),
    ('net_income_discontinued', 'Profit for the period from discontinued operations', 'flow', 'CNY', 'income'),
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
    ('total_company_equity', 'TOTAL QIFU TECHNOLOGY INC EQUITY', 'instant', 'CNY', 'balance'),
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
    ('collection_rate_30d', '30-day collection rate', 'flow', 'percent', 'operating')),
worded AS (
    SELECT d.issuer, f.metric, f.row_label, f.unit, COUNT(*) AS n
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.origin = 'table' AND d.status <> 'quarantined' AND f.row_label <> ''
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
WHERE r.rn = 1
"""
_METRIC_LABELS_0015_POSTGRESQL = """
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
    ('income_tax_expense', 'Income taxes expense', 'flow', 'CNY', 'income'),
    ('net_income', 'Net income', 'flow', 'CNY', 'income'),
    ('net_income_continuing', 'Profit for the period from continuing operations', 'flow', 'CNY', 'income'),
    ('net_income_discontinued', 'Profit for the period from discontinued operations', 'flow', 'CNY', 'income'),
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
    ('total_company_equity', 'TOTAL QIFU TECHNOLOGY INC EQUITY', 'instant', 'CNY', 'balance'),
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
    ('collection_rate_30d', '30-day collection rate', 'flow', 'percent', 'operating')),
worded AS (
    SELECT d.issuer, f.metric, f.row_label, f.unit, COUNT(*) AS n
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.origin = 'table' AND d.status <> 'quarantined' AND f.row_label <> ''
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
WHERE r.rn = 1
"""
_FACTS_FISCAL_0015_SQLITE = """
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
FROM placed p LEFT JOIN metric_labels m ON m.metric = p.metric AND m.issuer IS NULL
"""
_FACTS_FISCAL_0015_POSTGRESQL = """
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
FROM placed p LEFT JOIN metric_labels m ON m.metric = p.metric AND m.issuer IS NULL
"""
_RESTATEMENTS_0015_SQLITE = """
WITH steps(decimals, half_unit) AS (VALUES (-12, 500000000000), (-11, 50000000000), (-10, 5000000000), (-9, 500000000), (-8, 50000000), (-7, 5000000), (-6, 500000), (-5, 50000), (-4, 5000), (-3, 500), (-2, 50), (-1, 5), (0, 0.5), (1, 0.05), (2, 0.005), (3, 0.0005), (4, 0.00005), (5, 0.000005), (6, 0.0000005)),
reports AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value, f.decimals,
           f.document_id, f.reported_on,
           LAG(f.value) OVER w AS prev_value, LAG(f.unit) OVER w AS prev_unit,
           LAG(f.decimals) OVER w AS prev_decimals, LAG(f.document_id) OVER w AS prev_document_id,
           LAG(f.reported_on) OVER w AS prev_reported_on
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.basis = 'us_gaap' AND d.status <> 'quarantined' AND f.origin <> 'xbrl'
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
"""
_RESTATEMENTS_0015_POSTGRESQL = """
WITH steps(decimals, half_unit) AS (VALUES (-12, 500000000000), (-11, 50000000000), (-10, 5000000000), (-9, 500000000), (-8, 50000000), (-7, 5000000), (-6, 500000), (-5, 50000), (-4, 5000), (-3, 500), (-2, 50), (-1, 5), (0, 0.5), (1, 0.05), (2, 0.005), (3, 0.0005), (4, 0.00005), (5, 0.000005), (6, 0.0000005)),
reports AS (
    SELECT d.issuer, f.metric, f.period_start, f.period_end, f.unit, f.value, f.decimals,
           f.document_id, f.reported_on,
           LAG(f.value) OVER w AS prev_value, LAG(f.unit) OVER w AS prev_unit,
           LAG(f.decimals) OVER w AS prev_decimals, LAG(f.document_id) OVER w AS prev_document_id,
           LAG(f.reported_on) OVER w AS prev_reported_on
    FROM facts f JOIN documents d ON d.document_id = f.document_id
    WHERE f.basis = 'us_gaap' AND d.status <> 'quarantined' AND f.origin <> 'xbrl'
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
"""
_EXTRACTION_ACCURACY_0015_SQLITE = """
SELECT v.issuer, m.statement, COUNT(DISTINCT v.period_end) AS periods, COUNT(*) AS compared,
       SUM(CASE WHEN v.outcome <> 'differs' THEN 1 ELSE 0 END) AS matched, ROUND(SUM(CASE WHEN v.outcome <> 'differs' THEN 1 ELSE 0 END) * 1.0 / COUNT(*), 4) AS share
FROM audited_vs_reported v JOIN metric_labels m ON m.metric = v.metric AND m.issuer IS NULL
WHERE v.audited_form IN ('20-F', '20-F/A', '10-K', '10-K/A', '40-F', '40-F/A')
GROUP BY v.issuer, m.statement
"""
_EXTRACTION_ACCURACY_0015_POSTGRESQL = """
SELECT v.issuer, m.statement, COUNT(DISTINCT v.period_end) AS periods, COUNT(*) AS compared,
       SUM(CASE WHEN v.outcome <> 'differs' THEN 1 ELSE 0 END) AS matched, ROUND(SUM(CASE WHEN v.outcome <> 'differs' THEN 1 ELSE 0 END) * 1.0 / COUNT(*), 4) AS share
FROM audited_vs_reported v JOIN metric_labels m ON m.metric = v.metric AND m.issuer IS NULL
WHERE v.audited_form IN ('20-F', '20-F/A', '10-K', '10-K/A', '40-F', '40-F/A')
GROUP BY v.issuer, m.statement
"""
_DIVIDENDS_0015_SQLITE = """
SELECT d.issuer, v.period_start, v.period_end, v.currency, v.per_share, v.per_ads,
       v.ex_date, v.record_date, v.payment_date, v.ads_payment_date,
       v.document_id AS source_document_id, d.published_on AS reported_on
FROM dividend_declarations v JOIN documents d ON d.document_id = v.document_id
WHERE d.status <> 'quarantined'
"""
_DIVIDENDS_0015_POSTGRESQL = """
SELECT d.issuer, v.period_start, v.period_end, v.currency, v.per_share, v.per_ads,
       v.ex_date, v.record_date, v.payment_date, v.ads_payment_date,
       v.document_id AS source_document_id, d.published_on AS reported_on
FROM dividend_declarations v JOIN documents d ON d.document_id = v.document_id
WHERE d.status <> 'quarantined'
"""
CHANGED_0015: dict[str, dict[str, str]] = {
    "metric_labels": {
        "sqlite": _METRIC_LABELS_0015_SQLITE,
        "postgresql": _METRIC_LABELS_0015_POSTGRESQL,
    },
    "facts_fiscal": {
        "sqlite": _FACTS_FISCAL_0015_SQLITE,
        "postgresql": _FACTS_FISCAL_0015_POSTGRESQL,
    },
    "restatements": {
        "sqlite": _RESTATEMENTS_0015_SQLITE,
        "postgresql": _RESTATEMENTS_0015_POSTGRESQL,
    },
    "extraction_accuracy": {
        "sqlite": _EXTRACTION_ACCURACY_0015_SQLITE,
        "postgresql": _EXTRACTION_ACCURACY_0015_POSTGRESQL,
    },
    "dividends": {"sqlite": _DIVIDENDS_0015_SQLITE, "postgresql": _DIVIDENDS_0015_POSTGRESQL},
}
