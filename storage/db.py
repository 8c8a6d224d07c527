"""Engines and migrations: the one place a database URL becomes a connection."""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from sqlalchemy import Engine, create_engine, event, func, inspect, select, text
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import OperationalError

from domain.errors import ConfigError, SchemaError
from storage.schema import TABLES

if TYPE_CHECKING:
    from alembic.config import Config

# Alembic (and the Mako and Pygments it imports: import storage.db 0.19 -> 0.13 s CPU) is only
# imported to change or diagnose a schema: a warehouse at this code's revision is recognised by
# reading its version table, which every command does first.

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
SQLITE_BUSY_TIMEOUT_MS = 30_000
# PostgreSQL: a server that takes the connection and never answers is given up after
# CONNECT_TIMEOUT_SECONDS (libpq's connect_timeout covers the whole start-up, authentication
# included); a reader's statement after READ_STATEMENT_TIMEOUT_SECONDS (the server's
# statement_timeout). An outside probe found `filings status` still waiting after 120 s.
CONNECT_TIMEOUT_SECONDS = 5
READ_STATEMENT_TIMEOUT_SECONDS = 300
_MIGRATING = threading.Lock()
_MIGRATION_LOCK = 0x46494C494E4753  # "FILINGS": the advisory lock key migrations hold
IMMEDIATE = "filings_sqlite_immediate"  # execution option: BEGIN IMMEDIATE on SQLite


