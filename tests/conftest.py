"""Shared fixtures: a migrated warehouse on SQLite and on PostgreSQL.

``db_url`` is the URL of a fresh, migrated database; ``engine`` is an engine on it. Both are
parametrized over ``sqlite`` (a temp file) and ``postgresql`` (a uniquely named database
created on the server at FILINGS_TEST_POSTGRES_URL and dropped afterwards). Without a
reachable server the PostgreSQL cases skip, unless FILINGS_REQUIRE_SERVICES=1 (CI): then
they fail.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from service_checks import unavailable
from sqlalchemy import Engine, text
from sqlalchemy.exc import OperationalError

from storage.db import make_engine, migrate, normalize_url

DEFAULT_POSTGRES_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@pytest.fixture(autouse=True)
def _environment_kept() -> Iterator[None]:
    """Each test leaves the process environment as it found it: the command line sets
    Prefect's variables before importing it (flows.startup), and a CLI test run in this
    process would otherwise hand them to every later test's subprocesses."""
    saved = dict(os.environ)
    yield
    if os.environ != saved:
        os.environ.clear()
        os.environ.update(saved)


def postgres_admin_url() -> str:
    """The server tests create their databases on."""
    return os.environ.get("FILINGS_TEST_POSTGRES_URL", DEFAULT_POSTGRES_URL)


def _migrated(url: str) -> str:
    engine = make_engine(url)
    try:
        migrate(engine)
    finally:
        engine.dispose()
    return url


def _sqlite_database(directory: Path) -> Iterator[str]:
    yield _migrated(f"sqlite:///{directory / 'warehouse.db'}")


def _postgres_database() -> Iterator[str]:
    admin_url = normalize_url(postgres_admin_url())
    admin = make_engine(
        admin_url, isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 5}
    )
    name = f"filings_test_{uuid.uuid4().hex[:12]}"
    try:
        try:
            with admin.connect() as conn:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
        except OperationalError as exc:
            reason = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
            where = admin_url.render_as_string(hide_password=True)
            unavailable(f"PostgreSQL not reachable at {where}: {reason}")
        try:
            yield _migrated(admin_url.set(database=name).render_as_string(hide_password=False))
        finally:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """URL of a fresh migrated warehouse (SQLite file or PostgreSQL database)."""
    if request.param == "sqlite":
        yield from _sqlite_database(tmp_path)
    else:
        yield from _postgres_database()


@pytest.fixture
def second_db_url(db_url: str, tmp_path: Path) -> Iterator[str]:
    """Another fresh migrated warehouse of ``db_url``'s kind (a reference to compare with)."""
    if db_url.startswith("sqlite"):
        (tmp_path / "second").mkdir()
        yield from _sqlite_database(tmp_path / "second")
    else:
        yield from _postgres_database()


@pytest.fixture
def postgres_engine() -> Iterator[Engine]:
    """An engine on a fresh migrated PostgreSQL warehouse, for PostgreSQL-only features."""
    for url in _postgres_database():
        yield from _engine_on(url)


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    """An engine on the fresh migrated warehouse of ``db_url``."""
    yield from _engine_on(db_url)


def _engine_on(url: str) -> Iterator[Engine]:
    eng = make_engine(url)
    try:
        yield eng
    finally:
        eng.dispose()
