"""The HTTP client every source uses: declared User-Agent, pacing, and error classification.

It never retries by itself: it raises a classified error from :mod:`tasks.errors`, and the
Prefect task around it retries only what is retriable. Requests stay under the source's rate
through one limiter per source shared by every thread of the process.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import requests

from tasks.errors import FatalTransportError, RetriableTransportError, classify_status


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
        limiter: RateLimiter,
        timeout: float = 30.0,
        session: requests.Session | None = None,
    ) -> None:
        self._session = session or requests.Session()
        self._session.headers.update({"User-Agent": user_agent, "Accept-Encoding": "gzip"})
        self._limiter = limiter
        self._timeout = timeout

    def get(self, url: str, headers: Mapping[str, str] | None = None) -> Response:
        """GET ``url``; raise a classified TransportError unless it answered 2xx or 304."""
        self._limiter.acquire()
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
