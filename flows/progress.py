"""Progress of a run, for whoever is watching in this process (the CLI's progress bars).

Flows call :func:`start` and :func:`advance`; nothing listens unless the CLI installed a
listener with :func:`listening`, so scheduled runs pay nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol


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


def describe(engine: Any, document_id: str) -> str:
    """A document as a progress line names it: issuer, form, id and title ("QFIN HKEx Final
    Results hkex:11480512: ANNOUNCEMENT OF THE FOURTH QUARTER ..."); the id alone if unknown."""
    if not _listeners:  # nobody watching: no read
        return document_id
    # deferred: the warehouse's SQL layer, only while a person watches
    from storage.documents import get_document

    try:
        with engine.connect() as conn:
            ref = get_document(conn, document_id)
    except LookupError:
        return document_id
    title = ref.title if ref.title.strip() and ref.title != ref.form else ""
    # an HKEx form's title opens with the form's name: said once
    title = title.removeprefix(f"{ref.form.removeprefix('HKEx ')} - ")
    title = title if len(title) <= 60 else title[:59].rstrip() + "…"
    return f"{ref.issuer} {ref.form} {document_id}" + (f": {title}" if title else "")


def _each(call: Callable[[Listener], None]) -> None:
    for listener in list(_listeners):
        call(listener)
