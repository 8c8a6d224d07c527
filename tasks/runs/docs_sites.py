"""Data Docs sites: one folder per run, a list of runs at the top, old runs' sites pruned.

A run's site is ``<root>/<UTC stamp>-<8 chars of the flow run id>`` (:func:`new_docs_site`),
built once at the end of the run (:func:`build_data_docs`), so a link printed by a run keeps
showing that run's documents. Each site carries its own copy of GX's assets (~4-5 MB), hence
the retention in days (``FILINGS_DATA_DOCS_KEEP_DAYS``).
"""

from __future__ import annotations

import html
import logging
import os
import re
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from prefect import task
from prefect.cache_policies import NO_CACHE
from prefect.runtime import flow_run

from expectations import runner
from tasks.runs import docs_offline

_RUN_SITE = re.compile(r"(\d{8}T\d{6}Z)-[0-9a-f]{8}")
_STAMP = "%Y%m%dT%H%M%SZ"
log = logging.getLogger(__name__)


def new_docs_site(root: Path, run_id: str | None = None, now: datetime | None = None) -> Path:
    """This run's own Data Docs folder: ``<root>/<UTC stamp>-<8 chars of the run id>``.

    ``run_id`` defaults to the Prefect flow run's id, or a random one outside a flow.
    """
    if run_id is None:
        run_id = str(flow_run.id or uuid.uuid4())
    stamp = (now or datetime.now(UTC)).strftime(_STAMP)
    return root / f"{stamp}-{run_id.replace('-', '')[:8]}"


@contextmanager
def recording(site: Path) -> Iterator[Path]:
    """``site`` for a run's block: what was recorded for it and not built when the block ends
    (the run failed or was stopped) is forgotten, not held by the process for good."""
    try:
        yield site
    finally:
        runner.discard_docs(site)


def build_data_docs(
    docs_site: Path, keep_days: int = 0, now: datetime | None = None, base_url: str = ""
) -> str:
    """Build the run's Data Docs site, prune old runs' sites, list the rest; "" if none built.

    ``keep_days`` 0 keeps every site; otherwise sites started more than that many days before
    ``now`` are deleted (never this run's own). The link is under ``base_url`` (where the
    sites' folder is served: ``FILINGS_DATA_DOCS_URL``) when given, else a file URI. The site
    loads no asset from the network (:mod:`tasks.runs.docs_offline`).
    """
    index = runner.build_docs(docs_site)
    if index is None:
        return ""
    docs_offline.make_offline(docs_site)
    if keep_days:
        prune_docs_sites(docs_site.parent, keep_days, now or datetime.now(UTC), docs_site)
    write_docs_index(docs_site.parent)
    if base_url:
        return f"{base_url.rstrip('/')}/{docs_site.name}/index.html"
    return index.as_uri()


def prune_docs_sites(root: Path, keep_days: int, now: datetime, keep: Path) -> list[str]:
    """Delete run sites under ``root`` started before ``now - keep_days``; their names."""
    cutoff = now - timedelta(days=keep_days)
    pruned = []
    for path in sorted(root.iterdir()):
        match = _RUN_SITE.fullmatch(path.name)
        if match is None or path == keep or not path.is_dir():
            continue
        started = datetime.strptime(match[1], _STAMP).replace(tzinfo=UTC)
        if started >= cutoff:
            continue
        try:
            shutil.rmtree(path)
        except OSError as exc:  # another run pruning the same site: not worth failing a run
            log.warning("could not delete old Data Docs site %s: %s", path, exc)
            continue
        pruned.append(path.name)
    return pruned


def write_docs_index(root: Path) -> Path:
    """Write ``root/index.html`` linking each run's Data Docs site, newest first."""
    runs = sorted((p.name for p in root.iterdir() if _RUN_SITE.fullmatch(p.name)), reverse=True)
    items = "".join(
        f'<li><a href="{html.escape(n)}/index.html">{html.escape(n)}</a></li>\n' for n in runs
    )
    page = (
        '<!doctype html>\n<html><head><meta charset="utf-8"><title>Data Docs</title></head>\n'
        f"<body><h1>Data Docs, one site per run (newest first)</h1>\n<ul>\n{items}</ul>"
        "</body></html>\n"
    )
    # Two runs may finish together: each replaces the page whole, never half-written.
    path, scratch = root / "index.html", root / f".index-{uuid.uuid4().hex}.html"
    scratch.write_text(page, encoding="utf-8")
    os.replace(scratch, path)
    return path


build_data_docs_task = task(name="build-data-docs", cache_policy=NO_CACHE)(build_data_docs)
