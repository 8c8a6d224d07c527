"""The HTTP client every source uses: declared User-Agent, pacing, and error classification.

It never retries by itself: it raises a classified error from :mod:`domain.errors`, and the
Prefect task around it retries only what is retriable. Every request first takes a slot from a
:class:`Limiter`: for SEC the machine-wide :class:`~tasks.sources.pacer.FilePacer` (shared by
every thread and process), behind a Prefect global concurrency limit with slot decay when a
Prefect server is used.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol
from urllib.parse import urlsplit

import requests

from domain.errors import (
    MAX_RETRY_AFTER_SECONDS,
    FatalTransportError,
    RetriableTransportError,
    TransportError,
    classify_status,
)
from tasks.sources import transfer
from tasks.sources.deadline import Watch, WatchedAdapter


class Limiter(Protocol):
    """Blocks until one more request may go; told when its answer came back."""

    def acquire(self) -> None: ...

    def done(self) -> None:
        """The request this thread's last ``acquire`` let go has its answer (or failed)."""


class RateLimiter:
    """Spaces calls at least ``interval`` seconds apart across threads (a leaky bucket)."""

    def __init__(
        self,
        interval: float,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.interval = interval
        self._clock = clock
        self._sleep = sleep
        self._next = 0.0
        self._lock = threading.Lock()

    def acquire(self) -> None:
        """Block until the next request may go."""
        with self._lock:
            now = self._clock()
            start = max(now, self._next)
            self._next = start + self.interval
        if start > now:
            self._sleep(start - now)

    def done(self) -> None:
        """Nothing to do: the spacing is counted from the starts."""


class PrefectRateLimiter:
    """A Prefect global concurrency limit with slot decay, shared by every process on a server.

    ``limit`` slots decaying at ``limit`` per second admit at most ``2 * limit`` requests in any
    second (a full bucket plus what decays), so ``limit`` is half the allowed rate.
    """

    def __init__(self, name: str, per_second: float, timeout: float | None = 600.0) -> None:
        self.name = name
        self.slots = max(1, int(per_second // 2))
        self.decay = float(self.slots)
        self._timeout = timeout

    def ensure(self) -> None:
        """Create (or correct) the limit on the server."""
        # deferred heavy import: Prefect's client, only with a Prefect server
        from prefect.client.orchestration import get_client
        from prefect.exceptions import ObjectAlreadyExists

        with get_client(sync_client=True) as client:
            for attempt in range(2):
                try:
                    client.upsert_global_concurrency_limit_by_name(
                        self.name, self.slots, slot_decay_per_second=self.decay
                    )
                    return
                except ObjectAlreadyExists:  # another run created it between read and create
                    if attempt:
                        raise

    def acquire(self) -> None:
        """Take one slot; the server frees it by decay."""
        # deferred heavy import: Prefect's client, only with a Prefect server
        from prefect.concurrency.sync import rate_limit

        rate_limit(self.name, occupy=1, timeout_seconds=self._timeout, strict=True)

    def done(self) -> None:
        """Nothing to do: slots go by decay."""


@dataclass(frozen=True, slots=True)
class Response:
    """What the pipeline keeps of an HTTP answer."""

    url: str
    status: int
    content: bytes
    headers: Mapping[str, str] = field(default_factory=dict)

    def text(self) -> str:
        """The body decoded as UTF-8 (sources send UTF-8 or ASCII)."""
        return self.content.decode("utf-8", errors="replace")


class HttpClient:
    """A requests session bound to one source's pace, identity and base URLs.

    Bodies are bounded (``max_bytes``, a ``deadline`` per request) and redirects are followed
    here, each hop taking a limiter slot, only within ``bases`` (the source's configured base
    URLs; the requested URL's origin when none are given). After a Retry-After, the next
    request of this client waits until the server's time has come (capped at
    ``max_retry_after``; a longer one pauses the source: RateLimitedError).
    """

    def __init__(
        self,
        *,
        user_agent: str,
        limiter: Limiter,
        timeout: float = 30.0,
        session: requests.Session | None = None,
        bases: Sequence[str] = (),
        max_bytes: int = 64 * transfer.MIB,
        deadline: float = 300.0,
        max_redirects: int = 5,
        max_retry_after: float = MAX_RETRY_AFTER_SECONDS,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._session = session or requests.Session()
        for scheme in ("http://", "https://"):  # connect, head and body under one deadline
            self._session.mount(scheme, WatchedAdapter())
        self._session.headers.update({"User-Agent": user_agent, "Accept-Encoding": "gzip"})
        self._limiter = limiter
        self._timeout = timeout
        self.bases = tuple(bases)
        self.max_bytes = max_bytes
        self.deadline = deadline
        self.max_redirects = max_redirects
        self.max_retry_after = max_retry_after
        self._sleep = sleep
        self._resume_at = 0.0
        self.requests_made = 0

    def get(self, url: str, headers: Mapping[str, str] | None = None) -> Response:
        """GET ``url``; raise a classified TransportError unless it answered 2xx or 304.
        Each hop (a redirect is one more) is one request under one deadline, from connecting
        to the body's last byte."""
        bases = self.bases or (transfer.origin_of(url),)
        if not transfer.within(url, bases):
            raise FatalTransportError(f"{url}: outside the source's base URL; not fetched", url=url)
        current = url
        for _ in range(self.max_redirects + 1):
            self._wait_turn()
            with Watch(self.deadline) as watch:
                try:
                    raw = self._send(current, headers, watch)
                    location = raw.headers.get("Location", "")
                    if raw.status_code not in transfer.REDIRECTS or not location:
                        answer = self._answer(current, raw, watch)
                        if watch.expired:  # its socket was shut: the body may be cut short
                            raise self._late(current)
                        return answer
                except TransportError:
                    if watch.passed():
                        raise self._late(current) from None
                    raise
            raw.close()
            current = transfer.redirect_target(current, location, bases)
        raise FatalTransportError(f"{url}: more than {self.max_redirects} redirects", url=url)

    def _late(self, url: str) -> RetriableTransportError:
        return RetriableTransportError(
            f"{url}: still answering at the deadline ({self.deadline:g} s for a whole request,"
            " FILINGS_HTTP_DEADLINE_SECONDS)",
            url=url,
        )

    def _wait_turn(self) -> None:
        """The server's Retry-After, then the source's pace: neither counts in the deadline."""
        wait = self._resume_at - time.monotonic()
        if wait > 0:  # the server's Retry-After: nothing goes before it has passed
            self._sleep(wait)
        self._limiter.acquire()
        self.requests_made += 1

    def _send(self, url: str, headers: Mapping[str, str] | None, watch: Watch) -> requests.Response:
        try:
            return self._session.get(
                url,
                headers=dict(headers or {}),
                timeout=(min(self._timeout, watch.remaining()), self._timeout),
                stream=True,
                allow_redirects=False,
            )
        except (requests.ConnectionError, requests.Timeout) as exc:
            raise RetriableTransportError(f"{url}: {type(exc).__name__}", url=url) from None
        except requests.RequestException as exc:
            raise FatalTransportError(f"{url}: {_first_line(exc)}", url=url) from None
        finally:  # the answer's head is here (or nothing will come): the server has seen it
            self._limiter.done()

    def _answer(self, url: str, raw: requests.Response, watch: Watch) -> Response:
        if raw.status_code < 300:
            content = transfer.read_body(url, raw, self.max_bytes, watch.at)
        else:
            content = transfer.read_prefix(raw)
        error = classify_status(
            raw.status_code,
            content[:2000].decode("latin-1"),
            url=url,
            retry_after=raw.headers.get("Retry-After", ""),
            max_wait=self.max_retry_after,
        )
        if isinstance(error, RetriableTransportError) and error.retry_after:
            self._resume_at = time.monotonic() + error.retry_after
        if error is not None:
            raise error
        transfer.check_length(url, raw.headers, content)
        if raw.status_code == 200 and urlsplit(url).path.lower().endswith(".pdf"):
            transfer.check_pdf(url, content, transfer.media_type(raw.headers))
        transfer.check_not_empty(url, raw.status_code, content)
        return Response(url=url, status=raw.status_code, content=content, headers=dict(raw.headers))

    def close(self) -> None:
        """Release pooled connections."""
        self._session.close()


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__
