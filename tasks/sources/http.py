"""The HTTP client every source uses: declared User-Agent, pacing, and error classification.

It never retries by itself: it raises a classified error from :mod:`tasks.core.errors`, and the
Prefect task around it retries only what is retriable. Every request first takes a slot from a
:class:`Limiter`: an in-process one (shared by every thread of the process) on the embedded
default, or a Prefect global concurrency limit with slot decay when a Prefect server is used, so
flow runs in other processes share the same budget.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

import requests

from tasks.core.errors import FatalTransportError, RetriableTransportError, classify_status


class Limiter(Protocol):
    """Blocks until one more request may go."""

    def acquire(self) -> None: ...


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


class WindowLimiter:
    """At most ``max_calls`` starts in any ``window`` seconds, across threads (a sliding log).

    Starts are also spaced ``window / max_calls`` apart (no bursts), and ``margin`` widens the
    window so that jitter between our clock and the server's cannot put an eleventh request
    into one of the server's seconds: 10/s becomes 10 per 1.15 s, evenly spread.
    """

    def __init__(
        self,
        max_calls: int,
        window: float = 1.0,
        margin: float = 0.15,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.max_calls = max(1, max_calls)
        self.window = window
        self.span = window + margin
        self._clock = clock
        self._sleep = sleep
        self._starts: deque[float] = deque()
        self._lock = threading.Lock()

    def acquire(self) -> None:
        """Block until a slot is free, then take it."""
        with self._lock:
            now = self._clock()
            start = now
            if self._starts:
                start = max(start, self._starts[-1] + self.window / self.max_calls)
            if len(self._starts) >= self.max_calls:
                start = max(start, self._starts[-self.max_calls] + self.span)
            self._starts.append(start)
            while len(self._starts) > self.max_calls:
                self._starts.popleft()
        if start > now:
            self._sleep(start - now)


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

        with get_client(sync_client=True) as client:
            client.upsert_global_concurrency_limit_by_name(
                self.name, self.slots, slot_decay_per_second=self.decay
            )

    def acquire(self) -> None:
        """Take one slot; the server frees it by decay."""
        # deferred heavy import: Prefect's client, only with a Prefect server
        from prefect.concurrency.sync import rate_limit

        rate_limit(self.name, occupy=1, timeout_seconds=self._timeout, strict=True)


_SHARED: dict[str, WindowLimiter] = {}
_SHARED_LOCK = threading.Lock()


def shared_limiter(key: str, max_calls: int, window: float = 1.0) -> WindowLimiter:
    """The process-wide limiter of one source: every client and thread of a run shares it."""
    with _SHARED_LOCK:
        found = _SHARED.get(key)
        if found is None or (found.max_calls, found.window) != (max_calls, window):
            found = _SHARED[key] = WindowLimiter(max_calls, window)
        return found


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
    """A requests session bound to one source's pace and identity."""

    def __init__(
        self,
        *,
        user_agent: str,
        limiter: Limiter,
        timeout: float = 30.0,
        session: requests.Session | None = None,
    ) -> None:
        self._session = session or requests.Session()
        self._session.headers.update({"User-Agent": user_agent, "Accept-Encoding": "gzip"})
        self._limiter = limiter
        self._timeout = timeout
        self.requests_made = 0

    def get(self, url: str, headers: Mapping[str, str] | None = None) -> Response:
        """GET ``url``; raise a classified TransportError unless it answered 2xx or 304."""
        self._limiter.acquire()
        self.requests_made += 1
        try:
            raw = self._session.get(url, headers=dict(headers or {}), timeout=self._timeout)
            content = raw.content
        except (requests.ConnectionError, requests.Timeout) as exc:
            raise RetriableTransportError(
                f"{url}: {type(exc).__name__}, will retry", url=url
            ) from None
        except requests.exceptions.ChunkedEncodingError:
            raise RetriableTransportError(f"{url}: truncated body, will retry", url=url) from None
        except requests.RequestException as exc:
            raise FatalTransportError(f"{url}: {exc}", url=url) from None
        error = classify_status(raw.status_code, content[:2000].decode("latin-1"), url=url)
        if error is not None:
            raise error
        _check_length(url, raw, content)
        return Response(url=url, status=raw.status_code, content=content, headers=dict(raw.headers))

    def close(self) -> None:
        """Release pooled connections."""
        self._session.close()


def _check_length(url: str, raw: requests.Response, content: bytes) -> None:
    # requests does not notice a body cut short when the server closes early.
    declared = raw.headers.get("Content-Length")
    if declared and raw.headers.get("Content-Encoding") is None and int(declared) != len(content):
        raise RetriableTransportError(
            f"{url}: truncated body ({len(content)} of {declared} bytes), will retry", url=url
        )
