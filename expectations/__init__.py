"""Data-quality suites (JSON under ``suites/``), the frames and check rows they run on
(``builders``, ``rules``, ``cross``), the GX runner (``runner``) and readable results
(``describe``). Imports nothing from ``tasks`` but ``domain`` (tests/test_import_rules.py).
"""
