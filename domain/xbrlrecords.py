"""Records of SEC XBRL company facts: the audited figures one filing (20-F, 10-K, 10-Q) holds."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from domain.records import Fact

# The forms whose XBRL figures are the issuer's audited (10-Q: reviewed) statements.
ANNUAL_FORMS = ("20-F", "20-F/A", "10-K", "10-K/A", "40-F", "40-F/A")
QUARTERLY_FORMS = ("10-Q", "10-Q/A")


@dataclass(frozen=True, slots=True)
class AuditedFiling:
    """The mapped figures of one filing as company facts show them (origin ``xbrl``)."""

    accession: str  # "0001493152-24-016772"
    form: str  # "20-F"
    filed: date
    facts: tuple[Fact, ...]

    @property
    def annual(self) -> bool:
        """An annual report (its figures are audited), not a 10-Q."""
        return self.form in ANNUAL_FORMS


@dataclass(frozen=True, slots=True)
class AuditedComparison:
    """One row of ``audited_vs_reported``, with the audited filing's date."""

    issuer: str
    metric: str
    period_start: date | None
    period_end: date
    unit: str
    reported: Decimal
    reported_document_id: str
    audited: Decimal
    audited_accession: str
    audited_form: str
    audited_filed: date
    difference: Decimal
    outcome: str  # equal | within_rounding | differs


@dataclass(frozen=True, slots=True)
class Accuracy:
    """One row of ``extraction_accuracy``: release figures matching the audited ones."""

    issuer: str
    statement: str
    periods: int
    compared: int
    matched: int

    @property
    def share(self) -> Decimal:
        """matched / compared (0 when nothing was compared)."""
        return Decimal(self.matched) / self.compared if self.compared else Decimal(0)
