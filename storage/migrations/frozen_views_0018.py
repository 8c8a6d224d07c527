# ruff: noqa: E501  (frozen SQL is kept exactly as it was generated)
"""Revision 0018's view SQL: metric_labels lists the opening cash balance and the comprehensive
income metrics; facts_derived counts the comprehensive income flows among the additive ones.
Append-only, like frozen_views."""

from __future__ import annotations

_METRIC_LABELS_0018_SQLITE = """
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
    ('other_comprehensive_income', 'Other comprehensive income', 'flow', 'CNY', 'income'),
    ('total_comprehensive_income', 'Total comprehensive income', 'flow', 'CNY', 'income'),
    ('total_comprehensive_income_attributable_to_company', 'Comprehensive income attributable to ordinary shareholders', 'flow', 'CNY', 'income'),
    ('total_comprehensive_income_attributable_to_noncontrolling', 'Comprehensive income attributable to noncontrolling interests', 'flow', 'CNY', 'income'),
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
    ('cash_and_restricted_cash_begin', 'Cash, cash equivalents, and restricted cash, beginning of period', 'instant', 'CNY', 'cash_flow'),
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
_METRIC_LABELS_0018_POSTGRESQL = """
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
    ('other_comprehensive_income', 'Other comprehensive income', 'flow', 'CNY', 'income'),
    ('total_comprehensive_income', 'Total comprehensive income', 'flow', 'CNY', 'income'),
    ('total_comprehensive_income_attributable_to_company', 'Comprehensive income attributable to ordinary shareholders', 'flow', 'CNY', 'income'),
    ('total_comprehensive_income_attributable_to_noncontrolling', 'Comprehensive income attributable to noncontrolling interests', 'flow', 'CNY', 'income'),
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
    ('cash_and_restricted_cash_begin', 'Cash, cash equivalents, and restricted cash, beginning of period', 'instant', 'CNY', 'cash_flow'),
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
_FACTS_DERIVED_0018_SQLITE = """
WITH steps(decimals, half_unit) AS (VALUES (-12, 500000000000), (-11, 50000000000), (-10, 5000000000), (-9, 500000000), (-8, 50000000), (-7, 5000000), (-6, 500000), (-5, 50000), (-4, 5000), (-3, 500), (-2, 50), (-1, 5), (0, 0.5), (1, 0.05), (2, 0.005), (3, 0.0005), (4, 0.00005), (5, 0.000005), (6, 0.0000005)),
flows AS (
    SELECT f.issuer, f.metric, f.unit, f.period_start, f.period_end, f.decimals,
           f.source_document_id, CAST(replace(CASE WHEN instr(f.value, '.') = 0 THEN f.value || '.000000' ELSE substr(f.value || '000000', 1, instr(f.value, '.') + 6) END, '.', '') AS INTEGER) AS amount
    FROM facts_latest f
    WHERE f.period_start IS NOT NULL AND f.metric IN ('cost_of_revenue', 'credit_driven_services_revenue', 'effect_of_exchange_rate_changes', 'facilitation_origination_servicing_expense', 'financing_income', 'funding_costs', 'general_and_administrative_expense', 'gross_profit', 'guarantee_release_revenue', 'income_before_income_tax', 'income_from_operations', 'income_tax_expense', 'interest_income_net', 'loan_facilitation_fees_capital_heavy', 'loan_facilitation_fees_capital_light', 'net_cash_financing', 'net_cash_investing', 'net_cash_operating', 'net_change_in_cash', 'net_income', 'net_income_attributable_to_company', 'net_income_attributable_to_noncontrolling', 'net_income_continuing', 'net_income_discontinued', 'non_gaap_income_from_operations', 'non_gaap_net_income', 'non_gaap_net_income_attributable_to_company', 'other_comprehensive_income', 'other_income_net', 'other_services_fees_credit_driven', 'other_services_fees_platform', 'platform_services_revenue', 'provision_accounts_receivable_contract_assets', 'provision_contingent_liabilities', 'provision_financial_assets_receivable', 'provision_loans_receivable', 'referral_services_fees', 'sales_and_marketing_expense', 'share_based_compensation', 'total_comprehensive_income', 'total_comprehensive_income_attributable_to_company', 'total_comprehensive_income_attributable_to_noncontrolling', 'total_net_revenue', 'total_operating_costs_and_expenses', 'total_operating_expenses')
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
_FACTS_DERIVED_0018_POSTGRESQL = """
WITH steps(decimals, half_unit) AS (VALUES (-12, 500000000000), (-11, 50000000000), (-10, 5000000000), (-9, 500000000), (-8, 50000000), (-7, 5000000), (-6, 500000), (-5, 50000), (-4, 5000), (-3, 500), (-2, 50), (-1, 5), (0, 0.5), (1, 0.05), (2, 0.005), (3, 0.0005), (4, 0.00005), (5, 0.000005), (6, 0.0000005)),
flows AS (
    SELECT f.issuer, f.metric, f.unit, f.period_start, f.period_end, f.decimals,
           f.source_document_id, f.value AS amount
    FROM facts_latest f
    WHERE f.period_start IS NOT NULL AND f.metric IN ('cost_of_revenue', 'credit_driven_services_revenue', 'effect_of_exchange_rate_changes', 'facilitation_origination_servicing_expense', 'financing_income', 'funding_costs', 'general_and_administrative_expense', 'gross_profit', 'guarantee_release_revenue', 'income_before_income_tax', 'income_from_operations', 'income_tax_expense', 'interest_income_net', 'loan_facilitation_fees_capital_heavy', 'loan_facilitation_fees_capital_light', 'net_cash_financing', 'net_cash_investing', 'net_cash_operating', 'net_change_in_cash', 'net_income', 'net_income_attributable_to_company', 'net_income_attributable_to_noncontrolling', 'net_income_continuing', 'net_income_discontinued', 'non_gaap_income_from_operations', 'non_gaap_net_income', 'non_gaap_net_income_attributable_to_company', 'other_comprehensive_income', 'other_income_net', 'other_services_fees_credit_driven', 'other_services_fees_platform', 'platform_services_revenue', 'provision_accounts_receivable_contract_assets', 'provision_contingent_liabilities', 'provision_financial_assets_receivable', 'provision_loans_receivable', 'referral_services_fees', 'sales_and_marketing_expense', 'share_based_compensation', 'total_comprehensive_income', 'total_comprehensive_income_attributable_to_company', 'total_comprehensive_income_attributable_to_noncontrolling', 'total_net_revenue', 'total_operating_costs_and_expenses', 'total_operating_expenses')
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
CHANGED_0018: dict[str, dict[str, str]] = {
    "metric_labels": {
        "sqlite": _METRIC_LABELS_0018_SQLITE,
        "postgresql": _METRIC_LABELS_0018_POSTGRESQL,
    },
    "facts_derived": {
        "sqlite": _FACTS_DERIVED_0018_SQLITE,
        "postgresql": _FACTS_DERIVED_0018_POSTGRESQL,
    },
}
