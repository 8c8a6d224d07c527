"""deploy/prefect.yaml describes deployments Prefect can build from this code."""

import importlib
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import yaml
from prefect import Flow
from prefect.client.schemas.schedules import CronSchedule

PREFECT_YAML = Path(__file__).resolve().parents[1] / "deploy" / "prefect.yaml"


def _deployments():
    return yaml.safe_load(PREFECT_YAML.read_text())["deployments"]


def _flow(entrypoint: str) -> Flow:
    path, name = entrypoint.split(":")
    module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
    return getattr(module, name)


@pytest.mark.parametrize("deployment", _deployments(), ids=lambda d: d["name"])
class TestDeployment:
    def test_entrypoint_is_a_flow(self, deployment):
        assert isinstance(_flow(deployment["entrypoint"]), Flow)

    def test_parameters_are_valid_for_the_flow(self, deployment):
        flow = _flow(deployment["entrypoint"])
        flow.validate_parameters(deployment.get("parameters", {}))

    def test_schedule_is_a_cron_in_a_real_time_zone(self, deployment):
        (schedule,) = deployment["schedules"]
        ZoneInfo(schedule["timezone"])
        CronSchedule(cron=schedule["cron"], timezone=schedule["timezone"])


def test_sec_pass_runs_in_new_york_and_hkex_pass_in_hong_kong():
    zones = {d["name"]: d["schedules"][0]["timezone"] for d in _deployments()}
    assert zones == {"sec-pass": "America/New_York", "hkex-pass": "Asia/Hong_Kong"}
