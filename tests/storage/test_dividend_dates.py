"""Every date a dividend announcement gives is stored, ADS payment date included (0004)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from sqlalchemy import Engine, select
from storage_factories import add_document, at, check

from storage import quality
from storage.loading import load_document
from storage.schema import dividends
from tasks.core.records import StoredFile
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
