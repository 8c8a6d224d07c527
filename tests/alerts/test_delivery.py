"""Alerts reach each channel once: real SMTP and HTTP receivers, crashes, concurrent runs."""

from __future__ import annotations

import logging
import os
import re
import socket
import subprocess
import sys
import threading
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import pytest
from conftest import PASSWORD, Mailbox
from pytest_httpserver import HTTPServer
from sqlalchemy import Engine, select, text
from werkzeug import Request, Response

from domain.enums import Origin
from domain.records import NewAlert, PendingDelivery
from storage.schema import TABLES, alert_deliveries
from tasks import alert
from tasks.alert import deliver_pending, store_alerts
from tasks.config.settings import Settings
from tasks.delivery.channels import Channel, channels_from_settings
from tasks.runs.bookkeeping import delivered_of
from tasks.runs.summary import RunSummary

TOKEN = "T0KEN-abc123-SECRET"


def _alerts(engine: Engine, n: int = 2) -> list[str]:
    return store_alerts(
        engine,
        [
            NewAlert(
                kind="guidance_variance",
                issuer="QFIN",
                subject=f"QFIN Q3 2024 net income above guidance #{i}",
                message=f"QFIN Q3 2024 net income RMB1,798.8m is 12.4% above the top #{i}",
                dedup_key=f"test:{i}",
            )
            for i in range(n)
        ],
    )


def _settings(**kw: object) -> Settings:
    return Settings(**kw)  # type: ignore[arg-type]


def _webhook(httpserver: HTTPServer, path: str = f"/hooks/{TOKEN}") -> str:
    httpserver.expect_request(path, method="POST").respond_with_data("ok")
    return httpserver.url_for(path)


def _everything_stored(engine: Engine) -> str:
    with engine.connect() as conn:
        return "\n".join(str(tuple(r)) for t in TABLES for r in conn.execute(select(t)))


def test_each_alert_reaches_each_channel_once(
    engine: Engine, smtp_server: Mailbox, httpserver: HTTPServer
) -> None:
    ids = _alerts(engine)
    hook = _webhook(httpserver)
    slack = _webhook(httpserver, "/services/T000/B000/XXXX")
    settings = _settings(
        smtp_url=smtp_server.url(),
        alert_email_to="analysts@example.test",
        webhook_url=hook,
        slack_webhook_url=slack,
    )
    channels = channels_from_settings(settings)
    assert [c.name for c in channels] == ["email", "webhook", "slack"]
    assert deliver_pending(engine, channels).delivered == 2  # alerts, not (alert, channel) pairs
    for _ in range(3):
        assert deliver_pending(engine, channels).delivered == 0
    assert sorted(m["Message-ID"] for m in smtp_server.messages) == sorted(
        f"<{i}@filings-pipeline>" for i in ids
    )
    assert smtp_server.messages[0]["Subject"].startswith("[guidance_variance] QFIN Q3 2024")
    assert all(m["Date"] and m["Auto-Submitted"] == "auto-generated" for m in smtp_server.messages)
    hooks = [r for r, _ in httpserver.log if TOKEN in r.path]
    assert sorted(r.headers["Idempotency-Key"] for r in hooks) == sorted(ids)
    assert sorted(r.json["alert_id"] for r in hooks) == sorted(ids)
    slacks = [r.json["text"] for r, _ in httpserver.log if "/services/" in r.path]
    assert len(slacks) == 2 and all("12.4% above the top" in t for t in slacks)
    with engine.connect() as conn:
        delivered = conn.execute(text("select count(*) from alerts where delivered_at is not null"))
        assert delivered.scalar_one() == 2


