"""Pure parsers: bytes or text in, typed records out (no I/O but reading their catalog data;
no network, no database; never requests, SQLAlchemy or Prefect).

Documents: ``pdf`` (with ``pdfwords``, ``pdfliterals``, ``pdftext``), ``html``, ``text``,
``tables``, ``grid``, ``numbers``; statements: ``statements``, ``headers``, ``rows``,
``checks``; prose: ``narrative``, ``outlook``, ``dividends``, ``prose``; ``classify``; and
``catalog``, the per-issuer label catalogs (data in ``catalogs/<ticker>.toml``).

Imports nothing from ``tasks`` but ``tasks.core`` (tests/test_import_rules.py).
"""
