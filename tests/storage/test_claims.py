"""Document claims on SQLite and PostgreSQL: a claim left by a run killed on this host."""

from __future__ import annotations

import socket
import subprocess
import sys
from datetime import UTC, datetime

from sqlalchemy import Engine
from storage_factories import add_document, at

from domain import workers
from storage import claims
from tasks.load import CLAIM_LEASE


def _dead_worker() -> str:
    """The name a run of this host would have had, whose process has exited."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return f"{socket.gethostname()}:{child.pid}:deadbeef"


class TestAClaimOfAKilledRun:
    """kill -9 between committing a document and releasing its claim: the document is done,
    so no later run claims it again, and its claim outlives the process until the lease."""

    def test_is_not_in_flight_while_a_live_one_is(self, engine: Engine) -> None:
        now = datetime.now(UTC)
        done, busy = add_document(engine, "a", at(1)), add_document(engine, "b", at(2))
        with engine.begin() as conn:
            assert claims.claim(conn, done, _dead_worker(), now, CLAIM_LEASE, force=True)
            assert claims.in_flight(conn, "QFIN", now, workers.gone) == 0
            assert claims.claim(conn, busy, workers.worker_id(), now, CLAIM_LEASE, force=True)
            assert claims.in_flight(conn, "QFIN", now, workers.gone) == 1
            # the same claims, with nobody gone: both count (the lease alone decides)
            assert claims.in_flight(conn, "QFIN", now, lambda _: False) == 2