def test_a_digest_is_one_message_per_channel_carrying_every_alert(
    engine: Engine, smtp_server: Mailbox, httpserver: HTTPServer
) -> None:
    ids = _alerts(engine, 3)
    hook = _webhook(httpserver)
    slack = _webhook(httpserver, "/services/T000/B000/XXXX")
    settings = _settings(
        smtp_url=smtp_server.url(),
        alert_email_to="analysts@example.test",
        webhook_url=hook,
        slack_webhook_url=slack,
    )
    channels = channels_from_settings(settings)
    assert deliver_pending(engine, channels, digest=True).delivered == 3
    assert deliver_pending(engine, channels, digest=True).delivered == 0
    [mail] = smtp_server.messages
    assert mail["Subject"] == "QFIN: 3 alerts (3 guidance_variance)"
    assert mail["Date"] and mail["Message-ID"].startswith("<digest-")
    assert sorted(re.findall(r"alert-[0-9a-f]+", mail["X-Filings-Alert-Id"])) == sorted(ids)
    body = mail.get_payload(decode=True).decode()
    assert all(f"above guidance #{i}" in body for i in range(3))
    [posted] = [r for r, _ in httpserver.log if TOKEN in r.path]
    assert sorted(a["alert_id"] for a in posted.json["alerts"]) == sorted(ids)
    assert posted.headers["Idempotency-Key"] == posted.json["digest_id"]
    [chat] = [r.json["text"] for r, _ in httpserver.log if "/services/" in r.path]
    assert chat.startswith("*QFIN: 3 alerts") and chat.count("• ") == 3


class _Crash(BaseException):
    """The process dying mid-run (not an Exception: nothing may catch it)."""


def _dead_worker() -> str:
    """The worker name of a process that has ended (a run killed with SIGKILL)."""
    probe = subprocess.Popen([sys.executable, "-c", "pass"])
    probe.wait()
    return f"{socket.gethostname()}:{probe.pid}:killed"


def test_a_crash_before_the_claim_sends_next_run(engine: Engine, httpserver: HTTPServer) -> None:
    [alert_id] = _alerts(engine, 1)  # stored; the run died before delivering
    channels = channels_from_settings(_settings(webhook_url=_webhook(httpserver)))
    assert deliver_pending(engine, channels).delivered == 1
    assert deliver_pending(engine, channels).delivered == 0
    assert [r.headers["Idempotency-Key"] for r, _ in httpserver.log] == [alert_id]


@pytest.mark.parametrize("sent", [False, True], ids=["before-the-send", "after-the-send"])
def test_a_crash_after_the_claim_is_in_doubt_and_never_resent(
    engine: Engine, httpserver: HTTPServer, sent: bool
) -> None:
    [alert_id] = _alerts(engine, 1)
    [real] = channels_from_settings(_settings(webhook_url=_webhook(httpserver)))

    def crash(a: PendingDelivery) -> None:
        if sent:
            real.send(a)
        raise _Crash  # the process dies before the result is recorded

    with pytest.raises(_Crash):
        deliver_pending(engine, [Channel("webhook", crash)], worker=_dead_worker())
    report = deliver_pending(engine, [real])
    assert (report.delivered, report.in_doubt) == (
        0,
        {"webhook": (1, "a run stopped while sending them")},
    )
    assert deliver_pending(engine, [real]).delivered == 0
    # Never twice at the receiver: at most once (the key is there for receivers anyway).
    assert [r.headers["Idempotency-Key"] for r, _ in httpserver.log] == [alert_id] * sent
    with engine.connect() as conn:
        row = conn.execute(select(alert_deliveries)).one()
    assert row.in_doubt and row.status == "pending" and row.last_error.startswith("in doubt")


def test_a_claim_of_a_live_run_is_left_alone(engine: Engine, httpserver: HTTPServer) -> None:
    _alerts(engine, 1)
    [real] = channels_from_settings(_settings(webhook_url=_webhook(httpserver)))
    live = f"{socket.gethostname()}:{os.getpid()}:other-run"

    def crash(_: PendingDelivery) -> None:
        raise _Crash

    with pytest.raises(_Crash):
        deliver_pending(engine, [Channel("webhook", crash)], worker=live)
    report = deliver_pending(engine, [real])  # the other run is still sending it
    assert (report.delivered, report.in_doubt) == (0, {})
    assert httpserver.log == []


