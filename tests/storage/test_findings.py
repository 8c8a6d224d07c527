"""Restatements and guidance outcomes read from the warehouse, and the alerts made of them."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime
from decimal import Decimal

from sqlalchemy import Engine, select
from storage_factories import QFIN, check, fact

from domain.records import DocumentRef, Fact, Guidance, Provenance
from storage.documents import record_documents, upsert_issuers
from storage.findings import guidance_outcomes, restatements
from storage.loading import load_document
from storage.schema import alert_events
from storage.views import FACTS_HISTORY, FACTS_LATEST, GUIDANCE_HISTORY, GUIDANCE_VS_ACTUAL
from tasks.alert import findings_alerts

Q4_2023 = (date(2023, 10, 1), date(2023, 12, 31))
Q3_2024 = (date(2024, 7, 1), date(2024, 9, 30))
Q1_2025 = (date(2025, 1, 1), date(2025, 3, 31))
AUG_13 = date(2024, 8, 13)
Q4_2023_6K = datetime(2024, 3, 12, 22, tzinfo=UTC)
Q2_2024_6K = datetime(2024, 8, 13, 22, tzinfo=UTC)
Q4_2024_HKEX = datetime(2025, 3, 16, 21, 58, tzinfo=UTC)


def _doc(engine: Engine, source_id: str, published: datetime, *facts: Fact, **kw: object) -> str:
    ref = DocumentRef("sec", source_id, "QFIN", "6-K", source_id, published, "https://x.test/")
    with engine.begin() as conn:
        upsert_issuers(conn, [QFIN])
        record_documents(conn, [ref])
    load_document(engine, ref.document_id, list(facts), [check()], **kw)  # type: ignore[arg-type]
    return ref.document_id


def _volume(value: str, period: tuple[date, date] = Q4_2023, metric: str = "loan_volume_total"):
    return fact(metric, value, decimals=-6, period=period, origin="narrative")


def _outlook(metric: str, low: str | None, high: str | None, period, issued: date) -> Guidance:
    return Guidance(
        metric=metric,
        period_start=period[0],
        period_end=period[1],
        low=None if low is None else Decimal(low),
        high=None if high is None else Decimal(high),
        unit="CNY",
        issued_on=issued,
        provenance=Provenance("ex99-1.htm", "Business Outlook", "", "", "expects ..."),
        numeric=low is not None or high is not None,
    )


def _alerts(engine: Engine, kind: str) -> list[tuple[str, str]]:
    stmt = select(alert_events.c.message, alert_events.c.details).where(alert_events.c.kind == kind)
    with engine.connect() as conn:
        return [tuple(r) for r in conn.execute(stmt)]


class TestRestatement:
    def test_loan_volume_restated_keeps_both_and_alerts_once(self, engine: Engine) -> None:
        old = _doc(engine, "q4-2023", Q4_2023_6K, _volume("119002000000"), quarantine=False)
        new = _doc(engine, "q4-2024", Q4_2024_HKEX, _volume("89561000000"), quarantine=False)
        for _ in range(3):  # reruns never repeat it
            findings_alerts(engine, "QFIN", new)
            findings_alerts(engine, "QFIN", old)
        with engine.connect() as conn:
            history = conn.execute(
                select(FACTS_HISTORY.c.value, FACTS_HISTORY.c.source_document_id).order_by(
                    FACTS_HISTORY.c.reported_on
                )
            ).all()
            latest = conn.execute(select(FACTS_LATEST.c.value)).scalars().all()
        assert [tuple(r) for r in history] == [
            (Decimal("119002000000"), old),
            (Decimal("89561000000"), new),
        ]
        assert latest == [Decimal("89561000000")]
        [(message, details)] = _alerts(engine, "restatement")
        assert message.startswith(
            "QFIN Q4 2023 total facilitation and origination loan volume was restated from "
            "RMB119,002m (sec:q4-2023, reported 2024-03-12) to RMB89,561m (-24.7%) "
            "(sec:q4-2024, reported 2025-03-16)."
        ), message
        assert '"119002000000"' in details.replace(".000000", "") and new in details

    def test_the_alert_quotes_the_later_documents_note_and_page(self, engine: Engine) -> None:
        # the Q4 2024 results PDF, page 2: "loan volume*4 ... RMB89,561 million in the same
        # period of 2023", its note 4 "Retrospectively excluding the impact of ..."
        reason = "Retrospectively excluding the impact of discontinued service, which did not ..."
        later = replace(
            _volume("89561000000"),
            note=reason,
            provenance=Provenance("2025031700512.pdf", "page 2, narrative: Fourth Quarter 2024 "
                                  "Business Highlights", "", "", "RMB89,561 million"),
        )  # fmt: skip
        _doc(engine, "q4-2023", Q4_2023_6K, _volume("119002000000"), quarantine=False)
        new = _doc(engine, "q4-2024", Q4_2024_HKEX, later, quarantine=False)
        findings_alerts(engine, "QFIN", new)
        [(message, details)] = _alerts(engine, "restatement")
        assert "(sec:q4-2024, page 2, reported 2025-03-16)" in message, message
        assert f'The later document\'s note on the figure says: "{reason}"\nDocument:' in message
        assert "Check the later document's notes" not in message
        assert reason in details and "page 2, narrative" in details

    def test_a_rounded_figure_that_agrees_is_no_restatement(self, engine: Engine) -> None:
        _doc(engine, "a", Q4_2023_6K, fact(value="4482252000", period=Q4_2023), quarantine=False)
        narrative = fact(value="4482300000", decimals=-5, period=Q4_2023, origin="narrative")
        later = _doc(engine, "b", Q4_2024_HKEX, narrative, quarantine=False)
        with engine.connect() as conn:
            assert restatements(conn, later) == []

    def test_the_fold_compares_with_the_value_shown_not_the_previous_row(
        self, engine: Engine
    ) -> None:
        # table, an agreeing rounded figure (kept the table value), then a table off by 2,000
        _doc(engine, "a", Q4_2023_6K, fact(value="4482252000", period=Q4_2023), quarantine=False)
        rounded = fact(value="4482300000", decimals=-5, period=Q4_2023, origin="narrative")
        _doc(engine, "b", Q2_2024_6K, rounded, quarantine=False)
        last = _doc(
            engine, "c", Q4_2024_HKEX, fact(value="4482250000", period=Q4_2023), quarantine=False
        )
        with engine.connect() as conn:
            [found] = restatements(conn, last)
        assert (found.before.document_id, found.after.document_id) == ("sec:a", "sec:c")

    def test_a_quarantined_document_restates_nothing(self, engine: Engine) -> None:
        _doc(engine, "a", Q4_2023_6K, _volume("119002000000"), quarantine=False)
        bad = _doc(engine, "b", Q4_2024_HKEX, _volume("89561000000"), quarantine=True)
        assert findings_alerts(engine, "QFIN", bad) == []


def _guided(engine: Engine) -> tuple[str, str]:
    q2 = _doc(
        engine,
        "q2-2024",
        Q2_2024_6K,
        quarantine=False,
        guidance=[
            _outlook("net_income", "1500000000", "1600000000", Q3_2024, date(2024, 8, 13)),
            _outlook("non_gaap_net_income", "1550000000", "1650000000", Q3_2024, date(2024, 8, 13)),
        ],
    )
    narrative = [
        fact("net_income", "1798800000", decimals=-5, period=Q3_2024, origin="narrative"),
        fact("non_gaap_net_income", "1825100000", decimals=-5, period=Q3_2024, origin="narrative"),
    ]
    q4 = _doc(
        engine,
        "q4-2024",
        Q4_2024_HKEX,
        *narrative,
        quarantine=False,
        guidance=[_outlook("net_income", "1750000000", "1850000000", Q1_2025, date(2025, 3, 17))],
    )
    return q2, q4


class TestGuidance:
    def test_outcomes_above_and_pending(self, engine: Engine) -> None:
        q2, q4 = _guided(engine)
        g = GUIDANCE_VS_ACTUAL.c
        stmt = select(g.metric, g.period_end, g.outcome, g.variance_pct, g.actual_document_id)
        with engine.connect() as conn:
            rows = {(r.metric, r.period_end): r for r in conn.execute(stmt)}
        assert {k: r.outcome for k, r in rows.items()} == {
            ("net_income", date(2024, 9, 30)): "above",
            ("non_gaap_net_income", date(2024, 9, 30)): "above",
            ("net_income", date(2025, 3, 31)): "pending",
        }
        # (1,798.8 - 1,550) / 1,550 * 100
        net = rows[("net_income", date(2024, 9, 30))]
        assert abs(Decimal(str(net.variance_pct)) - Decimal("16.0516")) < Decimal("0.0001")
        assert net.actual_document_id == q4

    def test_variance_alert_message_and_no_repeats(self, engine: Engine) -> None:
        _, q4 = _guided(engine)
        created = findings_alerts(engine, "QFIN", q4)
        assert len(created) == 2 and findings_alerts(engine, "QFIN", q4) == []
        messages = sorted(m for m, _ in _alerts(engine, "guidance_variance"))
        assert messages[0].startswith(
            "QFIN Q3 2024 net income RMB1,798.8m is 12.4% above the top of its guidance "
            "RMB1.50–1.60bn (issued 2024-08-13). Variance against the midpoint: +16.1%."
        ), messages[0]
        assert messages[1].startswith(
            "QFIN Q3 2024 non-GAAP net income RMB1,825.1m is 10.6% above the top of its "
            "guidance RMB1.55–1.65bn (issued 2024-08-13)."
        ), messages[1]

    def test_within_guidance_is_not_alerted(self, engine: Engine) -> None:
        _doc(
            engine,
            "g",
            Q2_2024_6K,
            quarantine=False,
            guidance=[_outlook("net_income", "1500000000", "1900000000", Q3_2024, AUG_13)],
        )
        actual = fact("net_income", "1798800000", decimals=-5, period=Q3_2024)
        doc = _doc(engine, "a", Q4_2024_HKEX, actual, quarantine=False)
        with engine.connect() as conn:
            [outcome] = guidance_outcomes(conn, ["QFIN"])
        assert outcome.outcome == "within" and findings_alerts(engine, "QFIN", doc) == []

    def test_a_revised_range_keeps_the_previous_one(self, engine: Engine) -> None:
        first = _outlook("net_income", "1500000000", "1600000000", Q3_2024, date(2024, 8, 13))
        revised = _outlook("net_income", "1600000000", "1700000000", Q3_2024, date(2024, 9, 3))
        vague = _outlook("net_income", None, None, Q1_2025, date(2024, 9, 3))
        a = _doc(engine, "a", Q2_2024_6K, quarantine=False, guidance=[first])
        sept = datetime(2024, 9, 3, tzinfo=UTC)
        b = _doc(engine, "b", sept, quarantine=False, guidance=[revised, vague])
        h = GUIDANCE_HISTORY.c
        stmt = select(
            h.period_end, h.low, h.high, h.prev_low, h.prev_high, h.revision, h.is_numeric,
            h.document_id, h.prev_document_id,
        ).order_by(h.period_end, h.revision)  # fmt: skip
        with engine.connect() as conn:
            rows = [tuple(r) for r in conn.execute(stmt)]
            [latest] = conn.execute(select(GUIDANCE_VS_ACTUAL.c.guidance_low)).scalars().all()
        m = Decimal(1_000_000)
        assert rows == [
            (Q3_2024[1], 1500 * m, 1600 * m, None, None, 1, True, a, None),
            (Q3_2024[1], 1600 * m, 1700 * m, 1500 * m, 1600 * m, 2, True, b, a),
            (Q1_2025[1], None, None, None, None, 1, False, b, None),
        ]
        assert latest == 1600 * m  # guidance_vs_actual compares with the revised range
