"""The precision rule: how exactly a figure was printed, and when two figures agree.

A figure printed to ``decimals`` (XBRL sense: -3 = to the thousand, -5 = to the hundred
thousand, 2 = to the cent) stands for any value within half a unit of its last printed digit:
it *agrees* with a value when ``|a - b| <= half_unit(decimals)``, boundary included.
"RMB4,482.3 million" (decimals -5) agrees with 4,482,252,000 and with 4,482,350,000.

Extraction (narrative against table figures), validation (tolerances), restatement findings
and the ``facts_latest`` view all use this module: the view's ``steps`` table is generated from
:func:`half_unit` over :data:`PRINTED_DECIMALS`, and :func:`fold` is what the view computes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Protocol, TypeVar

from domain.enums import Origin
from domain.records import Fact

# The precisions a figure can be printed with (whole trillions to millionths): the rows of the
# facts_latest view's steps table. A report printed outside this range never keeps a value.
PRINTED_DECIMALS = range(-12, 7)


def half_unit(decimals: int) -> Decimal:
    """Half a unit of the last printed digit: RMB89,561 million (decimals -6) -> 500,000."""
    return Decimal(5).scaleb(-decimals - 1)


def agrees(value: Decimal, printed: Decimal, decimals: int) -> bool:
    """True when ``printed``, a figure printed to ``decimals``, may stand for ``value``."""
    return abs(value - printed) <= half_unit(decimals)


def rounded(value: Decimal, decimals: int) -> Decimal:
    """How ``value`` prints at ``decimals`` (half-up): for printing, never to compare figures
    (two figures agree by :func:`agrees`)."""
    step = Decimal(1).scaleb(-decimals)
    return (value / step).quantize(Decimal(1), rounding=ROUND_HALF_UP) * step


class Report(Protocol):
    """A reported value as the warehouse folds it."""

    @property
    def value(self) -> Decimal: ...

    @property
    def decimals(self) -> int: ...

    @property
    def unit(self) -> str: ...


R = TypeVar("R", bound=Report)


def keeps(current: Report, new: Report) -> bool:
    """A newer report leaves ``current`` in place: it is less precise, in the same unit, and
    agrees with the current value to its own rounding (a rounded re-quote, not a restatement)."""
    return (
        new.decimals < current.decimals
        and new.decimals in PRINTED_DECIMALS
        and new.unit == current.unit
        and agrees(current.value, new.value, new.decimals)
    )


def differs(a: Report, b: Report) -> bool:
    """Two reports disagree: another unit, or apart by more than the coarser one's rounding."""
    if a.unit != b.unit:
        return True
    return not agrees(a.value, b.value, min(a.decimals, b.decimals))


def fold(reports: Sequence[R]) -> R:
    """The report that stands after ``reports`` (oldest first), as ``facts_latest`` shows it:
    each report replaces the current one unless it :func:`keeps` it."""
    current = reports[0]
    for report in reports[1:]:
        if not keeps(current, report):
            current = report
    return current


class Sourced(Report, Protocol):
    """A reported value and where it was read (a statement table, running text ...)."""

    @property
    def origin(self) -> str: ...


S = TypeVar("S", bound=Sourced)


def standing(reports: Sequence[S]) -> S:
    """The report ``facts_latest`` shows for one period (``reports`` oldest first): narrative
    reports count only when no other report of the period exists, then :func:`fold`."""
    stated = [r for r in reports if r.origin != Origin.NARRATIVE]
    return fold(stated or reports)


def select_stored_facts(facts: Iterable[Fact]) -> list[Fact]:
    """One fact per key: the most precise wins, then a table figure over a narrative one.

    A narrative figure rounded to 0.1 million must never displace the table figure in
    thousands it agrees with, so precision decides before order.
    """
    best: dict[tuple[str, date | None, date, str], Fact] = {}
    for fact in facts:
        current = best.get(fact.key)
        if current is None or _rank(fact) > _rank(current):
            best[fact.key] = fact
    return list(best.values())


def _rank(fact: Fact) -> tuple[int, int]:
    return (fact.decimals, 1 if fact.origin == Origin.TABLE else 0)
