"""Progress of a run, for whoever is watching in this process (the CLI's progress bars).

Flows call :func:`start` and :func:`advance`; nothing listens unless the CLI installed a
listener with :func:`listening`, so scheduled runs pay nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol


class Listener(Protocol):
    """Receives a run's progress."""

    def start(self, total: int, label: str) -> None:
        """A batch of ``total`` documents begins (``label``: the issuer or 'local files')."""

    def advance(self, item: str) -> None:
        """One document of the batch is done."""


_listeners: list[Listener] = []


@contextmanager
def listening(listener: Listener) -> Iterator[Listener]:
    """Send progress to ``listener`` while the block runs."""
    _listeners.append(listener)
    try:
        yield listener
    finally:
        _listeners.remove(listener)


def start(total: int, label: str) -> None:
    """Announce a batch of ``total`` documents."""
    _each(lambda listener: listener.start(total, label))


def advance(item: str) -> None:
    """Announce that one document is done."""
    _each(lambda listener: listener.advance(item))


def _each(call: Callable[[Listener], None]) -> None:
    for listener in list(_listeners):
        call(listener)
