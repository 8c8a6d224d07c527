"""SEC XBRL ``companyfacts``: every fact an issuer filed, read into facts per filing.

Pure: bytes in, :class:`~domain.xbrlrecords.AuditedFiling` records out. The body's shape
(``facts -> taxonomy -> concept -> units -> [{start, end, val, accn, fy, fp, form, filed,
frame}]``) is SEC's; which concepts are which metrics is the shared data file
``xbrl_concepts.csv`` (us-gaap and ifrs-full). Company facts carry no ``decimals`` attribute:
a filed value is taken as exact (a whole number: decimals 0; 0.019: 3). Guessing from trailing
zeros would call an exact 13,677,740 "to the ten".
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from functools import cache
from pathlib import Path
from typing import Any

from domain.enums import Basis, Origin
from domain.errors import ParseError
from domain.records import Fact, Provenance
from domain.xbrlrecords import ANNUAL_FORMS, QUARTERLY_FORMS, AuditedFiling

CONCEPTS_CSV = Path(__file__).resolve().parent / "xbrl_concepts.csv"
_BASIS = {"us-gaap": Basis.US_GAAP, "ifrs-full": Basis.IFRS}
_FORMS = (*ANNUAL_FORMS, *QUARTERLY_FORMS)


@dataclass(frozen=True, slots=True)
class Concept:
    """One mapped concept and its rank among the concepts of its metric (0 first)."""

    taxonomy: str
    name: str
    metric: str
    rank: int


@cache
def concept_map(path: Path = CONCEPTS_CSV) -> dict[tuple[str, str], Concept]:
    """(taxonomy, concept) -> Concept; earlier rows of a metric win over later ones."""
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    ranks: dict[tuple[str, str], int] = {}
    out = {}
    for row in rows:
        key = (row["taxonomy"], row["metric"])
        ranks[key] = ranks.get(key, -1) + 1
        out[(row["taxonomy"], row["concept"])] = Concept(
            row["taxonomy"], row["concept"], row["metric"], ranks[key]
        )
    return out


def parse_company_facts(body: bytes, source: str = "companyfacts.json") -> list[AuditedFiling]:
    """The mapped figures of every 20-F, 10-K and 10-Q in a companyfacts body, one record per
    filing (oldest first). Only the issuer's reporting currency is kept (convenience
    translations carry the same concept in another currency); ``source`` names the file."""
    try:
        data = json.loads(body)
    except ValueError:
        raise ParseError(f"{source}: company facts are not valid JSON") from None
    facts = data.get("facts") if isinstance(data, Mapping) else None
    if not isinstance(facts, Mapping):
        raise ParseError(f"{source}: company facts lack the 'facts' object")
    picked: dict[tuple[str, tuple[str, date | None, date, str]], tuple[int, Fact]] = {}
    filings: dict[str, tuple[str, date]] = {}
    for taxonomy, basis in _BASIS.items():
        concepts = facts.get(taxonomy) or {}
        currency = reporting_currency(concepts)
        for concept, unit, item in _items(taxonomy, concepts):
            fact = _fact(taxonomy, concept, unit, item, currency, basis, source)
            if fact is None:
                continue
            accession = str(item["accn"])
            filings.setdefault(accession, (str(item["form"]), date.fromisoformat(item["filed"])))
            slot = (accession, fact.key)
            if slot not in picked or concept.rank < picked[slot][0]:
                picked[slot] = (concept.rank, fact)
    by_filing: dict[str, list[Fact]] = {}
    for (accession, _), (_, fact) in picked.items():
        by_filing.setdefault(accession, []).append(fact)
    records = [
        AuditedFiling(accn, form, filed, tuple(sorted(by_filing[accn], key=_order)))
        for accn, (form, filed) in filings.items()
    ]
    return sorted(records, key=lambda r: (r.filed, r.accession))


def newest_filed(body: bytes) -> date | None:
    """The newest filing date of any fact in a companyfacts body (cover facts included)."""
    data = json.loads(body)
    facts = data.get("facts") if isinstance(data, Mapping) else None
    dates = [
        str(item.get("filed", ""))
        for concepts in (facts.values() if isinstance(facts, Mapping) else ())
        if isinstance(concepts, Mapping)
        for concept in concepts.values()
        if isinstance(concept, Mapping)
        for items in (concept.get("units") or {}).values()
        for item in items
        if isinstance(item, Mapping)
    ]
    try:
        return date.fromisoformat(max(dates)) if any(dates) else None
    except ValueError:
        raise ParseError("company facts carry an unreadable filing date") from None


def reporting_currency(concepts: Mapping[str, Any]) -> str:
    """The currency most of the taxonomy's figures are in (ties: alphabetical)."""
    counts: dict[str, int] = {}
    for body in concepts.values():
        for unit, items in (body.get("units") or {}).items():
            if _is_currency(unit):
                counts[unit] = counts.get(unit, 0) + len(items)
    return min(counts, key=lambda c: (-counts[c], c)) if counts else ""


def _is_currency(unit: str) -> bool:
    return len(unit) == 3 and unit.isalpha() and unit.isupper()


def _items(
    taxonomy: str, concepts: Mapping[str, Any]
) -> Iterator[tuple[Concept, str, Mapping[str, Any]]]:
    mapping = concept_map()
    for name, body in concepts.items():
        concept = mapping.get((taxonomy, name))
        if concept is None or not isinstance(body, Mapping):
            continue
        for unit, items in (body.get("units") or {}).items():
            for item in items:
                if isinstance(item, Mapping) and item.get("form") in _FORMS:
                    yield concept, unit, item


def _fact(
    taxonomy: str,
    concept: Concept,
    unit: str,
    item: Mapping[str, Any],
    currency: str,
    basis: Basis,
    source: str,
) -> Fact | None:
    """One figure as a fact, or None when it is in another currency than the reporting one."""
    ours = _unit(unit, currency)
    if ours is None:
        return None
    try:
        value = Decimal(str(item["val"]))
        end = date.fromisoformat(item["end"])
        start = date.fromisoformat(item["start"]) if item.get("start") else None
    except (KeyError, ValueError, InvalidOperation):
        raise ParseError(f"{source}: {taxonomy}:{concept.name} has an unreadable fact") from None
    period = f"{start} to {end}" if start else f"as of {end}"
    return Fact(
        metric=concept.metric,
        period_start=start,
        period_end=end,
        value=value,
        unit=ours,
        scale=0,
        decimals=shown_decimals(value),
        provenance=Provenance(
            document=source,
            locator=f"{taxonomy}:{concept.name}",
            row_label=concept.name,
            column=f"{period} ({item.get('form')} {item.get('accn')}, filed {item.get('filed')})",
            raw_text=str(item["val"]),
        ),
        basis=basis,
        origin=Origin.XBRL,
    )


def _unit(unit: str, currency: str) -> str | None:
    """Our unit for an XBRL unit ("CNY" -> "CNY", "CNY/shares" -> "CNY/share")."""
    if _is_currency(unit):
        return unit if unit == currency else None
    money, _, per = unit.partition("/")
    if per == "shares" and _is_currency(money):
        return f"{money}/share" if money == currency else None
    return None


def shown_decimals(value: Decimal) -> int:
    """The places a filed value shows, taken as exact: 4275123000 -> 0, 0.019 -> 3."""
    exponent = value.normalize().as_tuple().exponent
    return max(0, -int(exponent)) if isinstance(exponent, int) else 0


def _order(fact: Fact) -> tuple[str, str, date]:
    return (fact.metric, str(fact.period_start or ""), fact.period_end)
