"""The packaged migrations build the whole warehouse, and match storage.schema."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, inspect, select, text
from sqlalchemy.exc import IntegrityError

from storage import db
from storage.db import make_engine, migrate, normalize_url, table_counts
from storage.schema import dividends, metadata
from storage.views import VIEW_NAMES

ROOT = Path(__file__).resolve().parents[2]
CONTRACT_COLUMNS = {
    "facts_latest": [
        "issuer",
        "metric",
        "period_start",
        "period_end",
        "unit",
        "value",
        "source_document_id",
        "origin",
        "decimals",
        "proved_by",
    ],
    "alerts": ["alert_id", "kind", "issuer", "subject", "message", "created_at", "delivered_at"],
    "guidance_vs_actual": [
        "issuer",
        "metric",
        "period_start",
        "period_end",
        "guidance_low",
        "guidance_high",
        "actual",
        "unit",
        "outcome",
        "variance_pct",
        "guidance_document_id",
        "actual_document_id",
        "actual_origin",
    ],
    # shared/spec/contract.md's dividends view (revision 0015)
    "dividends": [
        "issuer",
        "period_start",
        "period_end",
        "currency",
        "per_share",
        "per_ads",
        "ex_date",
        "record_date",
        "payment_date",
        "ads_payment_date",
        "source_document_id",
        "reported_on",
    ],
}


HEAD = ScriptDirectory.from_config(db.alembic_config()).get_current_head()


def _head(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def test_migration_creates_every_table_and_view(engine: Engine) -> None:
    inspector = inspect(engine)
    assert set(metadata.tables) <= set(inspector.get_table_names())
    assert set(VIEW_NAMES) <= set(inspector.get_view_names())
    assert _head(engine) == HEAD


def test_views_have_the_contract_columns(engine: Engine) -> None:
    with engine.connect() as conn:
        for view, columns in CONTRACT_COLUMNS.items():
            result = conn.execute(text(f"SELECT * FROM {view}"))
            assert list(result.keys()) == columns
        history = list(conn.execute(text("SELECT * FROM facts_history")).keys())
        items = list(conn.execute(text("SELECT * FROM line_items")).keys())
    assert {"reported_on", "source_document_id", "basis", "decimals", "proved_by"} <= set(history)
    assert items[-1] == "proved_by"


def test_migrate_twice_is_a_no_op(engine: Engine) -> None:
    with engine.connect() as conn:
        before = table_counts(conn)
    migrate(engine)
    assert _head(engine) == HEAD
    with engine.connect() as conn:
        assert table_counts(conn) == before


def test_this_codes_revision_is_alembics_head(engine: Engine) -> None:
    assert db.code_revision() == HEAD
    with engine.connect() as conn:
        assert db.current_revision(conn) == _head(engine) == HEAD


def test_a_warehouse_at_head_opens_without_importing_alembic(engine: Engine, db_url: str) -> None:
    probe = (
        "import sys; from storage import db; db.open_warehouse(sys.argv[1]).dispose(); "
        "print('alembic' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, db_url], capture_output=True, text=True, timeout=120
    )
    assert done.stdout.strip() == "False", done.stderr


@pytest.mark.filterwarnings("ignore:.*expression-based index")
def test_migrations_match_the_schema_module(engine: Engine) -> None:
    with engine.connect() as conn:
        diffs = compare_metadata(MigrationContext.configure(conn), metadata)
    assert diffs == []


def _alembic(db_url: str, *args: str) -> str:
    env = {**os.environ, "FILINGS_DATABASE_URL": db_url}
    done = subprocess.run(
        [sys.executable, "-m", "alembic", "-c", str(ROOT / "storage" / "alembic.ini"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_alembic_cli_downgrades_and_upgrades(db_url: str) -> None:
    # Operators run the CLI with FILINGS_DATABASE_URL and no other configuration.
    engine = make_engine(db_url)
    try:
        _alembic(db_url, "downgrade", "base")
        inspector = inspect(engine)
        assert set(inspector.get_table_names()) == {"alembic_version"}
        assert inspector.get_view_names() == []
        _alembic(db_url, "upgrade", "head")
        inspector = inspect(engine)
        assert set(metadata.tables) <= set(inspector.get_table_names())
        assert set(VIEW_NAMES) <= set(inspector.get_view_names())
        assert f"{HEAD} (head)" in _alembic(db_url, "current")
    finally:
        engine.dispose()


def test_make_engine_creates_the_sqlite_directory(tmp_path: Path) -> None:
    # SQLite only by nature: the embedded default lives in a directory that may not exist.
    engine = make_engine(f"sqlite:///{tmp_path / 'data' / 'nested' / 'w.db'}")
    try:
        migrate(engine)
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    finally:
        engine.dispose()
    assert (tmp_path / "data" / "nested" / "w.db").exists()


def test_a_bare_postgresql_url_uses_psycopg() -> None:
    assert normalize_url("postgresql://u@h/db").drivername == "postgresql+psycopg"
    assert normalize_url("sqlite:///x.db").drivername == "sqlite"


# Rows every revision can hold (0001's columns only), as an operator's warehouse would.
_SEED = (
    "INSERT INTO issuers (ticker, name, cik, hkex_code) "
    "VALUES ('QFIN', 'Qifu', '0001741530', '03660')",
    "INSERT INTO documents (document_id, source, source_id, issuer, form, title, published_at, "
    "published_on, url, status, first_seen_at, updated_at) VALUES ('sec:a', 'sec', 'a', 'QFIN', "
    "'6-K', 't', '2024-03-12 12:00:00', '2024-03-12', 'u', 'loaded', '2024-03-12 12:00:00', "
    "'2024-03-12 12:00:00')",
    "INSERT INTO facts (document_id, metric, period_start, period_end, basis, value, unit, scale, "
    "decimals, origin, reported_on, loaded_at) VALUES ('sec:a', 'net_income', '2023-10-01', "
    "'2023-12-31', 'us_gaap', 1081223000, 'CNY', 3, -3, 'table', '2024-03-12', "
    "'2024-03-12 12:00:00')",
    "INSERT INTO dividends (document_id, currency, payment_date, loaded_at) "
    "VALUES ('sec:a', 'USD', '2024-05-21', '2024-03-12 12:00:00')",
)
_KEPT = ("issuers", "documents", "facts", "dividends")


def _kept(engine: Engine) -> dict[str, int]:
    # Only these tables: an older revision lacks the tables later ones added.
    with engine.connect() as conn:
        return {t: conn.execute(text(f"SELECT COUNT(*) FROM {t}")).scalar_one() for t in _KEPT}


def _orphan_fact_refused(engine: Engine) -> bool:
    """Whether a fact naming an unknown document is refused (the foreign key)."""
    orphan = _SEED[2].replace("'sec:a'", "'sec:missing'")
    try:
        with engine.begin() as conn:
            conn.execute(text(orphan))
    except IntegrityError:
        return True
    return False


def test_every_revision_upgrades_to_head_keeping_the_rows(db_url: str) -> None:
    # From each earlier revision, with a document, a fact and a dividend stored, upgrading
    # keeps them and leaves facts checked against documents.
    engine = make_engine(db_url)
    script = ScriptDirectory.from_config(db.alembic_config())
    revisions = [r.revision for r in script.walk_revisions()][::-1]  # oldest first
    try:
        for revision in revisions[:-1]:
            _alembic(db_url, "downgrade", "base")
            migrate(engine, revision)
            # from 0015 on the table is dividend_declarations (dividends is its view)
            renamed = inspect(engine).has_table("dividend_declarations")
            with engine.begin() as conn:
                for statement in _SEED:
                    if renamed:
                        statement = statement.replace(
                            "INTO dividends ", "INTO dividend_declarations "
                        )
                    conn.execute(text(statement))
            migrate(engine)
            assert _head(engine) == HEAD
            assert _kept(engine) == dict.fromkeys(_KEPT, 1), revision
            with engine.connect() as conn:
                row = conn.execute(select(dividends.c.payment_date, dividends.c.ads_payment_date))
                assert tuple(row.one()) == (date(2024, 5, 21), None)
            assert _orphan_fact_refused(engine), revision
    finally:
        engine.dispose()


def test_downgrading_below_0004_keeps_the_rows_and_the_foreign_key(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        with engine.begin() as conn:  # at head the table is dividend_declarations (0015)
            for statement in _SEED:
                conn.execute(
                    text(statement.replace("INTO dividends ", "INTO dividend_declarations "))
                )
        _alembic(db_url, "downgrade", "0003")
        assert _kept(engine) == dict.fromkeys(_KEPT, 1)
        assert "ads_payment_date" not in {
            c["name"] for c in inspect(engine).get_columns("dividends")
        }
        foreign_keys = inspect(engine).get_foreign_keys("facts")
        assert [fk["referred_table"] for fk in foreign_keys] == ["documents"]
        assert _orphan_fact_refused(engine)
        _alembic(db_url, "upgrade", "head")
        assert _kept(engine) == dict.fromkeys(_KEPT, 1)
        assert _orphan_fact_refused(engine)
    finally:
        engine.dispose()


def test_the_views_module_equals_the_newest_frozen_view_sql() -> None:
    # Changing storage/views.py without a revision that freezes the new SQL would leave
    # upgraded databases on the old views.
    from storage.migrations import frozen_views
    from storage.views import view_sql

    newest = getattr(frozen_views, max(n for n in dir(frozen_views) if n.startswith("VIEWS_")))
    assert list(newest) == list(VIEW_NAMES)
    for name in VIEW_NAMES:
        for dialect in ("sqlite", "postgresql"):
            assert newest[name][dialect].strip() == view_sql(name, dialect), name
