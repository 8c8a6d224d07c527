"""Property: the facts_latest view (SQL) folds report histories as domain.precision does.

Random histories of one metric and period (amounts or ratios around one figure, off by whole
and half steps of half a unit so exact boundaries come up often; mixed precisions, units and
quarantines) are loaded on SQLite and PostgreSQL; the view's row must be the report
``precision.standing`` keeps (narrative reports only for a period no statement reports).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, select
from storage_factories import QFIN, fact

from domain import precision
from domain.enums import Status
from domain.records import DocumentRef
from storage import documents
from storage.facts import insert_new
from storage.mapping import fact_row
from storage.views import FACTS_LATEST

PERIOD = (date(2024, 1, 1), date(2024, 3, 31))
_examples = itertools.count()


@dataclass(frozen=True)
class Report:
    """One report of the history, as both folds see it."""

    value: Decimal
    decimals: int
    unit: str
    quarantined: bool
    document_id: str = ""
    origin: str = "table"


def _r(value: str, decimals: int, unit: str = "percent", origin: str = "table") -> Report:
    return Report(Decimal(value), decimals, unit, quarantined=False, origin=origin)


@st.composite
def histories(draw: st.DrawFn) -> list[Report]:
    # As figures are printed: amounts in whole thousands up to a trillion, to the million, the
    # thousand or the unit; ratios and per-share figures up to 10,000, to 0.1 .. 0.0001.
    amount = st.tuples(
        st.integers(-(10**9), 10**9).map(lambda n: Decimal(n) * 1000), st.just((-6, -5, -3, 0))
    )
    ratio = st.tuples(
        st.integers(-(10**6), 10**6).map(lambda n: Decimal(n) / 100), st.just((1, 2, 3, 4))
    )
    base, precisions = draw(st.one_of(amount, ratio))
    reports = []
    for _ in range(draw(st.integers(1, 6))):
        decimals = draw(st.sampled_from(precisions))
        steps = draw(st.sampled_from([-4, -2, -1, 0, 0, 1, 2, 4]))  # half steps of half a unit
        value = base + steps * precision.half_unit(decimals) / 2
        unit = draw(st.sampled_from(["CNY", "CNY", "CNY", "USD"]))
        quarantined = draw(st.booleans()) and draw(st.booleans())
        origin = draw(st.sampled_from(["table", "table", "narrative"]))
        reports.append(Report(value, decimals, unit, quarantined, origin=origin))
    return reports


def _store(engine: Engine, metric: str, history: list[Report]) -> list[Report]:
    """Each report in its own document, published in order; returns them with their ids."""
    start = datetime(2024, 5, 1, tzinfo=UTC)
    stored = []
    with engine.begin() as conn:
        documents.upsert_issuers(conn, [QFIN])
        for n, report in enumerate(history):
            published = start + timedelta(days=n)
            ref = DocumentRef("sec", f"{metric}-{n}", QFIN.ticker, "6-K", "t", published, "u")
            documents.record_documents(conn, [ref])
            status = Status.QUARANTINED if report.quarantined else Status.LOADED
            documents.set_status(conn, ref.document_id, status)
            item = fact(
                metric, str(report.value), decimals=report.decimals, unit=report.unit,
                origin=report.origin,
            )  # fmt: skip
            insert_new(conn, [fact_row(item, ref.document_id, published.date(), published)])
            stored.append(Report(**{**report.__dict__, "document_id": ref.document_id}))
    return stored


def _view(engine: Engine, metric: str) -> list[tuple[str, Decimal, str, str, int]]:
    v = FACTS_LATEST.c
    stmt = select(v.unit, v.value, v.source_document_id, v.origin, v.decimals).where(
        v.metric == metric, v.period_start == PERIOD[0], v.period_end == PERIOD[1]
    )
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(stmt)]


def test_the_view_folds_report_histories_as_precision_does(engine: Engine) -> None:
    @settings(
        max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
    )
    @given(history=histories())
    @example(history=[_r("8.15", 2), _r("8.1", 1)])  # floating point put the gap above 0.05
    @example(history=[_r("4482252000", -3), _r("4482300000", -5), _r("4482250000", -3)])
    # a later narrative figure that disagrees never replaces the statement's
    @example(history=[_r("4482252000", -3), _r("4153200000", -5, origin="narrative")])
    def check(history: list[Report]) -> None:
        metric = f"m{next(_examples)}"
        stored = _store(engine, metric, history)
        published = [r for r in stored if not r.quarantined]
        expected = []
        if published:
            kept = precision.standing(published)
            origin = "statement" if kept.origin == "table" else kept.origin
            expected = [(kept.unit, kept.value, kept.document_id, origin, kept.decimals)]
        assert _view(engine, metric) == expected

    check()
