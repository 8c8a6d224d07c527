"""One deadline for a whole request: connect, status line, headers and body.

A per-read timeout never fires on a server that drips its answer a byte at a time, whether
its body or its status line and headers; a deadline checked between body chunks misses the
head. So while a request runs a :class:`Watch` holds its socket, and at the deadline shuts it:
whatever read is waiting returns at once, and the client reports the deadline. The socket is
handed to the watch by the connection classes below when the answer is awaited (a new or a
pooled connection alike); connecting is bounded by the time left.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from contextvars import ContextVar
from types import TracebackType
from typing import Any

from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

_CURRENT: ContextVar[Watch | None] = ContextVar("filings_http_watch", default=None)


class Watch:
    """The deadline of the request running in this thread (a context manager)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = time.monotonic() + seconds
        self.expired = False
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def remaining(self) -> float:
        """Seconds left (never below a millisecond: a timeout of 0 means no timeout)."""
        return max(0.001, self.at - time.monotonic())

    def passed(self) -> bool:
        """True once the deadline has come (whether or not the socket was shut yet)."""
        return self.expired or time.monotonic() >= self.at

    def hold(self, sock: socket.socket) -> None:
        """The socket the answer comes on: shut at the deadline (at once if it has passed)."""
        with self._lock:
            self._sock = sock
            late = self.expired
        if late:
            _shut(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            sock = self._sock
        if sock is not None:
            _shut(sock)

    def __enter__(self) -> Watch:
        self._token = _CURRENT.set(self)
        self._timer.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._timer.cancel()
        _CURRENT.reset(self._token)


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # already closed: nothing left to stop
        sock.shutdown(socket.SHUT_RDWR)


class _Watched:
    """A urllib3 connection that hands its socket to the running request's watch."""

    sock: socket.socket | None

    def getresponse(self, *args: Any, **kwargs: Any) -> Any:
        watch = _CURRENT.get()
        if watch is not None and self.sock is not None:
            watch.hold(self.sock)
        return super().getresponse(*args, **kwargs)  # type: ignore[misc]


class _HTTPConnection(_Watched, HTTPConnection):
    pass


class _HTTPSConnection(_Watched, HTTPSConnection):
    pass


class _HTTPPool(HTTPConnectionPool):
    ConnectionCls = _HTTPConnection


class _HTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _HTTPSConnection


class WatchedAdapter(HTTPAdapter):
    """requests' adapter whose connections obey the running request's :class:`Watch`."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _HTTPPool, "https": _HTTPSPool}
