"""Fact upsert throughput on PostgreSQL, next to COPY of the same rows into a scratch table.

    python -m benchmarks.upsert --rows 1000000 [--per-document 1000] [--repeat 1] [--url ...]

Creates a scratch database on the server (FILINGS_TEST_POSTGRES_URL or the local default) and
loads ``segments`` facts through ``storage.load_document``, one transaction per document as
the pipeline does. Each document's rows are also COPYed with ``storage.sql.copy_rows`` (the
COPY load_document uses) into a scratch table with the facts' columns and no index or
constraint (not even the foreign key): the baseline the target (within 2x) is judged on.
Context rows price the schema: the same COPY into a table with all of ``facts``' indexes and
its foreign key (the least any loader into ``facts`` can cost), then into tables with one
part each: ``facts``' indexes (surrogate key, identity, metric-period), the foreign key to
``documents`` alone, and the least a facts table needs (the identity and metric-period indexes:
no surrogate key, no foreign key); and text-format COPY into the scratch table (the baseline
as first measured, before copy_rows went binary). All run in turn for each document, in
rotating order, so all see the same machine load. Then every document is loaded again (the
idempotent rerun, which must insert nothing), and the database is dropped.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import uuid
from collections.abc import Iterator, Sequence
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from functools import partial

from sqlalchemy import Engine, MetaData, Table, text

from domain.records import DocumentRef, Fact, Issuer, Provenance
from storage import db
from storage.documents import record_documents, upsert_issuers
from storage.loading import load_document
from storage.mapping import FACT_COLUMNS, fact_row
from storage.sql import copy_rows

DEFAULT_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
ISSUER = Issuer("BENCH", "Benchmark Co", "0000000001", "09999")
ROWS = (  # label, key; the first-load ratio to "copy" is the one judged
    ("load_document (first load)", "upsert"),
    ("load_document (rerun)", "rerun"),
    ("COPY into scratch table", "copy"),
    ("context: COPY, facts' indexes+FK", "copy_same"),
    ("context: COPY, facts' indexes", "copy_indexed"),
    ("context: COPY, foreign key only", "copy_fk"),
    ("context: COPY, 2 indexes, no FK", "copy_least"),
    ("context: COPY in text format", "copy_text"),
)


def _facts(doc: int, n: int) -> list[Fact]:
    """n distinct facts: 80 metrics x quarters, like a run of results documents."""
    out = []
    for i in range(n):
        quarter = date(2000, 1, 1) + timedelta(days=91 * (i // 80))
        out.append(
            Fact(
                metric=f"metric_{i % 80}",
                period_start=quarter,
                period_end=quarter + timedelta(days=90),
                value=Decimal(1_000 * (doc + i) + 7),
                unit="CNY",
                scale=3,
                decimals=-3,
                provenance=Provenance("ex99-1.htm", f"table {i % 9}", "label", "col", "1,007"),
            )
        )
    return out


def _documents(engine: Engine, count: int) -> list[str]:
    start = datetime(2020, 1, 1, tzinfo=UTC)
    refs = [
        DocumentRef("bench", str(d), "BENCH", "6-K", "t", start + timedelta(hours=d), "u")
        for d in range(count)
    ]
    with engine.begin() as conn:
        upsert_issuers(conn, [ISSUER])
        record_documents(conn, refs)
    return [r.document_id for r in refs]


# Scratch tables by step key: name, what LIKE copies of facts, whether the surrogate key
# (fact_id and the primary key on it) goes, what is added. LIKE never copies a foreign key.
_FK = "FOREIGN KEY (document_id) REFERENCES documents"
_SCRATCH = {
    "copy": ("scratch", "INCLUDING DEFAULTS", True, ""),
    "copy_same": ("scratch_same", "INCLUDING ALL", False, _FK),
    "copy_indexed": ("scratch_indexed", "INCLUDING ALL", False, ""),
    "copy_fk": ("scratch_fk", "INCLUDING DEFAULTS", True, _FK),
    "copy_least": ("scratch_least", "INCLUDING DEFAULTS INCLUDING INDEXES", True, ""),
}


def _scratch_tables(engine: Engine) -> dict[str, Table]:
    """The bare scratch table (the baseline) and the context tables, by step key."""
    with engine.begin() as conn:
        for name, like, no_key, extra in _SCRATCH.values():
            conn.execute(text(f"CREATE TABLE {name} (LIKE facts {like})"))
            if no_key:
                conn.execute(text(f"ALTER TABLE {name} DROP COLUMN fact_id"))
            if extra:
                conn.execute(text(f"ALTER TABLE {name} ADD {extra}"))
    meta = MetaData()
    return {key: Table(spec[0], meta, autoload_with=engine) for key, spec in _SCRATCH.items()}


def _first_load(engine: Engine, docs: Sequence[str], per_doc: int) -> dict[str, float]:
    """Seconds spent loading each document and COPYing its rows, taken in rotating order."""
    tables = _scratch_tables(engine)
    spent = dict.fromkeys(("upsert", *tables, "copy_text", "rows"), 0.0)
    now = datetime.now(UTC)
    for d, doc in enumerate(docs):
        facts = _facts(d, per_doc)
        rows = [fact_row(f, doc, date(2020, 1, 1), now) for f in facts]
        steps = [
            ("upsert", partial(_load, engine, doc, facts, spent)),
            *((key, partial(_copy, engine, table, rows)) for key, table in tables.items()),
            ("copy_text", partial(_copy_text, engine, tables["copy"], rows)),
        ]
        turn = d % len(steps)
        for key, step in steps[turn:] + steps[:turn]:
            began = time.perf_counter()
            step()
            spent[key] += time.perf_counter() - began
    return spent


def _load(engine: Engine, doc: str, facts: list[Fact], spent: dict[str, float]) -> None:
    spent["rows"] += load_document(engine, doc, facts, [], quarantine=False).facts_inserted


def _copy(engine: Engine, table: Table, rows: list[tuple[object, ...]]) -> None:
    with engine.begin() as conn:
        copy_rows(conn, table, FACT_COLUMNS, rows)


def _copy_text(engine: Engine, table: Table, rows: list[tuple[object, ...]]) -> None:
    """COPY in text format, as storage.sql.copy_rows did before it switched to binary."""
    names = ", ".join(FACT_COLUMNS)
    with engine.begin() as conn:
        cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
        with cursor, cursor.copy(f"COPY {table.name} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)


def _rerun(engine: Engine, docs: Sequence[str], per_doc: int) -> tuple[float, int]:
    elapsed, inserted = 0.0, 0
    for d, doc in enumerate(docs):
        facts = _facts(d, per_doc)
        began = time.perf_counter()
        counts = load_document(engine, doc, facts, [], quarantine=False)
        elapsed += time.perf_counter() - began
        inserted += counts.facts_inserted
    return elapsed, inserted


def _database(url: str) -> Iterator[str]:
    admin = db.make_engine(url, isolation_level="AUTOCOMMIT")
    name = f"filings_bench_{uuid.uuid4().hex[:8]}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield db.normalize_url(url).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def run(url: str, rows: int, per_doc: int) -> dict[str, float]:
    """Seconds for the first load, the rerun, COPY and COPY with indexes of ``segments`` facts."""
    for scratch_url in _database(url):
        engine = db.make_engine(scratch_url)
        try:
            db.migrate(engine)
            docs = _documents(engine, max(1, rows // per_doc))
            result = _first_load(engine, docs, per_doc)
            result["rerun"], again = _rerun(engine, docs, per_doc)
        finally:
            engine.dispose()
        assert again == 0, "a rerun inserted rows"
        return result
    raise RuntimeError("no database")


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, run ``--repeat`` times, print the median run and every ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--per-document", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=1, help="fresh database each time")
    default = os.environ.get("FILINGS_TEST_POSTGRES_URL", DEFAULT_URL)
    parser.add_argument("--url", default=default, help="PostgreSQL server (a scratch db is made)")
    args = parser.parse_args(argv)
    runs = [run(args.url, args.rows, args.per_document) for _ in range(max(1, args.repeat))]
    ratios = [r["upsert"] / r["copy"] for r in runs]
    r = runs[ratios.index(statistics.median_low(ratios))]
    n = r["rows"]
    print(f"facts upsert on PostgreSQL: {int(n):,} rows, {args.per_document:,} per document")
    print(f"{'path':<32}{'seconds':>10}{'rows/s':>12}{'x COPY':>9}")
    for label, key in ROWS:
        print(f"{label:<32}{r[key]:>10.2f}{n / r[key]:>12,.0f}{r[key] / r['copy']:>9.2f}")
    if len(runs) > 1:
        listed = ", ".join(f"{x['upsert']:.2f} s = {x['upsert'] / x['copy']:.2f}x" for x in runs)
        print(f"first load over {len(runs)} runs: {listed}")
        print(
            f"best {min(ratios):.2f}x, median {statistics.median(ratios):.2f}x (table: median_low)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
