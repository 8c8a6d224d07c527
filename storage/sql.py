"""Dialect plumbing for the repository modules: upserts, COPY, chunks, clock."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

# Bound parameters per statement: below SQLite's 32766 and PostgreSQL's 65535 limits.
_MAX_PARAMS = 30_000
_MAX_ROWS = 1_000

Row = dict[str, Any]


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


def insert(conn: Connection, table: Table) -> Any:
    """An INSERT supporting ON CONFLICT for the connection's dialect."""
    name = conn.dialect.name
    if name == "postgresql":
        return postgresql.insert(table)
    if name == "sqlite":
        return sqlite.insert(table)
    raise NotImplementedError(f"storage supports SQLite and PostgreSQL, not {name}")


def chunks(rows: Sequence[Row]) -> Iterator[list[Row]]:
    """Split rows into multi-VALUES statements that stay under the parameter limits."""
    if not rows:
        return
    size = max(1, min(_MAX_ROWS, _MAX_PARAMS // max(1, len(rows[0]))))
    for start in range(0, len(rows), size):
        yield list(rows[start : start + size])


def insert_ignore(conn: Connection, table: Table, rows: Sequence[Row]) -> int:
    """Insert rows, skipping any that hit a unique key; returns the number inserted."""
    # RETURNING, not rowcount: drivers do not reliably report rowcount for INSERT
    key = next(iter(table.primary_key.columns))
    inserted = 0
    for chunk in chunks(rows):
        stmt = insert(conn, table).values(chunk).on_conflict_do_nothing().returning(key)
        inserted += len(conn.execute(stmt).all())
    return inserted


def copy_rows(
    conn: Connection, table: Table, columns: Sequence[str], rows: Iterable[Sequence[Any]]
) -> int:
    """Bulk-insert rows (values in ``columns`` order) with PostgreSQL's COPY; returns the count.

    Runs inside the connection's transaction. Only for rows known not to exist yet (the caller
    holds the lock that guarantees it): COPY has no ON CONFLICT. Values must already be in
    their stored form (exact Decimal, aware datetimes), because COPY bypasses the column types'
    bind processing. ``segments`` may be a generator: rows are sent while later ones are built.
    """
    names = ", ".join(f'"{c}"' for c in columns)
    statement = f'COPY "{table.name}" ({names}) FROM STDIN (FORMAT BINARY)'
    copied = 0
    cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
    driver_error = conn.dialect.loaded_dbapi.Error
    try:
        with cursor, cursor.copy(statement) as copy:
            # Binary: no text to format here or to parse on the server.
            copy.set_types(_pg_types(conn, table, columns))
            for row in rows:
                copy.write_row(row)
                copied += 1
    except driver_error as exc:  # as SQLAlchemy raises it: IntegrityError for a violation
        raise DBAPIError.instance(statement, None, exc, driver_error) from exc
    return copied


def _pg_types(conn: Connection, table: Table, columns: Sequence[str]) -> list[str]:
    """psycopg type names of the columns ("NUMERIC(28, 6)" -> "numeric")."""
    dialect = conn.dialect
    names = []
    for name in columns:
        compiled = table.c[name].type.compile(dialect=dialect)
        names.append(compiled.split("(")[0].strip().lower())
    return names