def test_a_failed_webhook_is_retried_and_its_url_never_stored_or_logged(
    engine: Engine, httpserver: HTTPServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    _alerts(engine, 1)
    path = f"/hooks/{TOKEN}"
    httpserver.expect_ordered_request(path).respond_with_data("busy", status=503)
    httpserver.expect_ordered_request(path).respond_with_data("ok")
    channels = channels_from_settings(_settings(webhook_url=httpserver.url_for(path)))
    assert deliver_pending(engine, channels).delivered == 0
    with engine.connect() as conn:
        row = conn.execute(select(alert_deliveries)).one()
    assert (row.status, row.attempts) == ("failed", 1)
    assert row.last_error == f"HTTP 503 from http://{httpserver.host}"
    assert deliver_pending(engine, channels).delivered == 1
    assert TOKEN not in _everything_stored(engine)
    ours = "\n".join(r.getMessage() for r in caplog.records if r.name != "werkzeug")
    assert TOKEN not in ours and "HTTP 503" in ours  # werkzeug is the receiver's own log


def test_a_refused_smtp_login_is_recorded_without_the_password(
    engine: Engine, smtp_server: Mailbox, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    _alerts(engine, 1)
    wrong = "wr0ng-" + PASSWORD
    settings = _settings(smtp_url=smtp_server.url(wrong), alert_email_to="a@example.test")
    assert deliver_pending(engine, channels_from_settings(settings)).delivered == 0
    with engine.connect() as conn:
        error = conn.execute(select(alert_deliveries.c.last_error)).scalar_one()
    assert error.startswith("SMTPAuthenticationError: (535"), error
    assert wrong not in _everything_stored(engine) and wrong not in caplog.text
    assert smtp_server.messages == []
    settings = _settings(smtp_url=smtp_server.url(), alert_email_to="a@example.test")
    assert deliver_pending(engine, channels_from_settings(settings)).delivered == 1
    assert PASSWORD not in _everything_stored(engine)


def test_two_runs_delivering_at_once_send_each_alert_once(
    engine: Engine, httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = _alerts(engine, 3)
    [real] = channels_from_settings(_settings(webhook_url=_webhook(httpserver)))
    # Both runs have read the same three pending alerts before either claims one; then each
    # one's first send waits for the other's: the second run reached the alert the first
    # is sending (claimed), and went on to the next.
    read, sending = threading.Barrier(2, timeout=30), threading.Barrier(2, timeout=30)
    first = threading.local()
    deliver = alert._deliver

    def after_both_read(*args: Any, **kwargs: Any) -> list[str]:
        if not getattr(first, "read", False):
            first.read = True
            read.wait()
        return deliver(*args, **kwargs)

    def send(a: PendingDelivery) -> None:
        if not getattr(first, "sent", False):
            first.sent = True
            sending.wait()
        real.send(a)

    monkeypatch.setattr(alert, "_deliver", after_both_read)
    counts: list[int] = []

    def run() -> None:
        counts.append(deliver_pending(engine, [Channel("webhook", send)]).delivered)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(counts) == [1, 2]  # both sent: neither took every alert
    assert sorted(r.headers["Idempotency-Key"] for r, _ in httpserver.log) == sorted(ids)


def test_responses_the_endpoint_sends_are_not_needed(httpserver: HTTPServer) -> None:
    # A Slack-compatible endpoint answers 200 "ok" as text; a JSON hook may answer 204.
    def no_content(_: Request) -> Response:
        return Response(status=204)

    httpserver.expect_request("/hook").respond_with_handler(no_content)
    [channel] = channels_from_settings(_settings(webhook_url=httpserver.url_for("/hook")))
    now = datetime.now(UTC)
    alert = PendingDelivery("alert-x", "webhook", "restatement", "QFIN", "s", "m", now, 0, "")
    channel.send([alert])
    assert httpserver.log[0][0].json["kind"] == "restatement"


def test_two_channels_down_and_one_up_is_not_a_success(
    engine: Engine, httpserver: HTTPServer
) -> None:
    ids = _alerts(engine, 2)
    httpserver.expect_request("/hook", method="POST").respond_with_data("down", status=500)
    slack = _webhook(httpserver, "/services/T0/B0")
    with socket.socket() as s:  # a port nothing listens on: the SMTP server is down
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    settings = _settings(
        smtp_url=f"smtp://alerts:pw@127.0.0.1:{closed}",
        alert_email_to="ops@example.test",
        webhook_url=httpserver.url_for("/hook"),
        slack_webhook_url=slack,
        alert_digest=False,
    )
    report = deliver_pending(engine, channels_from_settings(settings))
    assert (report.delivered, report.sent) == (2, {"slack": 2})
    assert set(report.failed) == {"email", "webhook"}
    assert report.failed["webhook"] == (2, f"HTTP 500 from http://{httpserver.host}")
    # the SMTP failure names the port it tried (25, 465 and 587 are all common)
    assert report.failed["email"] == (
        2,
        f"ConnectionRefusedError connecting to smtp://127.0.0.1:{closed}",
    )
    summary = RunSummary(alerts_raised=2, raised_ids=list(ids))
    summary.record_deliveries(report, delivered_of(engine, ids))
    lines = summary.render().splitlines()
    assert not summary.ok  # `filings run` exits 1
    # delivered: on every configured channel; two of three failed, so none is, yet
    assert "alerts: 2 raised, 0 delivered (sent: slack 2)" in lines
    assert [line.split(" (")[0] for line in lines if line.startswith("not delivered:")] == [
        "not delivered: email: 2 alert(s) not delivered",
        "not delivered: webhook: 2 alert(s) not delivered",
    ]
    assert deliver_pending(engine, channels_from_settings(settings)).sent == {}  # slack: done
    assert len(ids) == 2


def test_the_webhook_posts_structured_fields_beside_the_text(
    engine: Engine, httpserver: HTTPServer
) -> None:
    # A restatement found in the warehouse (two reports of Q4 2023 capital-light loan volume),
    # stored with its links and delivered to a real HTTP endpoint: a program reads the metric,
    # period, both values, unit and the document without parsing the text.
    from domain.records import DocumentRef, Fact, Issuer, Provenance
    from storage.documents import record_documents, upsert_issuers
    from storage.findings import restatements
    from storage.loading import load_document
    from tasks.delivery.messages import restatement_alerts

    q4 = (date(2023, 10, 1), date(2023, 12, 31))
    refs = [DocumentRef("sec", n, "QFIN", "6-K", "t", datetime(2024, m, 1, tzinfo=UTC),
                        f"https://www.sec.gov/Archives/edgar/data/1741530/{n}-index.htm")
            for n, m in (("a", 3), ("b", 5))]  # fmt: skip
    with engine.begin() as conn:
        upsert_issuers(conn, [Issuer("QFIN", "Qifu", "0001741530", "03660")])
        record_documents(conn, refs)
    for ref, value in zip(refs, ("68239000000", "38798000000"), strict=True):
        prov = Provenance("ex99-1.htm", "narrative", "was under capital-light model", "", value)
        fact = Fact("loan_volume_capital_light", *q4, Decimal(value), "CNY", 6, -6, prov,
                    origin=Origin.NARRATIVE)  # fmt: skip
        load_document(engine, ref.document_id, [fact], [], quarantine=False)
    with engine.connect() as conn:
        found = restatement_alerts(restatements(conn, "sec:b"))
    [alert_id] = store_alerts(engine, found)
    hook = _webhook(httpserver)
    deliver_pending(engine, channels_from_settings(_settings(webhook_url=hook)))
    [(request, _)] = httpserver.log
    body = request.json
    assert {k: body[k] for k in ("alert_id", "kind", "issuer", "metric", "period_start",
                                 "period_end", "old_value", "new_value", "unit")} == {
        "alert_id": alert_id, "kind": "restatement", "issuer": "QFIN",
        "metric": "loan_volume_capital_light", "period_start": "2023-10-01",
        "period_end": "2023-12-31", "old_value": "68239000000", "new_value": "38798000000",
        "unit": "CNY",
    }  # fmt: skip
    assert body["document_url"] == "https://www.sec.gov/Archives/edgar/data/1741530/b-index.htm"
    assert body["run_url"] is None  # outside a flow run there is no run page
    # Slack's text: bold subject, then the message (escaped by Slack's rules: "->" is "-&gt;")
    assert body["text"].startswith("*QFIN Q4 2023 loan volume under capital-light model")
    assert "RMB68,239m -&gt; RMB38,798m*\n" in body["text"]
