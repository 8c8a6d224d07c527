"""SEC's pace shared by every process of one machine: a lock file holding the last starts.

Each request logs its start under an exclusive ``flock`` of one small file (under
``FILINGS_DATA_DIR``) when the log allows it, else sleeps outside the lock and asks again.
Threads and processes that share the file therefore share one sliding log: at most
``max_calls`` starts in any ``window + margin`` seconds, spaced ``window / max_calls`` apart.
``margin`` absorbs the jitter between our clock and the server's (10/s becomes 10 per 1.1 s:
9.09/s, never 11 in a second). A Prefect global concurrency limit alone lets bursts through
(16-17/s measured with 2 processes at 10/s), so with a Prefect server this pacer stays in front
of every request.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from tasks.sources.http import Limiter

MARGIN = 0.1


def next_start(
    starts: Sequence[float], now: float, max_calls: int, window: float, margin: float = MARGIN
) -> float:
    """When the next request may start, given the reserved ``starts`` (oldest first)."""
    start = now
    if starts:
        start = max(start, starts[-1] + window / max_calls)
    if len(starts) >= max_calls:
        start = max(start, starts[-max_calls] + window + margin)
    return start


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
        path.parent.mkdir(parents=True, exist_ok=True)

    def acquire(self) -> None:
        """Wait until a start is free, then log it (the moment the request really goes)."""
        while True:
            wait = self._take()
            if wait <= 0:
                return
            self._sleep(wait)

    def _take(self) -> float:
        # A late wake-up is seen here and logged as it is: reserving future slots would let a
        # sleeper woken late crowd the next ones into one of the server's seconds.
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            starts = _read(fd)
            now = self._clock()
            start = next_start(starts, now, self.max_calls, self.window, self.margin)
            if start <= now:
                _write(fd, [*starts, now][-self.max_calls :])
            return start - now
        finally:
            os.close(fd)  # closing releases the lock


def _read(fd: int) -> list[float]:
    raw = os.pread(fd, 65536, 0)
    try:
        starts = json.loads(raw) if raw else []
    except ValueError:  # a torn file from a killed process: start afresh
        return []
    return [float(s) for s in starts] if isinstance(starts, list) else []


def _write(fd: int, starts: list[float]) -> None:
    body = json.dumps(starts).encode()
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
