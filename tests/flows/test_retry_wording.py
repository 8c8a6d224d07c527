"""Whether a source failure is worth retrying is its error's type, never words in its message:
the layer that retries (the Prefect task's retry condition) says it retries, once."""

from __future__ import annotations

import logging
import re
import socket

import pytest
from prefect import flow

from domain.errors import (
    FatalTransportError,
    RetriableTransportError,
    after_retries,
    classify_status,
    is_retriable,
    one_line,
)
from tasks import fetch
from tasks.sources.http import HttpClient, RateLimiter

PROMISE = re.compile(r"will (retry|start)", re.IGNORECASE)


def _nowhere() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}/x"  # nothing listens once it closes


def _unreachable() -> RetriableTransportError:
    client = HttpClient(user_agent="Test Co ops@example.test", limiter=RateLimiter(0))
    with pytest.raises(RetriableTransportError) as caught:
        client.get(_nowhere())
    return caught.value


class _Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_retriable_is_the_type_and_no_message_promises_a_retry() -> None:
    statuses = [classify_status(503, url="u"), classify_status(429, url="u", retry_after="30")]
    errors = [_unreachable(), *(e for e in statuses if e is not None)]
    assert len(errors) == 3 and all(is_retriable(e) for e in errors)
    assert [m for e in errors if PROMISE.search(m := one_line(e) + str(e))] == []
    assert not is_retriable(FatalTransportError("u: HTTP 400")) and not is_retriable(OSError())
    assert RetriableTransportError.retriable and not FatalTransportError.retriable
    # reported once the retries are spent: what happens next, for the retriable only
    assert after_retries(errors[0]).endswith("(retries spent; the next run tries again)")
    assert after_retries(FatalTransportError("u: HTTP 400")) == "FatalTransportError: u: HTTP 400"


def test_a_retried_source_failure_says_it_retries_once() -> None:
    client = HttpClient(user_agent="Test Co ops@example.test", limiter=RateLimiter(0))
    url, calls = _nowhere(), []

    def read() -> str:
        calls.append(url)
        if len(calls) == 1:
            client.get(url)  # refused: a retriable error, retried by the task
        return "read"

    task = fetch.retried("probe", read).with_options(retry_delay_seconds=0)

    @flow
    def probe() -> str:
        return task()

    handler = _Kept()
    records = handler.records
    logger = logging.getLogger("prefect")
    logger.addHandler(handler)
    try:
        assert probe() == "read"
    finally:
        logger.removeHandler(handler)
    said = [r.getMessage() for r in records]
    promises = [m for m in said for _ in PROMISE.finditer(m)]
    assert len(calls) == 2
    assert len(promises) == 1 and "ConnectionError" in promises[0], said
