"""The consumer views and the Python API: the same typed frames on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from sqlalchemy import Engine
from storage_factories import Q1, at, fact, load

import filings
from storage.consumer_views import metric_rows

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
    assert sorted(map(tuple, frame.values.tolist())) == sorted(metric_rows())


def test_export_writes_exact_csv_and_parquet(engine: Engine, db_url: str, tmp_path) -> None:
    _loaded(engine)
    files = filings.export(tmp_path / "csv", "csv", url=db_url)
    assert {f.name for f in files} == {f"{name}.csv" for name in filings.EXPORTED}
    csv = pd.read_csv(tmp_path / "csv" / "restatements.csv", dtype=str)
    assert csv["value_before"].tolist() == ["4482252000.000000"]
    filings.export(tmp_path / "pq", "parquet", url=db_url)
    table = pq.read_table(tmp_path / "pq" / "facts_fiscal.parquet")
    assert table.schema.field("value").type == pa.decimal128(38, 6)
    assert Decimal("4490000000") in table.column("value").to_pylist()
