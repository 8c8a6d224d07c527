"""The consumer views and the Python API: the same typed frames on SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from sqlalchemy import Engine, select
from storage_factories import Q1, at, check, fact, load

import filings
from domain.fiscal import fiscal_period
from domain.records import DocumentRef, Fact, Issuer
from storage.consumer_views import metric_rows
from storage.documents import record_documents, upsert_issuers
from storage.loading import load_document
from storage.views import FACTS_FISCAL

FIRST = fact(value="4482252000", decimals=-3)
RESTATED = fact(value="4490000000", decimals=-3)
ASSETS = fact("total_assets", "48132618000", period=(None, date(2024, 3, 31)))


def _loaded(engine: Engine) -> tuple[str, str]:
    first = load(engine, "a", at(1), FIRST, ASSETS)
    later = load(engine, "b", at(2), RESTATED)
    return first, later


def test_facts_come_back_typed_with_label_and_fiscal_period(engine: Engine, db_url: str) -> None:
    _, later = _loaded(engine)
    frame = filings.read_facts(metrics=["total_net_revenue", "total_assets"], url=db_url)
    assert str(frame["value"].dtype) == "decimal128(38, 6)[pyarrow]"
    assert str(frame["period_end"].dtype) == "date32[day][pyarrow]"
    assert str(frame["fiscal_quarter"].dtype) == "int64[pyarrow]"
    rows = frame[["metric", "label", "fiscal_year", "period_type", "fiscal_quarter", "value"]]
    assert rows.astype(object).values.tolist() == [
        ["total_assets", "TOTAL ASSETS", 2024, "instant", 1, Decimal("48132618000")],
        ["total_net_revenue", "Total net revenue", 2024, "quarter", 1, Decimal("4490000000")],
    ]
    assert frame["source_document_id"].tolist()[1] == later


def test_a_restatement_names_both_values_and_documents(engine: Engine, db_url: str) -> None:
    first, later = _loaded(engine)
    frame = filings.read_restatements(url=db_url)
    assert frame.astype(object).values.tolist() == [
        ["QFIN", "total_net_revenue", Q1[0], Q1[1], "CNY", Decimal("4482252000"),
         Decimal("4490000000"), first, later, date(2024, 5, 1), date(2024, 5, 2)],
    ]  # fmt: skip


def test_metric_labels_agree_with_metrics_csv(engine: Engine, db_url: str) -> None:
    # The view freezes metrics.csv at its revision: editing the catalog needs a new revision.
    frame = filings.read_metric_labels(url=db_url)
    catalog = frame[frame["issuer"].isna()].drop(columns="issuer")
    assert sorted(map(tuple, catalog.values.tolist())) == sorted(metric_rows())
    labels = dict(zip(catalog["metric"], catalog["label"], strict=True))
    assert labels["income_tax_expense"] == "Income taxes expense"  # no note to developers


def test_metric_labels_say_each_issuers_own_wording_and_unit(engine: Engine, db_url: str) -> None:
    sales = fact(value="293600000", unit="USD")
    sales = replace(sales, provenance=replace(
        sales.provenance, row_label="SALES, Net of returns and allowances"))  # fmt: skip
    load(engine, "a", at(1), fact())  # QFIN's: row label as the factory prints it
    _issuer_document(engine, "BKE", sales)
    frame = filings.read_metric_labels(url=db_url)
    own = frame[frame["metric"] == "total_net_revenue"].astype(object)
    rows = {r["issuer"] if isinstance(r["issuer"], str) else None: (r["label"], r["unit"])
            for r in own.to_dict("records")}  # fmt: skip
    assert rows["BKE"] == ("SALES, Net of returns and allowances", "USD")
    assert rows["QFIN"][1] == "CNY" and rows[None] == ("Total net revenue", "CNY")


def test_export_writes_exact_csv_and_parquet(engine: Engine, db_url: str, tmp_path) -> None:
    _loaded(engine)
    files = filings.export(tmp_path / "csv", "csv", url=db_url)
    assert {f.name for f in files} == {f"{name}.csv" for name in filings.EXPORTED}
    alerts = (tmp_path / "csv" / "alerts.csv").read_text(encoding="utf-8")
    assert alerts.startswith("alert_id,kind,issuer,subject,message,created_at,delivered_at\n")
    csv = pd.read_csv(tmp_path / "csv" / "restatements.csv", dtype=str)
    assert csv["value_before"].tolist() == ["4482252000.000000"]
    filings.export(tmp_path / "pq", "parquet", url=db_url)
    table = pq.read_table(tmp_path / "pq" / "facts_fiscal.parquet")
    assert table.schema.field("value").type == pa.decimal128(38, 6)
    assert Decimal("4490000000") in table.column("value").to_pylist()


# Fiscal calendars: each issuer's year end ("MMDD"), and what facts_fiscal says of its periods.
_YEAR_ENDS = {"QFIN": "", "BKE": "0201", "MARCH": "0331", "JUNE": "0630", "EARLY": "0103"}


def _issuer_document(engine: Engine, ticker: str, *facts: Fact) -> None:
    year_end = _YEAR_ENDS[ticker]
    issuer = Issuer(ticker, ticker, "0000000001", "", fiscal_year_end=year_end)
    doc = DocumentRef("sec", f"fy-{ticker}", ticker, "6-K", "t", at(1), "https://example.test")
    with engine.begin() as conn:
        upsert_issuers(conn, [issuer])
        record_documents(conn, [doc])
    load_document(engine, doc.document_id, list(facts), [check()], quarantine=False)


def _fiscal(engine: Engine, ticker: str) -> dict[tuple[date | None, date], tuple]:
    v = FACTS_FISCAL.c
    stmt = select(v.period_start, v.period_end, v.period_type, v.fiscal_year, v.fiscal_quarter)
    with engine.connect() as conn:
        rows = conn.execute(stmt.where(v.issuer == ticker)).all()
    return {(r[0], r[1]): (r[2], r[3], r[4]) for r in rows}


def test_fiscal_year_and_quarter_follow_each_issuers_year_end(engine: Engine) -> None:
    quarter = lambda start, end: fact(period=(date(*start), date(*end)))  # noqa: E731
    instant = lambda *end: fact("total_assets", period=(None, date(*end)))  # noqa: E731
    _issuer_document(engine, "QFIN", quarter((2024, 1, 1), (2024, 3, 31)), instant(2024, 12, 31))
    # 52/53 weeks to the Saturday nearest January 31 (SEC's fiscalYearEnd "0201")
    _issuer_document(engine, "BKE", quarter((2024, 8, 4), (2024, 11, 2)), instant(2024, 2, 3),
                     fact(period=(date(2023, 1, 29), date(2024, 2, 3))))  # fmt: skip
    _issuer_document(engine, "MARCH", quarter((2024, 4, 1), (2024, 6, 30)), instant(2025, 3, 31),
                     fact(period=(date(2024, 4, 1), date(2025, 3, 31))))  # fmt: skip
    assert _fiscal(engine, "QFIN") == {
        (date(2024, 1, 1), date(2024, 3, 31)): ("quarter", 2024, 1),
        (None, date(2024, 12, 31)): ("instant", 2024, 4),
    }
    assert _fiscal(engine, "BKE") == {
        (date(2024, 8, 4), date(2024, 11, 2)): ("quarter", 2024, 3),
        (None, date(2024, 2, 3)): ("instant", 2023, 4),
        (date(2023, 1, 29), date(2024, 2, 3)): ("year", 2023, None),  # 53 weeks
    }
    assert _fiscal(engine, "MARCH") == {  # "2024/25": named after the year most months are in
        (date(2024, 4, 1), date(2024, 6, 30)): ("quarter", 2024, 1),
        (None, date(2025, 3, 31)): ("instant", 2024, 4),
        (date(2024, 4, 1), date(2025, 3, 31)): ("year", 2024, None),
    }


def test_the_view_places_every_day_of_the_year_as_tasks_core_fiscal_does(engine: Engine) -> None:
    # Instants on every fifth day of two years (so every day of the month comes up), for year
    # ends in January (52/53 weeks), March, June, December and the first days of January.
    ends = [date(2023, 1, 1) + timedelta(days=n) for n in range(0, 731, 5)]
    for ticker in _YEAR_ENDS:
        _issuer_document(engine, ticker, *(fact("total_assets", period=(None, e)) for e in ends))
    for ticker, year_end in _YEAR_ENDS.items():
        got = _fiscal(engine, ticker)
        assert got == {(None, e): ("instant", *fiscal_period(e, year_end)) for e in ends}, ticker


def test_a_release_figure_the_20f_contradicts_is_no_restatement_between_releases(
    engine: Engine, db_url: str
) -> None:
    # release -> audited 20-F -> release: one figure, compared in audited_vs_reported (and
    # alerted once); restatements stays between releases (analyst.md's twelve on the demo)
    release = fact("net_income_attributable_to_company", "4285336000", decimals=-5)
    load(engine, "a", at(1), release)
    load(engine, "x", at(2), fact("net_income_attributable_to_company", "4275136000",
                                  decimals=0, origin="xbrl"))  # fmt: skip
    load(engine, "b", at(3), release)
    assert filings.read_restatements(url=db_url).empty
    audited = filings.read_view("audited_vs_reported", url=db_url)
    assert set(audited["outcome"]) == {"differs"}
