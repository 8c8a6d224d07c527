"""The ``watch`` flow: discovery from the sources' cross-issuer listings, every minute.

One request per source (EDGAR's latest-filings Atom feed, HKEXnews' latest-announcements
listing) tells which configured issuers have a document the warehouse has not recorded; only
those issuers are then listed and processed, by the ``ingest`` flow as a subflow. A pass with
nothing new costs one request per source, whatever the number of issuers. Anything the
listings miss (a pass that could not run, a burst past a listing's first page) is caught by the
per-issuer ``sec-pass`` / ``hkex-pass`` reconciliation runs.

A deployed pass only detects: it hands each finding (issuer, source) to an ``ingest`` run of
the ``watch-ingest`` deployment and ends (``tasks.runs.dispatch``), so it lasts about a second
and never makes the next minute wait. Run outside a deployment (tests, a script), or when that
deployment is missing, the pass ingests its findings itself, as a subflow.
"""

# No ``from __future__ import annotations``: served and deployed runs build the parameter
# model from real annotations (see flows/ingest.py).
from logging import Logger

from prefect import flow, get_run_logger
from prefect.logging.loggers import LoggingAdapter

from flows.failures import on_run_failed
from flows.ingest import ListedSource, ingest
from tasks import fetch
from tasks.config import wiring
from tasks.config.settings import load_settings
from tasks.runs import dispatch
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
    news: dict[str, dict[str, list[str]]] = {}  # source -> ticker -> new document ids
    failures: list[str] = []
    for source in sources or clients.listed():
        state = fetch.watch_task(engine, clients, source, issuers, return_state=True)
        if state.is_failed():
            failures.append(f"{source} latest listing: {state.message or 'failed'}")
            continue
        shown = state.result()
        log.info("%s latest listing: %d issuer(s) with something new", source, len(shown))
        if shown:
            news[source] = shown
    started: list[str] = []
    if news and dispatch.deployed():
        news = _dispatch(news, started, log)
    if not news:
        summary = RunSummary(source_failures=failures, dispatched=started)
        log.info(summary.render())
        return summary
    tickers = sorted({t for shown in news.values() for t in shown})
    summary = ingest(issuers=tickers, sources=sorted(news))  # type: ignore[arg-type]
    summary.source_failures.extend(failures)
    summary.dispatched.extend(started)
    return summary


def _dispatch(
    news: dict[str, dict[str, list[str]]], started: list[str], log: Logger | LoggingAdapter
) -> dict[str, dict[str, list[str]]]:
    """Start one ingest run per finding (named in ``started``); return the findings left to
    ingest here (none, unless the ``watch-ingest`` deployment could not start a run)."""
    left: dict[str, dict[str, list[str]]] = {}
    for source, shown in news.items():
        for ticker, ids in shown.items():
            state = dispatch.dispatch_ingest(source, ticker, ids, return_state=True)
            if state.is_completed():
                started.append(state.result())
                log.info("handed to flow run %s", started[-1])
            else:
                log.warning("%s %s: no ingest run started (%s); ingesting here", ticker, source,
                            state.message or "failed")  # fmt: skip
                left.setdefault(source, {})[ticker] = ids
    return left
