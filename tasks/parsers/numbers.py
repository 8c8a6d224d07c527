"""Statement cell text -> exact Decimal.

Accepts the forms the filings print: ``4,160,063``, ``(366,065)``, ``-366,065``, ``6.70``,
``27.9%``, and the nil marks ``—``, ``-``, ``_``. Anything else is *damaged*: it yields no value,
so a garbled cell can never become a silent wrong number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from functools import lru_cache

_SUPERSCRIPTS = "¹²³⁴⁵⁶⁷⁸⁹⁰"
NIL_MARKS = frozenset({"—", "–", "-", "_", "--", "nil", "Nil", "−"})
_CURRENCY = re.compile(r"^(?:RMB|US\$|USD|HK\$|\$)\s*|\s*(?:RMB|USD)$")
# Thousands groups must be well formed (no leading zero group, exactly three digits each);
# without separators at most three integer digits, since the filings print 1,000 and above
# with commas (a bare "1760" or "000,202" is extraction damage).
_NUMBER = re.compile(
    r"^(?P<open>\()?(?P<minus>[-−])?"
    r"(?P<int>(?:[1-9]\d{0,2}(?:,\d{3})+)|\d{1,3})"
    r"(?:\.(?P<frac>\d+))?(?P<pct>%)?(?P<close>\))?(?P<pct2>%)?$"
)


class CellKind(StrEnum):
    """What a cell holds."""

    EMPTY = "empty"
    NIL = "nil"
    NUMBER = "number"
    TEXT = "text"  # words without digits: a header or a label fragment
    DAMAGED = "damaged"  # digits that do not form a well-formed figure


@dataclass(frozen=True, slots=True)
class CellValue:
    """A parsed cell: ``value`` is the printed figure (not yet scaled)."""

    kind: CellKind
    value: Decimal | None = None
    frac_digits: int = 0
    percent: bool = False
    raw: str = ""


def clean_cell(text: str) -> str:
    """Collapse whitespace (including no-break spaces) and strip."""
    return " ".join(text.replace("\xa0", " ").replace("\u200b", "").split())


@lru_cache(maxsize=2048)  # a table's cells are read by several passes (rows, facts, headers)
def parse_cell(text: str) -> CellValue:
    """Parse one statement cell; never raises (the result is shared: it is frozen)."""
    raw = clean_cell(text)
    body = _CURRENCY.sub("", raw).replace(" ", "")
    if body[-1:] in _SUPERSCRIPTS:
        body = body.rstrip(_SUPERSCRIPTS)  # a footnote mark on a figure ("4,177,890¹")
    if not body:
        return CellValue(CellKind.EMPTY, raw=raw)
    if body in NIL_MARKS:
        return CellValue(CellKind.NIL, Decimal(0), raw=raw)
    if not any(ch.isdigit() for ch in body):
        return CellValue(CellKind.TEXT, raw=raw)
    match = _NUMBER.match(body)
    if match is None or bool(match["open"]) != bool(match["close"]):
        return CellValue(CellKind.DAMAGED, raw=raw)
    if match["open"] and match["minus"]:
        return CellValue(CellKind.DAMAGED, raw=raw)
    frac = match["frac"] or ""
    value = Decimal(match["int"].replace(",", "") + ("." + frac if frac else ""))
    if match["open"] or match["minus"]:
        value = -value
    percent = bool(match["pct"] or match["pct2"])
    return CellValue(CellKind.NUMBER, value, len(frac), percent, raw)


def is_year(text: str) -> bool:
    """True for a bare year such as ``2024`` (a header cell, not a value)."""
    return re.fullmatch(r"(?:19|20)\d{2}", clean_cell(text)) is not None
