"""Alert delivery: what alerts say and how they travel.

- ``messages``: findings (failed checks, restatements, guidance variances, failed runs) as
  alerts with stable dedup keys;
- ``wording``: how periods, metrics and amounts read in a message ("Q3 2024", "RMB1,798.8m");
- ``channels``: e-mail, JSON webhook and Slack webhook, configured from settings or Prefect
  Secret blocks, each send carrying the alert id as its idempotency key.
"""
