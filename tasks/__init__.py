"""The pipeline's stages, one module each, and the rooms they draw on.

Stages (plain functions plus the Prefect tasks that wrap them): ``fetch``, ``extract``,
``validate``, ``load``, ``alert``. Rooms:

- ``core``: the kernel every layer shares (records, enums, errors, metrics, the precision
  rule); standard library only;
- ``config``: settings, issuers, and what a run is built from them (the source registry);
- ``sources``: where documents come from (the Source protocol; EDGAR, HKEx, local files), with
  their HTTP client, URLs, retry policy, raw archive and the replay server and its archive;
- ``parsers``: pure parsers, bytes or text in, records out, and the label catalogs;
- ``delivery``: what alerts say and the channels they go out on;
- ``runs``: run records and read-outs (summaries, the runs table, artifacts, failed runs,
  Data Docs sites, the guidance report).
"""
