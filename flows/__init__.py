"""The Prefect flows and the ``filings`` command line: composition only.

- ``ingest``: the ``ingest`` and ``ingest-local`` flows (per document: fetch -> extract ->
  validate -> load -> alert, each a task from ``tasks/``);
- ``review``: ``revalidate`` stored documents, ``release`` a quarantined one;
- ``failures``: the ``pipeline-failure-alert`` flow and the failing run's own hook;
- ``cli``: the ``filings`` commands (settings read, environment set, flows started);
- ``console``, ``progress``: what the CLI prints (tables, progress bars).

Nothing outside ``flows`` imports it (tests/test_import_rules.py).
"""
