"""The upsert benchmark's context tables carry exactly the part of the schema they are named for.

Each context row prices one part of ``facts`` (its foreign key, its indexes); if a table
silently lost or gained a constraint, the printed ratios would mislead.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from sqlalchemy import Engine, Table, func, inspect, select
from sqlalchemy.exc import IntegrityError

from benchmarks import upsert as bench
from storage.mapping import FACT_COLUMNS, fact_row
from storage.sql import copy_rows

pytestmark = pytest.mark.postgres


@pytest.fixture
def engine(postgres_engine: Engine) -> Engine:
    return postgres_engine


@pytest.fixture
def tables(engine: Engine) -> dict[str, Table]:
    return bench._scratch_tables(engine)


def _rows(document_id: str) -> list[tuple[object, ...]]:
    now = datetime.now(UTC)
    return [fact_row(f, document_id, date(2020, 1, 1), now) for f in bench._facts(0, 3)]


def _copy(engine: Engine, table: Table, rows: list[tuple[object, ...]]) -> None:
    with engine.begin() as conn:
        copy_rows(conn, table, FACT_COLUMNS, rows)


def _index_names(engine: Engine, table: Table) -> set[str]:
    return {i["name"] or "" for i in inspect(engine).get_indexes(table.name)}


class TestScratchTables:
    def test_the_baseline_has_no_index_and_no_key(self, engine: Engine, tables: dict) -> None:
        insp = inspect(engine)
        assert insp.get_indexes("scratch") == []
        assert insp.get_pk_constraint("scratch")["constrained_columns"] == []
        assert insp.get_foreign_keys("scratch") == []

    def test_the_baseline_accepts_rows_of_unknown_documents_twice(
        self, engine: Engine, tables: dict
    ) -> None:
        rows = _rows("nowhere:1")
        _copy(engine, tables["copy"], rows + rows)
        with engine.connect() as conn:
            stored = conn.execute(select(func.count()).select_from(tables["copy"])).scalar_one()
        assert stored == 2 * len(rows) == 6

    def test_foreign_key_only_rejects_an_unknown_document(
        self, engine: Engine, tables: dict
    ) -> None:
        assert _index_names(engine, tables["copy_fk"]) == set()
        with pytest.raises(IntegrityError):
            _copy(engine, tables["copy_fk"], _rows("nowhere:1"))

    def test_least_schema_rejects_a_repeated_identity_but_not_an_unknown_document(
        self, engine: Engine, tables: dict
    ) -> None:
        rows = _rows("nowhere:1")
        _copy(engine, tables["copy_least"], rows)
        with pytest.raises(IntegrityError):
            _copy(engine, tables["copy_least"], rows[:1])
        assert len(_index_names(engine, tables["copy_least"])) == 2
        assert "fact_id" not in tables["copy_least"].c

    def test_facts_copy_has_its_indexes_and_its_foreign_key(
        self, engine: Engine, tables: dict
    ) -> None:
        assert len(_index_names(engine, tables["copy_same"])) == 2  # besides the primary key
        assert inspect(engine).get_foreign_keys("scratch_same")[0]["referred_table"] == "documents"
        with pytest.raises(IntegrityError):
            _copy(engine, tables["copy_same"], _rows("nowhere:1"))

    def test_facts_indexes_keep_the_surrogate_key(self, engine: Engine, tables: dict) -> None:
        assert inspect(engine).get_pk_constraint("scratch_indexed")["constrained_columns"] == [
            "fact_id"
        ]
        assert len(_index_names(engine, tables["copy_indexed"])) == 2  # besides the primary key


def test_a_small_run_reloads_nothing_and_times_every_row(engine: Engine) -> None:
    """The whole benchmark on a scratch database: every printed path was measured."""
    server = engine.url.render_as_string(hide_password=False)  # it makes its own database
    result = bench.run(server, 2_000, 500)
    assert result["rows"] == 2_000
    assert all(result[key] > 0 for _, key in bench.ROWS)
