"""Documents, issuers, files, runs and exact amounts, on both databases."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from datetime import date
from decimal import Decimal

import pytest
from rich.console import Console
from sqlalchemy import Engine, insert, select
from sqlalchemy.exc import IntegrityError
from storage_factories import HKT, QFIN, add_document, at, fact, load, ref

from domain.enums import DocKind, Status
from domain.errors import PipelineError, UnknownDocumentError
from domain.records import Issuer, StoredFile
from flows import preflight
from flows.console import status_tables
from storage.db import table_counts
from storage.documents import (
    document_files,
    document_status,
    documents_to_process,
    known_document_ids,
    record_documents,
    record_files,
    set_kind,
    set_status,
    upsert_issuers,
)
from storage.facts import document_facts
from storage.loading import load_document
from storage.runs import finish_run, mark_crashed, start_run
from storage.schema import documents, facts, issuers, runs
from tasks.config.settings import load_settings
from tasks.runs.bookkeeping import warehouse_status


def test_upsert_issuers_inserts_then_updates(engine: Engine) -> None:
    renamed = Issuer(ticker="QFIN", name="Qifu", cik=QFIN.cik, hkex_code=QFIN.hkex_code)
    with engine.begin() as conn:
        upsert_issuers(conn, [QFIN, QFIN])
        upsert_issuers(conn, [renamed])
        rows = conn.execute(select(issuers.c.ticker, issuers.c.name)).all()
    assert rows == [("QFIN", "Qifu")]


def test_a_learnt_fiscal_year_end_stays_until_another_is_given(engine: Engine) -> None:
    # SEC's fiscalYearEnd is learnt at listing; a run from an issuers file that sets none
    # keeps it, and one that sets another replaces it.
    learnt = Issuer("BKE", "BUCKLE INC", "0000885245", "", fiscal_year_end="0201")
    unset = Issuer("BKE", "BUCKLE INC", "0000885245", "")
    with engine.begin() as conn:
        upsert_issuers(conn, [learnt])
        upsert_issuers(conn, [unset])
        kept = conn.execute(select(issuers.c.fiscal_year_end)).scalar_one()
        upsert_issuers(conn, [Issuer("BKE", "BUCKLE INC", "0000885245", "", (), "0203")])
        replaced = conn.execute(select(issuers.c.fiscal_year_end)).scalar_one()
    assert (kept, replaced) == ("0201", "0203")


def test_record_documents_returns_only_new_ids(engine: Engine) -> None:
    first, second = ref("0001104659-24-032436", at(12)), ref("0001104659-24-061234", at(20))
    with engine.begin() as conn:
        upsert_issuers(conn, [QFIN])
        assert record_documents(conn, [first, first]) == ["sec:0001104659-24-032436"]
        assert record_documents(conn, [first, second]) == ["sec:0001104659-24-061234"]
        assert known_document_ids(conn, "QFIN", "sec") == {
            first.document_id,
            second.document_id,
        }
        assert known_document_ids(conn, "QFIN", "hkex") == set()
        assert document_status(conn, first.document_id) is Status.FETCHED


def test_published_time_is_stored_in_utc_and_date_as_printed(engine: Engine) -> None:
    # 07:30 in Hong Kong is still the previous day in UTC: published_on keeps the local date.
    hk = ref("12345", at(29).replace(hour=7, minute=30, tzinfo=HKT), source="hkex")
    with engine.begin() as conn:
        upsert_issuers(conn, [QFIN])
        record_documents(conn, [hk])
        row = conn.execute(select(documents.c.published_at, documents.c.published_on)).one()
    assert row.published_at == hk.published_at
    assert row.published_at.utcoffset().total_seconds() == 0
    assert row.published_on == date(2024, 5, 29)


def test_document_needs_a_known_issuer(engine: Engine) -> None:
    with pytest.raises(IntegrityError), engine.begin() as conn:
        record_documents(conn, [ref("x", at(1))])


def test_status_kind_and_documents_to_process(engine: Engine) -> None:
    old, new = add_document(engine, "a", at(1)), add_document(engine, "b", at(2))
    later = add_document(engine, "c", at(3))
    with engine.begin() as conn:
        set_status(conn, later, Status.LOADED)
        set_status(conn, old, Status.FAILED, "corrupt PDF")
        set_kind(conn, new, DocKind.RESULTS_QUARTERLY)
        assert documents_to_process(conn) == [old, new]
        assert documents_to_process(conn, issuer="OTHER") == []
        row = conn.execute(select(documents).where(documents.c.document_id == old)).one()
        kind = conn.execute(select(documents.c.kind).where(documents.c.document_id == new))
        assert kind.scalar_one() == "results_quarterly"
    assert (row.status, row.status_reason) == ("failed", "corrupt PDF")


def test_unknown_document_is_an_error(engine: Engine) -> None:
    with pytest.raises(UnknownDocumentError), engine.begin() as conn:
        set_status(conn, "sec:missing", Status.LOADED)
    with pytest.raises(UnknownDocumentError):
        load_document(engine, "sec:missing", [], [], quarantine=False)


def test_files_are_recorded_once_and_updated_on_new_content(engine: Engine) -> None:
    doc = add_document(engine, "a", at(1))
    v1 = StoredFile("ex99-1.htm", "https://x/ex99-1.htm", "a" * 64, 1000, "EX-99.1")
    v2 = StoredFile("ex99-1.htm", "https://x/ex99-1.htm", "b" * 64, 1001, "EX-99.1")
    cover = StoredFile("cover.htm", "https://x/cover.htm", "c" * 64, 10, "6-K")
    with engine.begin() as conn:
        record_files(conn, doc, [v1, cover])
        record_files(conn, doc, [v1])
        assert document_files(conn, doc) == [cover, v1]
        record_files(conn, doc, [v2])
        assert document_files(conn, doc) == [cover, v2]


def test_runs_record_start_and_summary(engine: Engine) -> None:
    with engine.begin() as conn:
        run_id = start_run(conn, "flow-1")
        finish_run(conn, run_id, "completed", {"loaded": 2, "amount": Decimal("1.5")})
        row = conn.execute(select(runs)).one()
    assert (row.flow_run_id, row.status) == ("flow-1", "completed")
    assert json.loads(row.summary) == {"amount": "1.5", "loaded": 2}
    assert row.finished_at >= row.started_at


def test_a_run_whose_process_is_gone_is_marked_crashed_and_status_shows_it(
    engine: Engine,
) -> None:
    with engine.begin() as conn:
        killed = start_run(conn, "flow-killed", worker="host:1:killed")
        live = start_run(conn, "flow-live", worker="host:2:live")
        done = start_run(conn, "flow-done", worker="host:1:done")
        finish_run(conn, done, "completed", {})
        assert mark_crashed(conn, lambda worker: worker.startswith("host:1:")) == [killed]
        assert mark_crashed(conn, lambda worker: True) == [live]  # only running ones, once
    state = warehouse_status(engine)
    status = {r.flow_run_id: r.status for r in state.runs}
    assert status == {"flow-killed": "crashed", "flow-live": "crashed", "flow-done": "completed"}
    # no alert waits: no empty "Undelivered alerts" header
    [table, documents_table] = status_tables(state)
    assert str(documents_table.title).strip() == "Documents"
    rendered = " ".join(str(cell) for column in table.columns for cell in column._cells)
    assert rendered.count("crashed") == 2


def test_status_lists_the_quarantined_documents_release_takes(engine: Engine, db_url: str) -> None:
    # The walk of issue 35: `filings release` of an unknown id said "`filings status` lists
    # documents", but status printed only counts by status: no id to release.
    held = add_document(engine, "held", at(1))
    loaded = add_document(engine, "fine", at(2))
    with engine.begin() as conn:
        set_status(conn, held, Status.QUARANTINED, "balance_sheet: assets = liabilities + equity")
        set_status(conn, loaded, Status.LOADED)
    state = warehouse_status(engine)
    assert [(q.document_id, q.issuer, q.reason) for q in state.quarantined] == [
        (held, "QFIN", "balance_sheet: assets = liabilities + equity")
    ]
    titles = [str(t.title).strip() for t in status_tables(state)]
    assert titles == ["Runs", "Documents", "Quarantined documents"]
    screen = Console(width=80, record=True, file=io.StringIO())
    screen.print(status_tables(state)[2])
    shown = screen.export_text()
    assert held in shown and loaded not in shown and "(filings release DOC --by NAME)" in shown
    settings = load_settings(database_url=db_url)
    with pytest.raises(PipelineError) as unknown:
        preflight.check_quarantined(settings, "sec:nope")
    assert str(unknown.value) == (
        "unknown document sec:nope: `filings status` lists the quarantined ones"
    )


@pytest.mark.parametrize(
    "value", ["48132618000", "13.24", "-35251000", "0.000001", "9999999999999999999999.999999"]
)
def test_amounts_round_trip_exactly(engine: Engine, value: str) -> None:
    doc = load(engine, "a", at(1), fact(value=value))
    with engine.connect() as conn:
        stored = conn.execute(select(facts.c.value).where(facts.c.document_id == doc))
        got = stored.scalar_one()
        assert document_facts(conn, doc)[0].value == Decimal(value)
    assert isinstance(got, Decimal)
    assert got == Decimal(value)


def test_floats_and_inexact_amounts_are_refused(engine: Engine) -> None:
    doc = add_document(engine, "a", at(1))
    with pytest.raises(TypeError):
        load_document(engine, doc, [replace(fact(), value=13.24)], [], quarantine=False)
    with pytest.raises(ValueError):
        load_document(engine, doc, [fact(value="1.0000001")], [], quarantine=False)
    with engine.connect() as conn:
        assert table_counts(conn)["facts"] == 0
        assert document_status(conn, doc) is Status.FETCHED


def test_null_period_start_still_unique(engine: Engine) -> None:
    instant = (None, date(2024, 3, 31))
    doc = load(engine, "a", at(1), fact("total_assets", "48132618000", period=instant))
    row = {
        "document_id": doc,
        "metric": "total_assets",
        "period_start": None,
        "period_end": date(2024, 3, 31),
        "basis": "us_gaap",
        "value": Decimal(1),
        "unit": "CNY",
        "scale": 3,
        "decimals": -3,
        "origin": "table",
        "reported_on": date(2024, 5, 1),
        "loaded_at": at(1),
    }
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(insert(facts).values(row))
    with engine.begin() as conn:  # a duration fact of the same metric and end is distinct
        conn.execute(insert(facts).values({**row, "period_start": date(2024, 1, 1)}))
        assert table_counts(conn)["facts"] == 2


def test_a_progress_line_names_the_issuer_form_and_title(engine: Engine) -> None:
    from flows import progress

    listed = replace(ref("11480512", at(1), "hkex"), form="HKEx Final Results",
                     title="ANNOUNCEMENT OF THE FOURTH QUARTER AND FULL YEAR 2024 FINANCIAL "
                     "RESULTS AND SEMI-ANNUAL DIVIDEND")  # fmt: skip
    # The walk of issue 35: an HKEx form's title repeated the form on the line ("... HKEx
    # Dividend or Distribution (Announcement Form) hkex:11126844: Dividend or Distribution
    # (Announcement Form) - Cash Dividen…")
    form = "Dividend or Distribution (Announcement Form)"
    dividend = replace(ref("11126844", at(2), "hkex"), form=f"HKEx {form}",
                       title=f"{form} - Cash Dividend Announcement for Equity Issuer")  # fmt: skip
    with engine.begin() as conn:
        upsert_issuers(conn, [QFIN])
        record_documents(conn, [listed, dividend])
    seen: list[str] = []

    class Lines:
        def start(self, total: int, label: str) -> None: ...

        def advance(self, item: str) -> None:
            seen.append(item)

    with progress.listening(Lines()):
        progress.advance(progress.describe(engine, "hkex:11480512"))
        progress.advance(progress.describe(engine, "hkex:missing"))
        progress.advance(progress.describe(engine, "hkex:11126844"))
    assert seen == [
        "QFIN HKEx Final Results hkex:11480512: "
        "ANNOUNCEMENT OF THE FOURTH QUARTER AND FULL YEAR 2024 FINAN…",
        "hkex:missing",
        f"QFIN HKEx {form} hkex:11126844: Cash Dividend Announcement for Equity Issuer",
    ]
