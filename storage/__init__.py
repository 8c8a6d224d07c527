"""The warehouse: schema, migrations, upserts and the contract's views.

- ``storage.db``: ``make_engine(url)`` and ``migrate(engine)``.
- ``storage.repo``: the API the flows call (documents, facts, alerts, runs).
- ``storage.views``: the views' SQL and typed handles (``FACTS_LATEST`` ...) to read them;
  on SQLite read amounts through those handles to get exact ``Decimal`` values.
"""
