"""Data-quality suites (JSON under ``suites/``), their frame builders and the GX runner."""
