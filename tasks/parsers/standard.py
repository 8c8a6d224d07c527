"""Statement rows -> line items: the unit each row is in and the metric it maps to (or None).

A row takes the metric of the statement fact read from the same cell (same file, table,
period, basis and value; the label breaks a tie). Rows no fact was read from stay unmapped,
with a unit from their currency and label.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import date
from decimal import Decimal

from tasks.core.enums import Basis, Origin
from tasks.core.records import Fact
from tasks.core.rowrecords import LineItem, StatementRow

CellKey = tuple[str, str, date | None, date, Basis, Decimal]


def _cell(file: str, locator: str, row_or_fact: StatementRow | Fact) -> CellKey:
    r = row_or_fact
    return (file, locator, r.period_start, r.period_end, Basis(r.basis), r.value)


def line_items(rows: Sequence[StatementRow], facts: Iterable[Fact]) -> tuple[LineItem, ...]:
    """Every row as a line item, with the metric and unit of the table fact read from its cell."""
    by_cell: dict[CellKey, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        by_cell[_cell(row.provenance.document, row.provenance.locator, row)].append(i)
    chosen: dict[int, Fact] = {}
    for fact in facts:
        if fact.origin != Origin.TABLE:
            continue
        p = fact.provenance
        candidates = [
            i for i in by_cell.get(_cell(p.document, p.locator, fact), ()) if i not in chosen
        ]
        same_label = [i for i in candidates if rows[i].row_label == p.row_label]
        pick = (same_label or candidates)[:1]
        if pick:
            chosen[pick[0]] = fact
    return tuple(
        LineItem(row, chosen[i].unit, chosen[i].metric)
        if i in chosen
        else LineItem(row, row_unit(row))
        for i, row in enumerate(rows)
    )


def row_unit(row: StatementRow) -> str:
    """The unit of a row no metric maps: its currency (per share / per ADS when the label says
    so), else shares, percent or count by its label."""
    label = row.row_label.lower()
    if row.currency:
        if "per ads" in label or "per american depositary" in label:
            return f"{row.currency}/ADS"
        if "per share" in label or "per ordinary share" in label or "per common share" in label:
            return f"{row.currency}/share"
        return row.currency
    if "%" in label or "percent" in label or "margin" in label:
        return "percent"
    if "shares" in label or "ads" in label.split():
        return "shares"
    return "count"
