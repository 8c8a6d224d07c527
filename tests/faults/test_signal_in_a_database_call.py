"""A signal that lands while SQLAlchemy builds a result: the run stops at our own code.

A CI run of `filings run` stopped by SIGTERM exited 1, 62 s after the signal, with "the SQLite
warehouse is locked": Prefect's SIGTERM handler raised inside SQLAlchemy while it built the
result of a claim's INSERT ... RETURNING; the cursor nobody closed kept the write lock, and
the run's own clean-up (release the claims, record the run interrupted) waited for it twice.
Now a signal is raised only at a safe point (flows.interrupts), with our handler, not
Prefect's, during a flow run.

The same failure came back (CI, 61.3 s): a signal that lands as a ``with engine.begin()``
block ends runs its handler in contextlib's ``__exit__`` (SQLAlchemy's ``Engine.begin`` is a
generator context manager), before the transaction commits; raised there, the transaction
neither commits nor rolls back, and the exception's traceback keeps its connection, and the
write lock, alive through the whole clean-up. Standard-library code is a safe point only
where it waits (threading, queue, concurrent.futures), called from ours.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import sys
import textwrap
import threading
from collections import deque
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType

import pytest
from sqlalchemy import event, text
from sqlalchemy.engine import Engine
from sqlalchemy.engine import cursor as sa_cursor

from domain.records import DocumentRef, Issuer
from flows import downloads, interrupts, progress
from storage.db import migrate, open_warehouse
from storage.documents import record_documents, upsert_issuers
from tasks import load

pytestmark = pytest.mark.timeout(120)
WORKER = f"test:{os.getpid()}:signal"


@pytest.fixture
def warehouse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Engine:
    """A SQLite warehouse holding one listed document; the settings name it, with a busy
    timeout of one second (a held lock fails the clean-up at once, not after 30 s)."""
    url = f"sqlite:///{tmp_path / 'warehouse.sqlite'}"
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("FILINGS_DATABASE_URL", url)
    monkeypatch.setenv("FILINGS_SQLITE_BUSY_TIMEOUT_SECONDS", "1")
    engine = open_warehouse(url, busy_timeout_ms=1000)
    migrate(engine)
    doc = DocumentRef("sec", "a-6k", "QFIN", "6-K", "t", datetime(2025, 3, 1, tzinfo=UTC), "x")
    with engine.begin() as conn:
        upsert_issuers(conn, [Issuer("QFIN", "Qifu Technology", "0001741530", "03660")])
        record_documents(conn, [doc])
    return engine


@pytest.fixture
def signal_while_sqlalchemy_builds_a_result(monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGTERM arrives once while SQLAlchemy reads a cursor's description (where CI's landed);
    Python runs the handler at the next call, inside SQLAlchemy."""
    original = sa_cursor.CursorResultMetaData._merge_cursor_description
    sent: list[int] = []

    def arriving(self, *args, **kwargs):
        if not sent:
            sent.append(signal.SIGTERM)
            os.kill(os.getpid(), signal.SIGTERM)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(sa_cursor.CursorResultMetaData, "_merge_cursor_description", arriving)


@pytest.fixture
def signal_as_a_transaction_ends() -> Iterator[None]:
    """SIGTERM's handler runs as ``tasks.load``'s ``with engine.begin()`` block ends, in
    contextlib's ``__exit__``, before it resumes SQLAlchemy's commit (as when the signal
    lands just before that call: Python runs handlers as a function begins)."""
    leaving = contextlib._GeneratorContextManager.__exit__.__code__

    def arriving(frame: FrameType, event: str, arg: object) -> None:
        caller = frame.f_back
        ours = caller is not None and caller.f_globals.get("__name__") == "tasks.load"
        if event == "call" and frame.f_code is leaving and ours:
            sys.setprofile(None)
            handler = signal.getsignal(signal.SIGTERM)
            assert callable(handler)
            handler(signal.SIGTERM, frame)  # raised here, it is raised in __exit__

    sys.setprofile(arriving)
    try:
        yield
    finally:
        sys.setprofile(None)


def _writable(engine: Engine) -> bool:
    other = open_warehouse(engine.url, busy_timeout_ms=1000)
    try:
        with other.begin() as conn:
            conn.execute(text("DELETE FROM document_claims"))
        return True
    finally:
        other.dispose()


