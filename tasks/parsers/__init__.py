"""Pure parsers: bytes or text in, typed records out (no I/O but reading their data files;
no network, no database; never requests, SQLAlchemy or Prefect).

Five rooms by stage, each importing only the rooms before it (tests/test_import_rules.py):
``documents`` (PDF, HTML, text -> tables of cells, running text), ``raw_tables`` (a table's
headers, segments and setting), ``statements`` (rows as printed -> line items and facts,
proved), ``forms`` (the HKEx dividend form, XBRL company facts) and ``running_text`` (sentences ->
narrative facts, guidance, dividends, datelines). Nothing from ``tasks`` but this package;
the records are ``domain``'s.
"""
