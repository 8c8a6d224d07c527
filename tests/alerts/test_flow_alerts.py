"""End to end through ``ingest_local``: guidance variance and restatement alerts, delivered once.

Runs real Prefect flows (a module-scoped test harness) on the seeds' documents, with a real
SMTP server and a local HTTP endpoint as the channels; also Prefect Secret blocks.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from conftest import PASSWORD, USER, Mailbox
from pytest_httpserver import HTTPServer
from sqlalchemy import select

from domain.errors import ConfigError
from storage import db
from storage.db import table_counts
from storage.schema import TABLES, alert_events
from storage.views import FACTS_HISTORY, FACTS_LATEST, GUIDANCE_VS_ACTUAL
from tasks.config.settings import Settings
from tasks.delivery.channels import channels_from_settings
from tasks.sources.replay import default_archive_root

ARCHIVE = default_archive_root()
Q4_2023 = ARCHIVE / "sec/0001741530/0001104659-24-032436/tm248123d1_ex99-1.htm"
Q2_2024 = ARCHIVE / "sec/0001741530/0001104659-24-088431/tm2421456d1_ex99-1.htm"
Q4_2024 = ARCHIVE / "hkex/03660/11480512.pdf"
TOKEN = "hook-T0KEN-7f3a"


@pytest.fixture(scope="module", autouse=True)
def prefect_api() -> Iterator[None]:
    os.environ.setdefault("DO_NOT_TRACK", "1")
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=90):
        yield


@pytest.fixture
def env(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    db_url: str,
    smtp_server: Mailbox,
    httpserver: HTTPServer,
) -> str:
    httpserver.expect_request(f"/hooks/{TOKEN}", method="POST").respond_with_data("ok")
    monkeypatch.setenv("FILINGS_DATABASE_URL", db_url)
    monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("FILINGS_SMTP_URL", smtp_server.url())
    monkeypatch.setenv("FILINGS_ALERT_EMAIL_TO", "analysts@example.test")
    monkeypatch.setenv("FILINGS_WEBHOOK_URL", httpserver.url_for(f"/hooks/{TOKEN}"))
    return db_url


def _ingest(*paths: Path) -> None:
    """One ``filings ingest`` of the paths, in order (for local files, ingestion order is
    publication order)."""
    from flows.ingest import ingest_local

    summary = ingest_local([str(p) for p in paths])
    assert summary.ok, summary.render()


def _query(url: str, stmt):  # type: ignore[no-untyped-def]
    engine = db.make_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(stmt)]
    finally:
        engine.dispose()


def _counts(url: str) -> dict[str, int]:
    engine = db.make_engine(url)
    try:
        with engine.connect() as conn:
            return table_counts(conn)
    finally:
        engine.dispose()


def _alerts(url: str, kind: str) -> list[tuple]:
    stmt = select(alert_events.c.alert_id, alert_events.c.message).where(
        alert_events.c.kind == kind
    )
    return _query(url, stmt)


@pytest.mark.timeout(1200)  # four ingests of two documents (the HKEx PDF dominates)
def test_guidance_above_and_pending_alerted_once_per_channel(
    env: str, smtp_server: Mailbox, httpserver: HTTPServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    _ingest(Q2_2024, Q4_2024)
    g = GUIDANCE_VS_ACTUAL.c
    rows = _query(env, select(g.metric, g.period_end, g.outcome))
    assert ("net_income", date(2024, 9, 30), "above") in rows
    assert ("non_gaap_net_income", date(2024, 9, 30), "above") in rows
    assert ("net_income", date(2025, 3, 31), "pending") in rows
    variance = _alerts(env, "guidance_variance")
    assert any(
        m.startswith(
            "QFIN Q3 2024 net income RMB1,798.8m is 12.4% above the top of its guidance "
            "RMB1.50–1.60bn (issued 2024-08-13)"
        )
        for _, m in variance
    ), variance
    ids = sorted(a for a, _ in variance)
    # One digest per run per channel, carrying every alert of the run once.
    mailed = sorted(
        i for m in smtp_server.messages for i in re.findall(r"alert-\w+", m["X-Filings-Alert-Id"])
    )
    posted = sorted(a["alert_id"] for r, _ in httpserver.log for a in r.json["alerts"])
    assert [i for i in mailed if i in ids] == ids and [i for i in posted if i in ids] == ids
    assert len(smtp_server.messages) == len(httpserver.log) == 1  # the run's digest
    # Ingesting everything again three times: no new row, alert or delivery.
    before, sent = _counts(env), (len(smtp_server.messages), len(httpserver.log))
    for _ in range(3):
        _ingest(Q2_2024, Q4_2024)
    after = _counts(env)
    assert after.pop("runs") == before.pop("runs") + 3  # each ingest is a run `status` lists
    assert after == before
    assert (len(smtp_server.messages), len(httpserver.log)) == sent
    stored = "\n".join(str(r) for t in TABLES for r in _query(env, select(t)))
    logged = "\n".join(r.getMessage() for r in caplog.records if r.name != "werkzeug")
    for secret in (TOKEN, PASSWORD):
        assert secret not in stored and secret not in logged
    assert secret_free_artifacts()


def secret_free_artifacts() -> bool:
    """No Prefect artifact of these runs holds a secret."""
    from prefect.client.orchestration import get_client

    with get_client(sync_client=True) as client:
        artifacts = client.read_artifacts()
    text = "\n".join(str(a.data) + str(a.description) for a in artifacts)
    return TOKEN not in text and PASSWORD not in text


@pytest.mark.timeout(600)
def test_q4_2023_loan_volume_restated_by_q4_2024(env: str, httpserver: HTTPServer) -> None:
    _ingest(Q4_2023, Q4_2024)
    q4_2023 = (date(2023, 10, 1), date(2023, 12, 31))
    h, lt = FACTS_HISTORY.c, FACTS_LATEST.c
    history = _query(
        env,
        select(h.value)
        .where(h.metric == "loan_volume_total", h.period_start == q4_2023[0])
        .where(h.period_end == q4_2023[1])
        .order_by(h.reported_on, h.published_at),
    )
    latest = _query(
        env,
        select(lt.value).where(
            lt.metric == "loan_volume_total",
            lt.period_start == q4_2023[0],
            lt.period_end == q4_2023[1],
        ),
    )
    assert history == [(Decimal("119002000000"),), (Decimal("89561000000"),)]
    assert latest == [(Decimal("89561000000"),)]
    restated = [m for _, m in _alerts(env, "restatement") if "Q4 2023 total facilitation and" in m]
    assert len(restated) == 1 and "RMB119,002m" in restated[0] and "RMB89,561m" in restated[0]
    # The evidence quotes what each document says of Q4 2023, never a Q4 2024 sentence.
    [light] = [m for _, m in _alerts(env, "restatement") if "Q4 2023 loan volume under" in m]
    assert (
        'The later document reads "RMB38,798 million in the same period of 2023" (the earlier '
        'one: "RMB68,239 million was under capital-light model").'
    ) in light
    assert "47,796" not in light
    # The webhook's digest carries each alert's structured fields beside the text.
    rows = [a for r, _ in httpserver.log for a in r.json["alerts"] if r.json.get("alerts")]
    [row] = [a for a in rows if a["metric"] == "loan_volume_capital_light"
             and a["period_start"] == "2023-10-01"]  # fmt: skip
    assert (row["kind"], row["issuer"], row["period_end"], row["unit"]) == (
        "restatement", "QFIN", "2023-12-31", "CNY")  # fmt: skip
    assert (row["old_value"], row["new_value"]) == ("68239000000", "38798000000")
    assert row["document_url"] == Q4_2024.as_uri()  # a file dropped in by hand: its own path
    assert "/runs/flow-run/" in row["run_url"] and row["run_url"] in row["text"]
    assert row["text"].startswith("*QFIN Q4 2023 loan volume under capital-light model")


def test_channels_from_prefect_secret_blocks(smtp_server: Mailbox, httpserver: HTTPServer) -> None:
    from prefect.blocks.system import Secret

    Secret(value=httpserver.url_for(f"/hooks/{TOKEN}")).save("alerts-webhook", overwrite=True)
    Secret(value=PASSWORD).save("alerts-smtp-password", overwrite=True)
    settings = Settings(
        smtp_url=f"smtp://{USER}@{smtp_server.host}:{smtp_server.port}",  # type: ignore[arg-type]
        smtp_password_block="alerts-smtp-password",
        alert_email_to="analysts@example.test",
        webhook_url_block="alerts-webhook",
    )
    email, hook = channels_from_settings(settings)
    assert (email.name, hook.name) == ("email", "webhook")
    assert PASSWORD in email.secrets and any(TOKEN in s for s in hook.secrets)
    assert TOKEN not in repr(Secret.load("alerts-webhook"))  # Prefect masks it


def test_a_missing_secret_block_is_a_one_line_config_error() -> None:
    settings = Settings(webhook_url_block="no-such-block")  # type: ignore[call-arg]
    with pytest.raises(ConfigError, match=r"^FILINGS_WEBHOOK_URL_BLOCK: Prefect Secret block"):
        channels_from_settings(settings)
