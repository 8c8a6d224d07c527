"""A secret setting written wrong never shows its secret, whole or in part.

Issue 25's probe: ``FILINGS_SMTP_URL='smtp://user:S3cr3tPw#x@127.0.0.1:1/'`` printed "Port could
not be cast to integer value as 'S3cr3tPw'", stored it in the failure alert, the warehouse and
Prefect's database, and sent it to the webhook. Here every secret setting gets a secret and is
broken in every way it can be (bad port, bad scheme, ``#``, ``/``, ``%``); a real ``filings run``
process runs with the other channels pointing at real receivers (SMTP, HTTP), and every byte
written is searched for either half of the secret: stdout, stderr, every file of the data folder
(the warehouse with its WAL, Prefect's home), Prefect's logs, artifacts and run states, and
everything the receivers got. A setting that cannot be used is refused in one line naming the
setting.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from prefect.client.orchestration import get_client
from prefect.settings import PREFECT_API_URL

from benchmarks import fault_runs as fr
from benchmarks import receivers as rc

pytestmark = [pytest.mark.usefixtures("prefect_api"), pytest.mark.timeout(1800)]

# Two halves: a parse error that shows a part of the secret shows one of them.
HALF_A, HALF_B = "SeCrEtAaAa", "BbBbSeCrEt"
# Where each secret setting keeps its secret ({secret}), and where it points ({host}).
TEMPLATES = {
    "FILINGS_SMTP_URL": "smtp://alerts:{secret}@{host}/",
    "FILINGS_WEBHOOK_URL": "http://{host}/hook?token={secret}",
    "FILINGS_SLACK_WEBHOOK_URL": "http://{host}/services/{secret}",
    "FILINGS_DATABASE_URL": "postgresql+psycopg://postgres:{secret}@{host}/filings_absent_db",
    "FILINGS_REPLAY_DATABASE_URL": "postgresql+psycopg://postgres:{secret}@{host}/absent_db",
}
# The ways a secret setting is written wrong: (secret, port or None for the setting's own,
# scheme or None). A break the URL's grammar allows (a '/' in a path) may run normally.
BREAKS = {
    "port": (HALF_A + HALF_B, "99999", None),
    "scheme": (HALF_A + HALF_B, None, "htps"),
    "hash": (f"{HALF_A}#{HALF_B}", None, None),
    "slash": (f"{HALF_A}/{HALF_B}", None, None),
    "percent": (f"{HALF_A}%zz{HALF_B}", None, None),
}
# Breaks no URL of this kind can hold: refused before anything runs.
REFUSED = {"port", "scheme", "hash", "percent"}


def _broken(setting: str, how: str, ports: dict[str, str]) -> str:
    secret, port, scheme = BREAKS[how]
    url = TEMPLATES[setting].format(secret=secret, host=f"127.0.0.1:{port or ports[setting]}")
    return f"{scheme}:{url.partition(':')[2]}" if scheme else url


def _prefect_text() -> bytes:
    """Every log line, artifact and run state message the Prefect API holds."""
    with get_client(sync_client=True) as client:
        parts = [log.message for log in client.read_logs()]
        parts += [str(a.data) + str(a.description) for a in client.read_artifacts()]
        runs = [*client.read_flow_runs(), *client.read_task_runs()]
        parts += [str(r.state.message if r.state else "") for r in runs]
    return "\n".join(parts).encode()


def _leaks(written: dict[str, bytes]) -> list[str]:
    return [
        f"{where} holds {half}"
        for where, content in written.items()
        for half in (HALF_A, HALF_B)
        if half.encode() in content or half.lower().encode() in content.lower()
    ]


class TestBrokenSecretSettings:
    """Each secret setting, broken each way, with real receivers for the other channels."""

    @pytest.mark.parametrize("how", list(BREAKS))
    @pytest.mark.parametrize("setting", list(TEMPLATES))
    def test_no_part_of_the_secret_is_written(self, setting, how, replay, tmp_path):
        services = fr.Services(str(PREFECT_API_URL.value()), replay.url)
        with (
            rc.receivers() as (got, smtp_url, hook_url),
            fr.sqlite_warehouse(tmp_path / "run") as warehouse,
        ):
            ports = {
                "FILINGS_SMTP_URL": smtp_url.rpartition(":")[2],
                "FILINGS_WEBHOOK_URL": hook_url.split(":")[2].split("/")[0],
                "FILINGS_DATABASE_URL": "5432",
                "FILINGS_REPLAY_DATABASE_URL": "5432",
            }
            ports["FILINGS_SLACK_WEBHOOK_URL"] = ports["FILINGS_WEBHOOK_URL"]
            warehouse.env.update(
                FILINGS_SMTP_URL=smtp_url,
                FILINGS_ALERT_EMAIL_TO="ops@example.test",
                FILINGS_WEBHOOK_URL=hook_url,
            )
            warehouse.env[setting] = _broken(setting, how, ports)
            outcome = fr.run(warehouse, services)
            written = {
                "stdout": outcome.stdout.encode(),
                "stderr": outcome.stderr.encode(),
                "prefect logs, artifacts and states": _prefect_text(),
                "receivers": b"\n".join(got.raw),
            }
            files = [p for p in Path(warehouse.data_dir).rglob("*") if p.is_file()]
            written.update({str(p): p.read_bytes() for p in files})
        assert _leaks(written) == []
        assert not outcome.unhandled, outcome.stderr
        if how in REFUSED:  # refused in one line naming the setting, nothing started
            assert outcome.returncode == 1, outcome.stdout
            assert outcome.stderr.startswith(f"error: {setting}: "), outcome.stderr
            assert not any(p.suffix == ".sqlite" for p in files), files
