"""Statement rows as printed: the as-reported layer under the standard metrics.

Every value cell of a primary statement becomes one ``StatementRow``, whether or not a standard
metric maps it. Parsers produce them (#13); storage keeps them in ``line_items`` and a shared,
data-driven mapping turns some of them into metric facts (#14).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from enum import StrEnum

from domain.enums import Basis
from domain.provenance import Provenance


class StatementKind(StrEnum):
    """The statement a row was read from."""

    BALANCE_SHEET = "balance_sheet"
    INCOME_STATEMENT = "income_statement"
    CASH_FLOW = "cash_flow"
    NON_GAAP_RECONCILIATION = "non_gaap_reconciliation"
    IFRS_RECONCILIATION = "ifrs_reconciliation"
    SEGMENT = "segment"
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class StatementRow:
    """One value cell of a statement: a row label, a column's period, a figure as reported.

    The contract's ``line_items`` view: convenience translations (a USD column beside RMB
    figures) are not statement rows.
    """

    statement: StatementKind
    table_title: str  # the statement's title as printed
    row_label: str  # as printed, footnote marks and wrapping removed
    row_index: int  # position of the row in its statement, from 0
    section: str  # heading path above the row ("Current assets"), or ""
    period_start: date | None  # None for instants
    period_end: date
    currency: str  # ISO 4217 as reported: CNY, USD, HKD; "" when the row is not money
    value: Decimal  # whole units (scale applied)
    scale: int  # power of ten the printed figure was multiplied by
    decimals: int  # XBRL-style precision of the printed figure
    provenance: Provenance
    basis: Basis = Basis.US_GAAP


@dataclass(frozen=True, slots=True)
class RefusedRow:
    """A statement row (or a whole statement) not read, with the reason an operator can act on."""

    statement: StatementKind
    table_title: str
    row_label: str  # "" when the whole statement was refused
    locator: str  # "table 4", "page 12, table 2"
    reason: str  # "period not readable from the header"


@dataclass(frozen=True, slots=True)
class LineItem:
    """A statement row as the warehouse keeps it: the unit its value is in, and the metric it
    maps to (a metrics.csv id) or None."""

    row: StatementRow
    unit: str  # CNY, USD/share, shares, ... (as facts_latest's unit)
    metric: str | None = None
    proved_by: str | None = None  # how the document proves the figure (domain/proofs)
