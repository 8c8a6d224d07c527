"""Configuration, read once at the edge (CLI or flow entry), and what a run is built from it.

- ``settings``: every ``FILINGS_*`` setting (pydantic; secrets as ``SecretStr``);
- ``issuers``: the issuers a run covers (embedded QFIN, or ``FILINGS_ISSUERS_FILE``);
- ``wiring``: the warehouse, the raw archive and the sources of a run, including the source
  registry (which :class:`~tasks.sources.protocol.Source` serves each source name).
"""
