"""The ``watch`` flow: discovery from the sources' cross-issuer listings.

One request per source (EDGAR's latest-filings Atom feed, HKEXnews' latest-announcements
listing) tells which configured issuers have a document the warehouse has not recorded; only
those issuers are then listed and processed, by the ``ingest`` flow as a subflow. A pass with
nothing new costs one request per source, whatever the number of issuers. Anything the
listings miss (a pass that could not run, a burst past a listing's first page) is caught by the
per-issuer ``sec-pass`` / ``hkex-pass`` reconciliation runs.

Two ways to run it:
- A watching run (``watch_seconds`` > 0, the ``watch`` deployment): reads the listings every
  ``every_seconds`` and ingests what they show itself, until the next scheduled run of its
  deployment is due (``watch_seconds`` after its scheduled start at most). Its process is warm
  (Prefect, Great Expectations' suites and the warehouse are loaded when it starts), so a
  finding is loaded and alerted seconds after it is seen.
- One pass (``watch_seconds`` = 0): reads the listings once. Deployed, it hands each finding
  (issuer, source) to an ``ingest`` run of the ``watch-ingest`` deployment and ends
  (``tasks.runs.dispatch``); outside a deployment (tests, a script), or when that deployment
  is missing, it ingests its findings itself, as a subflow.
"""

# No ``from __future__ import annotations``: served and deployed runs build the parameter
# model from real annotations (see flows/ingest.py).
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from logging import Logger
from typing import Annotated

from prefect import flow, get_run_logger, runtime
from prefect.logging.loggers import LoggingAdapter
from pydantic import Field
from sqlalchemy.engine import Engine

from domain.errors import after_retries, one_line
from domain.records import Issuer
from flows.failures import on_run_failed
from flows.ingest import ListedSource, ingest
from tasks import fetch
from tasks.config import wiring
from tasks.config.settings import load_settings
from tasks.runs import dispatch
from tasks.runs.summary import RunSummary
from tasks.sources.protocol import Sources

Log = Logger | LoggingAdapter
News = dict[str, dict[str, list[str]]]  # source -> ticker -> new document ids


@flow(name="watch", log_prints=True, on_failure=[on_run_failed], on_crashed=[on_run_failed])
def watch(
    sources: list[ListedSource] | None = None,
    watch_seconds: Annotated[float, Field(ge=0)] = 0,
    every_seconds: Annotated[float, Field(ge=1)] = 5,
) -> RunSummary:
    """Read each source's latest listing; ingest only the issuers it shows news for.

    Args:
        sources: Listings to read: "sec" (EDGAR's latest 6-K filings) and/or "hkex"
            (HKEXnews' latest announcements); empty means both.
        watch_seconds: Keep watching, ingesting what the listings show in this run, until the
            next scheduled run is due or this long after this run's scheduled start; 0 means
            one pass.
        every_seconds: Seconds between two readings of the listings while watching.
    """
    settings = load_settings()
    engine = wiring.warehouse(settings)
    clients = wiring.build_sources(settings)
    issuers = settings.issuers()
    chosen = [str(s) for s in sources or clients.listed()]
    try:
        if watch_seconds > 0:
            return _keep_watching(engine, clients, chosen, issuers, watch_seconds, every_seconds)
        return _one_pass(engine, clients, chosen, issuers)
    finally:
        engine.dispose()


def _one_pass(
    engine: Engine, clients: Sources, sources: list[str], issuers: Sequence[Issuer]
) -> RunSummary:
    """Read the listings once; hand the findings on (deployed) or ingest them here."""
    log = get_run_logger()
    failures: list[str] = []
    news = _look(engine, clients, sources, issuers, failures, log)
    started: list[str] = []
    if news and dispatch.deployed():
        news = _dispatch(news, started, log)
    summary = _ingest(news, failures) if news else RunSummary()
    summary.source_failures.extend(failures)
    summary.dispatched.extend(started)
    if not news:
        log.info(summary.render())
    return summary


