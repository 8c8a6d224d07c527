"""Modules a run's threads need, imported by the flow's thread before it starts them.

Python's import lock lets a module imported by two threads at once be seen half-initialised
by one of them when their imports cross (a circular import inside a package, as SQLAlchemy's
ORM has): an outside probe's two concurrent runs lost one of 72 documents to
``AttributeError: partially initialized module 'sqlalchemy.orm.exc'``. So nothing a task
thread or the fetch stage's thread needs is left to be imported lazily there: the flow's
thread imports it first, while it is the only thread of the run (the threads' own modules
are imported at the top of theirs).
"""

from __future__ import annotations

import importlib

# What Prefect's task threads, the fetch stage and the sources import lazily at their first
# use (found by recording every import made outside the main thread during replay runs on
# SQLite and PostgreSQL), and SQLAlchemy's ORM, which Great Expectations imports.
THREADS_NEED = (
    "_strptime",  # time.strptime's first call imports it (a known race of its own)
    "sqlalchemy.orm",
    "sqlalchemy.orm.exc",
    "anyio._backends._asyncio",
    "anyio._core._resources",
    "anyio._core._sockets",
    "anyio._core._streams",
    "anyio.abc",
    "anyio.streams.memory",
    "anyio.streams.stapled",
    "anyio.streams.tls",
)
# What validating and extracting documents imports (seconds for Great Expectations): only
# for a run with documents to process, before its fetch stage starts.
PROCESSING_NEEDS = (
    "great_expectations",
    "tasks.parsers.documents.html",
    "tasks.parsers.documents.pdf",
)


def before_threads(processing: bool = False) -> None:
    """Import what the run's threads need (and, ``processing``, what processing needs)."""
    for name in THREADS_NEED + (PROCESSING_NEEDS if processing else ()):
        importlib.import_module(name)
