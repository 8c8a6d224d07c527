"""Run-level behaviour of the flows: artifacts, the runs table, progress and failure alerts."""

from uuid import uuid4

import pytest
from prefect import get_client
from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterFlowRunId
from prefect.client.schemas.objects import StateType
from prefect.states import Crashed
from sqlalchemy import select

from flows import progress
from flows.failures import alert_failed_runs
from flows.ingest import ingest, ingest_local
from storage.schema import alert_events, runs
from tasks.runs.guidance_report import read_guidance, write_report
from tasks.sources.replay import ReplayServer, default_archive_root

ARCHIVE = default_archive_root()
EXHIBITS = sorted((ARCHIVE / "sec/0001741530").glob("*/*ex99*.htm"))[:2]


@pytest.fixture
def env(sqlite_warehouse, monkeypatch):
    """A SQLite warehouse and the replay archive (these tests are about Prefect, not SQL)."""
    with ReplayServer(default_archive_root()) as server:
        for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
            monkeypatch.setenv(name, server.url)
        monkeypatch.setenv("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
        yield sqlite_warehouse


def _artifacts(flow_run_id):
    with get_client(sync_client=True) as client:
        found = client.read_artifacts(
            artifact_filter=ArtifactFilter(flow_run_id=ArtifactFilterFlowRunId(any_=[flow_run_id]))
        )
    return {a.key: a for a in found}


def _failure_alerts(engine):
    with engine.connect() as conn:
        return conn.execute(
            select(alert_events.c.dedup_key, alert_events.c.subject).where(
                alert_events.c.kind == "pipeline_failure"
            )
        ).all()


def test_a_run_publishes_artifacts_under_stable_keys_and_records_itself(env):
    state = ingest(sources=["sec"], return_state=True)
    summary = state.result()
    flow_run_id = state.state_details.flow_run_id
    found = _artifacts(flow_run_id)
    assert set(found) == {"ingest-run-summary", "ingest-guidance-vs-actual"}
    markdown = found["ingest-run-summary"].data
    # the counts in the printed summary's words (tests/flows/test_run_counts.py)
    assert f"- documents: {summary.found} found, {summary.new} new, {summary.ingested}" in markdown
    assert f"- facts loaded: {summary.facts_loaded}" in markdown
    assert "`sec:0001104659-24-088431` (loaded)" in markdown
    # The run's own Data Docs site, still valid after later runs: not served over http here,
    # so the artifact names it and the setting that links it (the UI opens no file:// link).
    assert summary.data_docs.startswith("file://") and summary.data_docs.endswith("/index.html")
    assert f"built on the worker at `{summary.data_docs}`" in markdown
    assert "set FILINGS_DATA_DOCS_URL" in markdown and "](file://" not in markdown
    # The flow run's own artifacts (its page in the UI shows them), not a task's.
    assert all(a.task_run_id is None for a in found.values())
    table = found["ingest-guidance-vs-actual"]
    assert table.type == "table"
    # The Q2 2024 6-K guides Q3 2024 net income to RMB1.50-1.60 billion.
    assert '"guidance_low": "1500000000", "guidance_high": "1600000000"' in table.data
    with env.connect() as conn:
        row = conn.execute(select(runs)).one()
    assert row.flow_run_id == str(flow_run_id)
    assert row.status == "completed" and row.finished_at is not None
    assert f'"ingested": {summary.ingested}' in row.summary


def test_the_flow_logs_each_step_of_each_document(env, caplog):
    caplog.set_level("INFO")
    ingest(sources=["sec"])
    said = [r.getMessage() for r in caplog.records if r.name == "prefect.flow_runs"]
    mine = [m for m in said if m.startswith("sec:0001104659-24-088431: ")]
    steps = ["found (", "extracted ", "validated, ", "loaded, ", "alert(s) raised"]
    assert [next(s for s in steps if s in m) for m in mine] == steps, mine


def test_served_data_docs_are_linked_as_a_link_artifact(env, monkeypatch):
    monkeypatch.setenv("FILINGS_DATA_DOCS_URL", "http://docs.example.test/data_docs/")
    state = ingest(sources=["sec"], return_state=True)
    summary = state.result()
    found = _artifacts(state.state_details.flow_run_id)
    site = summary.data_docs_dir.rsplit("/", 1)[-1]
    assert summary.data_docs == f"http://docs.example.test/data_docs/{site}/index.html"
    link = found["ingest-data-docs"]
    assert f"[Data Docs of this run]({summary.data_docs})" in link.data  # a link artifact
    assert link.task_run_id is None


def test_local_ingest_reports_progress_per_file(env):
    seen = []

    class Recorder:
        def start(self, total, label):
            seen.append(("start", total, label))

        def advance(self, item):
            seen.append(("advance", item))

    with progress.listening(Recorder()):
        ingest_local([str(p) for p in EXHIBITS])
    assert seen == [("start", 2, "local files")] + [("advance", p.name) for p in EXHIBITS]


def test_a_failed_run_raises_exactly_one_pipeline_failure_alert(env):
    state = ingest(issuers=["NOPE"], return_state=True)
    assert state.is_failed()
    flow_run_id = str(state.state_details.flow_run_id)
    # The automation's flow, started later in another process, finds the same failure.
    assert alert_failed_runs(flow_run_id=flow_run_id) == []
    (alert,) = _failure_alerts(env)
    assert alert.dedup_key == f"pipeline_failure:{flow_run_id}"
    assert "ingest/" in alert.subject and "failed" in alert.subject


def test_a_crashed_run_is_alerted_by_the_sweep_without_the_crashed_process(env):
    # A run whose process died: no hook ran; only the API knows it crashed.
    with get_client(sync_client=True) as client:
        run = client.create_flow_run(ingest, parameters={"issuers": ["QFIN"]}, name=uuid4().hex)
        client.set_flow_run_state(run.id, Crashed(message="worker lost"), force=True)
        assert client.read_flow_run(run.id).state.type == StateType.CRASHED
    created = alert_failed_runs(flow_run_id=str(run.id))
    assert len(created) == 1
    assert alert_failed_runs(flow_run_id=str(run.id)) == []  # a rerun does not repeat it
    alert_failed_runs()  # the hourly sweep (it may alert other tests' failed runs here)
    keys = [a.dedup_key for a in _failure_alerts(env)]
    assert keys.count(f"pipeline_failure:{run.id}") == 1
    with env.connect() as conn:
        issuer = conn.execute(
            select(alert_events.c.issuer).where(alert_events.c.alert_id == created[0])
        ).scalar_one()
    assert issuer == "QFIN"


def test_filings_report_charts_the_guidance_of_the_seeds(env, tmp_path):
    ingest(sources=["sec"])
    files = write_report(read_guidance(env), tmp_path)
    page = files.html.read_text()
    assert 'id="band-QFIN-net_income-2024Q3"' in page
    assert 'id="band-QFIN-non_gaap_net_income-2024Q3"' in page
    assert "<td>1500000000</td><td>1600000000</td>" in page
    assert files.png.stat().st_size > 10_000
