"""Column types that keep amounts exact and timestamps in UTC on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import DateTime, Numeric, String
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine

# NUMERIC(28, 6): 22 integer digits cover any amount in whole CNY; 6 places cover
# per-share figures and percentages as printed.
PRECISION = 28
SCALE = 6
_QUANTUM = Decimal(1).scaleb(-SCALE)


def to_exact(value: Decimal | int) -> Decimal:
    """Quantize to the stored scale, refusing floats and any rounding (money is exact)."""
    if isinstance(value, bool) or not isinstance(value, Decimal | int):
        raise TypeError(f"amounts must be Decimal or int, not {type(value).__name__}")
    exact = Decimal(value).quantize(_QUANTUM)
    if exact != value:
        raise ValueError(f"{value} has more than {SCALE} decimal places")
    return exact


class ExactDecimal(TypeDecorator[Decimal]):
    """NUMERIC(28, 6) on PostgreSQL; canonical decimal TEXT on SQLite.

    SQLite has no exact decimal type (its NUMERIC affinity turns '13.24' into a float), so
    values are stored as text and parsed back into Decimal. SQL arithmetic still works there
    because SQLite converts text operands to numbers.
    """

    impl = Numeric(PRECISION, SCALE, asdecimal=True)
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "sqlite":
            return dialect.type_descriptor(String(PRECISION + 2))
        return dialect.type_descriptor(Numeric(PRECISION, SCALE, asdecimal=True))

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        if value is None:
            return None
        exact = to_exact(value)
        # Canonical text on SQLite ("48132618000", "13.24"): what a SQL user expects to read.
        return format(exact.normalize(), "f") if dialect.name == "sqlite" else exact

    def process_result_value(self, value: Any, dialect: Dialect) -> Decimal | None:
        if value is None:
            return None
        # str() first: a float computed by SQLite arithmetic must not leak binary noise
        return value if isinstance(value, Decimal) else Decimal(str(value))


class UtcDateTime(TypeDecorator[datetime]):
    """Timezone-aware timestamps, stored and returned in UTC.

    SQLite's DATETIME drops the offset, so values are converted to UTC before storing and
    marked UTC when read back.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        if value is None:
            return None
        if not isinstance(value, datetime) or value.tzinfo is None:
            raise ValueError(f"timestamps must be timezone-aware datetimes, got {value!r}")
        utc = value.astimezone(UTC)
        return utc.replace(tzinfo=None) if dialect.name == "sqlite" else utc

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if isinstance(value, str):  # a view column computed by SQLite (MAX of a timestamp)
            value = datetime.fromisoformat(value)
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)