def normalize_url(url: str | URL) -> URL:
    """Parse a SQLAlchemy URL; a bare ``postgresql://`` means psycopg 3 (the installed driver)."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def make_engine(
    url: str | URL,
    busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS,
    read_only: bool = False,
    **kwargs: Any,
) -> Engine:
    """Create an engine; SQLite gets its directory, foreign keys, a busy timeout and WAL.
    ``read_only``: SQLite creates no directory, sets no journal mode and refuses writes
    (query_only), so a read-only file or a ``file:...?mode=ro&uri=true`` URL opens; in a
    folder that may not be written to it is opened ``immutable``."""
    parsed = normalize_url(url)
    if parsed.get_backend_name() != "sqlite":
        args = {"connect_timeout": CONNECT_TIMEOUT_SECONDS, **kwargs.pop("connect_args", {})}
        if read_only:
            ms = READ_STATEMENT_TIMEOUT_SECONDS * 1000
            args.setdefault(
                "options", f"-c statement_timeout={ms} -c default_transaction_read_only=on"
            )
        return create_engine(parsed, pool_pre_ping=True, connect_args=args, **kwargs)
    database = parsed.database or ""
    writable = database and database != ":memory:" and not database.startswith("file:")
    if writable and not read_only:
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    elif writable and not _writable_folder(Path(database).expanduser()):
        parsed = _immutable(parsed, Path(database).expanduser())
    engine = create_engine(parsed, **kwargs)
    _configure_sqlite(engine, busy_timeout_ms, read_only)
    return engine


def _writable_folder(path: Path) -> bool:
    """Whether SQLite may create its journal files (``-wal``, ``-shm``) beside ``path``."""
    return os.access(path.parent if str(path.parent) else Path("."), os.W_OK)


def _immutable(url: URL, path: Path) -> URL:
    """A read-only URI for a SQLite file in a folder nobody may write to (a read-only mount,
    an archived copy): ``immutable=1`` reads it without the ``-shm`` file or locks SQLite
    cannot create there ("unable to open database file" otherwise)."""
    name = "file:" + quote(str(path.resolve()), safe="/")
    return url.set(database=name, query={"mode": "ro", "immutable": "1", "uri": "true"})


def _configure_sqlite(engine: Engine, busy_timeout_ms: int, read_only: bool = False) -> None:
    """Foreign keys on, wait on locks, WAL, and real transactions.

    WAL lets a reader stay open while another connection writes. Writers queue behind the
    busy timeout; load_document's first statement is a write, so it takes the lock at once.
    A reader sets no journal mode (a writer made the file WAL) and may not write at all.
    """

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # pysqlite's own transaction handling skips BEGIN before SELECT; SQLAlchemy's
        # "begin" event below issues it instead (the recipe in SQLAlchemy's SQLite docs).
        dbapi_conn.isolation_level = None
        cursor = dbapi_conn.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        cursor.execute("PRAGMA query_only=ON" if read_only else "PRAGMA journal_mode=WAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # IMMEDIATE takes the write lock at once (waiting the busy timeout): for a transaction
        # that reads before it writes, which a deferred BEGIN would fail at once on a conflict.
        immediate = conn.get_execution_options().get(IMMEDIATE)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


@contextmanager
def begin_writing(engine: Engine) -> Iterator[Connection]:
    """A transaction that reads before it writes: on SQLite it takes the write lock at once
    (BEGIN IMMEDIATE, waiting the busy timeout), so a run writing meanwhile makes it wait
    instead of failing at once with "database is locked"."""
    with engine.connect().execution_options(**{IMMEDIATE: True}) as conn, conn.begin():
        yield conn


def serialize(conn: Connection, key: str) -> None:
    """Hold ``key`` until the transaction ends, so read-then-write steps on the same key run
    one after another. PostgreSQL: a transaction-scoped advisory lock (READ COMMITTED lets
    two transactions read the same "nothing kept yet"); SQLite: the transaction must come
    from ``begin_writing``, whose write lock already serializes every writer."""
    if conn.dialect.name != "postgresql":
        return
    number = int.from_bytes(
        hashlib.blake2b(key.encode(), digest_size=8).digest(), "big", signed=True
    )
    conn.execute(select(func.pg_advisory_xact_lock(number)))


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic config for the packaged migrations (no alembic.ini needed)."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def migrate(engine: Engine, revision: str = "head") -> None:
    """Upgrade the database to ``revision`` (default head); a no-op when already there."""
    if revision == "head":
        with engine.connect() as conn:
            if current_revision(conn) == code_revision():
                return
    # Alembic's migration context is a process global: one migration at a time per process.
    # Runs starting together on a fresh SQLite file: the first creates the tables, the others
    # wait for its write lock (IMMEDIATE), then find the schema at head.
    with (
        _MIGRATING,
        engine.connect().execution_options(**{IMMEDIATE: True}) as connection,
        connection.begin(),
    ):
        _upgrade(connection, revision)


def _upgrade(connection: Connection, revision: str) -> None:
    if connection.dialect.name == "postgresql":
        # Two runs starting at once on a fresh database would both create the tables:
        # the second waits here, then finds the schema at head.
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
    from alembic import command

    command.upgrade(alembic_config(connection), revision)


def open_warehouse(url: str | URL, busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS) -> Engine:
    """An engine on a warehouse migrated to the current schema."""
    engine = make_engine(url, busy_timeout_ms)
    migrate(engine)
    return engine


def open_for_reading(
    url: str | URL,
    busy_timeout_ms: int = SQLITE_BUSY_TIMEOUT_MS,
    setting: str = "FILINGS_DATABASE_URL",
) -> Engine:
    """An engine that only reads a warehouse already at this code's schema: no migration, no
    write lock, so a read-only database role or file is enough (:class:`SchemaError` when
    the schema is another one). A server that cannot be used is a :class:`ConfigError`
    naming ``table_setting`` and what is wrong (within :data:`CONNECT_TIMEOUT_SECONDS`)."""
    engine = make_engine(url, busy_timeout_ms, read_only=True)
    try:
        check_schema(engine)
    except OperationalError as exc:
        engine.dispose()
        if engine.dialect.name != "postgresql":
            raise
        raise ConfigError(f"{setting}: {connection_problem(exc, engine.url)}") from None
    except BaseException:
        engine.dispose()
        raise
    return engine


def connection_problem(
    exc: BaseException, url: URL, timeout: float = CONNECT_TIMEOUT_SECONDS
) -> str:
    """What is wrong with a PostgreSQL server or URL that refused a connection, and what to
    do: an unknown role, a missing database, a refused password, a server that does not
    answer or cannot be reached (never the password)."""
    orig = getattr(exc, "orig", None) or exc
    first = (str(orig).strip().splitlines() or [type(orig).__name__])[0]
    host, port = url.host or "localhost", url.port or 5432
    where, flags = f"{host}:{port}", f"-h {host} -p {port}"
    user, database = url.username or "", url.database or ""
    if re.search(r'\brole "[^"]*" does not exist', first):
        return (
            f"the role {user!r} does not exist on {where}: check the user name in the URL, "
            f"or create the role (createuser {flags} {user})"
        )
    if re.search(r'\bdatabase "[^"]*" does not exist', first):
        return (
            f"database {database!r} does not exist on {where} "
            f"(create it: createdb {flags} {database})"
        )
    if "password authentication failed" in first or "no password supplied" in first:
        return f"{where} refused the password of role {user!r}: check the password in the URL"
    if "timeout" in first.lower():
        return (
            f"{where} did not answer within {timeout:g} s: check the host and port in the URL "
            "and that PostgreSQL serves there"
        )
    # psycopg: 'connection failed: connection to server at "h", port p failed: <reason>'
    reason = first.rsplit(" failed: ", 1)[-1].strip() or type(orig).__name__
    return f"cannot connect to {where} ({reason[:160]}): check the host and port in the URL"


def code_revision() -> str:
    """The newest migration this code ships (the schema it reads): migrations are numbered
    ``NNNN_name.py`` with revision ``NNNN``, each revising the one before
    (tests/storage/test_migrations checks Alembic agrees)."""
    return max(p.name[:4] for p in (MIGRATIONS_DIR / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))


def current_revision(conn: Connection) -> str | None:
    """The warehouse's schema revision (None: no warehouse schema); reads only."""
    if not inspect(conn).has_table("alembic_version"):
        return None
    found = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    return found[0] if len(found) == 1 else None


