"""What a source of documents is: the :class:`Source` protocol, and a run's :class:`Sources`.

A source lists an issuer's documents, names the files of one document and downloads a file.
EDGAR (``edgar_source``), HKEXnews (``hkex_source``) and files dropped in by hand (``local``)
implement it; the fetch stage does everything they share (pauses, the raw archive, the
warehouse's cursors). Which class serves which :class:`~domain.enums.SourceName` is decided
in one place, the registry in ``tasks.config.wiring``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Protocol, runtime_checkable

from domain.enums import SourceName
from domain.records import DocumentRef, Issuer, SourceFile, StoredFile
from tasks.sources.http import Response
from tasks.sources.listing import Listing

# Reads a page that may change (a filing index) with revalidation: the fetch stage provides
# it, since only it knows the warehouse's HTTP cache and the raw archive.
PageReader = Callable[[str], bytes]


class Source(Protocol):
    """A place documents come from."""

    @property
    def name(self) -> SourceName:
        """The source's name: the first part of its documents' ids."""
        ...

    @property
    def listed(self) -> bool:
        """True when a scheduled pass lists it (EDGAR, HKEx); hand-dropped files are not."""
        ...

    def refusal(self) -> str:
        """Why it must not be asked anything now (a missing identity); "" when it may."""
        ...

    def discover(
        self, issuer: Issuer, since: date, cursor: Mapping[str, str], now: datetime
    ) -> Listing:
        """What it lists for the issuer from ``since`` (or since the stored ``cursor``)."""
        ...

    def files(
        self, ref: DocumentRef, cik: str, pages: PageReader, archived: Sequence[StoredFile]
    ) -> tuple[SourceFile, ...]:
        """The files of a document worth downloading (``archived``: those stored already)."""
        ...

    def fetch(self, url: str, headers: Mapping[str, str] | None = None) -> Response:
        """Download one file (``headers`` for a conditional request)."""
        ...


@runtime_checkable
class Watched(Protocol):
    """A source with one cross-issuer listing of what it just published (the watch pass)."""

    def latest(self, issuers: Sequence[Issuer]) -> dict[str, list[str]]:
        """Document ids that listing shows for the configured ``issuers``, by ticker (one
        request, whatever the number of issuers)."""
        ...


@runtime_checkable
class FactsProvider(Protocol):
    """A source that also answers an issuer's XBRL company facts (EDGAR)."""

    @property
    def archives_url(self) -> str:
        """Where the filings the facts come from are reached."""
        ...

    def company_facts(self, cik: str) -> Response:
        """Every XBRL fact the issuer filed, in one answer."""
        ...


@dataclass(frozen=True, slots=True)
class Sources:
    """A run's sources by name, and how long a rate-limit block pauses one."""

    by_name: Mapping[SourceName, Source]
    pause_minutes: float = 10.0
    max_pause_minutes: float = 60.0  # the longest pause, whatever a Retry-After asks

    def __getitem__(self, name: str) -> Source:
        return self.by_name[SourceName(name)]

    def listed(self) -> list[SourceName]:
        """The sources a scheduled pass lists, in registry order."""
        return [name for name, source in self.by_name.items() if source.listed]
