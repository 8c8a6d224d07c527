"""Run records and read-outs: what a run did, kept and shown.

- ``summary``: a run's counters (``RunSummary``, ``QualitySummary``), printed at its end;
- ``bookkeeping``: the run's row in the warehouse's ``runs`` table, its artifacts, and the
  account ``filings status`` prints;
- ``artifacts``: the markdown summary and guidance table published to the Prefect UI;
- ``failed_runs``: failed or crashed flow runs found through the Prefect API, stored as
  ``pipeline_failure`` alerts;
- ``docs_sites``: one Great Expectations Data Docs site per run, old ones pruned;
- ``guidance_report``: guidance versus actual as a chart (PNG and HTML).
"""
