"""Warm task workers (``python -m flows.warm``, Prefect's task worker) process what an ingest
run with FILINGS_WARM_WORKERS=true downloads: real worker processes on the test's Prefect
API, the replay server, a real warehouse. Every document is processed on a worker, none in
the run's own process; the warehouse ends as an inline run's; a worker killed mid-batch loses
nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from prefect.settings import PREFECT_API_URL
from sqlalchemy import func, select

from storage import db
from storage.schema import alert_events, document_claims, documents, facts, validation_results
from tasks.sources.replay import ReplayServer, default_archive_root

RUN = """
import json, sys
from flows.ingest import ingest
s = ingest()
print(json.dumps({"ingested": s.ingested, "facts": s.facts_loaded, "failed": s.failed,
                  "passed": s.validations_passed, "not_passed": s.validations_failed,
                  "flagged": s.validations_flagged,
                  "docs": s.data_docs}))
"""
# make run's figures on the bundled archive (QFIN 9 documents, BKE 1; QFIN's 2 audited
# filings, read by the run itself, are documents too)
DOCUMENTS, FACTS, PASSED, NOT_PASSED, FLAGGED = 10, 1041, 432, 3, 3
# loaded documents, facts, validation results (one per expectation run), alerts, claims left
STORED = (12, FACTS, PASSED + NOT_PASSED + FLAGGED, 16, 0)


@pytest.fixture
def pipeline_env(db_url: str, tmp_path: Path) -> Iterator[dict[str, str]]:
    # Prefect's and the pipeline's settings of this process are not theirs: an in-process CLI
    # test may have set PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL=CRITICAL (the CLI's quiet
    # console), and the test reads the lines each process prints
    inherited = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "FILINGS_"))}
    with ReplayServer(default_archive_root()) as replay:
        yield {
            **inherited,
            "PREFECT_HOME": str(tmp_path / "prefect"),
            "PREFECT_API_URL": PREFECT_API_URL.value(),
            "FILINGS_DATABASE_URL": db_url,
            "FILINGS_DATA_DIR": str(tmp_path / "data"),
            "FILINGS_ARCHIVE_URL": str(tmp_path / "archive"),
            "FILINGS_ISSUERS_FILE": str(default_archive_root() / "issuers.toml"),
            "FILINGS_SEC_DATA_URL": replay.url,
            "FILINGS_SEC_ARCHIVES_URL": replay.url,
            "FILINGS_HKEX_URL": replay.url,
            "FILINGS_HKEX_SECONDS_BETWEEN_REQUESTS": "0",
            "FILINGS_SEC_LIMITER": "local",
            "FILINGS_WARM_WORKERS": "true",
            # the INFO lines it reads: what each process loaded, what the run took back
            "PREFECT_LOGGING_LEVEL": "INFO",
        }


@contextmanager
def warm_worker(env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A task worker, once it says it is ready (imports, GX and the warehouse loaded)."""
    with log.open("wb") as out:
        worker = subprocess.Popen(
            [sys.executable, "-m", "flows.warm"], env=env, stderr=out, stdout=out
        )
    try:
        deadline = time.monotonic() + 240
        while b"warm task worker ready" not in log.read_bytes():
            assert worker.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, "the worker did not get ready"
            time.sleep(0.2)
        yield worker
    finally:
        if worker.poll() is None:
            worker.send_signal(signal.SIGINT)
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()


def _start_run(env: dict[str, str], log: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", RUN],
        env=env,
        stdout=subprocess.PIPE,
        stderr=log.open("w"),
        text=True,
    )


def _outcome(run: subprocess.Popen[str], log: Path) -> dict:
    out = run.communicate(timeout=900)[0]
    assert run.returncode == 0, log.read_text()[-4000:]
    return json.loads(out.strip().splitlines()[-1])


def _rows(url: str) -> tuple[int, ...]:
    engine = db.make_engine(url)
    with engine.connect() as conn:
        done = conn.execute(
            select(func.count())
            .select_from(documents)
            .where(documents.c.status.in_(["loaded", "quarantined"]))
        ).scalar_one()
        counts = [
            conn.execute(select(func.count()).select_from(t)).scalar_one()
            for t in (facts, validation_results, alert_events, document_claims)
        ]
    engine.dispose()
    return (done, *counts)


@pytest.mark.timeout(1200)  # three processes of the suite's size on a shared 2-core machine
def test_two_warm_workers_process_a_run(pipeline_env, db_url, tmp_path):
    with ExitStack() as stack:
        for name in ("w1", "w2"):
            stack.enter_context(warm_worker(pipeline_env, tmp_path / f"{name}.log"))
        log = tmp_path / "run.log"
        said = _outcome(_start_run(pipeline_env, log), log)
    assert said["failed"] == []
    assert (said["ingested"], said["facts"]) == (DOCUMENTS, FACTS)
    assert (said["passed"], said["not_passed"], said["flagged"]) == (PASSED, NOT_PASSED, FLAGGED)
    assert _rows(db_url) == STORED  # no claim left behind
    assert said["docs"].endswith("index.html")
    logs = "".join((tmp_path / f"{n}.log").read_text() for n in ("w1", "w2"))
    run_log = (tmp_path / "run.log").read_text()
    on_workers = logs.count(": loaded, ") + logs.count(": quarantined, ")
    in_run = run_log.count(": loaded, ") + run_log.count(": quarantined, ")
    # every document processed once; on the workers, but for a batch Prefect did not deliver
    # to an idle worker within the run's wait (seen on a slow machine late in the suite: the
    # run takes it back, says so, and processes it itself)
    assert (on_workers + in_run, on_workers >= DOCUMENTS - 2) == (DOCUMENTS, True), run_log
    assert in_run == 0 or "were not processed there" in run_log
    # stopped by SIGINT (Ctrl-C), each worker says so in one line
    assert logs.count("error: warm task worker stopped") == 2 and "Traceback" not in logs


@pytest.mark.timeout(1200)
@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_a_killed_worker_loses_nothing(pipeline_env, db_url, tmp_path):
    log = tmp_path / "run.log"
    with warm_worker(pipeline_env, tmp_path / "w1.log") as first:
        run = _start_run(pipeline_env, log)
        _wait_for_claim_of(db_url, first.pid, run)
        first.kill()  # SIGKILL while it holds documents of the run
        first.wait()
    with warm_worker(pipeline_env, tmp_path / "w2.log"):
        said = _outcome(run, log)
    assert said["failed"] == [], log.read_text()[-3000:]
    # every document loaded once, whole: the same rows as an uninterrupted run
    assert _rows(db_url) == STORED
    # the run took the batch back
    assert "were not processed there" in log.read_text(), _logs(tmp_path, "run", "w1", "w2")


def _logs(folder: Path, *names: str) -> str:
    return "\n".join(f"--- {n}\n{(folder / f'{n}.log').read_text()[-2500:]}" for n in names)


def _wait_for_claim_of(url: str, pid: int, run: subprocess.Popen[str]) -> None:
    engine = db.make_engine(url)
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline:
            assert run.poll() is None, "the run ended before the worker held anything"
            with engine.connect() as conn:
                holders = conn.execute(select(document_claims.c.worker)).scalars().all()
            if any(h.split(":")[1] == str(pid) for h in holders):
                return
            time.sleep(0.05)
    finally:
        engine.dispose()
    raise AssertionError("the worker never held a claim")
