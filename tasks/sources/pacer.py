"""SEC's pace shared by every process of one machine: a lock file logging each request from
the moment it may go to the moment its answer came back.

A request may start when, counting every request logged in the file (threads and processes
alike), fewer than ``max_calls`` are still in flight or answered less than ``window + margin``
ago, and at least ``window / max_calls`` after the last start. The server receives a request
after it started and before its answer comes back, so no ``max_calls + 1`` requests can reach
it within ``window`` seconds, whatever delays our side adds between the pacer's slot and the
wire (a busy CPU, a thread waiting for the GIL) and whatever the network does: the earlier
rule (``max_calls`` starts in any ``window + 0.1`` s) let 11 reach the replay server in one
second, and SEC block for ten minutes, while extraction kept both cores busy. The pace is
``max_calls`` per ``window + margin`` plus one answer's latency (about 9.5/s on loopback).
Each log entry is written under an exclusive ``flock`` of one small file (under
``FILINGS_DATA_DIR``); a waiting thread sleeps outside it, and the threads of one process wait
one at a time. A Prefect global concurrency limit alone lets bursts through (16-17/s measured
with 2 processes at 10/s), so with a Prefect server this pacer stays in front of every request.
"""

from __future__ import annotations

import fcntl
import json
import math
import os
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from tasks.sources.http import Limiter

MARGIN = 0.02  # clock resolution and rate differences between our clock and the server's
# A request still unanswered after this long belongs to a process that died (the HTTP timeout
# is far shorter): it counts as answered then.
STALE = 120.0
POLL = 0.01  # how often a request waiting for an answer (not for a time) asks again
Entry = list[float | None]  # [start, answered at or None while in flight]


def next_start(
    log: Sequence[Entry], now: float, max_calls: int, window: float, margin: float = MARGIN
) -> float:
    """When the next request may start, given the logged requests (oldest first); ``inf``
    while it waits for an answer."""
    start = now
    if log:
        start = max(start, float(log[-1][0] or 0.0) + window / max_calls)
    answered = sorted((_answered(e, now) for e in log), reverse=True)
    if len(answered) >= max_calls:
        start = max(start, answered[max_calls - 1] + window + margin)
    return start


def _answered(entry: Entry, now: float) -> float:
    """When the request was answered: ``inf`` while in flight (unless stale)."""
    started, done = float(entry[0] or 0.0), entry[1]
    if done is not None:
        return float(done)
    return math.inf if now - started < STALE else started + STALE


class FilePacer:
    """A :class:`~tasks.sources.http.Limiter` shared through ``path`` (threads and processes)."""

    def __init__(
        self,
        path: Path,
        max_calls: int,
        window: float = 1.0,
        margin: float = MARGIN,
        clock: Callable[[], float] = time.time,  # wall clock: the one all processes share
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.path = path
        self.max_calls = max(1, max_calls)
        self.window = window
        self.margin = margin
        self._clock = clock
        self._sleep = sleep
        self._waiting = threading.Lock()  # one waiter per process: no herd at each slot
        self._mine = threading.local()  # the start this thread logged, until its answer
        path.parent.mkdir(parents=True, exist_ok=True)

    def acquire(self) -> None:
        """Wait until a start is free, then log it (the moment the request really goes)."""
        with self._waiting:
            while True:
                wait = self._take()
                if wait <= 0:
                    return
                self._sleep(min(wait, 1.0) if math.isfinite(wait) else POLL)

    def done(self) -> None:
        """Log that the request this thread started has its answer (or failed)."""
        started = getattr(self._mine, "start", None)
        if started is None:
            return
        self._mine.start = None
        with _locked(self.path) as fd:
            log = _read(fd)
            for entry in log:
                if entry[0] == started and entry[1] is None:
                    entry[1] = self._clock()
            _write(fd, log)

    def _take(self) -> float:
        # A late wake-up is seen here and logged as it is: reserving future slots would let a
        # sleeper woken late crowd the next ones into one of the server's seconds.
        with _locked(self.path) as fd:
            log = _read(fd)
            now = self._clock()
            start = next_start(log, now, self.max_calls, self.window, self.margin)
            if start <= now:
                self._mine.start = now
                _write(fd, [*_recent(log, now, self.window + self.margin), [now, None]])
            return start - now


def _recent(log: list[Entry], now: float, keep: float) -> list[Entry]:
    """What still counts: the requests in flight, or answered within ``keep`` seconds, and the
    last start (its spacing)."""
    kept = [e for e in log[:-1] if _answered(e, now) >= now - keep]
    return [*kept, log[-1]] if log else []


class _locked:
    """The pacer file, open and exclusively locked (closing releases the lock)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd = -1

    def __enter__(self) -> int:
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self.fd

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)


def _read(fd: int) -> list[Entry]:
    raw = os.pread(fd, 65536, 0)
    try:
        log = json.loads(raw) if raw else []
    except ValueError:  # a torn file from a killed process: start afresh
        return []
    if not isinstance(log, list):
        return []
    # an entry of the earlier format (a bare start) counts as answered at its start
    return [list(e) if isinstance(e, list) and len(e) == 2 else [float(e), float(e)] for e in log]


def _write(fd: int, log: list[Entry]) -> None:
    body = json.dumps(log).encode()
    os.ftruncate(fd, 0)
    os.pwrite(fd, body, 0)


class Chained:
    """Several limiters in turn (the last one closest to the request)."""

    def __init__(self, *limiters: Limiter) -> None:
        self.limiters = limiters

    def acquire(self) -> None:
        """Take a slot from each, in order."""
        for limiter in self.limiters:
            limiter.acquire()

    def done(self) -> None:
        """Tell each the request has its answer."""
        for limiter in self.limiters:
            limiter.done()
