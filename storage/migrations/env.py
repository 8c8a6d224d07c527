"""Alembic environment: migrates the connection it is given, or FILINGS_DATABASE_URL.

``storage.db.migrate(engine)`` passes a connection in ``config.attributes``; operators run
``alembic -c storage/alembic.ini upgrade head`` with ``FILINGS_DATABASE_URL`` set.
"""

from __future__ import annotations

import os
from logging.config import fileConfig

from alembic import context
from sqlalchemy.engine import Connection

from storage.db import make_engine
from storage.schema import metadata

config = context.config


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite cannot ALTER much
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _url() -> str:
    url = os.environ.get("FILINGS_DATABASE_URL") or config.get_main_option("sqlalchemy.url")
    if not url:
        raise SystemExit("set FILINGS_DATABASE_URL to the warehouse's SQLAlchemy URL")
    return url


def run_migrations_online() -> None:
    """Run against the shared connection, or open one from the configured URL."""
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    if config.config_file_name is not None:
        fileConfig(config.config_file_name, disable_existing_loggers=False)
    engine = make_engine(_url())
    try:
        with engine.begin() as conn:
            _run(conn)
    finally:
        engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported: the views are dialect-aware")
run_migrations_online()
