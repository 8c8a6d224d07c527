"""Reads never write: the Python API, `export`, `status` and `report` on a read-only warehouse
(a PostgreSQL role with only SELECT; a SQLite file chmod 444 opened ``mode=ro``), while a writer
holds the migration lock, and with a schema behind the code (one line naming `filings upgrade`).
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from storage_factories import add_document, at, check, fact, load, outlook
from typer.testing import CliRunner

import filings
from domain.errors import SchemaError
from flows.cli import app
from storage import db
from storage.loading import load_document
from storage.reads import READABLE

runner = CliRunner()


def _loaded(engine: Engine) -> None:
    """Q1 revenue guided and reported, and one restatement."""
    guide = add_document(engine, "g", at(1, month=3))
    load_document(engine, guide, [], [check()], quarantine=False,
                  guidance=[outlook("4100000000", "4300000000")])  # fmt: skip
    load(engine, "a", at(1), fact())
    load(engine, "b", at(2), fact(value="4490000000"))


def _read_only_sqlite(url: str) -> Iterator[str]:
    path = Path(make_url(url).database or "")
    path.chmod(0o444)
    try:
        yield f"sqlite:///file:{path}?mode=ro&uri=true"
    finally:
        path.chmod(0o644)


def _select_only_role(url: str) -> Iterator[str]:
    role = f"reader_{uuid.uuid4().hex[:10]}"
    admin = db.make_engine(url, isolation_level="AUTOCOMMIT")
    name = make_url(url).database
    grants = (f"CREATE ROLE {role} LOGIN", f'GRANT CONNECT ON DATABASE "{name}" TO {role}',
              f"GRANT USAGE ON SCHEMA public TO {role}",
              f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}")  # fmt: skip
    try:
        with admin.connect() as conn:
            for grant in grants:
                conn.execute(text(grant))
        yield make_url(url).set(username=role).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f"DROP OWNED BY {role}"))
            conn.execute(text(f"DROP ROLE {role}"))
        admin.dispose()


@pytest.fixture
def read_only_url(engine: Engine, db_url: str) -> Iterator[str]:
    """The loaded warehouse through a URL that cannot write."""
    _loaded(engine)
    engine.dispose()
    if db_url.startswith("sqlite"):
        yield from _read_only_sqlite(db_url)
    else:
        yield from _select_only_role(db_url)


def test_the_url_really_cannot_write(read_only_url: str) -> None:
    engine = db.make_engine(read_only_url)
    try:
        with pytest.raises(DBAPIError), engine.begin() as conn:
            conn.execute(text("DELETE FROM alert_events"))
    finally:
        engine.dispose()


def test_every_view_and_export_read_a_read_only_warehouse(read_only_url, tmp_path) -> None:
    facts = filings.read_facts(url=read_only_url)
    assert facts["value"].tolist() == [Decimal("4490000000")]
    for name in READABLE:
        filings.read_view(name, url=read_only_url)
    files = filings.export(tmp_path, "csv", url=read_only_url)
    assert {f.name for f in files} == {f"{name}.csv" for name in filings.EXPORTED}


def test_status_report_and_export_commands_run_read_only(read_only_url, tmp_path, monkeypatch):
    monkeypatch.setenv("FILINGS_DATABASE_URL", read_only_url)
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "200")
    for args in (["status"], ["report"], ["export", "--out", str(tmp_path / "x")]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.output)
    assert (tmp_path / "x" / "facts_fiscal.csv").is_file()


@contextmanager
def _lock_held(db_url: str) -> Iterator[None]:
    """What a migrating run holds: SQLite's write lock, PostgreSQL's migration lock."""
    holder = db.make_engine(db_url)
    try:
        if db_url.startswith("sqlite"):
            with db.begin_writing(holder):  # BEGIN IMMEDIATE
                yield
            return
        with holder.connect() as conn:
            conn.exec_driver_sql(f"SELECT pg_advisory_lock({db._MIGRATION_LOCK})")
            yield
            conn.exec_driver_sql(f"SELECT pg_advisory_unlock({db._MIGRATION_LOCK})")
    finally:
        holder.dispose()


def _finishes(read: Callable[[], Any], seconds: float) -> bool:
    done = threading.Event()

    def reader() -> None:
        read()
        done.set()

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    return done.wait(seconds)


def test_a_read_does_not_wait_for_a_writer_holding_the_lock(engine: Engine, db_url) -> None:
    # Reads used to run Alembic under the write lock: behind a loading run they waited.
    _loaded(engine)
    with _lock_held(db_url):
        assert _finishes(lambda: filings.read_facts(url=db_url), seconds=10)


def test_a_schema_behind_the_code_is_one_line_naming_the_upgrade(
    engine, db_url, monkeypatch, tmp_path
):
    with engine.begin() as conn:
        command.downgrade(db.alembic_config(conn), "0010")
    with pytest.raises(SchemaError, match=r"at revision 0010, this code reads .*filings upgrade"):
        filings.read_facts(url=db_url)
    monkeypatch.setenv("FILINGS_DATABASE_URL", db_url)
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    result = runner.invoke(app, ["status"])
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 1 and len(lines) == 1 and "`filings upgrade`" in lines[0]
    assert runner.invoke(app, ["upgrade"]).exit_code == 0
    assert runner.invoke(app, ["status"]).exit_code == 0