class TestASignalInsideADatabaseCall:
    """The claim that CI's run was making when SIGTERM came."""

    def test_it_is_raised_at_the_next_document_and_leaves_no_lock(
        self, warehouse: Engine, signal_while_sqlalchemy_builds_a_result: None
    ) -> None:
        with pytest.raises(interrupts.Interrupted) as stopped, interrupts.interruptible():
            assert load.claim(warehouse, "sec:a-6k", WORKER)  # the claim completes
            progress.advance("sec:a-6k")  # the next safe point that comes for sure
        assert stopped.value.code == 143
        assert _writable(warehouse)  # no cursor left holding the write lock

    def test_one_as_a_transaction_ends_lets_it_commit(
        self, warehouse: Engine, signal_as_a_transaction_ends: None
    ) -> None:
        with pytest.raises(interrupts.Interrupted) as stopped, interrupts.interruptible():
            assert load.claim(warehouse, "sec:a-6k", WORKER)
            progress.advance("sec:a-6k")
        assert stopped.value.code == 143
        assert _writable(warehouse)  # and the clean-up (records the run) was not locked out

    def test_a_wait_in_our_code_is_a_safe_point_found_without_a_document(
        self, warehouse: Engine, signal_while_sqlalchemy_builds_a_result: None
    ) -> None:
        ready: queue.Queue = queue.Queue()
        unblock = threading.Timer(10, ready.put, args=(None,))  # if nothing stops the wait
        unblock.start()
        try:
            with pytest.raises(interrupts.Interrupted), interrupts.interruptible():
                load.claim(warehouse, "sec:a-6k", WORKER)
                downloads._next_batch(ready, deque(), 1)  # waits for a download
        finally:
            unblock.cancel()
        assert _writable(warehouse)


class TestSafePoints:
    """Where the main thread may be stopped."""

    def test_our_code_is_and_sqlalchemy_is_not(self, warehouse: Engine) -> None:
        seen: dict[str, bool] = {}

        class Listener:
            def start(self, total: int, label: str) -> None: ...

            def advance(self, item: str) -> None:
                seen["ours"] = interrupts.at_safe_point(sys._getframe(1))

        with progress.listening(Listener()):
            progress.advance("x")

        def inside(*args: object) -> None:
            seen["sqlalchemy"] = interrupts.at_safe_point(sys._getframe(1))

        event.listen(warehouse, "before_cursor_execute", inside)
        load.holder(warehouse, "sec:a-6k")  # our code, calling SQLAlchemy
        assert seen == {"ours": True, "sqlalchemy": False}

    def test_a_context_manager_entering_or_leaving_is_not(self) -> None:
        # as the SEC pacer's lock file: taken in __enter__, given back in __exit__
        code = textwrap.dedent("""
            class Held:
                def __enter__(self):
                    seen.append(("enter", at_safe_point(sys._getframe())))

                def __exit__(self, *exc):
                    seen.append(("exit", at_safe_point(sys._getframe())))

            with Held():
                seen.append(("body", at_safe_point(sys._getframe())))
        """)
        seen: list[tuple[str, bool]] = []
        ours = {"__name__": "tasks.held", "sys": sys, "seen": seen}
        exec(code, ours | {"at_safe_point": interrupts.at_safe_point})  # noqa: S102 - as ours
        assert seen == [("enter", False), ("body", True), ("exit", False)]


class TestAFlowRun:
    """Prefect's flow engine installs its own SIGTERM handler for a run (it raises wherever
    the main thread is); the CLI's runs give it back to ours."""

    def test_sigterm_in_a_database_call_of_a_flow_stops_it_at_our_code(
        self, prefect_api: None, warehouse: Engine, signal_while_sqlalchemy_builds_a_result: None
    ) -> None:
        from prefect import flow

        @flow
        def claims_one() -> None:
            load.claim(warehouse, "sec:a-6k", WORKER)
            progress.advance("sec:a-6k")

        with pytest.raises(interrupts.Interrupted) as stopped, interrupts.interruptible():
            interrupts.owning_signals(claims_one)()
        assert stopped.value.code == 143
        assert _writable(warehouse)

    def test_without_the_hook_prefect_holds_sigterm(self, prefect_api: None) -> None:
        from prefect import flow

        held: list[object] = []

        @flow
        def looks() -> None:
            held.append(signal.getsignal(signal.SIGTERM))

        with interrupts.interruptible():
            ours = signal.getsignal(signal.SIGINT)
            looks()
            interrupts.owning_signals(looks)()
        assert held[0] is not ours  # why the hook exists: Prefect's, during its runs
        assert held[1] is ours
