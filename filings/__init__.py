"""Read the filings warehouse from Python: typed pandas DataFrames, the same on SQLite and
PostgreSQL (amounts as exact decimals, dates as dates)::

    import filings
    facts = filings.read_facts(issuers=["QFIN"], metrics=["total_net_revenue"])
    guidance = filings.read_guidance()
    dividends = filings.read_dividends(issuers=["QFIN"])
    filings.export("out/", fmt="parquet")

``url`` defaults to ``FILINGS_DATABASE_URL`` (else the embedded SQLite warehouse).
"""

from filings.frames import (
    EXPORTED,
    export,
    read_derived,
    read_dividends,
    read_facts,
    read_facts_history,
    read_guidance,
    read_line_items,
    read_metric_labels,
    read_restatements,
    read_view,
)

__all__ = [
    "EXPORTED",
    "export",
    "read_derived",
    "read_dividends",
    "read_facts",
    "read_facts_history",
    "read_guidance",
    "read_line_items",
    "read_metric_labels",
    "read_restatements",
    "read_view",
]
