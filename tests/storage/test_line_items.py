"""line_items: every statement cell as printed, kept like facts, on SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal

from alembic import command
from sqlalchemy import Engine, func, select, text
from storage_factories import add_document, at, check

from domain.records import Provenance
from domain.rowrecords import LineItem, StatementKind, StatementRow
from storage.db import alembic_config, migrate
from storage.line_items import document_line_items
from storage.loading import load_document
from storage.schema import statement_rows
from storage.views import LINE_ITEMS

QUARTER = (date(2024, 11, 3), date(2025, 2, 1))  # a retailer's 13-week quarter
YEAR_END = date(2025, 2, 1)


def row(
    label: str,
    value: str,
    *,
    index: int = 0,
    section: str = "",
    period: tuple[date | None, date] = QUARTER,
    statement: StatementKind = StatementKind.INCOME_STATEMENT,
    currency: str = "USD",
    raw: str = "",
) -> StatementRow:
    """One value cell of a statement table."""
    return StatementRow(
        statement=statement,
        table_title="CONDENSED STATEMENTS OF INCOME",
        row_label=label,
        row_index=index,
        section=section,
        period_start=period[0],
        period_end=period[1],
        currency=currency,
        value=Decimal(value),
        scale=3,
        decimals=-3,
        provenance=Provenance("ex99-1.htm", "table 2", label, "13 Weeks Ended Feb 1, 2025", raw),
    )


SALES = LineItem(row("Net sales", "394226000", raw="394,226"), "USD", "total_net_revenue")
COST = LineItem(row("Cost of sales (including buying, ...)", "-203400000", index=1), "USD")
EPS = LineItem(row("Basic", "1.62", index=2, section="Earnings per share"), "USD/share")
CASH = LineItem(
    row("Cash and cash equivalents", "316989000", section="CURRENT ASSETS",
        period=(None, YEAR_END), statement=StatementKind.BALANCE_SHEET),
    "USD", "cash_and_cash_equivalents", "arithmetic: adds up to 'Total current assets'",
)  # fmt: skip
ITEMS = (SALES, COST, EPS, CASH)


def _load(engine: Engine, source_id: str, day: int, items: tuple[LineItem, ...]) -> str:
    doc = add_document(engine, source_id, at(day, 3))
    load_document(engine, doc, [], [check()], quarantine=False, line_items=items)
    return doc


def _view(engine: Engine) -> list[tuple[object, ...]]:
    stmt = select(LINE_ITEMS).order_by(LINE_ITEMS.c.document_id, LINE_ITEMS.c.label)
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(stmt)]


def _count(engine: Engine) -> int:
    with engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(statement_rows)).scalar_one()


def test_every_cell_is_a_line_item_as_printed(engine: Engine) -> None:
    doc = _load(engine, "bke-q4", 14, ITEMS)
    on = date(2024, 3, 14)
    assert _view(engine) == [
        ("QFIN", doc, "income_statement", "Earnings per share", "Basic", *QUARTER, "USD/share",
         Decimal("1.62"), None, on, None),
        ("QFIN", doc, "balance_sheet", "CURRENT ASSETS", "Cash and cash equivalents", None,
         YEAR_END, "USD", Decimal("316989000"), "cash_and_cash_equivalents", on, CASH.proved_by),
        ("QFIN", doc, "income_statement", None, "Cost of sales (including buying, ...)",
         *QUARTER, "USD", Decimal("-203400000"), None, on, None),
        ("QFIN", doc, "income_statement", None, "Net sales", *QUARTER, "USD",
         Decimal("394226000"), "total_net_revenue", on, None),
    ]  # fmt: skip


def test_line_items_come_back_as_loaded(engine: Engine) -> None:
    doc = _load(engine, "bke-q4", 14, ITEMS)
    with engine.connect() as conn:
        back = document_line_items(conn, doc)
    assert sorted(back, key=lambda i: i.row.row_label) == sorted(
        ITEMS, key=lambda i: i.row.row_label
    )


def test_a_rerun_adds_and_changes_nothing(engine: Engine) -> None:
    doc = _load(engine, "bke-q4", 14, ITEMS)
    with engine.connect() as conn:
        before = conn.execute(select(statement_rows).order_by(statement_rows.c.row_id)).all()
    load_document(engine, doc, [], [check()], quarantine=False, line_items=ITEMS)
    with engine.connect() as conn:
        after = conn.execute(select(statement_rows).order_by(statement_rows.c.row_id)).all()
    assert [r[:-1] for r in after] == [r[:-1] for r in before]  # all but loaded_at


def test_a_restatement_keeps_the_earlier_report(engine: Engine) -> None:
    first = _load(engine, "bke-q4", 14, ITEMS)
    restated = replace(SALES, row=replace(SALES.row, value=Decimal("394300000")))
    later = _load(engine, "bke-10k", 28, (restated,))
    sales = sorted((r[10], r[1], r[8]) for r in _view(engine) if r[4] == "Net sales")
    assert [(doc, value, on) for on, doc, value in sales] == [
        (first, Decimal("394226000"), date(2024, 3, 14)),
        (later, Decimal("394300000"), date(2024, 3, 28)),
    ]


def test_reading_a_document_again_stores_what_is_read_now(engine: Engine) -> None:
    # A parser fix re-reads the same document: a changed cell is updated, a vanished one goes.
    doc = _load(engine, "bke-q4", 14, ITEMS)
    fixed = replace(COST, metric="cost_of_revenue")
    load_document(engine, doc, [], [check()], quarantine=False, line_items=(SALES, fixed, CASH))
    with engine.connect() as conn:
        back = {i.row.row_label: i.metric for i in document_line_items(conn, doc)}
    assert back == {
        "Net sales": "total_net_revenue",
        "Cost of sales (including buying, ...)": "cost_of_revenue",
        "Cash and cash equivalents": "cash_and_cash_equivalents",
    }
    assert _count(engine) == 3


def test_the_same_cell_twice_is_stored_once(engine: Engine) -> None:
    _load(engine, "bke-q4", 14, (SALES, SALES, COST))
    assert _count(engine) == 2


def test_deleting_a_document_deletes_its_line_items(engine: Engine) -> None:
    doc = _load(engine, "bke-q4", 14, ITEMS)
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM documents WHERE document_id = :d"), {"d": doc})
    assert _count(engine) == 0


_SEED_0006 = (
    "INSERT INTO issuers (ticker, name, cik, hkex_code) VALUES ('QFIN', 'Q', '1', '03660')",
    "INSERT INTO documents (document_id, source, source_id, issuer, form, title, published_at, "
    "published_on, url, status, first_seen_at, updated_at) VALUES ('sec:a', 'sec', 'a', 'QFIN', "
    "'6-K', 't', '2024-03-12 12:00:00', '2024-03-12', 'u', 'loaded', '2024-03-12 12:00:00', "
    "'2024-03-12 12:00:00')",
    *(
        "INSERT INTO facts (document_id, metric, period_start, period_end, basis, value, unit, "
        "scale, decimals, origin, row_label, reported_on, loaded_at) VALUES ('sec:a', "
        f"'{metric}', '2023-10-01', '2023-12-31', '{basis}', 1081223000, 'CNY', 3, -3, "
        f"'{origin}', 'Net income', '2024-03-12', '2024-03-12 12:00:00')"
        for metric, basis, origin in (
            ("net_income", "us_gaap", "table"),
            ("net_income", "ifrs", "table"),
            ("net_income_attributable_to_company", "us_gaap", "narrative"),
        )
    ),
)


def test_upgrading_copies_stored_table_facts_into_line_items(engine: Engine) -> None:
    # A warehouse at 0006 showed table facts as line_items: after the upgrade they still are.
    with engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0006")
        for statement in _SEED_0006:
            conn.execute(text(statement))
    migrate(engine)
    quarter = (date(2023, 10, 1), date(2023, 12, 31))
    assert sorted(_view(engine)) == [
        ("QFIN", "sec:a", statement, None, "Net income", *quarter, "CNY",
         Decimal("1081223000"), "net_income", date(2024, 3, 12), None)
        for statement in ("ifrs_reconciliation", "income_statement")
    ]  # fmt: skip
