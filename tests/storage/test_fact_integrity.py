"""facts -> documents, the foreign key, on both databases, under the COPY and INSERT paths.

It must hold whatever path loads facts: no fact without its document, deleting a document
deletes its facts, a referenced document_id cannot change, and a delete waits for a load.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from datetime import date

import pytest
from sqlalchemy import Engine, delete, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError
from storage_factories import add_document, at, fact

from storage.db import make_engine
from storage.facts import insert_new
from storage.loading import load_document
from storage.mapping import FACT_COLUMNS, fact_row
from storage.schema import documents, facts
from storage.sql import utcnow

FACTS = [fact(), fact("net_income", "1081223000")]


def _facts_of(engine: Engine, doc: str) -> int:
    with engine.connect() as conn:
        stmt = select(func.count()).select_from(facts).where(facts.c.document_id == doc)
        return int(conn.execute(stmt).scalar_one())


def _rows(doc: str, items: list) -> list[tuple[object, ...]]:
    return [fact_row(f, doc, date(2024, 5, 1), utcnow()) for f in items]


def test_a_fact_needs_a_known_document(engine: Engine) -> None:
    values = dict(zip(FACT_COLUMNS, _rows("sec:missing", FACTS[:1])[0], strict=True))
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(insert(facts).values(values))
    assert _facts_of(engine, "sec:missing") == 0


def test_a_bulk_insert_checks_every_document_it_names(engine: Engine) -> None:
    # COPY on PostgreSQL: one known and one unknown document in the same statement.
    doc = add_document(engine, "a", at(1))
    rows = _rows(doc, FACTS[:1]) + _rows("sec:missing", FACTS[1:])
    with pytest.raises(IntegrityError), engine.begin() as conn:
        insert_new(conn, rows)
    with engine.begin() as conn:
        assert insert_new(conn, _rows(doc, FACTS)) == len(FACTS)
    assert _facts_of(engine, doc) == len(FACTS)


def test_deleting_a_document_deletes_its_facts(engine: Engine) -> None:
    kept, gone = add_document(engine, "a", at(1)), add_document(engine, "b", at(2))
    for doc in (kept, gone):
        load_document(engine, doc, FACTS, [], quarantine=False)
    with engine.begin() as conn:
        conn.execute(delete(documents).where(documents.c.document_id == gone))
    assert (_facts_of(engine, kept), _facts_of(engine, gone)) == (len(FACTS), 0)


def test_a_referenced_document_id_cannot_change(engine: Engine) -> None:
    used, unused = add_document(engine, "a", at(1)), add_document(engine, "b", at(2))
    load_document(engine, used, FACTS, [], quarantine=False)  # facts only refer to it
    rename = update(documents).values(document_id="sec:renamed")
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(rename.where(documents.c.document_id == used))
    with engine.begin() as conn:  # a document without facts may be renamed
        conn.execute(rename.where(documents.c.document_id == unused))
    assert _facts_of(engine, used) == len(FACTS)


def test_a_fact_moves_only_to_a_known_document(engine: Engine) -> None:
    first, second = add_document(engine, "a", at(1)), add_document(engine, "b", at(2))
    load_document(engine, first, FACTS, [], quarantine=False)
    move = update(facts).where(facts.c.metric == "net_income")
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(move.values(document_id="sec:missing"))
    with engine.begin() as conn:
        conn.execute(move.values(document_id=second))
    assert (_facts_of(engine, first), _facts_of(engine, second)) == (1, 1)


def test_a_delete_waits_for_a_load_in_flight_then_takes_its_facts(db_url: str) -> None:
    loader, deleter = make_engine(db_url), make_engine(db_url)
    try:
        doc = add_document(loader, "a", at(1))
        finished = threading.Event()

        def delete_document() -> None:
            with deleter.begin() as conn:
                conn.execute(delete(documents).where(documents.c.document_id == doc))
            finished.set()

        with loader.begin() as conn:
            insert_new(conn, _rows(doc, FACTS))  # locks the document (SQLite: the database)
            thread = threading.Thread(target=delete_document)
            thread.start()
            _until(lambda: _waiting_in_the_database(thread, deleter), thread)
            assert not finished.is_set()  # it asked, the database holds it: the load first
        thread.join(timeout=30)
        assert finished.is_set()
        assert _facts_of(loader, doc) == 0
    finally:
        loader.dispose()
        deleter.dispose()


def _until(condition: Callable[[], bool], thread: threading.Thread, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert thread.is_alive(), "the delete ended without waiting for the load"
        assert time.monotonic() < deadline, "the delete never reached the database"
        time.sleep(0.01)


def _waiting_in_the_database(thread: threading.Thread, engine: Engine) -> bool:
    """The thread is inside its statement's execution (the DBAPI call); on PostgreSQL a
    backend of this database also waits on a lock (SQLite's lock is the whole file)."""
    frame = sys._current_frames().get(thread.ident or 0)
    while frame is not None and frame.f_code.co_name != "do_execute":
        frame = frame.f_back
    if frame is None or engine.dialect.name != "postgresql":
        return frame is not None
    waiting = text(
        "select count(*) from pg_stat_activity"
        " where datname = current_database() and wait_event_type = 'Lock'"
    )
    with engine.connect() as conn:
        return bool(conn.execute(waiting).scalar_one())
