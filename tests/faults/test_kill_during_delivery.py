"""kill -9 during alert delivery, against a real SMTP server and a real HTTP endpoint.

A receiver takes the run's message, then holds its answer while the test kills the run: the
worst moment (sent, not yet recorded). The rerun must not send it again (at most once per
channel: the send is recorded in doubt), must send what was not sent yet, and the warehouse
must say, for every alert and channel, delivered or in doubt: no receiver gets an alert twice,
no alert is silently left behind.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from prefect.settings import PREFECT_API_URL

from benchmarks import fault_runs as fr
from benchmarks import receivers as rc
from benchmarks.warehouse_dump import differences

pytestmark = [pytest.mark.usefixtures("prefect_api"), pytest.mark.timeout(1200)]


@pytest.fixture
def receivers() -> Iterator[tuple[rc.Receivers, str, str]]:
    """A real SMTP server and HTTP endpoint on loopback (benchmarks.receivers)."""
    with rc.receivers() as running:
        yield running


# CI: one kill per database, each on its own receiver; the benchmark kills on both, per database.
HELD = {"sqlite": "email", "postgresql": "webhook"}


class TestKillDuringAlertDelivery:
    """Killed while the SMTP server (SQLite) or the webhook (PostgreSQL) holds the 2nd message
    unanswered: sent, not yet recorded."""

    def test_no_receiver_gets_an_alert_twice_and_none_is_left_silently(
        self, warehouse_at, replay, receivers, tmp_path
    ):
        got, smtp_url, hook_url = receivers
        held = HELD[warehouse_at.kind]
        services = fr.Services(str(PREFECT_API_URL.value()), replay.url)
        want, _, _ = warehouse_at.reference(tmp_path / "reference", services)
        with warehouse_at(tmp_path / "delivery") as warehouse:
            warehouse.env.update(
                FILINGS_SMTP_URL=smtp_url,
                FILINGS_ALERT_EMAIL_TO="ops@example.test",
                FILINGS_WEBHOOK_URL=hook_url,
                FILINGS_ALERT_DIGEST="false",  # a message per alert: a kill between them
            )
            got.hold_mail, got.hold_post = (2, 0) if held == "email" else (0, 2)
            killed = fr.run_killed_when(warehouse, services, got.reached)
            assert killed.killed, killed.stdout + killed.stderr
            assert len(got.mail if held == "email" else got.posts) == 2
            got.hold_mail = got.hold_post = 0
            got.release.set()
            last = fr.run(warehouse, services)
            assert last.returncode == 0 and not last.unhandled, last.stdout + last.stderr
            deliveries = rc.deliveries(warehouse)
            alert_ids = rc.alert_ids(warehouse)
            got_dump = fr.warehouse_dump(warehouse)
            statuses = fr.run_statuses(warehouse)
        assert statuses == ["crashed", "completed"]
        # Every alert reached each receiver exactly once: never twice, none left out.
        mail_ids = {f"<{a}@filings-pipeline>" for a in alert_ids}
        assert len(alert_ids) > 2 and Counter(got.mail) == Counter(mail_ids)
        assert Counter(got.posts) == Counter(alert_ids)
        # The warehouse says so: delivered, or in doubt for the one held when the run died.
        other = "webhook" if held == "email" else "email"
        assert sorted((c, s, doubt) for _, c, s, doubt in deliveries) == sorted(
            [(held, "delivered", False)] * (len(alert_ids) - 1)
            + [(other, "delivered", False)] * len(alert_ids)
            + [(held, "pending", True)]
        )
        assert f"in doubt: {held}: 1 alert(s)" in last.stdout
        # Apart from deliveries, the same rows as an uninterrupted run.
        got_dump.pop("alert_deliveries", None)
        assert (
            differences(got_dump, {k: v for k, v in want.items() if k != "alert_deliveries"}) == []
        )