def check_schema(engine: Engine) -> None:
    """Raise :class:`SchemaError`, saying which command fixes it, unless the warehouse's schema
    is this code's; reads only."""
    with engine.connect() as conn:
        current = current_revision(conn)
    wanted = code_revision()
    if current == wanted:
        return
    if current is None:
        raise SchemaError(
            "the database holds no warehouse schema: run `filings upgrade` (or `filings run`) "
            "with a role that may create tables"
        )
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    try:
        ScriptDirectory.from_config(alembic_config()).get_revision(current)
    except CommandError:
        raise SchemaError(
            f"the warehouse's schema (revision {current}) is newer than this code's ({wanted}): "
            "update filings-pipeline"
        ) from None
    raise SchemaError(
        f"the warehouse's schema is at revision {current}, this code reads {wanted}: run "
        "`filings upgrade` with a role that may alter tables"
    )


def describe_error(exc: BaseException) -> str:
    """One line for a database error: the driver's first line, without SQLAlchemy's SQL echo
    and link; a locked SQLite file says what to do."""
    orig = getattr(exc, "orig", None) or exc
    first = (str(orig).strip().splitlines() or [type(orig).__name__])[0]
    if "database is locked" in first:
        return (
            "the SQLite warehouse is locked by another process (another run?) for longer than "
            "the busy timeout (FILINGS_SQLITE_BUSY_TIMEOUT_SECONDS); try again when it ends"
        )
    return f"database error ({type(orig).__name__}): {first}"


def table_counts(conn: Connection) -> dict[str, int]:
    """Row count of every warehouse table (to check that a rerun changes nothing)."""
    return {t.name: conn.execute(select(func.count()).select_from(t)).scalar_one() for t in TABLES}
