"""Cross-checks across a document's facts: one value per fact key, IFRS anchored to GAAP."""

from __future__ import annotations

from decimal import Decimal

from domain.enums import Basis
from domain.precision import agrees
from domain.records import Fact


def settle(
    facts: list[Fact], gaap_refs: dict[int, Decimal], document: str
) -> tuple[list[Fact], list[str]]:
    """Keep one fact per key; drop keys whose values disagree, and IFRS facts whose GAAP
    column disagrees with the GAAP statement of the same document."""
    warnings: list[str] = []
    by_key: dict[tuple, list[Fact]] = {}
    for fact in facts:
        by_key.setdefault(fact.key, []).append(fact)
    kept: list[Fact] = []
    for key, group in by_key.items():
        values = {f.value for f in group}
        if len(values) > 1:
            shown = ", ".join(f"{f.value} ({f.provenance.locator})" for f in group)
            warnings.append(f"{document}: conflicting values for {key[0]} {key[2]}: {shown}")
            continue
        kept.append(group[0])
    gaap = {
        (f.metric, f.period_start, f.period_end): f.value for f in kept if f.basis != Basis.IFRS
    }
    out: list[Fact] = []
    for fact in kept:
        ref = gaap_refs.get(id(fact))
        seen = gaap.get((fact.metric, fact.period_start, fact.period_end))
        if fact.basis == Basis.IFRS and ref is not None and seen is not None and seen != ref:
            warnings.append(
                f"{document}: IFRS {fact.metric} {fact.period_end} dropped: its U.S. GAAP "
                f"column {ref} differs from the statement's {seen}"
            )
            continue
        out.append(fact)
    return out, warnings


def reconcile(
    table: list[Fact], narrative: list[Fact], document: str
) -> tuple[list[Fact], list[str]]:
    """Table facts plus the narrative facts no table states.

    A narrative figure for a key the tables hold is never stored: it is only compared with the
    table figure to its own precision (:func:`domain.precision.agrees`), and a disagreement
    is a warning.
    """
    by_key = {f.key: f for f in table}
    out = list(table)
    warnings: list[str] = []
    for fact in narrative:
        stated = by_key.get(fact.key)
        if stated is None:
            out.append(fact)
        elif not agrees(stated.value, fact.value, fact.decimals):
            warnings.append(
                f"{document}: narrative {fact.metric} {fact.period_end} "
                f"{fact.provenance.raw_text!r} disagrees with the table's {stated.value}"
            )
    return out, warnings
