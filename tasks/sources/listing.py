"""What a source's listing says about a document, beyond the :class:`DocumentRef` itself."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import TypeVar

from domain.errors import ParseError
from domain.records import DocumentRef

T = TypeVar("T")
# What reading a source's answer of an unexpected shape raises (a field missing, a list where
# an object was, a date that is not one): the answer is bad, not the pipeline.
SHAPE_ERRORS = (KeyError, IndexError, TypeError, ValueError, AttributeError)


def guarded(what: str, read: Callable[[], T]) -> T:
    """``read()``, with an answer of an unexpected shape reported as one ParseError line."""
    try:
        return read()
    except ParseError:
        raise
    except RecursionError:
        raise ParseError(f"{what}: answer nested too deeply") from None
    except SHAPE_ERRORS as exc:
        detail = " ".join(str(exc).split())[:160]
        raise ParseError(f"{what}: unexpected answer ({type(exc).__name__}: {detail})") from None


@dataclass(frozen=True, slots=True)
class Listed:
    """One listed document with the source's metadata (kept up to date on every listing)."""

    ref: DocumentRef
    category: str = ""  # HKEx "t1/t2" codes, e.g. "10000/13300"; "" for SEC
    cancelled: bool = False
    revised: bool = False
    amends: str = ""  # document id of the filing a 6-K/A amends


@dataclass(frozen=True, slots=True)
class Listing:
    """A source's answer for one issuer, and the cursor to store once it is recorded."""

    items: tuple[Listed, ...] = ()
    cursor: dict[str, str] = field(default_factory=dict)
    fiscal_year_end: str = ""  # "MMDD" when the source says (SEC's fiscalYearEnd)

    @property
    def refs(self) -> list[DocumentRef]:
        """The listed documents."""
        return [item.ref for item in self.items]


def iso(value: date | None) -> str:
    """A date as cursor text ("" for none)."""
    return value.isoformat() if value else ""


def from_iso(value: object) -> date | None:
    """A cursor date back (None when absent or unreadable)."""
    try:
        return date.fromisoformat(str(value)) if value else None
    except ValueError:
        return None
