"""SEC's fair-access enforcement as the replay server plays it (test infrastructure)."""

from __future__ import annotations

import time
from collections.abc import Callable

SEC_PREFIXES = ("/submissions/", "/api/xbrl/", "/Archives/", "/cgi-bin/")


class SecThrottle:
    """SEC's block: more than ``limit`` requests in one second blocks every request for a while."""

    def __init__(
        self, limit: int, block_seconds: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.block_seconds = block_seconds
        self.clock = clock
        self.blocked_until = float("-inf")
        self.blocks = 0
        self._recent: list[float] = []

    def admit(self) -> bool:
        """Count one request; False when it is (or now becomes) blocked."""
        now = self.clock()
        if now < self.blocked_until:
            return False
        self._recent = [t for t in self._recent if t > now - 1.0] + [now]
        if len(self._recent) > self.limit:
            self.blocked_until = now + self.block_seconds
            self.blocks += 1
            return False
        return True
