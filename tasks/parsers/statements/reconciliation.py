"""The U.S. GAAP -> IFRS reconciliation's own arithmetic: GAAP + adjustments = IFRS.

A row of the reconciliation prints the U.S. GAAP amount, the adjustments and the IFRS amount;
the IFRS figure is a fact only when that sum holds exactly, and its GAAP amount is then checked
against the U.S. GAAP statement's (:func:`tasks.parsers.statements.checks.settle`).
"""

from __future__ import annotations

from decimal import Decimal

from tasks.parsers.documents.numbers import CellKind, parse_cell
from tasks.parsers.documents.raw_tables import Row
from tasks.parsers.tables.headers import Column


def gaap_basis(row: Row, column: Column, columns: list[Column], scale: int) -> Decimal | None:
    """An IFRS figure's U.S. GAAP amount (whole units: ``scale`` applied) when GAAP +
    adjustments = IFRS holds exactly in its printed row, else None."""
    adjustment, gaap = Decimal(0), None
    for other in columns:
        cell = parse_cell(_cell(row, other))
        if cell.kind in (CellKind.DAMAGED, CellKind.TEXT):
            return None
        amount = cell.value if cell.value is not None else Decimal(0)
        if other.role == "gaap":
            gaap = amount if cell.kind is CellKind.NUMBER else None
        elif other.role == "adjustment":
            adjustment += amount
    ifrs = parse_cell(_cell(row, column)).value
    if gaap is None or ifrs is None or gaap + adjustment != ifrs:
        return None
    return gaap * Decimal(10) ** scale


def _cell(row: Row, column: Column) -> str:
    return row[column.index] if column.index < len(row) else ""
