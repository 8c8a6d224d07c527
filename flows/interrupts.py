"""Ctrl-C and SIGTERM during a flow run: one line, exit 130/143, the run recorded as
interrupted, nothing half-stored.

SIGTERM's default ends the process at once (its run stays ``running``, its claims held), so
both signals raise :class:`Interrupted` in the main thread while a flow runs; the flow's own
``finally`` blocks release its claims and each document's transaction rolls back. Inside a
Prefect task the exception would be taken for the task's failure (a document "failed" and the
run went on), so a signal arriving there is raised when the document is done (the next
progress event, seconds later). A second signal during the clean-up is ignored: the clean-up
is short and must finish.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

from flows import progress

INTERRUPTED_CODES = (128 + signal.SIGINT, 128 + signal.SIGTERM)


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
    """How many documents the run announced and finished (a progress listener), and the
    signal that waits for the current document to end (0: none)."""

    total: int = 0
    done: int = 0
    pending: int = 0

    def start(self, total: int, label: str) -> None:
        """A batch begins."""
        self.total += total
        self.stop_if_asked()

    def advance(self, item: str) -> None:
        """A document is done."""
        self.done += 1
        self.stop_if_asked()

    def stop_if_asked(self) -> None:
        """Raise the signal that arrived while a task ran."""
        if self.pending:
            raise Interrupted(self.pending, self.done, self.total)


@contextmanager
def interruptible() -> Iterator[None]:
    """Turn SIGINT and SIGTERM into :class:`Interrupted` (with the run's counts) for the block,
    in the main thread; the previous handlers come back after it."""
    counted = Counted()

    def stop(signum: int, frame: FrameType | None) -> None:
        for each in (signal.SIGINT, signal.SIGTERM):
            signal.signal(each, signal.SIG_IGN)  # the clean-up runs to its end
        if _in_task(frame):
            counted.pending = signum  # raised at the next progress event
            return
        raise Interrupted(signum, counted.done, counted.total)

    before = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        with progress.listening(counted):
            yield
    except Interrupted:
        _record()
        raise
    except KeyboardInterrupt as exc:  # Prefect re-raised it in its own form
        _record()
        raise Interrupted(signal.SIGINT, counted.done, counted.total) from exc
    finally:
        for each, handler in before.items():
            signal.signal(each, handler)


def _in_task(frame: FrameType | None) -> bool:
    """True when the main thread is inside Prefect's task engine (running a task)."""
    while frame is not None:
        if str(frame.f_globals.get("__name__", "")).startswith("prefect.task_engine"):
            return True
        frame = frame.f_back
    return False


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
