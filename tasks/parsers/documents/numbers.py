"""Statement cell text -> exact Decimal.

Accepts the forms the filings print: ``4,160,063``, ``(366,065)``, ``-366,065``, ``6.70``,
``27.9%``, a figure glued to its currency (``RMB0.002``, ``HK$0.08``), and the nil marks ``—``,
``-``, ``_``. Anything else is *damaged*: it yields no value,
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
# a currency glued to the figure, also inside its sign ("(RMB0.05)"); a bare "$" is the column's
_CURRENCY = re.compile(
    r"^(?P<sign>[(\-−]?)(?P<lead>RMB|US\$|USD|HK\$|HKD|\$)\s*|\s*(?P<tail>RMB|USD|HKD)$"
)
_ISO = {"RMB": "CNY", "US$": "USD", "USD": "USD", "HK$": "HKD", "HKD": "HKD", "$": ""}
# a per-share amount printed in cents says so in its label, with its currency or not:
# "— Basic (Hong Kong cents)", "(HK cents)", "（港仙）", "(RMB cents)", "人民幣分", "(cents)"
_CENTS = (
    ("HKD", re.compile(r"\b(?:Hong Kong|HK\$?) ?cents?\b|港[幣币]?仙", re.I)),
    ("CNY", re.compile(r"\b(?:RMB|Renminbi) ?cents?\b|人民[幣币] ?分", re.I)),
    ("USD", re.compile(r"\b(?:US\$?|U\.S\.) ?cents?\b|美仙", re.I)),
    ("", re.compile(r"[(（]\s*cents?\s*[)）]|\bin cents\b|[(（]仙[)）]", re.I)),
)
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
    currency: str = ""  # ISO code of a currency glued to the figure ("RMB0.002" -> CNY)


def clean_cell(text: str) -> str:
    """Collapse whitespace (including no-break spaces) and strip."""
    return " ".join(text.replace("\xa0", " ").replace("\u200b", "").split())


@lru_cache(maxsize=2048)  # a table's cells are read by several passes (rows, facts, headers)
def parse_cell(text: str) -> CellValue:
    """Parse one statement cell; never raises (the result is shared: it is frozen)."""
    raw = clean_cell(text)
    glued = [m["lead"] or m["tail"] for m in _CURRENCY.finditer(raw)]
    body = _CURRENCY.sub(lambda m: m["sign"] or "", raw).replace(" ", "")
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
    currency = _ISO[glued[0]] if glued else ""
    return CellValue(CellKind.NUMBER, value, len(frac), percent, raw, currency)


def cents_of(label: str) -> str | None:
    """A per-share amount printed in cents: the currency its label names ("(Hong Kong cents)",
    "（港仙）" -> "HKD"; "(cents)" -> "", the column's), None when the label says no cents.
    Its figures are hundredths of that currency (18.82 cents -> 0.1882 per share)."""
    return next((code for code, rx in _CENTS if rx.search(label)), None)


def is_year(text: str) -> bool:
    """True for a bare year such as ``2024`` (a header cell, not a value)."""
    return re.fullmatch(r"(?:19|20)\d{2}", clean_cell(text)) is not None
