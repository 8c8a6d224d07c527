"""Ctrl-C and SIGTERM during a flow run: one line, exit 130/143, the run recorded as
interrupted, nothing half-stored.

SIGTERM's default ends the process at once (its run stays ``running``, its claims held), so
both signals stop the run with :class:`Interrupted`, raised in the main thread at a *safe
point*: where it runs our own code, or waits on its behalf, with no task and no database call
under way (:func:`at_safe_point`). Raised anywhere else, the exception breaks the library it
lands in: inside a Prefect task it is taken for the task's failure (a document "failed" and
the run went on); inside SQLAlchemy building a result, or in contextlib's ``__exit__`` before
``engine.begin()`` commits, it left a connection in its transaction, holding SQLite's write
lock, so the run's own clean-up waited for that lock and failed.
A signal that arrives elsewhere is asked again every 50 ms, and at each document's end, until
the run reaches one. A second signal during the clean-up is ignored: it is short and must
finish.

Prefect's flow engine swaps SIGTERM for its own handler during a run (raising anywhere):
:func:`owning_signals` gives a flow an ``on_running`` hook that puts ours back.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from flows import progress

if TYPE_CHECKING:
    from prefect import Flow

INTERRUPTED_CODES = (128 + signal.SIGINT, 128 + signal.SIGTERM)
ASK_AGAIN_SECONDS = 0.05
# Where raising breaks nothing, nearest first: our packages, and a wait on a task's future.
_OURS = ("flows", "tasks", "storage", "expectations", "filings", "prefect.futures")
# Work under way that an exception would leave half done, anywhere on the stack.
_UNDER_WAY = ("prefect.task_engine", "sqlalchemy")
# The standard library's code a stop may land in, called from ours: waits, which leave their
# locks as they found them. Elsewhere it may be half way: contextlib's __exit__ runs before
# SQLAlchemy's engine.begin() commits, and raised there the transaction kept the write lock.
_WAITS = ("threading", "queue", "concurrent.futures")
# A context manager taking or giving back what it holds (a lock, a transaction, a file).
_ENTERING_OR_LEAVING = frozenset({"__enter__", "__exit__", "__aenter__", "__aexit__"})
P = ParamSpec("P")
R = TypeVar("R")


class Interrupted(KeyboardInterrupt):
    """The run was stopped by a signal; ``code`` is the shell's exit status for it."""

    def __init__(self, signum: int, done: int = 0, total: int = 0) -> None:
        super().__init__(signum)
        self.signum, self.done, self.total = signum, done, total

    @property
    def code(self) -> int:
        """128 + the signal: 130 for SIGINT, 143 for SIGTERM."""
        return 128 + self.signum

    def __str__(self) -> str:
        return (
            f"interrupted after {self.done} of {self.total} documents; rerun to finish"
            if self.total
            else "interrupted before any document was processed; rerun to finish"
        )


@dataclass
class Counted:
    """How many documents the run announced and finished (a progress listener), the signal
    waiting for a safe point (0: none), and whether it was raised."""

    total: int = 0
    done: int = 0
    pending: int = 0
    raised: bool = False

    def start(self, total: int, label: str) -> None:
        """A batch begins."""
        self.total += total
        self.stop_if_asked()

    def advance(self, item: str) -> None:
        """A document is done."""
        self.done += 1
        self.stop_if_asked()

    def stop_if_asked(self) -> None:
        """Raise the signal that waits for a safe point (once)."""
        if self.pending and not self.raised:
            self.raised = True
            raise Interrupted(self.pending, self.done, self.total)


class _Stop:
    """The SIGINT and SIGTERM handler of an :func:`interruptible` block."""

    def __init__(self, counted: Counted) -> None:
        self.counted = counted
        self.closed = threading.Event()
        self.asker: threading.Thread | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.counted.raised:
            return  # the clean-up runs to its end
        self.counted.pending = self.counted.pending or signum
        if at_safe_point(frame):
            self.counted.stop_if_asked()
        if self.asker is None:
            main = threading.main_thread().ident
            self.asker = threading.Thread(
                target=self._ask_again, args=(main,), name="interrupt-asker", daemon=True
            )
            self.asker.start()

    def _ask_again(self, main: int) -> None:
        # SIGINT whatever was sent: Prefect's flow engine may hold SIGTERM (before our hook)
        while not self.closed.wait(ASK_AGAIN_SECONDS) and not self.counted.raised:
            signal.pthread_kill(main, signal.SIGINT)

    def close(self) -> None:
        """No more asking; returns once the asker is gone (before the handlers change)."""
        self.closed.set()
        if self.asker is not None:
            self.asker.join()


def at_safe_point(frame: FrameType | None) -> bool:
    """True when an exception raised in ``frame`` (the main thread's) leaves nothing half
    done: the nearest code that is not the standard library's is ours, the standard
    library's below it only waits, and no task, no database call and no context manager's
    entry or exit is under way further up."""
    nearest = ""
    while frame is not None:
        name = str(frame.f_globals.get("__name__", ""))
        if _within(name, _UNDER_WAY) or frame.f_code.co_name in _ENTERING_OR_LEAVING:
            return False
        if not nearest:
            if name.partition(".")[0] not in sys.stdlib_module_names:
                nearest = name
            elif not _within(name, _WAITS):
                return False
        frame = frame.f_back
    return _within(nearest, _OURS)


def _within(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


@contextmanager
def interruptible() -> Iterator[None]:
    """Turn SIGINT and SIGTERM into :class:`Interrupted` (with the run's counts) for the block,
    in the main thread; the previous handlers come back after it."""
    counted = Counted()
    stop = _Stop(counted)
    before = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        with progress.listening(counted):
            yield
    except BaseException as exc:
        counted.raised = True  # a signal from here on (and the asker) waits for the clean-up
        if not _from_a_signal(exc, counted):
            raise
        _record()
        if isinstance(exc, Interrupted):
            raise
        raise Interrupted(counted.pending or signal.SIGINT, counted.done, counted.total) from exc
    finally:
        stop.close()
        for each, handler in before.items():
            signal.signal(each, handler)


def _from_a_signal(exc: BaseException, counted: Counted) -> bool:
    """A KeyboardInterrupt in Prefect's own form, or Prefect's TerminationSignal (its SIGTERM
    handler, before our hook took over)."""
    if isinstance(exc, KeyboardInterrupt):  # Interrupted too
        return True
    return bool(counted.pending) and not isinstance(exc, Exception | SystemExit)


def owning_signals(flow: Flow[P, R]) -> Flow[P, R]:
    """``flow`` with an ``on_running`` hook that gives SIGTERM back to the running
    :func:`interruptible` block: Prefect's engine installed its own for the run, which raises
    wherever the main thread is (it restores the one it found, ours, when the run ends)."""
    return flow.with_options(on_running=[*flow.on_running_hooks, _own_sigterm])


def _own_sigterm(flow: Any, flow_run: Any, state: Any) -> None:
    handler = signal.getsignal(signal.SIGINT)
    if isinstance(handler, _Stop) and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, handler)


def _record() -> None:
    """This process's runs still ``running`` become ``interrupted`` (the flow's crash hook
    did it already when the flow had begun)."""
    # deferred: the warehouse, only after a signal
    from tasks.config import wiring
    from tasks.config.settings import load_settings
    from tasks.runs import bookkeeping

    engine = wiring.warehouse(load_settings())
    try:
        bookkeeping.interrupt_runs(engine, this_process)
    finally:
        engine.dispose()


def this_process(worker: str) -> bool:
    """True for a worker name (``host:pid:nonce``) of this process."""
    return worker.split(":")[1:2] == [str(os.getpid())]
