"""Text from documents reaches each channel and file as text, never as markup or a formula.

Issue 25's probe: document text reached Slack unescaped (``<!channel>``,
``<https://evil.example/login|Verify your account>``, ``<@U...>`` mentions), and
``filings export`` wrote ``=HYPERLINK(...)`` and ``@SUM(...)`` cells as is. Slack's escaping
rules (&, <, > as &amp; &lt; &gt;) are applied to everything a document can say; e-mail is
plain text with one-line headers; CSV cells that start with = + - @ tab or CR (OWASP's CSV
injection list) get a leading ' unless they are a number. A real HTTP endpoint, a real SMTP
server, a real warehouse (SQLite and PostgreSQL).
"""

from __future__ import annotations

import csv
from datetime import UTC, date, datetime
from decimal import Decimal
from email import message_from_bytes, policy

import pytest
from pytest_httpserver import HTTPServer
from sqlalchemy import Engine

import filings
from benchmarks import receivers as rc
from domain.records import (
    DocumentRef,
    Fact,
    Issuer,
    NewAlert,
    Provenance,
    ValidationResult,
)
from storage.documents import record_documents, upsert_issuers
from storage.loading import load_document
from tasks.alert import deliver_pending, store_alerts
from tasks.config.settings import Settings
from tasks.delivery.channels import channels_from_settings

HOSTILE = (
    "<!channel> Q3 results <https://evil.example/login|Verify your account> "
    "ask <@U024BE7LH> & <#C024BE7LH> now <!here|here> 1 < 2 > 0"
)
CONTROL = ("<!", "<http", "<@", "<#")


def _alerts(engine: Engine, n: int) -> list[str]:
    found = [
        NewAlert(
            kind="data_quality",
            issuer="QFIN",
            subject=f"QFIN {HOSTILE} #{i}\r\nBcc: victim@example.test",
            message=f"row '{HOSTILE}' failed #{i}",
            dedup_key=f"injection:{i}",
        )
        for i in range(n)
    ]
    return store_alerts(engine, found)


@pytest.mark.parametrize("digest", [False, True], ids=["one-by-one", "digest"])
def test_slack_gets_document_text_as_text(engine: Engine, httpserver: HTTPServer, digest):
    _alerts(engine, 2)
    httpserver.expect_request("/services/T0/B0", method="POST").respond_with_data("ok")
    settings = Settings(slack_webhook_url=httpserver.url_for("/services/T0/B0"))  # type: ignore[arg-type]
    report = deliver_pending(engine, channels_from_settings(settings), digest=digest)
    assert report.delivered == 2 and report.failed == {}
    texts = [r.json["text"] for r, _ in httpserver.log]
    assert len(texts) == (1 if digest else 2)
    for text in texts:
        assert not [c for c in CONTROL if c in text], text
        assert "&lt;!channel&gt;" in text and "&lt;@U024BE7LH&gt; &amp; &lt;#C024" in text
        assert "\r" not in text and "\nBcc:" not in text  # a subject stays on its line


@pytest.mark.parametrize("digest", [False, True], ids=["one-by-one", "digest"])
def test_email_is_plain_text_with_one_line_headers(engine: Engine, digest):
    ids = _alerts(engine, 2)
    with rc.receivers() as (got, smtp_url, _):
        settings = Settings(smtp_url=smtp_url, alert_email_to="ops@example.test")  # type: ignore[arg-type]
        report = deliver_pending(engine, channels_from_settings(settings), digest=digest)
        assert report.failed == {} and report.delivered == 2
        mails = [message_from_bytes(raw, policy=policy.default) for raw in got.raw]
    assert len(mails) == (1 if digest else 2)
    for mail in mails:
        assert mail["Bcc"] is None and "\n" not in str(mail["Subject"])
        assert [p.get_content_type() for p in mail.walk()] == ["text/plain"]
        body = mail.get_content()
        assert HOSTILE in body  # plain text: shown as written, nothing to interpret
    assert set(ids) <= {i for m in mails for i in m["X-Filings-Alert-Id"].split(", ")}


FORMULAS = [
    '=HYPERLINK("https://evil.example/login","Verify your account")',
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "+1+1",
    "-2+3",
    "\t=1+1",
    "\r=1+1",
]


def _hostile_facts(engine: Engine) -> None:
    issuer = Issuer(
        ticker="QFIN", name="Qifu Technology, Inc.", cik="0001741530", hkex_code="03660"
    )
    ref = DocumentRef(
        source="sec",
        source_id="inj",
        issuer="QFIN",
        form="6-K",
        title=FORMULAS[0],
        published_at=datetime(2024, 5, 1, tzinfo=UTC),
        url="https://example.test/inj",
    )
    facts = [
        Fact(
            metric=metric,
            period_start=date(2024, 1, 1),
            period_end=date(2024, 3, 31),
            value=Decimal(value),
            unit="CNY",
            scale=3,
            decimals=-3,
            provenance=Provenance("ex99-1.htm", "table 1", label, FORMULAS[1], raw),
        )
        for metric, value, label, raw in (
            ("total_net_revenue", "-123", FORMULAS[0], "-123"),
            ("net_income", "4482252000", FORMULAS[2], FORMULAS[3]),
            ("total_assets", "-0.5", FORMULAS[4], FORMULAS[5]),
        )
    ]
    ok = ValidationResult("statements", "balance_sheet_balances", True, "critical", "ok")
    with engine.begin() as conn:
        upsert_issuers(conn, [issuer])
        record_documents(conn, [ref])
    load_document(engine, "sec:inj", facts, [ok], quarantine=False)


def test_csv_export_neutralises_formulas_and_keeps_numbers(engine: Engine, db_url, tmp_path):
    _hostile_facts(engine)
    filings.export(tmp_path, "csv", url=db_url)
    with (tmp_path / "facts_history.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 3
    cells = [v for row in rows for v in row.values()]
    starts = [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")]
    assert starts == [], starts
    texts = {r["row_label"] for r in rows} | {r["raw_text"] for r in rows}
    assert "'" + FORMULAS[0] in texts and "'" + FORMULAS[3] in texts
    values = sorted(Decimal(r["value"]) for r in rows)  # numbers stay numbers
    assert values == [Decimal("-123"), Decimal("-0.5"), Decimal("4482252000")]
    assert "-123" in {r["raw_text"] for r in rows}  # a number as text is still a number
