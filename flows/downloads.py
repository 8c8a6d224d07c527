"""A run's fetch stage, running ahead of its processing at the sources' pace.

A thread of its own claims the run's documents one after another and downloads each (the
``fetch`` task, in the task runner's threads, up to ``IN_FLIGHT`` at a time) into the raw
archive, as fast as the sources allow, whatever extraction and validation (CPU, one document
at a time in the flow's thread) do meanwhile; SEC's pacer keeps every request of every process
within the fair-access limit. A download keeps only its files' records (the bytes stay in the
archive), so a backfill's fetch stage may run far ahead. The flow gets the documents in the
run's order as their downloads end, in batches of one document per issuer (validated together,
``flows.processing``), and renews each claim before processing it: a document another run
claimed first, or took over meanwhile, is left to it.
"""

from __future__ import annotations

import contextvars
import queue
import threading
from collections import deque
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from prefect.futures import PrefectFuture, PrefectWrappedFuture
from prefect.states import State
from sqlalchemy.engine import Engine

from domain.records import Issuer
from tasks import fetch, load
from tasks.sources.archive import RawArchive
from tasks.sources.protocol import Sources

# Downloads at once: enough to keep SEC at its pace (each request waits its turn at the pacer).
IN_FLIGHT = 16
_Item = tuple[Issuer, str, PrefectFuture[Any]]


def claimed_downloads(
    engine: Engine,
    clients: Sources,
    archive: RawArchive,
    todo: list[tuple[Issuer, str]],
    worker: str,
    force: bool,
    elsewhere: list[str],
    size: int = 1,
) -> Generator[list[tuple[Issuer, str, State[Any]]], None, None]:
    """The documents this run holds, in order, each with its download's final state, in
    batches: the next document, then those after it whose downloads are done too, up to
    ``size`` and one per issuer (an issuer's next document waits for the batch after). The
    ones another run holds are added to ``elsewhere``."""
    ready: queue.Queue[_Item | BaseException | None] = queue.Queue()
    stop = threading.Event()
    stage = _Stage(engine, clients, archive, todo, worker, force, elsewhere)
    # the thread runs in this flow run's context: its tasks belong to the run
    context = contextvars.copy_context()
    thread = threading.Thread(target=context.run, args=(_drive, stage, ready, stop), daemon=True)
    thread.start()
    try:
        held: deque[_Item] = deque()  # taken from the queue, not yet in a batch
        while batch := _next_batch(ready, held, size):
            claimed = []
            for issuer, doc, future in batch:
                if load.claim(engine, doc, worker, force):  # renewed: still this run's
                    claimed.append((issuer, doc, future.state))
                else:
                    elsewhere.append(doc)
            if claimed:
                yield claimed
    finally:
        stop.set()  # an early end (an error, a cancelled run): claim and download no more
        thread.join(timeout=60)


def _next_batch(
    ready: queue.Queue[_Item | BaseException | None], held: deque[_Item], size: int
) -> list[_Item]:
    """Waits for the next document's download; adds the following ones already downloaded."""
    batch: list[_Item] = []
    while len(batch) < size:
        if not held:
            try:
                item = ready.get(block=not batch)
            except queue.Empty:
                break
            if isinstance(item, BaseException):
                raise item
            if item is None:
                ready.put(None)  # the end: every later call sees it too
                break
            held.append(item)
        issuer, _, future = held[0]
        if batch and (not _done(future) or any(i is issuer for i, _, _ in batch)):
            break
        future.wait()  # its files are archived, or it failed after its retries
        batch.append(held.popleft())
    return batch


def _done(future: PrefectFuture[Any]) -> bool:
    # the task runner's own future answers without asking the API for the task run's state
    if isinstance(future, PrefectWrappedFuture):
        return bool(future.wrapped_future.done())
    return future.state.is_final()


@dataclass(frozen=True, slots=True)
class _Stage:
    """What the fetch stage's thread works with: the run's warehouse, sources and archive, its
    documents in order, and who it claims them as."""

    engine: Engine
    clients: Sources
    archive: RawArchive
    todo: list[tuple[Issuer, str]]
    worker: str
    force: bool
    elsewhere: list[str]


def _drive(
    stage: _Stage, ready: queue.Queue[_Item | BaseException | None], stop: threading.Event
) -> None:
    in_flight: deque[PrefectFuture[Any]] = deque()
    try:
        for issuer, doc in stage.todo:
            while len(in_flight) >= IN_FLIGHT:
                in_flight.popleft().wait()  # the oldest: the pacer keeps them about in order
            if stop.is_set():
                return
            if load.claim(stage.engine, doc, stage.worker, stage.force):
                future = fetch.fetch_task.submit(
                    stage.engine, stage.clients, stage.archive, issuer.cik, doc
                )
                in_flight.append(future)
                ready.put((issuer, doc, future))
            else:
                stage.elsewhere.append(doc)
    except BaseException as exc:  # noqa: BLE001 - the flow's thread raises it
        ready.put(exc)
    finally:
        ready.put(None)
