"""One definition of a run's counts (found, new, ingested, raised, delivered), the same in the
printed summary, the run's Prefect artifact and ``filings status``, on both databases.

found = ingested + failed + taken by a run beside it + waiting + already in the warehouse;
delivered counts this run's own alerts only (delivered <= raised); the alerts of other runs it
delivered are said apart. Two runs side by side: tests/flows/test_racing_runs.py.
"""

import io
import socket

import pytest
from prefect import get_client
from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterFlowRunId
from rich.console import Console

from flows.console import status_tables
from flows.ingest import ingest
from storage import db
from tasks.runs.bookkeeping import warehouse_status
from tasks.runs.summary import count_lines
from tasks.sources.replay import ReplayServer, default_archive_root


@pytest.fixture
def env(monkeypatch, tmp_path, db_url):
    with ReplayServer(default_archive_root()) as replay:
        monkeypatch.setenv("FILINGS_DATABASE_URL", db_url)
        monkeypatch.setenv("FILINGS_DATA_DIR", str(tmp_path))
        for name in ("FILINGS_SEC_DATA_URL", "FILINGS_SEC_ARCHIVES_URL", "FILINGS_HKEX_URL"):
            monkeypatch.setenv(name, replay.url)
        monkeypatch.setenv("FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS", "0")
        monkeypatch.setenv("FILINGS_ISSUERS_FILE", str(default_archive_root() / "issuers.toml"))
        yield db_url


def _run(**parameters):
    state = ingest(**parameters, return_state=True)
    return state.result(), str(state.state_details.flow_run_id)


def _adds_up(summary) -> None:
    rest = len(summary.failed) + len(summary.elsewhere) + summary.waiting + summary.unchanged
    assert summary.found == summary.ingested + rest, summary.render()
    assert summary.new <= summary.found and summary.alerts_delivered <= summary.alerts_raised


def _said_the_same_everywhere(url: str, summary, flow_run_id: str) -> list[str]:
    """The printed lines, the artifact's and ``filings status``'s are the same words."""
    lines = count_lines(summary.counts())
    printed = summary.render().splitlines()
    assert all(line in printed for line in lines), (lines, printed)
    with get_client(sync_client=True) as client:
        artifacts = client.read_artifacts(
            artifact_filter=ArtifactFilter(flow_run_id=ArtifactFilterFlowRunId(any_=[flow_run_id]))
        )
    [markdown] = [a.data for a in artifacts if a.key.endswith("run-summary")]
    assert all(f"- {line}" in markdown for line in lines), (lines, markdown)
    engine = db.make_engine(url)
    state = warehouse_status(engine, last=1)
    engine.dispose()
    assert count_lines(state.runs[0].summary) == lines
    out = io.StringIO()
    console = Console(file=out, width=80)
    for table in status_tables(state):
        console.print(table)
    shown = " ".join(out.getvalue().split())
    for line in lines:
        if line.startswith(("documents:", "alerts:")):
            assert line in shown, (line, out.getvalue())
    return lines


def test_a_rerun_finds_what_its_listings_show_again_all_already_stored(env):
    first, first_id = _run()
    assert first.found == first.new == first.ingested == 10 and first.unchanged == 0
    _adds_up(first)
    _said_the_same_everywhere(env, first, first_id)
    again, again_id = _run()
    _adds_up(again)
    assert (again.new, again.ingested, again.alerts_raised) == (0, 0, 0)
    assert again.unchanged == again.found  # whatever was listed again is stored already
    [documents] = [x for x in _said_the_same_everywhere(env, again, again_id) if "found" in x]
    if again.found:
        assert documents.endswith(f"({again.found} already in the warehouse)")


def test_a_forced_run_finds_every_document_it_processes_again(env):
    first, _ = _run()
    forced, forced_id = _run(force=True)
    _adds_up(forced)
    # it took up every stored document: found counts them, though no listing showed them
    assert forced.ingested == first.ingested == 10 and forced.found >= forced.ingested
    assert forced.new == 0
    # a finding the first run alerted is never raised again (reading again may find new ones:
    # checks across documents see them all now)
    assert not set(forced.raised_ids) & set(first.raised_ids)
    lines = _said_the_same_everywhere(env, forced, forced_id)
    assert lines[0].startswith(f"documents: {forced.found} found, 0 new, 10 ingested")


def test_delivered_counts_the_runs_own_alerts_and_others_apart(env, monkeypatch, httpserver):
    with socket.socket() as s:  # a port nothing listens on: the webhook is down
        s.bind(("127.0.0.1", 0))
        down = f"http://127.0.0.1:{s.getsockname()[1]}/hook"
    monkeypatch.setenv("FILINGS_WEBHOOK_URL", down)
    first, first_id = _run()
    raised = first.alerts_raised
    assert raised > 0 and first.alerts_delivered == 0, first.render()
    _said_the_same_everywhere(env, first, first_id)
    httpserver.expect_request("/hook", method="POST").respond_with_data("ok")
    monkeypatch.setenv("FILINGS_WEBHOOK_URL", httpserver.url_for("/hook"))
    second, second_id = _run()  # nothing new: it delivers the first run's alerts
    assert (second.alerts_raised, second.alerts_delivered) == (0, 0)
    assert second.delivered_for_others == raised
    lines = _said_the_same_everywhere(env, second, second_id)
    assert f"also delivered: {raised} alert(s) raised by other runs" in lines
