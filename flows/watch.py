"""The ``watch`` flow: discovery from the sources' cross-issuer listings, every minute.

One request per source (EDGAR's latest-filings Atom feed, HKEXnews' latest-announcements
listing) tells which configured issuers have a document the warehouse has not recorded; only
those issuers are then listed and processed, by the ``ingest`` flow as a subflow. A pass with
nothing new costs one request per source, whatever the number of issuers. Anything the
listings miss (a pass that could not run, a burst past a listing's first page) is caught by the
per-issuer ``sec-pass`` / ``hkex-pass`` reconciliation runs.
"""

# No ``from __future__ import annotations``: served and deployed runs build the parameter
# model from real annotations (see flows/ingest.py).
from prefect import flow, get_run_logger

from flows.failures import on_run_failed
from flows.ingest import ListedSource, ingest
from tasks import fetch
from tasks.config import wiring
from tasks.config.settings import load_settings
from tasks.runs.summary import RunSummary


@flow(name="watch", log_prints=True, on_failure=[on_run_failed], on_crashed=[on_run_failed])
def watch(sources: list[ListedSource] | None = None) -> RunSummary:
    """Read each source's latest listing once; ingest only the issuers it shows news for.

    Args:
        sources: Listings to read: "sec" (EDGAR's latest 6-K filings) and/or "hkex"
            (HKEXnews' latest announcements); empty means both.
    """
    settings = load_settings()
    engine = wiring.warehouse(settings)
    clients = wiring.build_sources(settings)
    issuers = settings.issuers()
    log = get_run_logger()
    tickers: set[str] = set()
    changed: list[str] = []
    failures: list[str] = []
    for source in sources or clients.listed():
        state = fetch.watch_task(engine, clients, source, issuers, return_state=True)
        if state.is_failed():
            failures.append(f"{source} latest listing: {state.message or 'failed'}")
            continue
        shown = state.result()
        log.info("%s latest listing: %d issuer(s) with something new", source, len(shown))
        if shown:
            tickers.update(shown)
            changed.append(source)
    if not tickers:
        summary = RunSummary(source_failures=failures)
        log.info(summary.render())
        return summary
    summary = ingest(issuers=sorted(tickers), sources=changed)  # type: ignore[arg-type]
    summary.source_failures.extend(failures)
    return summary
