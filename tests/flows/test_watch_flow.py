"""The ``watch`` flow on a generated universe: one request per source when nothing is new,
whatever the number of issuers; only the issuer with news is listed and processed."""

import threading
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from sqlalchemy import select

from domain.enums import SourceName
from domain.records import DocumentRef
from flows.watch import watch
from storage import db
from storage import documents as stored
from storage.schema import documents
from tasks.config.issuers import read_issuers
from tasks.sources.replay import ReplayServer
from tasks.sources.replay_universe import Member, build_universe, member_of, publish

LISTINGS = {"/cgi-bin/browse-edgar": 1, "/ncms/json/eds/lcisehk1relsde_1.json": 1}


def _asked(replay, mark):
    return Counter(r.path.split("?")[0] for r in replay.log[mark:])


@pytest.fixture
def universe(request, monkeypatch, tmp_path):
    root = tmp_path / "universe"
    build_universe(root, *request.param)
    with ReplayServer(root) as server:
        monkeypatch.setenv("FILINGS_DATABASE_URL", f"sqlite:///{tmp_path / 'warehouse.sqlite'}")
        monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
        monkeypatch.setenv("FILINGS_ISSUERS_FILE", str(root / "issuers.toml"))
        monkeypatch.setenv(
            "FILINGS_SINCE", (datetime.now(UTC).date() - timedelta(days=3)).isoformat()
        )
        for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
            monkeypatch.setenv(name, server.url)
        monkeypatch.setenv("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
        yield root, server


def _record_everything_listed(root, url):
    """A warehouse that has recorded every document the universe lists (a backfill ran)."""
    issuers = read_issuers(root / "issuers.toml")
    engine = db.open_warehouse(url)
    refs = []
    for folder in sorted((root / SourceName.SEC).glob("*/*-*-*")):
        ticker = member_of(folder.parent.name).ticker
        refs.append(_ref(SourceName.SEC, folder.name, ticker))
    for pdf in sorted((root / SourceName.HKEX).glob("*/*.pdf")):
        ticker = member_of(pdf.parent.name).ticker
        refs.append(_ref(SourceName.HKEX, pdf.stem, ticker))
    with engine.begin() as conn:
        stored.upsert_issuers(conn, issuers)
        stored.record_documents(conn, refs)
    engine.dispose()
    return len(refs)


def _ref(source, source_id, ticker):
    when = datetime(2024, 1, 15, tzinfo=UTC)
    return DocumentRef(source, source_id, ticker, "6-K", "results", when, f"https://x/{source_id}")


@pytest.mark.parametrize("universe", [(300, 1)], indirect=True)
def test_a_noop_pass_asks_each_listing_once_for_300_issuers(universe, tmp_path):
    root, replay = universe
    assert _record_everything_listed(root, f"sqlite:///{tmp_path / 'warehouse.sqlite'}") == 600
    mark = len(replay.log)
    summary = watch()
    assert (summary.found, summary.new, summary.ingested) == (0, 0, 0)
    assert summary.ok and _asked(replay, mark) == LISTINGS


@pytest.mark.parametrize("universe", [(3, 0)], indirect=True)
def test_only_the_issuer_with_news_is_listed_and_processed(universe, tmp_path):
    root, replay = universe
    mark = len(replay.log)
    assert watch().new == 0 and _asked(replay, mark) == LISTINGS  # nothing published yet

    # the first member is QFIN: its label catalog ships with the package
    sec_id, hkex_id = publish(root, Member(0), 0, datetime.now(UTC) - timedelta(minutes=1))
    mark = len(replay.log)
    summary = watch()
    assert summary.ok, summary.render()
    assert (summary.new, summary.ingested) == (2, 2)
    asked = [r.path for r in replay.log[mark:]]
    assert not [p for p in asked if "900000" in p or "stockId=2000" in p]  # others untouched
    assert any("CIK0001741530" in p for p in asked)
    engine = db.make_engine(f"sqlite:///{tmp_path / 'warehouse.sqlite'}")
    with engine.connect() as conn:
        rows = conn.execute(select(documents.c.document_id, documents.c.status)).all()
    engine.dispose()
    # processed to the end (a 2024 release re-published in 2026 may be quarantined)
    assert {doc for doc, _ in rows} == {sec_id, hkex_id}
    assert {status for _, status in rows} <= {"loaded", "quarantined"}

    mark = len(replay.log)
    assert watch().new == 0 and _asked(replay, mark) == LISTINGS


@pytest.mark.parametrize("universe", [(3, 0)], indirect=True)
def test_a_deployed_pass_hands_each_finding_to_its_own_ingest_run(universe, monkeypatch, tmp_path):
    from tasks.runs import dispatch

    root, replay = universe
    started = []

    def run_deployment(name, parameters, timeout, idempotency_key, as_subflow):
        started.append((name, parameters, timeout, idempotency_key))
        return SimpleNamespace(name=f"run-{len(started)}")

    monkeypatch.setattr(dispatch, "deployed", lambda: True)
    monkeypatch.setattr(dispatch, "run_deployment", run_deployment)
    publish(root, Member(0), 0, datetime.now(UTC) - timedelta(minutes=1))
    mark = len(replay.log)
    summary = watch()
    assert summary.ok and summary.ingested == 0 and len(summary.dispatched) == 2
    assert _asked(replay, mark) == LISTINGS  # detected and handed on: nothing listed here
    assert [(n, p, t) for n, p, t, _ in started] == [
        ("ingest/watch-ingest", {"issuers": ["QFIN"], "sources": ["sec"]}, 0),
        ("ingest/watch-ingest", {"issuers": ["QFIN"], "sources": ["hkex"]}, 0),
    ]
    engine = db.make_engine(f"sqlite:///{tmp_path / 'warehouse.sqlite'}")
    with engine.connect() as conn:
        assert conn.execute(select(documents.c.document_id)).all() == []
    engine.dispose()

    watch()  # the runs have not recorded them yet: the same findings, the same runs
    assert [k for *_, k in started[2:]] == [k for *_, k in started[:2]]


@pytest.mark.parametrize("universe", [(3, 0)], indirect=True)
def test_a_deployed_pass_ingests_itself_when_no_run_can_be_started(universe, monkeypatch):
    from tasks.runs import dispatch

    root, _ = universe

    def missing(*args, **kwargs):
        raise LookupError("Deployment 'ingest/watch-ingest' not found")

    monkeypatch.setattr(dispatch, "deployed", lambda: True)
    monkeypatch.setattr(dispatch, "run_deployment", missing)
    monkeypatch.setattr(dispatch.dispatch_ingest, "retry_delay_seconds", 0)
    publish(root, Member(0), 0, datetime.now(UTC) - timedelta(minutes=1))
    summary = watch()
    assert summary.ok, summary.render()
    assert (summary.new, summary.ingested, summary.dispatched) == (2, 2, [])


@pytest.mark.parametrize("universe", [(3, 0)], indirect=True)
def test_a_watching_run_ingests_what_is_published_while_it_watches(universe, tmp_path):
    root, replay = universe
    mark = len(replay.log)
    listings = "/cgi-bin/browse-edgar"
    at_publication: list[int] = []
    stop = threading.Event()

    def publish_after_two_empty_readings() -> None:
        # published once the run has read the listings twice with nothing new (events, not
        # a delay a busy machine outlasts while Great Expectations loads)
        while not stop.is_set():
            read = _asked(replay, mark)[listings]
            if read >= 2:
                publish(root, Member(0), 0, datetime.now(UTC) - timedelta(minutes=1))
                at_publication.append(read)
                return
            time.sleep(0.02)

    publisher = threading.Thread(target=publish_after_two_empty_readings)
    publisher.start()
    began = time.monotonic()
    try:
        # long enough for Great Expectations' load and the ingest on a busy machine
        summary = watch(watch_seconds=30, every_seconds=1)
    finally:
        stop.set()
        publisher.join(timeout=10)
    took = time.monotonic() - began
    assert summary.ok, summary.render()
    assert at_publication, "the run never read the listings twice"
    assert (summary.new, summary.ingested, summary.dispatched) == (2, 2, [])
    after = _asked(replay, mark)[listings] - at_publication[0]
    assert after >= 2, after  # the reading that found it, and it kept reading after it
    assert took >= 29, took  # the last reading is within a second of its end (a lower bound)
    engine = db.make_engine(f"sqlite:///{tmp_path / 'warehouse.sqlite'}")
    with engine.connect() as conn:
        statuses = {s for (s,) in conn.execute(select(documents.c.status)).all()}
    engine.dispose()
    assert statuses <= {"loaded", "quarantined"}


@pytest.mark.parametrize("universe", [(3, 0)], indirect=True)
def test_a_deployed_watching_run_never_hands_its_findings_on(universe, monkeypatch):
    """Its process is warm; a new run would start cold."""
    from tasks.runs import dispatch

    root, _ = universe
    monkeypatch.setattr(dispatch, "deployed", lambda: True)
    monkeypatch.setattr(dispatch, "run_deployment", pytest.fail)
    publish(root, Member(0), 0, datetime.now(UTC) - timedelta(minutes=1))
    summary = watch(watch_seconds=1, every_seconds=1)
    assert (summary.new, summary.ingested, summary.dispatched) == (2, 2, [])


def test_a_finding_keeps_its_key_for_ten_minutes_whatever_the_order_of_its_documents():
    from tasks.runs.dispatch import idempotency_key

    key = idempotency_key("sec", "QFIN", ["sec:b", "sec:a"], 6000.0)
    assert key == idempotency_key("sec", "QFIN", ["sec:a", "sec:b"], 6599.0)
    assert key != idempotency_key("sec", "QFIN", ["sec:a", "sec:b"], 6600.0)
    assert key != idempotency_key("hkex", "QFIN", ["sec:a", "sec:b"], 6000.0)
    assert key != idempotency_key("sec", "QFIN", ["sec:a"], 6000.0)


def test_a_watching_run_ends_when_the_next_scheduled_run_of_its_deployment_is_due(monkeypatch):
    from prefect import get_client
    from prefect.states import Scheduled

    from tasks.runs import dispatch

    now = datetime.now(UTC)
    with get_client(sync_client=True) as client:
        flow_id = client.create_flow(watch)
        deployment = client.create_deployment(flow_id=flow_id, name="watch-next-due")
        for minutes in (-1, 7, 3):  # one overdue, two ahead
            client.create_flow_run_from_deployment(
                deployment, state=Scheduled(scheduled_time=now + timedelta(minutes=minutes))
            )
    here = SimpleNamespace(deployment=SimpleNamespace(id=str(deployment)))
    monkeypatch.setattr(dispatch, "runtime", here)
    due = dispatch.next_scheduled()
    assert due is not None and abs((due - now).total_seconds() - 180) < 1

    here.deployment.id = None  # run by hand, not from a deployment: nothing takes over
    assert dispatch.next_scheduled() is None


@pytest.mark.parametrize("universe", [(3, 0)], indirect=True)
def test_a_watching_run_whose_ingest_fails_says_so_once_and_keeps_watching(universe, monkeypatch):
    from prefect import flow

    import flows.watch

    root, replay = universe

    @flow(name="ingest")
    def broken(issuers, sources):
        raise RuntimeError("warehouse went away")

    monkeypatch.setattr(flows.watch, "ingest", broken)
    publish(root, Member(0), 0, datetime.now(UTC) - timedelta(minutes=1))
    mark = len(replay.log)
    summary = watch(watch_seconds=20, every_seconds=1)
    assert _asked(replay, mark)["/cgi-bin/browse-edgar"] >= 3  # read again after each failure
    (failure,) = summary.source_failures
    assert failure.startswith("ingest of QFIN failed: ") and "warehouse went away" in failure
    assert summary.ingested == 0 and not summary.ok


@pytest.mark.parametrize("universe", [(3, 0)], indirect=True)
def test_a_watching_run_reads_on_past_a_source_that_is_down(universe, monkeypatch):
    """The next reading is the retry: no retry delays hold the other source back, and the
    failure is said once, not once a reading."""
    import socket

    root, replay = universe
    with socket.socket() as s:  # a port nothing listens on: HKEx refuses every connection
        s.bind(("127.0.0.1", 0))
        down = f"http://127.0.0.1:{s.getsockname()[1]}"
    monkeypatch.setenv("FILINGS_HKEX_URL", down)
    mark = len(replay.log)
    summary = watch(sources=["sec", "hkex"], watch_seconds=20, every_seconds=1)
    assert _asked(replay, mark)["/cgi-bin/browse-edgar"] >= 4  # read on, at its pace
    (failure,) = summary.source_failures
    assert failure.startswith("hkex latest listing: ")
