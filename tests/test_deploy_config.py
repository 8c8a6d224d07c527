"""deploy/prefect.yaml describes deployments Prefect can build from this code."""

import copy
import importlib
import json
import uuid
from pathlib import Path
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
import yaml
from prefect import Flow
from prefect.client.schemas.schedules import CronSchedule, IntervalSchedule
from prefect.events.schemas.deployment_triggers import DeploymentEventTrigger
from prefect.exceptions import SignatureMismatchError
from prefect.server.events.actions import RunDeployment
from prefect.utilities.schema_tools.hydration import HydrationContext, hydrate

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
        given = deployment.get("parameters", {})
        validated = flow.validate_parameters(given)
        # every given value arrives as written (a date as its date); the others are defaults
        assert json.loads(json.dumps({k: validated[k] for k in given}, default=str)) == given
        assert set(validated) == set(flow.parameters.properties)
        with pytest.raises(SignatureMismatchError):
            flow.validate_parameters({**given, "no_such_parameter": 1})

    def test_schedules_are_crons_or_intervals_in_real_time_zones(self, deployment):
        built = []
        for schedule in deployment["schedules"]:
            zone = schedule["timezone"]
            assert ZoneInfo(zone).key == zone
            if "interval" in schedule:
                made = IntervalSchedule(interval=schedule["interval"], timezone=zone)
                assert made.interval.total_seconds() == schedule["interval"]
            else:
                made = CronSchedule(cron=schedule["cron"], timezone=zone)
                assert made.cron == schedule["cron"]
            built.append(made.timezone)
        assert built == [s["timezone"] for s in deployment["schedules"]]

    def test_triggers_are_valid_automations(self, deployment):
        for trigger in deployment.get("triggers", []):
            made = DeploymentEventTrigger.model_validate(trigger)
            assert made.expect == set(trigger["expect"])
            assert made.parameters == trigger.get("parameters")
            assert made.posture == trigger.get("posture", made.posture)


def test_some_deployment_has_a_trigger_and_each_kind_of_schedule():
    deployments = _deployments()
    assert any(d.get("triggers") for d in deployments)
    kinds = {"interval" in s for d in deployments for s in d["schedules"]}
    assert kinds == {True, False}


def test_sec_pass_runs_in_new_york_and_hkex_pass_in_hong_kong():
    zones = {d["name"]: [s["timezone"] for s in d["schedules"]] for d in _deployments()}
    assert zones["sec-pass"] == ["America/New_York"]
    assert zones["hkex-pass"] == ["Asia/Hong_Kong"]


def test_each_watching_run_lasts_until_the_next_is_due_and_two_at_most_overlap():
    watch = {d["name"]: d for d in _deployments()}["watch"]
    (schedule,) = watch["schedules"]
    assert watch["parameters"]["watch_seconds"] >= schedule["interval"]  # no minute unwatched
    assert 1 <= watch["parameters"]["every_seconds"] <= 30
    assert watch["concurrency_limit"] == {"limit": 2, "collision_strategy": "CANCEL_NEW"}


def test_backfill_is_started_by_hand_and_failures_alert_on_an_automation():
    by_name = {d["name"]: d for d in _deployments()}
    assert by_name["backfill"]["schedules"] == by_name["revalidate"]["schedules"] == []
    alert = by_name["pipeline-failure-alert"]
    (trigger,) = alert["triggers"]
    assert set(trigger["expect"]) >= {"prefect.flow-run.Failed", "prefect.flow-run.Crashed"}
    assert "pipeline-failure-alert" not in trigger["match_related"]["prefect.resource.name"]
    assert trigger["parameters"]["flow_run_id"] == "{{ flow_run.id | string }}"


def test_the_failure_trigger_renders_the_flow_run_id_as_the_server_does():
    # The server wraps a one-expression template in "| tojson": a bare UUID fails to render
    # (InvalidJinja) and the automation never starts the alert deployment.
    (trigger,) = {d["name"]: d for d in _deployments()}["pipeline-failure-alert"]["triggers"]
    parameters = copy.deepcopy(trigger["parameters"])
    RunDeployment._upgrade_v1_templates(parameters)
    flow_run_id = uuid.uuid4()
    context = HydrationContext(
        render_jinja=True, jinja_context={"flow_run": SimpleNamespace(id=flow_run_id)}
    )
    rendered = hydrate(parameters, context)
    assert rendered == {"flow_run_id": str(flow_run_id), "lookback_hours": 24}


def test_compose_runs_server_on_postgres_and_a_worker_on_the_process_pool():
    compose = yaml.safe_load((PREFECT_YAML.parent / "docker-compose.yml").read_text())
    services = compose["services"]
    server_db = services["prefect-server"]["environment"]["PREFECT_API_DATABASE_CONNECTION_URL"]
    assert server_db.startswith("postgresql+asyncpg://") and "@postgres:5432/" in server_db
    worker = services["worker"]
    assert "--pool filings-process" in " ".join(worker["command"])
    assert worker["environment"]["PREFECT_API_URL"] == "http://prefect-server:4200/api"
    assert worker["environment"]["FILINGS_DATABASE_URL"].startswith("postgresql+psycopg://")
    assert "prefect-server" in worker["depends_on"]


def test_ingest_and_alert_parameters_are_described_for_the_ui_form():
    # Other flows' parameter descriptions (revalidate) are their owners' to write.
    ours = [d for d in _deployments() if d["entrypoint"].startswith(("flows/ingest", "flows/fail"))]
    assert len(ours) == 5
    for deployment in ours:
        schema = _flow(deployment["entrypoint"]).parameters.model_dump()
        for name, spec in schema["properties"].items():
            assert spec.get("description"), f"{deployment['name']}: {name} has no description"


def test_watch_hands_its_findings_to_an_unscheduled_ingest_deployment():
    from tasks.runs.dispatch import INGEST_DEPLOYMENT

    flow_name, name = INGEST_DEPLOYMENT.split("/")
    target = {d["name"]: d for d in _deployments()}[name]
    assert _flow(target["entrypoint"]).name == flow_name
    assert target["schedules"] == [] and "parameters" not in target
