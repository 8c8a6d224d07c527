"""The contract views: facts_latest's precision and restatement rules, history, guidance."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from sqlalchemy import Engine, select, text
from storage_factories import Q1, add_document, at, check, fact, load, outlook

from storage.loading import load_document
from storage.views import FACTS_HISTORY, FACTS_LATEST, GUIDANCE_VS_ACTUAL

TABLE = fact(value="4482252000", decimals=-3)  # 4,482,252 thousand
NARRATIVE_AGREES = fact(value="4482300000", decimals=-5, origin="narrative")  # RMB4,482.3m
NARRATIVE_RESTATES = fact(value="4490000000", decimals=-5, origin="narrative")  # RMB4,490.0m
TABLE_RESTATES = fact(value="4490000000", decimals=-3)  # 4,490,000 thousand


def _latest(engine: Engine, metric: str = "total_net_revenue") -> list[tuple]:
    stmt = select(FACTS_LATEST.c.value, FACTS_LATEST.c.source_document_id).where(
        FACTS_LATEST.c.metric == metric
    )
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(stmt)]


def test_a_less_precise_figure_that_agrees_keeps_the_table_value(engine: Engine) -> None:
    table_doc = load(engine, "a", at(1), TABLE)
    load(engine, "b", at(2), NARRATIVE_AGREES)
    assert _latest(engine) == [(Decimal("4482252000"), table_doc)]


def test_a_figure_disagreeing_beyond_its_rounding_is_a_restatement(engine: Engine) -> None:
    load(engine, "a", at(1), TABLE)
    later = load(engine, "b", at(2), TABLE_RESTATES)
    assert _latest(engine) == [(Decimal("4490000000"), later)]


def test_a_statement_figure_always_wins_over_a_narrative_one(engine: Engine) -> None:
    # QFIN's Q1 revenue: the statement's 4,482,252 thousand, then a later release's text
    # quoting another figure for the period (RMB4,153.2 million): the statement stands.
    table_doc = load(engine, "a", at(1), TABLE)
    load(engine, "b", at(2), fact(value="4153200000", decimals=-5, origin="narrative"))
    row = select(FACTS_LATEST.c.value, FACTS_LATEST.c.origin, FACTS_LATEST.c.decimals,
                 FACTS_LATEST.c.source_document_id)  # fmt: skip
    with engine.connect() as conn:
        assert [tuple(r) for r in conn.execute(row)] == [
            (Decimal("4482252000"), "statement", -3, table_doc)
        ]


def test_a_period_only_text_reports_shows_its_narrative_figure(engine: Engine) -> None:
    text_doc = load(engine, "a", at(1), NARRATIVE_RESTATES)
    row = select(FACTS_LATEST.c.origin, FACTS_LATEST.c.decimals, FACTS_LATEST.c.source_document_id)
    with engine.connect() as conn:
        assert [tuple(r) for r in conn.execute(row)] == [("narrative", -5, text_doc)]
        fiscal = conn.execute(text("SELECT origin, decimals FROM facts_fiscal")).all()
    assert [tuple(r) for r in fiscal] == [("narrative", -5)]


def test_the_latest_report_of_equal_precision_wins(engine: Engine) -> None:
    load(engine, "a", at(1), TABLE)
    restated = load(engine, "b", at(2), fact(value="4482250000"))  # off by 2,000: restated
    assert _latest(engine) == [(Decimal("4482250000"), restated)]


def test_a_more_precise_later_figure_replaces_a_narrative_one(engine: Engine) -> None:
    load(engine, "a", at(1), NARRATIVE_AGREES)
    table_doc = load(engine, "b", at(2), TABLE)
    assert _latest(engine) == [(Decimal("4482252000"), table_doc)]


def test_the_rule_follows_the_chain_of_reports(engine: Engine) -> None:
    # table, then a restating table, then one agreeing with the restated figure to the million
    load(engine, "a", at(1), TABLE)
    restated = load(engine, "b", at(2), fact(value="4490012000"))
    load(engine, "c", at(3), fact(value="4490000000", decimals=-6))
    assert _latest(engine) == [(Decimal("4490012000"), restated)]


def test_order_is_by_publication_not_by_load(engine: Engine) -> None:
    newer = load(engine, "b", at(20), TABLE_RESTATES)
    load(engine, "a", at(1), TABLE)  # backfilled later, published earlier
    assert _latest(engine) == [(Decimal("4490000000"), newer)]


def test_quarantined_documents_are_excluded(engine: Engine) -> None:
    good = load(engine, "a", at(1), TABLE)
    load(engine, "b", at(2), TABLE_RESTATES, quarantine=True)
    assert _latest(engine) == [(Decimal("4482252000"), good)]
    with engine.connect() as conn:  # still in the history, marked as quarantined
        statuses = conn.execute(select(FACTS_HISTORY.c.document_status)).scalars().all()
    assert sorted(statuses) == ["loaded", "quarantined"]


def test_only_us_gaap_figures_are_latest(engine: Engine) -> None:
    gaap = load(engine, "a", at(1), TABLE)
    load(engine, "b", at(2), fact(value="4500000000", basis="ifrs"))
    assert _latest(engine) == [(Decimal("4482252000"), gaap)]


def test_instants_and_periods_are_separate_rows(engine: Engine) -> None:
    instant = (None, date(2024, 3, 31))
    doc = load(
        engine,
        "a",
        at(1),
        fact("total_assets", "48132618000", period=instant),
        fact("total_assets", "1", period=Q1),
    )
    load(engine, "b", at(2), fact("total_assets", "48132617000", period=instant))
    stmt = select(
        FACTS_LATEST.c.period_start, FACTS_LATEST.c.value, FACTS_LATEST.c.source_document_id
    ).order_by(FACTS_LATEST.c.period_start)
    with engine.connect() as conn:
        rows = {(r.period_start, r.value, r.source_document_id) for r in conn.execute(stmt)}
    assert rows == {(None, Decimal("48132617000"), "sec:b"), (Q1[0], Decimal(1), doc)}


def test_history_keeps_every_report_with_its_date(engine: Engine) -> None:
    load(engine, "a", at(1), TABLE)
    load(engine, "b", at(2), NARRATIVE_AGREES)
    stmt = select(
        FACTS_HISTORY.c.value,
        FACTS_HISTORY.c.reported_on,
        FACTS_HISTORY.c.decimals,
        FACTS_HISTORY.c.issuer,
    ).order_by(FACTS_HISTORY.c.reported_on)
    with engine.connect() as conn:
        rows = [tuple(r) for r in conn.execute(stmt)]
    assert rows == [
        (Decimal("4482252000"), date(2024, 5, 1), -3, "QFIN"),
        (Decimal("4482300000"), date(2024, 5, 2), -5, "QFIN"),
    ]
    assert all(isinstance(r[0], Decimal) for r in rows)


def test_plain_sql_reads_the_same_rows(engine: Engine) -> None:
    load(engine, "a", at(1), TABLE, fact("eps_diluted_per_ads", "13.24", decimals=2))
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT metric, value FROM facts_latest ORDER BY metric")).all()
    assert [(m, Decimal(str(v))) for m, v in rows] == [
        ("eps_diluted_per_ads", Decimal("13.24")),
        ("total_net_revenue", Decimal("4482252000")),
    ]


def _guidance(engine: Engine) -> list[tuple]:
    g = GUIDANCE_VS_ACTUAL.c
    stmt = select(
        g.guidance_low,
        g.guidance_high,
        g.actual,
        g.outcome,
        g.variance_pct,
        g.guidance_document_id,
        g.actual_document_id,
        g.actual_origin,
    )
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(stmt)]


def _guide(engine: Engine, source_id: str, day: int, low: str, high: str, issued: date) -> str:
    doc = add_document(engine, source_id, at(day, month=3))
    load_document(
        engine, doc, [], [check()], quarantine=False, guidance=[outlook(low, high, issued=issued)]
    )
    return doc


def test_guidance_is_pending_until_the_actual_is_reported(engine: Engine) -> None:
    guide = _guide(engine, "g", 1, "4100000000", "4300000000", date(2024, 3, 1))
    assert _guidance(engine) == [
        (Decimal("4100000000"), Decimal("4300000000"), None, "pending", None, guide, None, None)
    ]


def test_guidance_outcome_and_variance_use_the_latest_guidance(engine: Engine) -> None:
    _guide(engine, "g1", 1, "4000000000", "4100000000", date(2024, 3, 1))
    guide = _guide(engine, "g2", 2, "4100000000", "4300000000", date(2024, 3, 2))
    actual = load(engine, "a", at(1), TABLE)
    load(engine, "n", at(2), fact(value="4153200000", decimals=-5, origin="narrative"))
    [(low, high, value, outcome, variance, g_doc, a_doc, origin)] = _guidance(engine)
    assert (low, high, value, outcome, g_doc, a_doc, origin) == (
        Decimal("4100000000"),
        Decimal("4300000000"),
        Decimal("4482252000"),
        "above",
        guide,
        actual,
        "statement",
    )
    # (4,482,252,000 - 4,200,000,000) / 4,200,000,000 * 100 = 6.7203...
    assert abs(Decimal(variance) - Decimal("6.7203")) < Decimal("0.0001")


def test_guidance_within_and_below(engine: Engine) -> None:
    _guide(engine, "g", 1, "4400000000", "4500000000", date(2024, 3, 1))
    load(engine, "a", at(1), TABLE)
    assert _guidance(engine)[0][3] == "within"
    load(engine, "b", at(2), fact(value="999000000"))  # restated far below
    assert _guidance(engine)[0][3] == "below"
