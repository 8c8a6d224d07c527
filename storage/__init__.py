"""The warehouse: one module per concern, schema, migrations and the contract's views.

- ``documents``: issuers, documents, their files, status and kind;
- ``facts``: upserting a document's facts, reading stored ones back;
- ``loading``: loading one document in one transaction (kind, facts, guidance, dividends,
  validation results, status);
- ``quality``: validation results, ``status_after_validation`` (the one status rule), releases;
- ``findings``: restatements and guidance outcomes the warehouse shows after a load;
- ``alerts``: the alert outbox and per-channel deliveries;
- ``runs``: the ``runs`` table and what a run did; ``source_state``: pauses, cursors, HTTP
  validators and what listings say about documents;
- ``mapping``: each record and its table row, both directions; ``schema``, ``types``, ``sql``,
  ``db`` (engines, migrations), ``views`` (the views' SQL and typed handles), ``migrations``.

Functions take a ``Connection`` and run inside the caller's transaction, except
``loading.load_document``, which owns its transaction. No SQL runs outside this package. On
SQLite read view amounts through the ``storage.views`` handles to get exact ``Decimal`` values.
Imports nothing from ``tasks`` but ``domain`` (tests/test_import_rules.py).
"""