def _keep_watching(
    engine: Engine,
    clients: Sources,
    sources: list[str],
    issuers: Sequence[Issuer],
    watch_seconds: float,
    every_seconds: float,
) -> RunSummary:
    """Read the listings every ``every_seconds`` until the run's time is up, ingesting what
    they show here; the last reading falls within ``every_seconds`` of the end, where the
    next scheduled run begins."""
    from expectations import runner  # deferred: only a watching run keeps GX loaded

    log = get_run_logger()
    ends = time.monotonic() + _time_left(watch_seconds)
    runner.suite_specs()  # Great Expectations loaded before the first finding, not after it
    log.info("watching %s every %g s for %.0f s", ", ".join(sources), every_seconds,
             max(0.0, ends - time.monotonic()))  # fmt: skip
    summary, readings = RunSummary(), 0
    while True:
        began = time.monotonic()
        failures: list[str] = []
        news = _look(engine, clients, sources, issuers, failures, log, watching=True)
        if news:
            summary.add_run(_ingest(news, failures))
        for line in set(failures) - set(summary.source_failures):
            log.warning(line)  # once: the summary names it once too
        summary.add_run(RunSummary(source_failures=failures))
        readings += 1
        wait = every_seconds - (time.monotonic() - began)
        if time.monotonic() + wait >= ends:
            break
        time.sleep(max(0.0, wait))
    log.info("%d reading(s) of the listings\n%s", readings, summary.render())
    return summary


def _time_left(watch_seconds: float) -> float:
    """Seconds until the next scheduled run takes over, or ``watch_seconds`` after this run's
    scheduled start (or its start, by hand) if that is sooner."""
    now = datetime.now(UTC)
    ends = (runtime.flow_run.scheduled_start_time or now) + timedelta(seconds=watch_seconds)
    following = dispatch.next_scheduled()
    if following is not None:
        ends = min(ends, following)
    return max(0.0, (ends - now).total_seconds())


def _look(
    engine: Engine,
    clients: Sources,
    sources: list[str],
    issuers: Sequence[Issuer],
    failures: list[str],
    log: Log,
    watching: bool = False,
) -> News:
    """Each source's findings; a source that failed is a line in ``failures``."""
    news: News = {}
    for source in sources:
        shown, failure = _read(engine, clients, source, issuers, watching)
        if failure:
            failures.append(f"{source} latest listing: {failure}")
            continue
        if shown or not watching:
            log.info("%s latest listing: %d issuer(s) with something new", source, len(shown))
        if shown:
            news[source] = shown
    return news


def _read(
    engine: Engine, clients: Sources, source: str, issuers: Sequence[Issuer], watching: bool
) -> tuple[dict[str, list[str]], str]:
    """One source's findings, or why they could not be read (one line). A one-pass run reads
    through the retried task; a watching run's next reading, seconds later, is its retry, so
    it reads directly (no retry delays, no task run per reading)."""
    if not watching:
        state = fetch.watch_task(engine, clients, source, issuers, return_state=True)
        if not state.is_failed():
            return state.result(), ""
        try:
            state.result()
        except Exception as exc:  # noqa: BLE001 - reported in one line, the run goes on
            return {}, after_retries(exc)
        return {}, state.message or "failed"
    try:
        return fetch.watch(engine, clients, source, issuers), ""
    except Exception as exc:  # noqa: BLE001 - whatever failed, the next reading tries again
        return {}, f"{one_line(exc)} (the next reading tries again)"


def _ingest(news: News, failures: list[str]) -> RunSummary:
    """Ingest the issuers with findings, from the sources that showed them, as a subflow; an
    ingest run that failed (its own hook alerts it) is a line in ``failures``: the next
    reading shows again what it did not record."""
    tickers = sorted({t for shown in news.values() for t in shown})
    state = ingest(issuers=tickers, sources=sorted(news), return_state=True)
    if state.is_completed():
        return state.result()
    failures.append(f"ingest of {', '.join(tickers)} failed: {state.message or state.name}")
    return RunSummary()


def _dispatch(news: News, started: list[str], log: Log) -> News:
    """Start one ingest run per finding (named in ``started``); return the findings left to
    ingest here (none, unless the ``watch-ingest`` deployment could not start a run)."""
    left: News = {}
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
