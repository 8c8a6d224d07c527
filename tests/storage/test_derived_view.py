"""facts_derived on SQLite and PostgreSQL: the quarters the published figures imply.

The figures are QFIN's second-quarter 2024 release (shared/seeds/003, its income statement's
"Total net revenue" row: Q2 2023 3,914,324; Q2 2024 4,160,063; H1 2023 7,513,498; H1 2024
8,313,246, RMB thousands) and its text ("RMB4,153.2 million in the prior quarter").
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from sqlalchemy import Engine
from storage_factories import at, fact, load

import filings
from domain.records import Fact

H1_2023 = (date(2023, 1, 1), date(2023, 6, 30))
Q2_2023 = (date(2023, 4, 1), date(2023, 6, 30))
H1_2024 = (date(2024, 1, 1), date(2024, 6, 30))
Q2_2024 = (date(2024, 4, 1), date(2024, 6, 30))
Q1_2024 = (date(2024, 1, 1), date(2024, 3, 31))


def _revenue(
    value: str, period: tuple[date, date], decimals: int = -3, origin: str = "table"
) -> Fact:
    return fact(value=value, period=period, decimals=decimals, origin=origin)


def _q2_release(engine: Engine) -> str:
    return load(
        engine, "q2", at(13, 8),
        _revenue("3914324000", Q2_2023), _revenue("4160063000", Q2_2024),
        _revenue("7513498000", H1_2023), _revenue("8313246000", H1_2024),
        fact("eps_basic_per_share", "2.5", decimals=2, period=H1_2024, unit="CNY/share"),
        fact("eps_basic_per_share", "1.3", decimals=2, period=Q2_2024, unit="CNY/share"),
        fact("total_assets", "48132618000", period=(None, date(2024, 6, 30))),
    )  # fmt: skip


def _rows(db_url: str) -> dict[tuple[str, date], dict[str, object]]:
    frame = filings.read_derived(url=db_url).astype(object)
    return {(r["metric"], r["period_start"]): r for r in frame.to_dict("records")}


def test_h1_less_q2_gives_the_first_quarter_nothing_reported(engine: Engine, db_url: str) -> None:
    q2 = _q2_release(engine)
    rows = _rows(db_url)
    q1_2023 = rows[("total_net_revenue", date(2023, 1, 1))]
    assert q1_2023["period_end"] == date(2023, 3, 31)
    assert q1_2023["value"] == Decimal("3599174000")  # the figure: 3,599,174k
    assert q1_2023["status"] == "missing" and q1_2023["origin"] == "derived"
    assert (q1_2023["whole_period_start"], q1_2023["whole_period_end"]) == H1_2023
    assert (q1_2023["part_period_start"], q1_2023["part_period_end"]) == Q2_2023
    assert q1_2023["whole_document_id"] == q2 == q1_2023["part_document_id"]
    assert q1_2023["decimals"] == -3
    # per-share amounts do not subtract, instants have no period to split
    assert {m for m, _ in rows} == {"total_net_revenue"}
    assert len(rows) == 2  # Q1 2023 and Q1 2024; the halves less a half give nothing


def test_a_reported_quarter_is_compared_to_its_rounding(engine: Engine, db_url: str) -> None:
    _q2_release(engine)
    load(
        engine, "text", at(14, 8), _revenue("4153200000", Q1_2024, decimals=-5, origin="narrative")
    )
    q1 = _rows(db_url)[("total_net_revenue", date(2024, 1, 1))]
    assert q1["value"] == Decimal("4153183000")
    assert (q1["status"], q1["reported_value"]) == ("agrees", Decimal("4153200000"))


def test_a_reported_quarter_that_does_not_add_up_differs(engine: Engine, db_url: str) -> None:
    _q2_release(engine)
    q1 = load(engine, "q1", at(20, 5), _revenue("4153283000", Q1_2024))  # 100k apart
    row = _rows(db_url)[("total_net_revenue", date(2024, 1, 1))]
    assert (row["status"], row["reported_document_id"]) == ("differs", q1)


def test_the_year_less_nine_months_gives_q4_exactly(engine: Engine, db_url: str) -> None:
    year = (date(2023, 1, 1), date(2023, 12, 31))
    nine = (date(2023, 1, 1), date(2023, 9, 30))
    load(
        engine, "fy", at(12, 3),
        fact("net_income", "-12.5", decimals=2, period=year),
        fact("net_income", "0.25", decimals=2, period=nine),
    )  # fmt: skip
    q4 = _rows(db_url)[("net_income", date(2023, 10, 1))]
    # exact on SQLite too, whose arithmetic on decimal text is binary floating point
    assert (q4["period_end"], q4["value"]) == (date(2023, 12, 31), Decimal("-12.75"))
