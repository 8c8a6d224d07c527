"""Limits that limit: one request never outlives its deadline, and no Retry-After pauses a
source longer than the configured cap, which the message names.

Issue 25's probe: a status line and headers dripped at 1 byte/s held one request 93 s with a
15 s deadline (the deadline started at the body); ``Retry-After: 100000`` paused SEC ~28 h, each
run meanwhile saying "the next run resumes". The replay server plays both on the wire.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from domain.errors import RetriableTransportError
from flows.ingest import ingest
from storage import db
from storage.schema import source_state
from tasks.sources.replay import Answer

from .conftest import doc_url, one_line

DEADLINE = 2.0


class TestTheDeadlineCoversTheWholeRequest:
    """Status line, headers or body dripped one byte at a time: cut at the deadline."""

    @pytest.mark.parametrize("fault", ["drip_head", "drip"])
    def test_a_drip_is_cut_at_the_deadline(self, server, make_client, fault):
        client = make_client(timeout=2.0, deadline=DEADLINE)
        # each byte well inside the read timeout; the whole far past the deadline: the head
        # (~40 bytes) takes ~20 s, the body 100 s
        server.inject("doc.htm", Answer(200, b"d" * 200, fault=fault, delay=0.5))
        started = time.monotonic()
        with pytest.raises(RetriableTransportError) as caught:
            client.get(doc_url(server))
        took = time.monotonic() - started
        # cut by the deadline (never before it), long before the answer would have ended:
        # a bound no busy machine reaches (the head alone is 20 s), printed as measured
        print(f"{fault}: cut after {took:.2f} s (deadline {DEADLINE:g} s)")
        assert DEADLINE <= took < 5 * DEADLINE, f"{took:.1f} s"
        line = one_line(caught.value)
        assert "deadline" in line and f"{DEADLINE:.0f} s" in line, line

    def test_an_answer_in_time_is_read_whole(self, server, make_client):
        client = make_client(timeout=1.0, deadline=DEADLINE)
        server.inject("doc.htm", Answer(200, b"d" * 20, fault="drip_head", delay=0.005))
        assert client.get(doc_url(server)).content == b"d" * 20


@pytest.mark.usefixtures("prefect_api", "no_retry_delays")
class TestRetryAfterIsCapped:
    """A server asking for 100,000 s pauses the source for the cap at most, and says so."""

    @pytest.mark.parametrize(("cap", "minutes"), [(None, 60), ("15", 15)])
    def test_a_long_retry_after_pauses_for_the_cap(
        self, run_env, replay, monkeypatch, cap, minutes
    ):
        url = run_env("capped")
        if cap:
            monkeypatch.setenv("FILINGS_MAX_PAUSE_MINUTES", cap)
        replay.inject("titleSearchServlet", *[Answer(429, b"", {"Retry-After": "100000"})] * 4)
        before = datetime.now(UTC)
        summary = ingest(sources=["hkex"])
        lines = [s for s in summary.source_failures if "hkex" in s]
        assert lines and all("FILINGS_MAX_PAUSE_MINUTES" in s for s in lines), lines
        assert f"{minutes} min" in lines[0], lines
        engine = db.make_engine(url)
        try:
            with engine.connect() as conn:
                until = conn.execute(
                    select(source_state.c.paused_until).where(
                        source_state.c.source == "hkex",
                        source_state.c.paused_until.is_not(None),
                    )
                ).scalar_one()
        finally:
            engine.dispose()
        until = until if until.tzinfo else until.replace(tzinfo=UTC)
        assert until <= datetime.now(UTC) + timedelta(minutes=minutes, seconds=5)
        assert until >= before + timedelta(minutes=minutes - 1)
        again = ingest(sources=["hkex"])  # the next run says the same cap and when it ends
        assert any("FILINGS_MAX_PAUSE_MINUTES" in s for s in again.source_failures), again
