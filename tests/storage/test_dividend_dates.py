"""Every date a dividend announcement gives is stored, ADS payment date included (0004)."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path

from sqlalchemy import Engine, select
from storage_factories import add_document, at, check

from domain.records import StoredFile
from storage import quality
from storage.loading import load_document
from storage.schema import dividends
from tasks.extract import extract_document
from tasks.sources.replay import default_archive_root

ROOT = Path(__file__).resolve().parents[1]
FILING = default_archive_root() / "sec" / "0001741530" / "0001104659-24-032436"
FILES = ("tm248123d1_6k.htm", "tm248123d1_ex99-1.htm")
GOLDEN = ROOT / "golden" / "sec_0001741530_2024-03-12_6k_q4-2023.json"


def _q4_2023_dividends() -> tuple:
    files = [
        (
            StoredFile(name, "", "", (FILING / name).stat().st_size, "EX-99"),
            (FILING / name).read_bytes(),
        )
        for name in FILES
    ]
    return extract_document("golden", files, "QFIN").dividends


def test_the_q4_2023_6k_stores_its_ads_payment_date(engine: Engine) -> None:
    extracted = _q4_2023_dividends()
    [expected] = json.loads(GOLDEN.read_text(encoding="utf-8"))["dividends"]
    assert [d.ads_payment_date for d in extracted] == [
        date.fromisoformat(expected["ads_payment_date"])
    ]
    doc = add_document(engine, "0001104659-24-032436", at(12, month=3))
    load_document(engine, doc, [], [check()], quarantine=False, dividends=extracted)
    with engine.connect() as conn:
        stored = conn.execute(select(dividends.c.payment_date, dividends.c.ads_payment_date)).all()
        read_back = [d for _, d in quality.stored_dividends(conn, [doc])]
    assert [tuple(r) for r in stored] == [
        (
            date.fromisoformat(expected["payment_date"]),
            date.fromisoformat(expected["ads_payment_date"]),
        )
    ]
    assert read_back == list(extracted)  # revalidation sees what extraction gave


def test_the_dividends_view_is_read_from_python_and_exported(
    engine: Engine, db_url: str, tmp_path: Path
) -> None:
    # shared/spec/contract.md: dividends(issuer, period_start, period_end, currency, per_share,
    # per_ads, ex_date, record_date, payment_date, ads_payment_date, source_document_id,
    # reported_on), exact decimals, one row per declaration and document
    import pandas as pd
    import pyarrow.parquet as pq

    import filings

    [expected] = json.loads(GOLDEN.read_text(encoding="utf-8"))["dividends"]
    doc = add_document(engine, "0001104659-24-032436", at(12, month=3))
    load_document(engine, doc, [], [check()], quarantine=False, dividends=_q4_2023_dividends())
    frame = filings.read_dividends(issuers=["QFIN"], url=db_url)
    assert list(frame.columns) == [
        "issuer", "period_start", "period_end", "currency", "per_share", "per_ads", "ex_date",
        "record_date", "payment_date", "ads_payment_date", "source_document_id", "reported_on",
    ]  # fmt: skip
    [row] = frame.to_dict("records")
    assert (row["issuer"], row["source_document_id"], row["currency"]) == ("QFIN", doc, "USD")
    assert row["per_ads"] == Decimal(expected["per_ads"])  # exact, never a float
    assert row["ads_payment_date"] == date.fromisoformat(expected["ads_payment_date"])
    assert row["reported_on"] == date(2024, 3, 12)
    assert filings.read_view("dividends", url=db_url).equals(frame)
    assert filings.read_dividends(issuers=["BKE"], url=db_url).empty
    written = {p.name for p in filings.export(tmp_path, "csv", url=db_url)}
    assert "dividends.csv" in written
    csv = pd.read_csv(tmp_path / "dividends.csv", dtype=str)
    assert csv.loc[0, "per_ads"] == str(Decimal(expected["per_ads"]).quantize(Decimal("0.000001")))
    filings.export(tmp_path, "parquet", url=db_url)
    assert pq.read_table(tmp_path / "dividends.parquet").num_rows == 1
