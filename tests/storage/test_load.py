"""load_document: one transaction per document, idempotent, safe when run concurrently."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest
from sqlalchemy import Engine, event, select
from storage_factories import add_document, at, check, fact, outlook

from domain.enums import DocKind, Status
from domain.records import Dividend, LoadCounts, Provenance
from storage.db import make_engine, table_counts
from storage.documents import document_status, documents_to_process
from storage.facts import document_facts
from storage.loading import load_document
from storage.quality import release
from storage.schema import dividends, documents, guidance, validation_results

INSTANT = (None, date(2024, 3, 31))
FACTS = [
    fact(),
    fact("net_income", "1081223000"),
    fact("total_assets", "48132618000", period=INSTANT),
    fact("eps_diluted_per_ads", "13.24", decimals=2, unit="CNY/ADS"),
    fact("income_tax_expense", "-35251000"),
]
DIVIDEND = Dividend(
    currency="USD",
    per_share=None,
    per_ads=None,
    period_start=None,
    period_end=date(2023, 12, 31),
    record_date=date(2024, 4, 10),
    ex_date=None,
    payment_date=date(2024, 4, 30),
    provenance=Provenance("ex99-1.htm", "paragraph 50", "", "", "US$0.27"),
)


def _load(engine: Engine, doc: str, items: list, **kwargs: object) -> LoadCounts:
    return load_document(
        engine, doc, items, [check(), check("totals_add_up")], quarantine=False, **kwargs
    )  # type: ignore[arg-type]


def test_load_twice_inserts_nothing_the_second_time(engine: Engine) -> None:
    doc = add_document(engine, "a", at(1))
    extras = {
        "guidance": [outlook("4100000000", "4300000000")],
        "dividends": [replace(DIVIDEND, per_ads=__import__("decimal").Decimal("0.27"))],
    }
    first = _load(engine, doc, FACTS, **extras)
    with engine.connect() as conn:
        counts = table_counts(conn)
    second = _load(engine, doc, FACTS, **extras)
    assert (first.facts_inserted, first.facts_unchanged) == (5, 0)
    assert (second.facts_inserted, second.facts_updated, second.facts_unchanged) == (0, 0, 5)
    assert (second.validations, second.guidance, second.dividends) == (2, 1, 1)
    assert second.status is Status.LOADED
    with engine.connect() as conn:
        assert table_counts(conn) == counts
        assert counts["facts"] == 5 and counts["validation_results"] == 2
        assert document_status(conn, doc) is Status.LOADED


def test_duplicate_keys_keep_the_most_precise_figure(engine: Engine) -> None:
    doc = add_document(engine, "a", at(1))
    narrative = fact(value="4482300000", decimals=-5, origin="narrative", raw="RMB4,482.3 million")
    counts = _load(engine, doc, [narrative, fact()])
    with engine.connect() as conn:
        [stored] = document_facts(conn, doc)
    assert counts.facts_inserted == 1
    assert (stored.value, stored.decimals, stored.origin) == (fact().value, -3, "table")


def test_a_corrected_extraction_updates_the_same_documents_fact(engine: Engine) -> None:
    doc = add_document(engine, "a", at(1))
    _load(engine, doc, [fact(value="4482252000")])
    counts = _load(engine, doc, [fact(value="4482253000"), fact("net_income", "1")])
    assert (counts.facts_inserted, counts.facts_updated, counts.facts_unchanged) == (1, 1, 0)
    with engine.connect() as conn:
        values = sorted(f.value for f in document_facts(conn, doc))
    assert values == [Decimal("1"), Decimal("4482253000")]


def test_validations_guidance_and_dividends_replace_the_previous_ones(engine: Engine) -> None:
    doc = add_document(engine, "a", at(1))
    load_document(
        engine,
        doc,
        FACTS,
        [check(), check("x"), check("y")],
        quarantine=False,
        guidance=[outlook("1", "2"), outlook("3", "4")],
        dividends=[DIVIDEND],
    )
    load_document(engine, doc, FACTS, [check("x", ok=False)], quarantine=True, run_id="run-2")
    with engine.connect() as conn:
        rows = conn.execute(
            select(
                validation_results.c.expectation,
                validation_results.c.success,
                validation_results.c.run_id,
            )
        ).all()
        kept_guidance = conn.execute(select(guidance.c.low)).scalars().all()
        doc_row = conn.execute(select(documents.c.status, documents.c.status_reason)).one()
        assert conn.execute(select(dividends)).all() == []
    assert rows == [("x", False, "run-2")]
    assert kept_guidance == []
    assert tuple(doc_row) == ("quarantined", "failed: x")


def test_guidance_keeps_one_row_per_metric_and_period(engine: Engine) -> None:
    doc = add_document(engine, "a", at(1))
    vague = replace(outlook(None, None), numeric=False)
    counts = _load(engine, doc, [], guidance=[vague, outlook("4100000000", "4300000000")])
    with engine.connect() as conn:
        stored = conn.execute(select(guidance.c.low, guidance.c.is_numeric)).all()
    assert counts.guidance == 1
    assert [(Decimal(low), numeric) for low, numeric in stored] == [(Decimal("4100000000"), True)]


def _race(
    engines: list[Engine], doc: str, items: list
) -> tuple[list[LoadCounts], list[BaseException]]:
    """Start one load_document per engine at the same moment."""
    barrier = threading.Barrier(len(engines))
    results: list[LoadCounts] = []
    errors: list[BaseException] = []

    def worker(eng: Engine) -> None:
        try:
            with eng.connect():  # connect first, so both loads start together
                pass
            barrier.wait(timeout=10)
            results.append(_load(eng, doc, items, guidance=[outlook("1", "2")]))
        except BaseException as exc:  # reported by the caller's assertion
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(e,)) for e in engines]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results, errors


# Without facts nothing else makes the second load wait: only the document lock does.
@pytest.mark.parametrize("items", [FACTS, []], ids=["facts", "no-facts"])
def test_concurrent_loads_of_one_document_leave_one_set_of_rows(db_url: str, items: list) -> None:
    engines = [make_engine(db_url) for _ in range(2)]
    try:
        for round_ in range(5):
            doc = add_document(engines[0], f"race-{round_}", at(1))
            results, errors = _race(engines, doc, items)
            assert errors == []
            assert sorted(r.facts_inserted for r in results) == [0, len(items)]
        with engines[0].connect() as conn:
            counts = table_counts(conn)
    finally:
        for e in engines:
            e.dispose()
    assert (counts["facts"], counts["validation_results"], counts["guidance"]) == (
        5 * len(items),
        10,
        5,
    )


def test_an_open_reader_does_not_block_a_load(engine: Engine) -> None:
    # A flow may iterate documents_to_process on one connection while loading on others.
    doc = add_document(engine, "a", at(1))
    with engine.connect() as reader:
        assert documents_to_process(reader) == [doc]
        counts = _load(engine, doc, FACTS)
    assert counts.facts_inserted == len(FACTS)
    with engine.connect() as conn:
        assert documents_to_process(conn) == []


def _statements(engine: Engine, load: Callable[[], object]) -> list[str]:
    """The SQL statements (first words) one call sends through SQLAlchemy."""
    sent: list[str] = []

    def record(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        sent.append(" ".join(statement.split()[:3]))

    event.listen(engine, "before_cursor_execute", record)
    try:
        load()
    finally:
        event.remove(engine, "before_cursor_execute", record)
    return sent


def test_a_first_load_reads_and_deletes_nothing_a_reload_replaces(engine: Engine) -> None:
    doc = add_document(engine, "a", at(1))
    extras = {"guidance": [outlook("1", "2")], "dividends": [DIVIDEND]}
    first = _statements(engine, lambda: _load(engine, doc, FACTS, **extras))
    again = _statements(engine, lambda: _load(engine, doc, FACTS, **extras))
    assert not [s for s in first if s.startswith("DELETE")]
    reads = [sum(s.startswith("SELECT facts.fact_id") for s in run) for run in (first, again)]
    assert reads == [0, 1]  # the stored facts are read on the reload only
    assert sorted(s for s in again if s.startswith("DELETE")) == [
        "DELETE FROM dividend_declarations",
        "DELETE FROM guidance",
        "DELETE FROM validation_results",
    ]
    with engine.connect() as conn:
        counts = table_counts(conn)
    assert (counts["facts"], counts["guidance"], counts["dividend_declarations"]) == (
        len(FACTS),
        1,
        1,
    )


def test_a_released_document_stays_loaded_when_loaded_again(engine: Engine) -> None:
    # One status rule for loading and revalidation (storage.quality.status_after_validation):
    # a release is a person's decision, so a critical failure does not quarantine it again.
    doc = add_document(engine, "a", at(1))
    failed = [check("balance_sheet_balances", ok=False)]
    first = load_document(engine, doc, FACTS, failed, quarantine=True, kind=DocKind.OTHER)
    assert first.status is Status.QUARANTINED
    with engine.begin() as conn:
        assert document_status(conn, doc) is Status.QUARANTINED
        release(conn, doc, "ana", "checked against the PDF")
    again = load_document(engine, doc, FACTS, failed, quarantine=True)
    with engine.connect() as conn:
        row = conn.execute(select(documents).where(documents.c.document_id == doc)).one()
    assert again.status is Status.LOADED
    assert (row.status, row.status_reason, row.kind) == ("loaded", "", "other")
