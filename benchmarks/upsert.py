"""Fact upsert throughput on PostgreSQL, next to COPY of the same rows into a scratch table.

    python -m benchmarks.upsert --rows 1000000 [--per-document 1000] [--url postgresql://...]

Creates a scratch database on the server (FILINGS_TEST_POSTGRES_URL or the local default), loads
``rows`` facts through ``storage.repo.load_document`` (one transaction per document, as the
pipeline does), loads them again (the idempotent rerun), then COPYs the same rows into a scratch
table with the facts' columns and no indexes, and drops the database. Target: upsert within 2x
of COPY.
"""

from __future__ import annotations

import argparse
import os
import time
import uuid
from collections.abc import Iterator, Sequence
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from sqlalchemy import Engine, text

from storage import db, repo
from storage.loading import _fact_row
from storage.sql import copy_rows
from tasks.models import DocumentRef, Fact, Issuer, Provenance

DEFAULT_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
ISSUER = Issuer("BENCH", "Benchmark Co", "0000000001", "09999")


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
        repo.upsert_issuers(conn, [ISSUER])
        repo.record_documents(conn, refs)
    return [r.document_id for r in refs]


def _timed_upsert(engine: Engine, docs: Sequence[str], per_doc: int) -> tuple[float, int]:
    elapsed, inserted = 0.0, 0
    for d, doc in enumerate(docs):
        facts = _facts(d, per_doc)
        began = time.perf_counter()
        counts = repo.load_document(engine, doc, facts, [], quarantine=False)
        elapsed += time.perf_counter() - began
        inserted += counts.facts_inserted
    return elapsed, inserted


def _timed_copy(engine: Engine, docs: Sequence[str], per_doc: int) -> float:
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE scratch (LIKE facts INCLUDING DEFAULTS)"))
        conn.execute(text("ALTER TABLE scratch DROP COLUMN fact_id"))
    scratch = _scratch_table(engine)
    now, elapsed = datetime.now(UTC), 0.0
    for d, doc in enumerate(docs):
        rows = [_fact_row(f, doc, date(2020, 1, 1), now) for f in _facts(d, per_doc)]
        began = time.perf_counter()
        with engine.begin() as conn:
            copy_rows(conn, scratch, rows)
        elapsed += time.perf_counter() - began
    return elapsed


def _scratch_table(engine: Engine):  # type: ignore[no-untyped-def]
    from sqlalchemy import MetaData, Table

    return Table("scratch", MetaData(), autoload_with=engine)


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
    """Seconds for the upsert, the rerun and COPY of ``rows`` facts."""
    for scratch_url in _database(url):
        engine = db.make_engine(scratch_url)
        try:
            db.migrate(engine)
            docs = _documents(engine, max(1, rows // per_doc))
            upsert, inserted = _timed_upsert(engine, docs, per_doc)
            rerun, again = _timed_upsert(engine, docs, per_doc)
            copy = _timed_copy(engine, docs, per_doc)
        finally:
            engine.dispose()
        assert again == 0, "a rerun inserted rows"
        return {"rows": inserted, "upsert": upsert, "rerun": rerun, "copy": copy}
    raise RuntimeError("no database")


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, run, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--per-document", type=int, default=1_000)
    default = os.environ.get("FILINGS_TEST_POSTGRES_URL", DEFAULT_URL)
    parser.add_argument("--url", default=default, help="PostgreSQL server (a scratch db is made)")
    args = parser.parse_args(argv)
    r = run(args.url, args.rows, args.per_document)
    n = r["rows"]
    print(f"facts upsert on PostgreSQL: {int(n):,} rows, {args.per_document:,} per document")
    print(f"{'path':<28}{'seconds':>10}{'rows/s':>12}{'x COPY':>9}")
    for label, key in (
        ("load_document (first load)", "upsert"),
        ("load_document (rerun)", "rerun"),
        ("COPY into scratch table", "copy"),
    ):
        print(f"{label:<28}{r[key]:>10.2f}{n / r[key]:>12,.0f}{r[key] / r['copy']:>9.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
