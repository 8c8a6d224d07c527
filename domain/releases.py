"""When two documents are one release: the same issuer's figures, published days apart.

A results release reaches the warehouse as an SEC exhibit, an HKEx PDF, or a file a person
drops in: a hand-dropped copy in another format than the one already loaded would add every
figure to ``facts_history`` a second time. Consecutive releases share their comparative
columns (about a third of their figures), never nearly all of them. An HKEx announcement's
English and Chinese editions print the same figures under labels in two languages: each is a
document the issuer published, loaded in its own right (the editions are then compared:
:func:`printed_by_both` pairs their figures, :func:`disagreements` are the pairs apart by more
than the rounding of both; ``expectations/cross.py`` checks them, ``storage/findings.py``
alerts them).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta
from decimal import Decimal

from domain.precision import half_unit, select_stored_facts
from domain.records import Fact

NEAR = timedelta(days=3)  # SEC and HKEx copies are a day apart (time zones, filing cut-offs)
MIN_FIGURES = 10  # fewer figures say too little to call two documents one release
SHARE = Decimal("0.9")  # of the new document's figures found, as printed, in the held one

Figure = tuple[str, date | None, date, str, str, Decimal]
# The expectation comparing the documents of one disclosure figure by figure
# (expectations/suites/cross_source.json): its failure holds both documents.
AGREEMENT_CHECK = "facts_agree_across_sources"


def figures(facts: Iterable[Fact]) -> set[Figure]:
    """What a document printed: each metric, period, basis, unit and value. The basis is part
    of what a figure is: a 6-K printing its US GAAP statements and their IFRS reconciliation
    prints one metric and period twice, two values, neither contradicting the other."""
    return {(f.metric, f.period_start, f.period_end, f.basis, f.unit, f.value) for f in facts}


def shared(ours: Iterable[Fact], theirs: Iterable[Fact]) -> tuple[int, int]:
    """(figures of ours also in theirs, figures of ours)."""
    mine = figures(ours)
    return len(mine & figures(theirs)), len(mine)


def contradicted(ours: Iterable[Fact], theirs: Iterable[Fact]) -> int:
    """Figures of ours that theirs prints otherwise (same metric, period, basis and unit)."""
    printed = {f[:5]: f[5] for f in figures(theirs)}
    return sum(1 for f in figures(ours) if f[:5] in printed and printed[f[:5]] != f[5])


def _chinese(label: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in label)


def edition(facts: Iterable[Fact]) -> str:
    """The language its row labels are printed in: "zh" when most carry Chinese characters."""
    labels = [f.provenance.row_label for f in facts if f.provenance.row_label]
    chinese = sum(1 for label in labels if _chinese(label))
    return "zh" if labels and 2 * chinese > len(labels) else "en"


def is_same_release(ours: Iterable[Fact], theirs: Iterable[Fact]) -> bool:
    """True when nearly every figure of ours is printed, the same, in theirs, and none
    otherwise, in the same language: a corrected or altered version is another document,
    never dropped; so is the release's other language edition."""
    ours, theirs = list(ours), list(theirs)
    if edition(ours) != edition(theirs):
        return False
    same, total = shared(ours, theirs)
    return total >= MIN_FIGURES and same >= SHARE * total and not contradicted(ours, theirs)


def printed_by_both(ours: Iterable[Fact], theirs: Iterable[Fact]) -> list[tuple[Fact, Fact]]:
    """(our figure, theirs) for each figure both print: same metric, period, basis and unit;
    each document's most precise printing of it (``select_stored_facts``), so the pairs are
    the same whichever of the two is ours."""
    mine = {f.key: f for f in select_stored_facts(ours)}
    return [
        (mine[t.key], t)
        for t in select_stored_facts(theirs)
        if t.key in mine and mine[t.key].unit == t.unit
    ]


def tolerance(a: Fact, b: Fact) -> Decimal:
    """How far two printings of one figure may be apart: the rounding of each."""
    return half_unit(a.decimals) + half_unit(b.decimals)


def disagreements(ours: Iterable[Fact], theirs: Iterable[Fact]) -> list[tuple[Fact, Fact]]:
    """The figures both print that are apart by more than :func:`tolerance`."""
    return [
        (a, b) for a, b in printed_by_both(ours, theirs) if abs(a.value - b.value) > tolerance(a, b)
    ]
