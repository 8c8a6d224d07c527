"""Per share: EPS times the weighted average shares is the earnings it is computed on.

The shares and the earnings come from the statement's own rows (a US-style income statement
prints the weighted shares under its EPS) or from the document's earnings-per-share note (an
HKFRS statement prints only the EPS; its note gives "Weighted average number of ordinary shares
for the purpose of basic earnings per share 312,554 ('000)" and the earnings, which for diluted
EPS may differ from the attributable profit). The figure is the EPS's rounding of the quotient,
so the tolerance is the EPS's half unit times the shares, plus the shares' and earnings' own.

Pure and standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from enum import StrEnum

from domain.precision import half_unit
from domain.records import Fact, Verdict

PROFIT = ("net_income_attributable_to_company", "net_income")


class Dilution(StrEnum):
    """Which earnings per share a basis is for."""

    BASIC = "basic"
    DILUTED = "diluted"


# the EPS metric of each dilution and the metric of its weighted shares
EPS_SHARES = {
    Dilution.BASIC: ("eps_basic_per_share", "weighted_avg_shares_basic"),
    Dilution.DILUTED: ("eps_diluted_per_share", "weighted_avg_shares_diluted"),
}


@dataclass(frozen=True, slots=True)
class PerShareBasis:
    """What a document's EPS note says one period's EPS is computed on: the weighted average
    shares and, where printed, the earnings (whole units, with their XBRL-style decimals)."""

    period_start: date | None
    period_end: date
    basis: str  # the EPS fact's basis (Basis value)
    dilution: Dilution
    shares: Decimal
    shares_decimals: int
    earnings: Decimal | None
    earnings_decimals: int
    source: str  # "note 'EARNINGS PER SHARE', page 9, table 1"


def per_share(
    present: Mapping[str, Fact], group: str, bases: Sequence[PerShareBasis] = ()
) -> list[Verdict]:
    """EPS x weighted shares = its earnings (the note's, else the attributable profit, else the
    profit), to the EPS's rounding; one verdict per EPS printed, "not evaluated" (its missing
    terms named) where no shares are printed."""
    out = []
    profit = next((present[m] for m in PROFIT if m in present), None)
    for dilution, (eps_metric, shares_metric) in EPS_SHARES.items():
        eps = present.get(eps_metric)
        if eps is None:
            continue
        name = f"{eps_metric}_times_shares_is_profit"
        note = next((b for b in bases if b.dilution == dilution), None)
        shares = _shares(present.get(shares_metric), note)
        earnings = _earnings(profit, note)
        if shares is None or earnings is None:
            missing = tuple(
                m for m, v in ((shares_metric, shares), (PROFIT[0], earnings)) if v is None
            )
            out.append(Verdict(name, group, False, missing))
            continue
        (n, n_dec, n_term), (e, e_dec, e_term) = shares, earnings
        lhs = eps.value * n
        tolerance = half_unit(eps.decimals) * abs(n) + half_unit(n_dec) * abs(eps.value)
        tolerance += half_unit(e_dec)
        held = abs(lhs - e) <= tolerance
        terms = (eps_metric, n_term, e_term)
        out.append(Verdict(name, group, held, (), lhs, e, tolerance, terms))
    return out


_Term = tuple[Decimal, int, str]  # value, decimals, what it is (a metric or the note)


def _shares(fact: Fact | None, note: PerShareBasis | None) -> _Term | None:
    if fact is not None:
        return fact.value, fact.decimals, fact.metric
    if note is not None:
        return note.shares, note.shares_decimals, f"weighted shares ({note.source})"
    return None


def _earnings(profit: Fact | None, note: PerShareBasis | None) -> _Term | None:
    if note is not None and note.earnings is not None:
        return note.earnings, note.earnings_decimals, f"earnings ({note.source})"
    if profit is not None:
        return profit.value, profit.decimals, profit.metric
    return None
